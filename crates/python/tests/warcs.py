"""Writing small WARC files for the tests: one gzip member per response record, as Common
Crawl writes them (no warcio needed)."""

import gzip
import uuid


def response_record(url: str, body: bytes, content_type: str = "text/html") -> tuple[str, bytes]:
    """A WARC response record (its id and bytes) holding an HTTP response with body."""
    http = f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\n\r\n".encode() + body
    rid = f"<urn:uuid:{uuid.uuid4()}>"
    head = (
        "WARC/1.0\r\nWARC-Type: response\r\n"
        f"WARC-Record-ID: {rid}\r\nWARC-Date: 2026-01-01T00:00:00Z\r\n"
        f"WARC-Target-URI: {url}\r\nContent-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(http)}\r\n\r\n"
    ).encode()
    return rid, head + http + b"\r\n\r\n"


def write_warc(path, pages) -> list[str]:
    """Writes (url, body) pages as a gzipped WARC file; returns the record ids in order."""
    ids = []
    with open(path, "wb") as f:
        for url, body in pages:
            rid, rec = response_record(url, body)
            ids.append(rid)
            f.write(gzip.compress(rec, compresslevel=1))
    return ids
