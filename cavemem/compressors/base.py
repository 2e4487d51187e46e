"""The compressor contract (spec engine-compressors §1.1)."""

from __future__ import annotations

from dataclasses import dataclass

from .safety import S4


@dataclass
class Metadata:
    """What a metadata-reporting compressor says about its output."""

    method: str = ""
    lossless_to_model: bool | None = None
    recovery_metadata: bytes = b""


class Compressor:
    """Base class. Subclasses set ``content_type`` and implement :meth:`compress`.

    - ``compress(data)`` returns the compressed bytes, or None to mean "pass the input through".
      Returning the input unchanged (or something not smaller) is allowed: the engine rejects it.
    - Query-aware compressors set ``accepts_query = True`` and implement ``compress_query``; an
      empty query must behave exactly like ``compress`` (:class:`QueryCompressor` wires that up).
    - Metadata compressors set ``reports_metadata = True`` and implement
      ``compress_with_metadata(data, query) -> (bytes, Metadata) | None``; the engine calls it
      even when the query is empty.
    """

    content_type: str = ""
    safety_class: int = S4
    accepts_query: bool = False
    reports_metadata: bool = False

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
