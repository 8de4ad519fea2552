"""A datatrove extractor: `VictorExtractor` cleans each document's HTML with victor, where a
FineWeb-style pipeline uses `Trafilatura(favour_precision=True)`:

    from datatrove.pipeline.readers import WarcReader
    from datatrove.pipeline.writers import JsonlWriter
    from victor.datatrove import VictorExtractor

    pipeline = [WarcReader("s3://commoncrawl/crawl-data/CC-MAIN-2024-10/segments/",
                           glob_pattern="*/warc/*"),
                VictorExtractor(),
                JsonlWriter("out/")]

datatrove's WarcReader has already decoded the HTTP body to `str` (with the charset it found),
so victor reads text, not bytes, here. Requires `pip install datatrove`.
"""

from datatrove.pipeline.extractors.base import BaseExtractor

import victor


class VictorExtractor(BaseExtractor):
    """victor's main-text extraction as a datatrove pipeline step.

    model, threshold and decoding are those of `victor.Cleaner`; markdown=True writes each
    document's text as Markdown with the page's structure (`Cleaner.markdown`); timeout is
    datatrove's (seconds a document may take before it is dropped).
    """

    name = "⚡ victor"

    def __init__(self, model=None, threshold=None, decoding=None, timeout: float = 1.0, markdown: bool = False):
        super().__init__(timeout)
        self.model, self.threshold, self.decoding = model, threshold, decoding
        self.markdown = markdown
        self._cleaner = None

    def extract(self, text: str) -> str:
        """The main text of one page (an empty string when victor cannot read it)."""
        if self._cleaner is None:
            # Made in the worker that runs the step: a Cleaner is not pickled with the pipeline.
            self._cleaner = victor.Cleaner(self.model, threshold=self.threshold, decoding=self.decoding)
        try:
            if self.markdown:
                return self._cleaner.markdown(text)
            return self._cleaner.clean(text)
        except victor.VictorError:
            return ""

    def __getstate__(self):
        state = self.__dict__.copy()
        state["_cleaner"] = None
        return state
