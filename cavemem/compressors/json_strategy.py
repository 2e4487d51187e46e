"""Best-of JSON strategy (spec engine-compressors §2.7), used for ``json`` when
``CAVE_ENGINE_TOON=best-of``.

Two ways to make JSON smaller exist: TOON re-encoding (lossless to the model: the same data,
fewer tokens) and JSON elision (lossy: elided elements are one ``retrieve`` away). This tries
both and keeps the one with fewer tokens; TOON wins ties because nothing is hidden from the
model. Unlike ordinary compressors this one counts tokens — choosing between two candidates
needs the count — using the same o200k counter as the engine unless one is passed in.
"""

from __future__ import annotations

from .base import Compressor, Metadata
from .toon import TOONCompressor


class JSONStrategy(Compressor):
    content_type = "json"
    accepts_query = True
    reports_metadata = True

    def __init__(self, counter=None, elision=None):
        self._counter = counter
        self._toon = TOONCompressor()
        self._elision = elision

    @property
    def counter(self):
        if self._counter is None:
            from ..tokens import default_counter

            self._counter = default_counter()
        return self._counter

    @property
    def elision(self):
        if self._elision is None:
            from .json_elision import JSONCompressor

            self._elision = JSONCompressor()
        return self._elision

    def _elide(self, data: bytes, query: str):
        comp = self.elision
        if getattr(comp, "reports_metadata", False):
            got = comp.compress_with_metadata(data, query)
            if got is None:
                return None, None
            out, meta = got
            return out, meta or Metadata()
        out = comp.compress_query(data, query) if query and getattr(comp, "accepts_query", False) else comp.compress(data)
        return out, Metadata()

    def compress_with_metadata(self, data: bytes, query: str) -> tuple[bytes, Metadata] | None:
        count = self.counter.count
        before = count(data)
        best: tuple[bytes, Metadata] | None = None
        best_tokens = before
        toon = self._toon.compress(data)  # the query is ignored by TOON
        if toon is not None:
            tokens = count(toon)
            if tokens < before:
                best, best_tokens = (toon, Metadata(method="toon", lossless_to_model=True)), tokens
        out, meta = self._elide(data, query)
        if out is not None:
            tokens = count(out)
            if tokens < before and tokens < best_tokens:
                best = (bytes(out), Metadata(method=meta.method or "elision", lossless_to_model=False, recovery_metadata=meta.recovery_metadata))
        return best

    def compress(self, data: bytes) -> bytes | None:
        got = self.compress_with_metadata(data, "")
        return None if got is None else got[0]

    def compress_query(self, data: bytes, query: str) -> bytes | None:
        got = self.compress_with_metadata(data, query)
        return None if got is None else got[0]
