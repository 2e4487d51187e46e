"""Static sentence vectors in the default install: a token table distilled from MiniLM, no model.

A text is lower-cased, accent-stripped and split like BERT's basic tokenizer, each word is cut
into WordPiece tokens of the shipped vocabulary (``data/tokenizer.json``, greedy longest match),
and its vector is the L2-normalised mean of those tokens' rows in ``data/static-minilm.bin``
(int8 rows with a float32 scale each, distilled by :mod:`.distill`). No onnxruntime and no model:
numpy, an 8 MB read and a 33 ms JSON parse of the vocabulary. Measured here (2 shared cores): a
cold ``CAVEMAN_STATIC=1 cavemem recall`` on a one-memory store takes 0.26-0.38 s wall against
0.07 s lexical, mostly the numpy import and table load; ~0.3 ms per sentence embedded.
"""

from __future__ import annotations

import json
import threading
import unicodedata
from pathlib import Path

from .distill import DIM, MAGIC, OUT as TABLE_PATH
from .embedder import TOKENIZER_PATH

MODEL_ID = "static-minilm-256"
INDEX_MODEL = MODEL_ID + "+window1"
MAX_WORD = 100
MAX_CHARS = 8192


def _is_punct(ch: str) -> bool:
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(cp: int) -> bool:
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF
            or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)


def basic_words(text: str) -> list[str]:
    """BERT's uncased basic tokenizer: lower case, no accents, punctuation and CJK split off."""
    text = unicodedata.normalize("NFD", text[:MAX_CHARS].lower())
    out: list[str] = []
    cur: list[str] = []
    for ch in text:
        cat = unicodedata.category(ch)
        if cat == "Mn":
            continue
        if ch.isspace() or cat.startswith("C"):
            if cur:
                out.append("".join(cur))
                cur = []
        elif _is_punct(ch) or _is_cjk(ord(ch)):
            if cur:
                out.append("".join(cur))
                cur = []
            out.append(ch)
        else:
            cur.append(ch)
    if cur:
        out.append("".join(cur))
    return out


class StaticEmbedder:
    """Same surface as :class:`~cavemem.embed.embedder.Embedder` (``load``, ``embed``, ``embed_one``)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._np = None
        self._vocab: dict[str, int] = {}
        self._rows = None
        self._cache: dict[str, tuple[int, ...]] = {}

    @property
    def loaded(self) -> bool:
        return self._rows is not None

    def load(self) -> "StaticEmbedder":
        with self._lock:
            if self._rows is not None:
                return self
            import numpy as np

            vocab = json.loads(TOKENIZER_PATH.read_text(encoding="utf-8"))["model"]["vocab"]
            blob = Path(TABLE_PATH).read_bytes()
            if not blob.startswith(MAGIC):
                from . import EmbedUnavailable

                raise EmbedUnavailable(f"static embedding table {TABLE_PATH} is not a cavemem table")
            n, dim = np.frombuffer(blob, dtype="<u4", count=2, offset=len(MAGIC))
            off = len(MAGIC) + 8
            scale = np.frombuffer(blob, dtype="<f4", count=int(n), offset=off)
            q = np.frombuffer(blob, dtype=np.int8, count=int(n) * int(dim), offset=off + 4 * int(n)).reshape(int(n), int(dim))
            self._scale, self._q = scale, q
            self._np, self._vocab, self._rows = np, vocab, True
            return self

    def word_ids(self, word: str) -> tuple[int, ...]:
        """Greedy longest-match WordPiece of one basic word ([UNK] when it cannot be cut)."""
        got = self._cache.get(word)
        if got is not None:
            return got
        vocab = self._vocab
        if len(word) > MAX_WORD:
            ids: tuple[int, ...] = (vocab.get("[UNK]", 100),)
        else:
            out, start = [], 0
            while start < len(word):
                end = len(word)
                while end > start:
                    piece = word[start:end] if start == 0 else "##" + word[start:end]
                    tid = vocab.get(piece)
                    if tid is not None:
                        out.append(tid)
                        break
                    end -= 1
                else:
                    out = [vocab.get("[UNK]", 100)]
                    break
                start = end
            ids = tuple(out)
        if len(self._cache) < 200_000:
            self._cache[word] = ids
        return ids

    def token_ids(self, text: str) -> list[int]:
        ids: list[int] = []
        for w in basic_words(text):
            ids.extend(self.word_ids(w))
        return ids

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
