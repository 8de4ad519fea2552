"""Shared fixtures: the victor binary to compare with, and the shared pages (skipped loudly
when ../shared/data is absent)."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
DATA = ROOT.parent / "shared" / "data"


def victor_bin() -> pathlib.Path:
    """The `victor` binary: $VICTOR_BIN, else target/release/victor, else target/debug/victor."""
    env = os.environ.get("VICTOR_BIN")
    if env:
        return pathlib.Path(env)
    for p in (ROOT / "target/release/victor", ROOT / "target/debug/victor"):
        if p.exists():
            return p
    pytest.skip("no victor binary: build it (cargo build) or set VICTOR_BIN")


def shared_pages(set_name: str, split: str, n: int) -> list[pathlib.Path]:
    """The first n pages of a shared set's split, or a loud skip."""
    manifest = DATA / set_name / "manifest.jsonl"
    if not manifest.exists():
        print(f"skipped: {manifest} is absent (the shared data sets are not here)")
        pytest.skip(f"{manifest} absent")
    out = []
    for line in manifest.open():
        m = json.loads(line)
        if m.get("split") == split:
            out.append(DATA / set_name / m["html"])
        if len(out) == n:
            break
    return out


def cli_jsonl(paths, *extra) -> list[dict]:
    """`victor label --format jsonl-text` of paths, one dict per page, in order."""
    r = subprocess.run(
        [str(victor_bin()), "label", "-q", "--format", "jsonl-text", *extra, *map(str, paths)],
        check=True,
        capture_output=True,
    )
    return [json.loads(line) for line in r.stdout.decode().splitlines()]


@pytest.fixture(scope="session")
def pages():
    """20 l3s-gn1 and 10 cleaneval test pages with the CLI's results."""
    paths = shared_pages("l3s-gn1", "test", 20) + shared_pages("cleaneval", "test", 10)
    return list(zip(paths, cli_jsonl(paths)))
