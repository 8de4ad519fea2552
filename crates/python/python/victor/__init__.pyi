from collections.abc import Iterable, Iterator
from os import PathLike
from typing import Literal, TypedDict

class Probabilities(TypedDict):
    header: float
    text: float
    other: float

class Block(TypedDict):
    text: str
    start: int
    end: int
    label: Literal["header", "text", "other"]
    probabilities: Probabilities

class Document(TypedDict):
    title: str | None
    language: str | None
    text: str
    blocks: list[Block]

class VictorError(ValueError):
    """A page could not be cleaned, or a model could not be loaded; the message says why."""

class Cleaner:
    """Cleans web pages with a victor model (the built-in default when model is None)."""

    def __init__(
        self,
        model: str | PathLike[str] | None = None,
        threshold: float | None = None,
        decoding: Literal["threshold", "viterbi", "expected-f1"] | None = None,
    ) -> None: ...
    def clean(self, html: str | bytes) -> str:
        """The main text of a page, one paragraph a line."""
    def label(self, html: str | bytes) -> Document:
        """Title, language, text and every block with its label and probabilities."""
    def clean_many(self, pages: Iterable[str | bytes], threads: int = 1) -> list[str]:
        """The texts of many pages, in order, cleaned on `threads` threads."""
    def clean_warc(self, path: str | PathLike[str]) -> WarcPages:
        """The HTML pages of a WARC file (gzipped or not), cleaned as they are read."""
    @property
    def decoding(self) -> str: ...

class WarcPage(TypedDict, total=False):
    record_id: str | None
    url: str | None
    date: str | None
    title: str | None
    language: str | None
    text: str | None
    error: str

class WarcPages(Iterator[WarcPage]):
    def __next__(self) -> WarcPage: ...
    @property
    def stats(self) -> dict[str, int]:
        """pages, failed, not_html, other (records that are no page), broken."""

def clean(html: str | bytes, model: str | PathLike[str] | None = None) -> str:
    """The main text of a page with the built-in model (or the bundle folder `model`)."""
