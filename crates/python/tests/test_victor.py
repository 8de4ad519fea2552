"""The Python package against the `victor` command line: same text, title and language on the
shared pages, for str and bytes, one page at a time and with clean_many on threads; labels and
probabilities; errors as VictorError."""

import json
import pathlib
import shutil
import subprocess
import threading

import pytest

import victor
from conftest import ROOT, cli_jsonl, victor_bin

EXAMPLES = ROOT / "annotations" / "examples" / "pages"


def test_clean_equals_the_cli(pages):
    for path, want in pages:
        assert victor.clean(path.read_bytes()) == want["text"], path


def test_label_gives_title_language_blocks(pages):
    c = victor.Cleaner()
    for path, want in pages[:10]:
        d = c.label(path.read_bytes())
        assert d["text"] == want["text"]
        assert d["title"] == want["title"]
        for key in ("author", "date", "date_source", "sitename", "canonical"):
            assert d[key] == want[key], key
        assert abs(d["confidence"] - want["confidence"]) < 1e-9
        assert 0 <= d["confidence"] <= 1
        assert d["language"] == want["language"]
        for b in d["blocks"]:
            p = b["probabilities"]
            assert abs(p["header"] + p["text"] + p["other"] - 1) < 1e-6
            assert b["label"] in ("header", "text", "other")
            assert b["start"] <= b["end"]
        kept = [b["text"] for b in d["blocks"] if b["label"] != "other"]
        assert all(k in d["text"] for k in kept)


def test_label_names_the_date_source_and_fetched_bounds_the_date():
    c = victor.Cleaner()
    html = (
        b'<html><head><meta property="article:published_time" content="2019-12-30"></head>'
        b'<body><h1>Bridge to close</h1><time datetime="2020-05-05">May 5, 2020</time>'
        b"<p>The council voted on Tuesday to close the harbour bridge for six weeks of repairs, "
        b"and commuters face long detours from March.</p></body></html>"
    )
    d = c.label(html)
    assert (d["date"], d["date_source"]) == ("2020-05-05", "time")
    # Fetched before the date shown: the declared publication.
    d = c.label(html, fetched="2020-01-02T10:00:00Z")
    assert (d["date"], d["date_source"]) == ("2019-12-30", "meta")
    d = c.label(b"<p>No date on this page at all.</p>")
    assert d["date"] is None and d["date_source"] is None


def test_clean_many_on_threads_keeps_order(pages):
    raw = [p.read_bytes() for p, _ in pages]
    want = [w["text"] for _, w in pages]
    c = victor.Cleaner()
    assert c.clean_many(raw, threads=3) == want
    assert c.clean_many(iter(raw), threads=1) == want


def test_python_threads_share_one_cleaner(pages):
    c = victor.Cleaner()
    raw = [p.read_bytes() for p, _ in pages]
    out = [None] * len(raw)

    def work(k):
        for i in range(k, len(raw), 2):
            out[i] = c.clean(raw[i])

    ts = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert out == [w["text"] for _, w in pages]


def test_str_input_and_decodings():
    page = sorted(EXAMPLES.glob("*.html"))[0]
    text = page.read_bytes().decode("utf-8", errors="replace")
    assert victor.clean(text) == victor.clean(text.encode("utf-8"))
    for kw, flag in (
        ({"decoding": "viterbi"}, ["--viterbi"]),
        ({"threshold": 0.5}, ["--threshold", "0.5"]),
        ({"decoding": "expected-f1"}, ["--expected-f1"]),
    ):
        want = cli_jsonl([page], *flag)[0]
        assert victor.Cleaner(**kw).clean(page.read_bytes()) == want["text"], kw
    assert victor.Cleaner(threshold=0.5).decoding == "threshold 0.5"
    # A decoding's name reads back, as the victor command's choices read it.
    c = victor.Cleaner(decoding="threshold 0.45")
    assert c.decoding == "threshold 0.45"
    assert victor.Cleaner(decoding=c.decoding).decoding == c.decoding
    assert victor.Cleaner(decoding="expected-f1").decoding == "expected-f1"
    with pytest.raises(ValueError, match="threshold goes with"):
        victor.Cleaner(decoding="viterbi", threshold=0.5)


def test_model_folder_is_loaded():
    bundle = ROOT / "models" / "article"
    page = sorted(EXAMPLES.glob("*.html"))[1]
    want = cli_jsonl([page], "--model", str(bundle))[0]
    assert victor.clean(page.read_bytes(), model=str(bundle)) == want["text"]
    assert victor.Cleaner(pathlib.Path(bundle)).clean(page.read_bytes()) == want["text"]
    # The cleaner says which bundle it uses: the folder, or a built-in bundle's own name.
    assert victor.Cleaner(pathlib.Path(bundle)).model_name == str(bundle)
    assert victor.Cleaner().model_name == "web"


def test_errors_are_python_exceptions():
    with pytest.raises(victor.VictorError, match="binary"):
        victor.clean(b"\x89PNG\r\n\x1a\n" + b"\0" * 64)
    with pytest.raises(victor.VictorError, match="within 0 and 1"):
        victor.Cleaner(threshold=1.5)
    with pytest.raises(ValueError, match="decoding"):
        victor.Cleaner(decoding="beam")
    with pytest.raises(victor.VictorError, match="victor.json"):
        victor.Cleaner("/nonexistent/bundle")
    with pytest.raises(victor.VictorError, match="the built-in bundles"):
        victor.Cleaner("no-such-bundle")
    with pytest.raises(TypeError):
        victor.clean(42)
    with pytest.raises(victor.VictorError, match="page 1"):
        victor.Cleaner().clean_many([b"<p>fine</p>", b"\x89PNG\r\n\x1a\n" + b"\0" * 64])


def test_clean_many_skips_failed_pages_with_their_reasons():
    png = b"\x89PNG\r\n\x1a\n" + b"\0" * 64
    page = sorted(EXAMPLES.glob("*.html"))[0].read_bytes()
    want = victor.clean(page)
    c = victor.Cleaner()
    for threads in (1, 3):
        r = c.clean_many([page, png, page, 42, page], threads=threads, errors="skip")
        assert isinstance(r, victor.Texts) and isinstance(r, list)
        assert r == [want, None, want, None, want]
        assert sorted(r.errors) == [1, 3]
        assert "binary" in r.errors[1]
        assert "str or bytes" in r.errors[3]
    ok = c.clean_many([page, page], threads=2)
    assert ok == [want, want] and ok.errors == {}
    # errors="raise" (the default) names the first failed page, after the batch was tried.
    with pytest.raises(victor.VictorError, match="page 1"):
        c.clean_many([page, png, png], errors="raise")
    with pytest.raises(ValueError, match="errors must be"):
        c.clean_many([page], errors="ignore")


def test_a_bundle_by_name_is_the_bundle_of_that_folder(tmp_path, monkeypatch):
    # Looked up as the victor command looks it up: a name anywhere, the built-in bundles last.
    monkeypatch.chdir(tmp_path)
    page = (EXAMPLES / "news-harbour-bridge.html").read_bytes()
    by_name = victor.Cleaner("news").label(page)
    by_folder = victor.Cleaner(ROOT / "models" / "news").label(page)
    assert by_name["blocks"] == by_folder["blocks"]
    assert victor.Cleaner("default").clean(page) == victor.clean(page)


def test_markdown_equals_the_cli(pages):
    paths = [p for p, _ in pages[:10]]
    want = cli_jsonl(paths, "--markdown")
    c = victor.Cleaner()
    for path, w in zip(paths, want):
        md = c.markdown(path.read_bytes())
        assert md == w["markdown"], path
        assert victor.clean(path.read_bytes(), format="markdown") == md
    with pytest.raises(ValueError):
        victor.clean("<p>x</p>", format="html")
    page = "<p>" + "Words of running prose that the model keeps as text. " * 8 + '<a href="b.html">a link</a></p>'
    assert "](http://example.org/a/b.html)" in c.markdown(page, url="http://example.org/a/", links=True)
    emphasised = "<p>" + "Words of running prose that the model keeps as text. " * 8 + "<em>stressed</em> words.</p>"
    assert "*stressed*" in c.markdown(emphasised, emphasis=True)
    assert "*" not in c.markdown(emphasised)


def test_adapt_writes_a_bundle_that_knows_where_it_came_from(tmp_path):
    examples = ROOT / "annotations" / "examples"
    out = tmp_path / "mine"
    made = victor.adapt(examples, out, base="web", trees=2)
    assert made["pages"] == 5 and made["bundle"] == str(out)
    # Five pages: too few to cross-validate; the base's decoding is kept, and it says why.
    assert "too few" in made["decoding_chosen_by"]
    assert made["origin"]["bundle"] == "web" and made["origin"]["from"] is None
    c = victor.Cleaner(str(out))
    assert c.origin == made["origin"]
    assert victor.Cleaner().origin is None
    page = (examples / "pages").iterdir().__next__().read_bytes()
    assert isinstance(c.clean(page), str)
    # web stores its pages' profiles: the adapted bundle has a gate, and says how much of it
    # labelled a page; web itself and a bundle adapted without a gate do not.
    assert made["gate"].startswith("the adapted model applies")
    assert 0.0 <= c.label(page)["adapted"] <= 1.0
    assert victor.Cleaner().label(page)["adapted"] is None
    plain = victor.adapt(examples, tmp_path / "plain", trees=2, gate=False)
    assert plain["gate"] is None and victor.Cleaner(str(tmp_path / "plain")).label(page)["adapted"] is None
    # Adapting again nests the lineage.
    again = victor.adapt([examples], tmp_path / "again", base=str(out), prior=float("inf"), trees=0)
    assert again["origin"]["from"] == made["origin"]
    # A bundle trained from scratch has no origin.
    scratch = victor.train(examples, tmp_path / "scratch", folds=0)
    assert scratch["origin"] is None and scratch["decoding"] == "viterbi"


def test_adapt_refuses_what_it_cannot_do(tmp_path):
    examples = ROOT / "annotations" / "examples"
    with pytest.raises(victor.VictorError, match="decoding"):
        victor.adapt(examples, tmp_path / "a", decoding="sometimes")
    with pytest.raises(victor.VictorError, match="prior"):
        victor.adapt(examples, tmp_path / "b", prior=-1.0)
    with pytest.raises(victor.VictorError, match="no-such-bundle"):
        victor.adapt(examples, tmp_path / "c", base="no-such-bundle")
    with pytest.raises(victor.VictorError, match="annotated"):
        victor.adapt(tmp_path, tmp_path / "d")
    # A folder that is not a bundle is not replaced.
    keep = tmp_path / "keep"
    keep.mkdir()
    (keep / "notes.txt").write_text("mine")
    with pytest.raises(victor.VictorError, match="will not replace"):
        victor.adapt(examples, keep)
    assert (keep / "notes.txt").read_text() == "mine"

def test_bad_arguments_are_refused_not_ignored():
    # Issue 60: a thread count of 0 and a charset no one knows were taken silently.
    page = sorted(EXAMPLES.glob("*.html"))[0].read_bytes()
    c = victor.Cleaner()
    with pytest.raises(victor.VictorError, match="threads must be at least 1"):
        c.clean_many([page], threads=0)
    for call in (
        lambda: victor.clean(page, charset="klingon"),
        lambda: c.clean(page, charset="klingon"),
        lambda: c.markdown(page, charset="klingon"),
        lambda: c.label(page, charset="klingon"),
        lambda: c.clean("<p>a str page</p>", charset="klingon"),
    ):
        with pytest.raises(victor.VictorError, match='charset "klingon"'):
            call()
    # Known labels, any case, are taken.
    assert c.clean(page, charset=" Windows-1252 ") == c.clean(page, charset="cp1252")


def test_the_block_limit_is_reachable_from_python():
    many = b"<html><body>" + b"<p>block</p>" * 50 + b"</body></html>"
    assert victor.Cleaner(max_blocks=1000).clean(many) == victor.clean(many)
    with pytest.raises(victor.VictorError, match="blocks"):
        victor.Cleaner(max_blocks=10).clean(many)
    with pytest.raises(victor.VictorError, match="blocks"):
        victor.clean(many, max_blocks=10)
    with pytest.raises(victor.VictorError, match="at least 1"):
        victor.Cleaner(max_blocks=0)


def cli_error(*args) -> str:
    """What `victor ARGS` says when it fails."""
    r = subprocess.run([str(victor_bin()), *map(str, args)], capture_output=True, text=True)
    assert r.returncode != 0, args
    return r.stderr


def test_python_refuses_what_the_cli_refuses(tmp_path):
    """Issue 67: one rule for the folds, an empty input is an error, and a bad count is a
    VictorError, never pyo3's OverflowError."""
    examples = ROOT / "annotations" / "examples"
    # Folds: 0 (none) or at least 2, as `victor train --threshold-folds` takes them.
    said = cli_error("train", examples, "--threshold-folds", "1", "--out", tmp_path / "cli")
    assert "cross-validation needs at least 2 folds, got 1" in said
    for call in (lambda: victor.adapt(examples, tmp_path / "a", folds=1),
                 lambda: victor.train(examples, tmp_path / "t", folds=1)):
        with pytest.raises(victor.VictorError, match="cross-validation needs at least 2 folds, got 1"):
            call()
    with pytest.raises(victor.VictorError, match="folds must be at least 0"):
        victor.adapt(examples, tmp_path / "a", folds=-1)
    assert not (tmp_path / "a").exists() and not (tmp_path / "t").exists()
    # An empty input: what `victor label` says of an empty file.
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    assert "empty input (0 bytes): no page" in cli_error("label", empty)
    c = victor.Cleaner()
    for call in (lambda: victor.clean(b""), lambda: c.clean(b""), lambda: c.label(b""),
                 lambda: c.markdown(b""), lambda: victor.clean("", format="markdown")):
        with pytest.raises(victor.VictorError, match=r"empty input \(0 bytes\): no page"):
            call()
    for call in (lambda: victor.clean("   "), lambda: c.label(" \n\t")):
        with pytest.raises(victor.VictorError, match="bytes of white space only"):
            call()
    with pytest.raises(victor.VictorError, match="page 0: empty input"):
        c.clean_many([b""])
    page = sorted(EXAMPLES.glob("*.html"))[0].read_bytes()
    r = c.clean_many([b"", page, "  "], threads=2, errors="skip")
    assert r[0] is None and r[2] is None and r[1] == c.clean(page)
    assert "empty input" in r.errors[0] and "white space" in r.errors[2]
    # Counts out of range: VictorError naming the argument.
    for call, name in ((lambda: c.clean_many([page], threads=-1), "threads"),
                       (lambda: c.clean_many([page], threads=2**70), "threads"),
                       (lambda: victor.adapt(examples, tmp_path / "n", trees=-1), "trees"),
                       (lambda: victor.Cleaner(max_blocks=-1), "max_blocks"),
                       (lambda: victor.clean(page, max_blocks=-5), "max_blocks")):
        with pytest.raises(victor.VictorError, match=f"{name} must be at least"):
            call()
    with pytest.raises(TypeError):
        c.clean_many([page], threads="two")


def test_a_bundle_records_the_pages_left_out(tmp_path):
    """Issue 67: with skip_bad_pages, victor.json counts the pages trained on and lists those
    left out, with why; so does what adapt returns."""
    examples = ROOT / "annotations" / "examples"
    mine = tmp_path / "mine"
    shutil.copytree(examples, mine)
    bad = sorted((mine / "labels").glob("*.json"))[0]
    bad.write_text("{ not json")
    made = victor.adapt(mine, tmp_path / "m", trees=0, folds=0, skip_bad_pages=True)
    assert made["pages"] == 4
    assert [(l["id"], "not a valid record" in l["reason"]) for l in made["left_out"]] == [(bad.stem, True)]
    meta = json.loads((tmp_path / "m" / "victor.json").read_text())
    assert meta["data"]["sets"][0]["pages"] == 4
    assert meta["data"]["sets"][0]["left_out"][0]["id"] == bad.stem
