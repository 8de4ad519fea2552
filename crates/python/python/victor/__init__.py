"""victor: clean web pages for corpus building.

>>> import victor
>>> victor.clean(b"<html>...</html>")          # the built-in default model
>>> c = victor.Cleaner(threshold=0.6)          # or Cleaner("path/to/bundle")
>>> c.label(html)["blocks"][0]["probabilities"]
>>> c.clean_many(pages, threads=4)             # the GIL is released while pages are cleaned
>>> c.clean_many(pages, errors="skip").errors  # {index: reason} of the pages that gave None
>>> victor.adapt("my-annotations", "models/mine", base="web")   # your guideline, adapted

`victor.datatrove.VictorExtractor` is a datatrove extractor (pip install datatrove).
"""

from ._victor import Cleaner, VictorError, WarcWarning, adapt, clean, train


class Texts(list):
    """What `Cleaner.clean_many` returns: the texts in the pages' order (a list). With
    `errors="skip"` a page that could not be cleaned is None, and `errors` maps its index to the
    reason; with `errors="raise"` it is always empty."""

    def __init__(self, texts=(), errors=None):
        super().__init__(texts)
        self.errors: dict[int, str] = dict(errors or {})

    def __repr__(self):
        return f"Texts({list.__repr__(self)}, errors={self.errors!r})"


__all__ = ["Cleaner", "Texts", "VictorError", "WarcWarning", "adapt", "clean", "train"]
