#!/usr/bin/env python3
"""Clean WARC files with victor on Spark: one task per WARC file (mapPartitions over the list
of paths), one victor.Cleaner per partition, output JSONL or Parquet with the record id, URL,
the record's date (warc_date), the publication date (date, date_source), title, language and
text of every HTML response.

Local (the CI test):   python scripts/spark_warc.py --master 'local[2]' --out OUT a.warc.gz ...
A cluster:             spark-submit --master spark://HOST:7077 scripts/spark_warc.py --out
                       s3a://bucket/out --paths-from warc.paths
The `victor` wheel must be installed on every worker (pip install victor-*.whl, or
--py-files is not enough: it holds a native module). Paths must be readable by the workers
(a shared file system; for s3:// paths, download to local disk first: the reader takes files).

Prints pages, failures, seconds and pages per second at the end.
"""

import argparse
import json
import os
import sys
import time


def clean_partition(paths, model=None, threshold=None):
    """The pages of the WARC files of one partition, as JSON-ready dicts (one Cleaner a
    partition: the model is loaded once per task)."""
    import victor

    cleaner = victor.Cleaner(model, threshold=threshold)
    for path in paths:
        try:
            pages = cleaner.clean_warc(path)
        except victor.VictorError as e:
            yield {"warc": path, "error": str(e)}
            continue
        for page in pages:
            page["warc"] = path
            yield page


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("warcs", nargs="*", help="WARC files (.warc or .warc.gz)")
    ap.add_argument("--paths-from", help="a file listing WARC paths, one a line")
    ap.add_argument("--out", required=True, help="output folder (Spark writes part files)")
    ap.add_argument("--format", choices=["jsonl", "parquet"], default="jsonl")
    ap.add_argument("--master", default=None, help="Spark master (default: spark-submit's)")
    ap.add_argument("--model", default=None, help="bundle folder (default: the built-in model)")
    ap.add_argument("--threshold", type=float, default=None)
    ap.add_argument("--partitions", type=int, default=None, help="default: one per WARC file")
    args = ap.parse_args(argv)
    paths = list(args.warcs)
    if args.paths_from:
        paths += [l.strip() for l in open(args.paths_from) if l.strip()]
    if not paths:
        ap.error("no WARC file given")

    # Workers run this interpreter (the one with victor installed) unless told otherwise; on a
    # cluster, set PYSPARK_PYTHON to the workers' Python.
    if (args.master or "").startswith("local"):
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession
    from pyspark.sql.types import StringType, StructField, StructType

    b = SparkSession.builder.appName("victor-warc")
    if args.master:
        b = b.master(args.master)
    spark = b.getOrCreate()
    sc = spark.sparkContext
    sc.setLogLevel("ERROR")
    model, threshold = args.model, args.threshold
    rdd = sc.parallelize(paths, args.partitions or len(paths)).mapPartitions(
        lambda it: clean_partition(it, model, threshold)
    )
    start = time.time()
    if args.format == "jsonl":
        rdd.map(lambda d: json.dumps(d, ensure_ascii=False)).saveAsTextFile(args.out)
    else:
        fields = ["warc", "record_id", "url", "warc_date", "date", "date_source", "title", "language", "text", "error"]
        schema = StructType([StructField(f, StringType(), True) for f in fields])
        spark.createDataFrame(rdd.map(lambda d: tuple(d.get(f) for f in fields)), schema).write.parquet(args.out)
    seconds = time.time() - start
    counts = spark.read.json(args.out) if args.format == "jsonl" else spark.read.parquet(args.out)
    n = counts.count()
    failed = counts.filter("error is not null").count() if "error" in counts.columns else 0
    print(
        f"spark_warc: {len(paths)} WARC files, {n} pages ({failed} failed) in {seconds:.2f} s, "
        f"{n / seconds:.1f} pages/s on {sc.defaultParallelism} cores",
        file=sys.stderr,
    )
    spark.stop()


if __name__ == "__main__":
    main()
