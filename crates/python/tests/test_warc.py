"""Cleaner.clean_warc against `victor label FILE.warc.gz`, and the Spark job
(scripts/spark_warc.py in local mode) against the CLI, on WARC files made from shared pages."""

import importlib.util
import json
import shutil
import subprocess
import sys
import time

import pytest

import victor
from conftest import ROOT, cli_jsonl, shared_pages
from warcs import write_warc


@pytest.fixture(scope="module")
def warc_files(tmp_path_factory):
    """Two gzipped WARC files of 15 shared test pages each, and the CLI's lines by record id."""
    pages = shared_pages("l3s-gn1", "test", 20) + shared_pages("cleaneval", "test", 10)
    tmp = tmp_path_factory.mktemp("warc")
    files = []
    for k in range(2):
        part = pages[k::2]
        f = tmp / f"part{k}.warc.gz"
        write_warc(f, [(f"http://example.org/{p.name}", p.read_bytes()) for p in part])
        files.append(f)
    cli = {d["WARC-Record-ID"]: d for d in cli_jsonl(files)}
    assert len(cli) == len(pages)
    return files, cli


def test_clean_warc_equals_the_cli(warc_files):
    files, cli = warc_files
    c = victor.Cleaner()
    n = 0
    for f in files:
        it = c.clean_warc(f)
        for d in it:
            want = cli[d["record_id"]]
            assert d["text"] == want["text"]
            assert d["url"] == want["WARC-Target-URI"]
            assert d["title"] == want["title"]
            n += 1
        assert it.stats["pages"] == 15 and it.stats["broken"] == 0
    assert n == len(cli)


def test_spark_local_mode_equals_the_cli(warc_files, tmp_path):
    if importlib.util.find_spec("pyspark") is None or shutil.which("java") is None:
        print("skipped: pyspark or java is not installed")
        pytest.skip("pyspark or java missing")
    files, cli = warc_files
    out = tmp_path / "out"
    start = time.time()
    r = subprocess.run(
        [sys.executable, str(ROOT / "scripts/spark_warc.py"), "--master", "local[2]",
         "--out", str(out), *map(str, files)],
        capture_output=True, text=True, timeout=600,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    print(r.stderr.strip().splitlines()[-1], f"(whole run {time.time() - start:.1f} s)")
    rows = [json.loads(l) for p in sorted(out.glob("part-*")) for l in p.open(encoding="utf-8")]
    assert len(rows) == len(cli)
    for d in rows:
        want = cli[d["record_id"]]
        assert d["text"] == want["text"], d["url"]
        assert d["url"] == want["WARC-Target-URI"]
