"""victor.datatrove.VictorExtractor in a small local datatrove pipeline: WarcReader -> victor ->
JsonlWriter over a WARC file made from shared pages; every document's text is victor's."""

import gzip
import importlib.util
import json

import pytest

import victor
from conftest import shared_pages
from warcs import write_warc


def test_local_pipeline(tmp_path):
    missing = [m for m in ("datatrove", "cchardet", "magic", "warcio", "orjson") if importlib.util.find_spec(m) is None]
    if missing:
        print(f"skipped: {', '.join(missing)} not installed (pip install datatrove warcio orjson faust-cchardet python-magic)")
        pytest.skip("datatrove missing")
    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.readers import WarcReader
    from datatrove.pipeline.writers import JsonlWriter

    from victor.datatrove import VictorExtractor

    pages = []
    for p in shared_pages("l3s-gn1", "test", 40):
        raw = p.read_bytes()
        try:
            raw.decode("utf-8")  # datatrove decodes the body; keep pages it reads as UTF-8
        except UnicodeDecodeError:
            continue
        pages.append((f"http://example.org/{p.name}", raw))
    pages = pages[:20]
    (tmp_path / "in").mkdir()
    write_warc(tmp_path / "in" / "a.warc.gz", pages)
    LocalPipelineExecutor(
        pipeline=[
            WarcReader(str(tmp_path / "in"), glob_pattern="*.warc.gz"),
            VictorExtractor(),
            JsonlWriter(str(tmp_path / "out")),
        ],
        tasks=1,
        workers=1,
        logging_dir=str(tmp_path / "logs"),
    ).run()
    docs = []
    for f in (tmp_path / "out").glob("*.jsonl.gz"):
        docs += [json.loads(l) for l in gzip.open(f, "rt", encoding="utf-8")]
    want = {url: victor.clean(raw.decode("utf-8")) for url, raw in pages}
    kept = {url for url, t in want.items() if t}
    assert {d["metadata"]["url"] for d in docs} == kept
    for d in docs:
        assert d["text"] == want[d["metadata"]["url"]]
