"""The default ``json`` route: best of elision and lossless re-encodings.

The spec's best-of strategy (engine-compressors §2.7, then only behind
``CAVE_ENGINE_TOON=best-of``) chose between TOON and JSON elision. Most real JSON — a
``package.json``, ``lscpu -J``, ``pip inspect`` — has no long array to elide and no flat table
for the TOON dialect, yet is pretty-printed, so the reference passed it through whole. This
strategy is now the default ``json`` compressor and weighs every candidate:

- **elision** (:mod:`.json_elision`, lossy, query-aware): long arrays and objects of records
  (:mod:`.json_members`) collapsed to markers, then long string values (READMEs, HTML manuals) cut to an excerpt (:mod:`.json_strings`);
- **toon** (lossless): the proven caveman TOON dialect (:func:`.json_lossless.toon`);
- **minify** (lossless): the document without insignificant whitespace, key order and number
  literals as written (:func:`.json_lossless.minify`).

The candidate with the fewest tokens wins, provided it has fewer than the input; on a tie the
lossless one wins (nothing is hidden from the model), minify before TOON (the input's own format).
Elision output already is compact JSON and TOON cannot carry its marker objects (they make every
array non-uniform), so elided output is never re-encoded. Unlike ordinary compressors this one
counts tokens — the choice needs them — with the engine's o200k counter unless one is passed in.

Big payloads: beyond :data:`LOSSLESS_MAX_BYTES` (hundreds of thousands of tokens, too many for
any context even re-encoded) the lossless candidates are only a fallback for when elision finds
nothing, and no tokens are counted here — the engine's own guard rejects a result that is not
smaller. That keeps a 20 MB payload within the time of elision alone.
"""

from __future__ import annotations

from . import json_lossless
from .base import Compressor, Metadata

LOSSLESS_MAX_BYTES = 1 << 20


class JSONStrategy(Compressor):
    content_type = "json"
    accepts_query = True

    def __init__(self, counter=None, elision=None):
        self._counter = counter
        self._elision = elision

    def run(self, data: bytes, query: str, counter=None) -> tuple[bytes, Metadata] | None:
        """Counts with the engine's own counter (spec engine-core §1.3) when it passes one."""
        comp = self if counter is None else self.with_counter(counter)
        return comp.compress_with_metadata(data, query)

    def with_counter(self, counter) -> "JSONStrategy":
        """This strategy counting with ``counter`` (shares the elision compressor)."""
        if counter is self.counter:
            return self
        return JSONStrategy(counter=counter, elision=self._elision)

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

    def _elide(self, data: bytes, query: str) -> tuple[bytes, Metadata] | None:
        got = self.elision.run(data, query, None)
        if got is None:
            return None
        out, meta = got
        meta = meta or Metadata()
        return bytes(out), Metadata(method=meta.method or "elision", lossless_to_model=False, recovery_metadata=meta.recovery_metadata)

    @staticmethod
    def _shorten(elided: tuple[bytes, Metadata] | None, data: bytes, query: str) -> tuple[bytes, Metadata] | None:
        """The elided document (or, when no array was elided, the input) with its long string
        values cut to an excerpt (:mod:`.json_strings`); ``elided`` when none is long."""
        from .json_strings import shorten_document

        cut = shorten_document(elided[0] if elided is not None else data, query)
        if cut is None:
            return elided
        return cut, Metadata(method="elision", lossless_to_model=False, recovery_metadata=elided[1].recovery_metadata if elided else b"")

    @staticmethod
    def _lossless(data: bytes) -> list[tuple[bytes, Metadata]]:
        """The lossless candidates in tie-break order."""
        out = []
        mini = json_lossless.minify(data)
        if mini is not None:
            out.append((mini, Metadata(method="minify", lossless_to_model=True)))
        toon = json_lossless.toon(data)
        if toon is not None:
            out.append((toon, Metadata(method="toon", lossless_to_model=True)))
        return out

    def compress_with_metadata(self, data: bytes, query: str) -> tuple[bytes, Metadata] | None:
        elided = self._shorten(self._elide(data, query), data, query)
        if len(data) > LOSSLESS_MAX_BYTES:
            if elided is not None:
                return elided
            mini = json_lossless.minify(data)
            return None if mini is None else (mini, Metadata(method="minify", lossless_to_model=True))
        candidates = self._lossless(data)
        if elided is not None:
            candidates.append(elided)  # last: it must be strictly fewer tokens to win
        if not candidates:
            return None
        count = self.counter.count
        best, best_tokens = None, count(data)
        for out, meta in candidates:
            tokens = count(out)
            if tokens < best_tokens:
                best, best_tokens = (out, meta), tokens
        return best

    def compress(self, data: bytes) -> bytes | None:
        got = self.compress_with_metadata(data, "")
        return None if got is None else got[0]

    def compress_query(self, data: bytes, query: str) -> bytes | None:
        got = self.compress_with_metadata(data, query)
        return None if got is None else got[0]
