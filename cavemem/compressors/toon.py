"""``toon``: lossless JSON → TOON re-encoding (spec engine-compressors §3.12). Force-only.

The codec (:mod:`cavemem.toon.codec`) only returns text it has proven to decode back to the
exact JSON value, so the model sees the same data in fewer tokens: metadata says method
``toon``, lossless to the model. The query is ignored and there is no size check here — the
engine's token guard decides whether the TOON is worth using. Anything outside the encodable
subset (nested rows, mixed arrays, duplicate keys, invalid JSON) passes through.
"""

from __future__ import annotations

from .base import Compressor, Metadata


class TOONCompressor(Compressor):
    content_type = "toon"

    def compress(self, data: bytes) -> bytes | None:
        from ..toon.codec import ToonError, encode_json

        try:
            return encode_json(data).encode("utf-8")
        except ToonError:
            return None

    def compress_with_metadata(self, data: bytes, query: str) -> tuple[bytes, Metadata] | None:
        out = self.compress(data)
        if out is None:
            return None
        return out, Metadata(method="toon", lossless_to_model=True)
