"""victor: clean web pages for corpus building.

>>> import victor
>>> victor.clean(b"<html>...</html>")          # the built-in default model
>>> c = victor.Cleaner(threshold=0.6)          # or Cleaner("path/to/bundle")
>>> c.label(html)["blocks"][0]["probabilities"]
>>> c.clean_many(pages, threads=4)             # the GIL is released while pages are cleaned

`victor.datatrove.VictorExtractor` is a datatrove extractor (pip install datatrove).
"""

from ._victor import Cleaner, VictorError, clean

__all__ = ["Cleaner", "VictorError", "clean"]
