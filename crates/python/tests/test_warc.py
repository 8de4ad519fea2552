"""Cleaner.clean_warc against `victor label FILE.warc.gz`, and the Spark job
(scripts/spark_warc.py in local mode) against the CLI, on WARC files made from shared pages;
bodies sent chunked and compressed; the HTTP charset and URL given to label and clean."""

import gzip
import importlib.util
import json
import shutil
import subprocess
import sys
import time

import pytest

import victor
from conftest import ROOT, cli_jsonl, shared_pages, victor_bin
from warcs import http_record, response_record, write_warc


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
            # The record's date and the page's publication date, named as the CLI names them.
            assert d["warc_date"] == want["warc_date"] == "2026-01-01T00:00:00Z"
            assert (d["date"], d["date_source"]) == (want["date"], want["date_source"])
            n += 1
        assert it.stats["pages"] == 15 and it.stats["broken"] == 0
    assert n == len(cli)


def test_clean_warc_markdown_equals_the_cli(warc_files):
    files, _ = warc_files
    cli = {d["WARC-Record-ID"]: d for d in cli_jsonl(files[:1], "--markdown")}
    for d in victor.Cleaner().clean_warc(files[0], markdown=True):
        assert d["markdown"] == cli[d["record_id"]]["markdown"]
    assert "markdown" not in next(iter(victor.Cleaner().clean_warc(files[0])))


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


def test_chunked_and_compressed_bodies_give_the_same_pages(warc_files, tmp_path):
    """The pages of part0 sent chunked+gzip, deflate and br: the same texts, from Python and the
    CLI; a body cut inside its gzip stream is a broken record and the file goes on."""
    files, cli = warc_files
    c = victor.Cleaner()
    plain = [d["text"] for d in c.clean_warc(files[0])]
    pages = shared_pages("l3s-gn1", "test", 20) + shared_pages("cleaneval", "test", 10)
    part = [(f"http://example.org/{p.name}", p.read_bytes()) for p in pages[0::2]]
    for coding in ["chunked+gzip", "deflate", "br"]:
        if coding == "br" and importlib.util.find_spec("brotli") is None:
            print("skipped: the brotli module is not installed (pip install brotli)")
            continue
        f = tmp_path / f"{coding}.warc.gz"
        write_warc(f, part, coding=coding)
        assert [d["text"] for d in c.clean_warc(f)] == plain, coding
        assert [d["text"] for d in cli_jsonl([f])] == plain, coding
    # One record whose gzip body is cut, between two good ones.
    _, good = response_record("http://a/", pages[0].read_bytes())
    gz = gzip.compress(pages[1].read_bytes())
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n"
    _, bad = http_record("http://b/", http + gz[: len(gz) // 2])
    f = tmp_path / "cut.warc"
    f.write_bytes(good + bad + good)
    it = c.clean_warc(f)
    with pytest.warns(victor.WarcWarning, match=f"byte {len(good)} \\(http://b/\\): the gzip body"):
        assert [d["url"] for d in it] == ["http://a/", "http://a/"]
    assert it.stats["broken"] == 1 and it.stats["pages"] == 2
    r = subprocess.run([str(victor_bin()), "label", "--format", "jsonl-text", str(f)], capture_output=True, text=True)
    assert r.returncode == 1
    assert len(r.stdout.splitlines()) == 2
    assert f"broken record at byte {len(good)} (http://b/): the gzip body does not decode" in r.stderr, r.stderr


def test_label_and_clean_take_the_http_charset_and_url(tmp_path):
    """A page in windows-1251 whose <meta> says iso-8859-1: the HTTP charset wins, as it does
    for the same page in a WARC file."""
    text = "Это первый абзац статьи, в нём достаточно слов, чтобы модель сохранила его как текст. " * 3
    html = (
        '<html><head><meta charset="iso-8859-1"><title>Заголовок</title></head><body>'
        f"<article><h1>Новости</h1><p>{text}</p></article></body></html>"
    ).encode("windows-1251")
    c = victor.Cleaner()
    d = c.label(html, charset="windows-1251", url="http://example.org/ru")
    assert d["url"] == "http://example.org/ru"
    assert d["title"] == "Заголовок"
    assert "первый абзац" in d["text"]
    assert c.clean(html, charset="windows-1251") == d["text"]
    assert victor.clean(html, charset="windows-1251", url="http://example.org/ru") == d["text"]
    # Without it the <meta> declaration is followed.
    assert "первый" not in c.clean(html)
    assert c.label(html)["url"] is None
    # The same page in a WARC record with the charset in its HTTP header.
    _, rec = response_record("http://example.org/ru", html, content_type="text/html; charset=windows-1251")
    f = tmp_path / "ru.warc"
    f.write_bytes(rec)
    (w,) = list(c.clean_warc(f))
    assert w["text"] == d["text"] and w["title"] == d["title"]
    with pytest.raises(TypeError):
        c.label(html, "windows-1251")


def test_broken_records_warn_with_file_offset_and_reason(tmp_path):
    """A record with a malformed header, one whose Content-Length runs past it, and one whose gzip
    body is cut: each a WarcWarning naming the file and offset; the good pages all come through."""
    page = sorted((ROOT / "annotations/examples/pages").glob("*.html"))[0].read_bytes()
    _, good = response_record("http://a/", page)
    malformed = b"WARC/1.0\r\nWARC-Type: response\r\nno colon here\r\n\r\n"
    _, long = response_record("http://long/", page)
    long = long.replace(b"Content-Length: ", b"Content-Length: 9", 1)
    gz = gzip.compress(page)
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n"
    _, cut = http_record("http://cut/", http + gz[: len(gz) // 2])
    parts = [good, malformed, good, long, good, cut, good]
    offsets = [sum(map(len, parts[:i])) for i in range(len(parts))]
    f = tmp_path / "broken.warc"
    f.write_bytes(b"".join(parts))
    it = victor.Cleaner().clean_warc(f)
    with pytest.warns(victor.WarcWarning) as caught:
        urls = [d["url"] for d in it]
    assert urls == ["http://a/"] * 4
    messages = [str(w.message) for w in caught]
    assert len(messages) == 3, messages
    for k, i in enumerate((1, 3, 5)):
        assert messages[k].startswith(f"{f}: broken record at byte {offsets[i]}"), messages[k]
    assert "runs past the record" in messages[1] and "bytes skipped" in messages[1]
    assert "gzip body does not decode" in messages[2]
    assert it.stats == {"pages": 4, "failed": 0, "not_html": 0, "other": 0, "broken": 3}
    assert [o for o, _ in it.broken_records] == [offsets[1], offsets[3], offsets[5]]
    # Where warnings are errors, the first broken record raises (never a silent end).
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", victor.WarcWarning)
        it = victor.Cleaner().clean_warc(f)
        assert next(it)["url"] == "http://a/"
        with pytest.raises(victor.WarcWarning, match=f"byte {offsets[1]}"):
            next(it)


def test_a_records_date_is_warc_date_and_date_is_the_pages(tmp_path):
    """Issue 67: `date` is the publication date in every result (label(), --format jsonl, and
    clean_warc); the record's WARC-Date is `warc_date`."""
    page = ROOT / "annotations" / "examples" / "pages" / "news-harbour-bridge.html"
    f = tmp_path / "a.warc"
    write_warc(f, [("http://example.org/bridge", page.read_bytes())])
    (d,) = list(victor.Cleaner().clean_warc(f))
    assert d["warc_date"] == "2026-01-01T00:00:00Z"
    published = victor.Cleaner().label(page.read_bytes(), fetched="2026-01-01T00:00:00Z")
    assert (d["date"], d["date_source"]) == (published["date"], published["date_source"]) == ("2024-02-12", "time")
    (cli,) = cli_jsonl([f])
    assert (cli["warc_date"], cli["date"]) == (d["warc_date"], d["date"])
    assert "WARC-Date" not in cli
