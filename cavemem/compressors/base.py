"""The compressor contract (spec engine-compressors §1.1): one method, :meth:`Compressor.run`."""

from __future__ import annotations

from dataclasses import dataclass

from .safety import S4


@dataclass
class Metadata:
    """What a compressor says about its output beyond the bytes."""

    method: str = ""
    lossless_to_model: bool | None = None
    recovery_metadata: bytes = b""


class Compressor:
    """Base class. The engine calls exactly one method, :meth:`run`, and reads one declared
    attribute, :attr:`safety_class`; nothing is looked up by ``getattr``.

    ``run(data, query, counter)`` returns ``(bytes, Metadata)``, or None to mean "pass the input
    through". Returning the input unchanged (or something not smaller) is allowed: the engine
    rejects it. The default ``run`` adapts the simpler hooks most compressors implement:

    - ``compress(data)`` for compressors that ignore the query;
    - ``compress_query(data, query)`` for query-aware ones (:class:`QueryCompressor`), where an
      empty query must behave exactly like ``compress``;
    - ``compress_with_metadata(data, query)`` for ones that report a method, losslessness or
      recovery metadata; it is called even when the query is empty.

    Override ``run`` itself only to use ``counter`` (the engine's token counter; an ordinary
    compressor never counts tokens, the engine does).
    """

    content_type: str = ""
    safety_class: int = S4
    accepts_query: bool = False  # descriptive only (the registry table); the engine never reads it

    def run(self, data: bytes, query: str, counter=None) -> tuple[bytes, Metadata] | None:
        got = self.compress_with_metadata(data, query)
        if got is None:
            return None
        out, meta = got
        return out, meta or Metadata()

    def compress(self, data: bytes) -> bytes | None:  # pragma: no cover - interface
        raise NotImplementedError

    def compress_query(self, data: bytes, query: str) -> bytes | None:
        return self.compress(data)

    def compress_with_metadata(self, data: bytes, query: str) -> tuple[bytes, Metadata] | None:
        out = self.compress_query(data, query) if query else self.compress(data)
        return None if out is None else (out, Metadata())


class QueryCompressor(Compressor):
    """A query-aware compressor: subclasses implement ``compress_query``, and ``compress`` is
    that with no query, so an empty query behaves exactly like ``compress`` by construction."""

    accepts_query = True

    def compress(self, data: bytes) -> bytes | None:
        return self.compress_query(data, "")

    def compress_query(self, data: bytes, query: str) -> bytes | None:  # pragma: no cover - interface
        raise NotImplementedError
