"""Writing small WARC files for the tests: one gzip member per response record, as Common
Crawl writes them (no warcio needed). The HTTP bodies can be sent as servers send them, chunked
and compressed, as wget, Heritrix and browsertrix archive them.

As a script, writes a WARC file of the shared pages (for the benchmarks):

  python crates/python/tests/warcs.py OUT.warc[.gz] [--sets l3s-gn1,cleaneval] [--coding gzip]
"""

import gzip
import uuid
import zlib

CODINGS = ("gzip", "deflate", "br", "chunked", "chunked+gzip")


def chunked(body: bytes, size: int = 4096) -> bytes:
    """The chunked transfer coding of a body."""
    out = b"".join(b"%x\r\n%s\r\n" % (len(body[i : i + size]), body[i : i + size]) for i in range(0, len(body), size))
    return out + b"0\r\n\r\n"


def encode(body: bytes, coding: str | None) -> tuple[bytes, bytes]:
    """The HTTP header lines and the body for a coding (see CODINGS; None: as it is)."""
    if coding is None:
        return b"", body
    head = b""
    if coding.endswith("gzip"):
        body = gzip.compress(body, compresslevel=1)
        head += b"Content-Encoding: gzip\r\n"
    elif coding == "deflate":
        body = zlib.compress(body, 1)
        head += b"Content-Encoding: deflate\r\n"
    elif coding == "br":
        import brotli

        body = brotli.compress(body, quality=4)
        head += b"Content-Encoding: br\r\n"
    if coding.startswith("chunked"):
        body = chunked(body)
        head += b"Transfer-Encoding: chunked\r\n"
    return head, body


def response_record(url: str, body: bytes, content_type: str = "text/html", coding: str | None = None) -> tuple[str, bytes]:
    """A WARC response record (its id and bytes) holding an HTTP response with body, sent with
    `coding` (see CODINGS)."""
    extra, body = encode(body, coding)
    return http_record(url, f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\n".encode() + extra + b"\r\n" + body)


def http_record(url: str, http: bytes) -> tuple[str, bytes]:
    """A WARC response record (its id and bytes) holding the HTTP message `http` as it is."""
    rid = f"<urn:uuid:{uuid.uuid4()}>"
    head = (
        "WARC/1.0\r\nWARC-Type: response\r\n"
        f"WARC-Record-ID: {rid}\r\nWARC-Date: 2026-01-01T00:00:00Z\r\n"
        f"WARC-Target-URI: {url}\r\nContent-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(http)}\r\n\r\n"
    ).encode()
    return rid, head + http + b"\r\n\r\n"


def write_warc(path, pages, coding: str | None = None) -> list[str]:
    """Writes (url, body) pages as a WARC file, gzipped per record when the name ends in .gz;
    returns the record ids in order."""
    ids = []
    gz = str(path).endswith(".gz")
    with open(path, "wb") as f:
        for url, body in pages:
            rid, rec = response_record(url, body, coding=coding)
            ids.append(rid)
            f.write(gzip.compress(rec, compresslevel=1) if gz else rec)
    return ids


def shared_page_paths(data, sets):
    """The HTML files of the shared sets, in manifest order (trafilatura-eval: its html/ folder)."""
    import json
    import pathlib

    paths = []
    for s in sets:
        d = pathlib.Path(data) / s
        manifest = d / "manifest.jsonl"
        if manifest.exists():
            paths += [d / json.loads(l)["html"] for l in manifest.open(encoding="utf-8")]
        else:
            paths += sorted((d / "html").iterdir())
    return paths


if __name__ == "__main__":
    import argparse
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[3]
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--data", default=str(root.parent / "shared/data"))
    ap.add_argument("--sets", default="cleaneval,dragnet-train,l3s-gn1,readability-tests,trafilatura-eval")
    ap.add_argument("--coding", choices=CODINGS)
    ap.add_argument("--list", help="also write the pages' paths to this file, one a line")
    a = ap.parse_args()
    paths = shared_page_paths(a.data, a.sets.split(","))
    write_warc(a.out, ((f"http://example.org/{p.parent.parent.name}/{p.name}", p.read_bytes()) for p in paths), a.coding)
    if a.list:
        pathlib.Path(a.list).write_text("".join(f"{p}\n" for p in paths))
    print(f"{a.out}: {len(paths)} pages")
