"""Every ```python block of README.md runs: the examples are executed as written, in a folder
holding the files they name (crawl.warc.gz, models/, my-annotations/), with html, body and pages defined."""

import pathlib
import re

import pytest

from conftest import ROOT
from warcs import write_warc

EXAMPLES = ROOT / "annotations" / "examples" / "pages"


def python_blocks(text: str) -> list[str]:
    """The code of each ```python fenced block, in order."""
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def test_every_readme_python_example_runs(tmp_path, monkeypatch):
    blocks = python_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    assert blocks, "README.md has no ```python block"
    files = sorted(EXAMPLES.glob("*.html"))[:3]
    write_warc(tmp_path / "crawl.warc.gz", [(f"http://example.org/{p.name}", p.read_bytes()) for p in files])
    (tmp_path / "models").symlink_to(ROOT / "models", target_is_directory=True)
    (tmp_path / "my-annotations").symlink_to(ROOT / "annotations" / "examples", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    for code in blocks:
        names = {
            "html": files[0].read_bytes(),
            "body": files[1].read_bytes(),
            "pages": [p.read_bytes() for p in files],
        }
        exec(compile(code, "README.md", "exec"), names)


def test_the_blocks_are_found():
    # A guard on the extraction itself: two blocks, the second one's code kept whole.
    text = "x\n```python\na = 1\n```\n\n```sh\nno\n```\n```python\nb = 2\nc = 3\n```\n"
    assert python_blocks(text) == ["a = 1\n", "b = 2\nc = 3\n"]
