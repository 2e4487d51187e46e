"""Static sentence vectors in the default install: a token table distilled from MiniLM, no model.

A text is lower-cased, accent-stripped and split like BERT's basic tokenizer, each word is cut
into WordPiece tokens of the shipped vocabulary (:mod:`.wordpiece`, greedy longest match),
and its vector is the L2-normalised mean of those tokens' rows in ``data/static-minilm.bin``
(int8 rows with a float32 scale each, distilled by :mod:`.distill`). No onnxruntime and no model:
numpy, an 8 MB read and a 33 ms JSON parse of the vocabulary. Measured here (2 shared cores): a
cold ``CAVEMAN_STATIC=1 cavemem recall`` on a one-memory store takes 0.26-0.38 s wall against
0.07 s lexical, mostly the numpy import and table load; ~0.3 ms per sentence embedded.
"""

from __future__ import annotations

import threading
from pathlib import Path

from .distill import DIM, MAGIC, OUT as TABLE_PATH
from .wordpiece import WordPiece

MODEL_ID = "static-minilm-256"
INDEX_MODEL = MODEL_ID + "+window1"


class StaticEmbedder:
    """Same surface as :class:`~cavemem.embed.embedder.Embedder` (``load``, ``embed``, ``embed_one``)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._np = None
        self._wordpiece = WordPiece()
        self._rows = None

    @property
    def loaded(self) -> bool:
        return self._rows is not None

    def load(self) -> "StaticEmbedder":
        with self._lock:
            if self._rows is not None:
                return self
            import numpy as np

            blob = Path(TABLE_PATH).read_bytes()
            if not blob.startswith(MAGIC):
                from . import EmbedUnavailable

                raise EmbedUnavailable(f"static embedding table {TABLE_PATH} is not a cavemem table")
            n, dim = np.frombuffer(blob, dtype="<u4", count=2, offset=len(MAGIC))
            off = len(MAGIC) + 8
            scale = np.frombuffer(blob, dtype="<f4", count=int(n), offset=off)
            q = np.frombuffer(blob, dtype=np.int8, count=int(n) * int(dim), offset=off + 4 * int(n)).reshape(int(n), int(dim))
            self._scale, self._q = scale, q
            self._np, self._rows = np, True
            return self

    def token_ids(self, text: str) -> list[int]:
        return self._wordpiece.token_ids(text)

    def embed(self, texts):
        self.load()
        np = self._np
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        for i, text in enumerate(texts):
            if isinstance(text, (bytes, bytearray)):
                text = bytes(text).decode("utf-8", "replace")
            ids = self.token_ids(str(text))
            if not ids:
                continue
            idx = np.fromiter(ids, dtype=np.int64, count=len(ids))
            v = (self._q[idx].astype(np.float32) * self._scale[idx, None]).sum(axis=0)
            norm = float(np.linalg.norm(v))
            if norm > 0:
                out[i] = v / norm
        return out

    def embed_one(self, text: str):
        return self.embed([text])[0]


_SHARED: StaticEmbedder | None = None
_SHARED_LOCK = threading.Lock()


def shared_static() -> StaticEmbedder:
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = StaticEmbedder()
        return _SHARED
