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
    url: str | None
    title: str | None
    author: str | None
    date: str | None
    date_source: Literal["json-ld", "meta", "time", "url", "text"] | None
    sitename: str | None
    canonical: str | None
    confidence: float
    language: str | None
    text: str
    blocks: list[Block]

class VictorError(ValueError):
    """A page could not be cleaned, or a model could not be loaded; the message says why."""

class WarcWarning(UserWarning):
    """A broken record in a WARC file read by Cleaner.clean_warc: the message names the file, the
    record's byte offset and the reason; reading goes on."""

class Texts(list[str | None]):
    """What Cleaner.clean_many returns: the texts in order; with errors="skip" a failed page is
    None and `errors` maps its index to the reason."""

    errors: dict[int, str]
    def __init__(self, texts: Iterable[str | None] = ..., errors: dict[int, str] | None = ...) -> None: ...

class Cleaner:
    """Cleans web pages with a victor model: a bundle folder, or a name ("news", "corpus", ...)
    looked up as the victor command looks it up; the built-in default when model is None.
    max_blocks is the block limit of `victor label --max-blocks` (a page with more text blocks
    raises VictorError); charset must be a charset victor knows, threads at least 1. A page with
    no bytes or only white space raises VictorError ("empty input"), as `victor label` fails on
    it; so does an argument out of range."""

    def __init__(
        self,
        model: str | PathLike[str] | None = None,
        threshold: float | None = None,
        decoding: Literal["threshold", "viterbi", "expected-f1"] | None = None,
        max_blocks: int | None = None,
    ) -> None: ...
    def clean(self, html: str | bytes, *, charset: str | None = None, url: str | None = None) -> str:
        """The main text of a page, one paragraph a line.

        `charset` is the charset of the page's HTTP Content-Type header: for bytes it outranks
        the page's <meta> declaration (a byte-order mark and valid UTF-8 still come first).
        `url` is the page's address."""
    def markdown(
        self,
        html: str | bytes,
        *,
        charset: str | None = None,
        url: str | None = None,
        links: bool = False,
        emphasis: bool = False,
    ) -> str:
        """The main text of a page as Markdown with its structure (headings, lists, tables,
        code, quotes); its words are `clean`'s. `charset` and `url` as for `clean`; links=True
        writes links as [text](url), resolved against the page's <base href> and `url`;
        emphasis=True writes *em* and **strong**."""
    def label(
        self,
        html: str | bytes,
        *,
        charset: str | None = None,
        url: str | None = None,
        fetched: str | None = None,
    ) -> Document:
        """URL, title, language, text and every block with its label and probabilities;
        `charset` and `url` as for `clean`; `fetched`, when the page was fetched (ISO 8601, a
        WARC-Date): no later date is taken as its publication date."""
    def clean_many(
        self,
        pages: Iterable[str | bytes],
        threads: int = 1,
        errors: Literal["raise", "skip"] = "raise",
    ) -> Texts:
        """The texts of many pages, in order, cleaned on `threads` threads. errors="raise": a
        page that cannot be cleaned (an empty one too) raises VictorError naming its index;
        errors="skip": it gives None and the result's `errors` maps its index to the reason."""
    def clean_warc(self, path: str | PathLike[str], *, markdown: bool = False) -> WarcPages:
        """The HTML pages of a WARC file (gzipped or not), cleaned as they are read: record_id,
        url, warc_date (the record's WARC-Date), date and date_source (the publication date, as
        `label` gives it), title, language, text. A broken
        record is skipped with a WarcWarning naming the file, its byte offset and the reason.
        markdown=True adds each page's Markdown (`Cleaner.markdown`) as `markdown`."""
    @property
    def decoding(self) -> str: ...
    @property
    def model_name(self) -> str:
        """Which model bundle cleans: a built-in bundle's name ("web" for the default) or the
        folder it was loaded from."""
    @property
    def origin(self) -> Origin | None:
        """Where the model came from when it was adapted from another bundle (None: trained
        from scratch)."""

class Origin(TypedDict):
    bundle: str
    digest: str
    prior: float
    trees: int
    base_pages: int
    # The base's own origin, when it was adapted too.
    # (TypedDict cannot refer to itself by name in every checker: a dict of the same keys.)
    # from: Origin | None

class WarcPage(TypedDict, total=False):
    record_id: str | None
    url: str | None
    # The record's WARC-Date (when the page was fetched); `date` is the page's publication
    # date, as in Document.
    warc_date: str | None
    date: str | None
    date_source: Literal["json-ld", "meta", "time", "url", "text"] | None
    title: str | None
    language: str | None
    text: str | None
    markdown: str | None
    error: str

class WarcPages(Iterator[WarcPage]):
    def __next__(self) -> WarcPage: ...
    @property
    def stats(self) -> dict[str, int]:
        """Counts so far: pages, failed, not_html, other (records that are no page), broken."""
    @property
    def broken_records(self) -> list[tuple[int, str]]:
        """The broken records so far: (byte offset, reason), in file order."""

def clean(
    html: str | bytes,
    model: str | PathLike[str] | None = None,
    *,
    charset: str | None = None,
    url: str | None = None,
    format: Literal["text", "markdown"] = "text",
    max_blocks: int | None = None,
) -> str:
    """The main text of a page with the built-in model (or the bundle folder `model`);
    `charset` (the HTTP header's) and `url` as for `Cleaner.clean`; format="markdown" gives
    `Cleaner.markdown`'s Markdown."""

class LeftOut(TypedDict):
    set: str
    id: str
    reason: str

class Made(TypedDict):
    bundle: str
    # Pages trained on; those left out (skip_bad_pages=True), with why, in left_out.
    pages: int
    left_out: list[LeftOut]
    blocks: int
    seconds: float
    decoding: str
    decoding_chosen_by: str
    origin: Origin | None

def adapt(
    pages: str | PathLike[str] | list[str | PathLike[str]],
    out: str | PathLike[str],
    base: str = "web",
    prior: float | None = None,
    trees: int | None = None,
    decoding: Literal["base", "pages"] = "base",
    folds: int = 5,
    skip_bad_pages: bool = False,
    force: bool = False,
    notes: str = "",
) -> Made:
    """Adapts the bundle `base` (a built-in name or a folder) to the annotated pages and writes
    the new bundle to `out`, as `victor train PAGES --adapt BASE --out OUT` does; `prior` is the
    strength of the prior on the base's weights (default: victor's), `trees` the trees added to
    its forest, `decoding` "base" (keep the base's) or "pages" (the best in cross-validation),
    `folds` those of the cross-validation: 0 (none) or at least 2, as `--threshold-folds`."""

def train(
    pages: str | PathLike[str] | list[str | PathLike[str]],
    out: str | PathLike[str],
    like: str | PathLike[str] | None = None,
    c2: float = 1.0,
    boost: bool = False,
    folds: int = 5,
    skip_bad_pages: bool = False,
    force: bool = False,
    notes: str = "",
) -> Made:
    """Trains a bundle from scratch on the annotated pages, as `victor train PAGES --out OUT
    [--like LIKE] [--boost]` does."""
