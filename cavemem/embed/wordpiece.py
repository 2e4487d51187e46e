"""Pure-Python BERT WordPiece over the shipped ``data/tokenizer.json`` (uncased MiniLM vocabulary).

Why not the Rust ``tokenizers`` package: it costs an import and a wheel for what a recall needs —
a dozen words of a query. This reproduces the file's pipeline (BertNormalizer with clean_text,
CJK splitting, accent stripping and lower case; BertPreTokenizer; WordPiece with ``##``
continuations, ``[UNK]`` for words over 100 characters or with no cut) and the ids equal the
Rust tokenizer's (``tests/test_embed_wordpiece.py`` compares them on realistic text).
The vocabulary is ``data/vocab.txt`` (one token a line, line number = id, written from
``tokenizer.json`` by ``python -m cavemem.embed.wordpiece``). A cold recall cuts a dozen words, so
a token is first looked up in the file's text itself (:class:`_Vocab`: a substring search and a
line count, ~20 µs) and the 30k-entry dict (~5-13 ms CPU and ~1,200 page faults to build, where
parsing the JSON took ~45 ms) is built only once a process has looked up
:data:`DICT_AFTER` tokens (bulk embedding). Words are cached per process.
"""

from __future__ import annotations

import json
import threading
import unicodedata
from pathlib import Path

TOKENIZER_PATH = Path(__file__).parent / "data" / "tokenizer.json"
VOCAB_PATH = Path(__file__).parent / "data" / "vocab.txt"
SORTED_NAME = "vocab-sorted.txt"  # beside the vocabulary file: its lookup table (see _Vocab)
SORTED_PATH = VOCAB_PATH.with_name(SORTED_NAME)
MAX_WORD = 100  # max_input_chars_per_word of the file
MAX_CHARS = 8192  # characters beyond this cannot reach a 256-token window; cutting keeps huge texts cheap
CLS, SEP, UNK = "[CLS]", "[SEP]", "[UNK]"
DICT_AFTER = 2000  # token lookups before the dict is built (a query makes ~10-100)
_DROPPED = ("Cc", "Cf", "Co")  # what clean_text removes (unassigned code points stay, and cut to [UNK])


def _is_punct(ch: str) -> bool:
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(cp: int) -> bool:
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF
            or 0x2A700 <= cp <= 0x2B73F or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF
            or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)


def _is_space(ch: str) -> bool:
    return ch in " \t\n\r" or unicodedata.category(ch) == "Zs"


def basic_words(text: str) -> list[str]:
    """BertNormalizer + BertPreTokenizer: control characters dropped, CJK and punctuation split
    off, accents stripped (NFD, marks removed), lower case, split on white space."""
    text = text[:MAX_CHARS]
    if text.isascii():  # the common case: no accents, no CJK, one pass of lower()
        text = text.lower()
    else:
        text = unicodedata.normalize("NFD", text)
    out: list[str] = []
    cur: list[str] = []
    for ch in text:
        if ch.isalnum() and ch.isascii():
            cur.append(ch)
            continue
        cat = unicodedata.category(ch)
        if ch in "\t\n\r" or (cat not in _DROPPED and ch.isspace()):
            if cur:
                out.append("".join(cur))
                cur = []
        elif cat in _DROPPED or cat == "Mn" or ch == "\ufffd":
            continue  # control/format characters and (after NFD) accents vanish without splitting
        elif _is_punct(ch) or _is_cjk(ord(ch)):
            if cur:
                out.append("".join(cur))
                cur = []
            out.append(ch)
        else:
            cur.append(ch)
    if cur:
        out.append("".join(cur))
    # lower case after accent stripping and char by char (no final-sigma rule), as the Rust normaliser does
    return out if text.isascii() else ["".join(c.lower() for c in w) for w in out]


class _Vocab:
    """Token → id with ``dict.get``'s surface. Until :data:`DICT_AFTER` lookups it binary-searches
    ``vocab-sorted.txt`` (the same tokens sorted by their UTF-8 bytes, ``token<TAB>id`` a line,
    written beside ``vocab.txt`` from it) as raw bytes, ~10 µs a lookup with nothing parsed; then
    it builds the dict from ``vocab.txt`` (bulk embedding), which gives the same ids."""

    def __init__(self, path: Path, sorted_path: Path):
        self.path = path
        self._sorted = b"\n" + sorted_path.read_bytes().strip(b"\n") + b"\n"  # every line between two newlines
        self._dict: dict[str, int] | None = None
        self._lookups = 0

    def get(self, token: str, default=None):
        table = self._dict
        if table is not None:
            return table.get(token, default)
        self._lookups += 1
        if self._lookups > DICT_AFTER:
            return self.as_dict().get(token, default)
        key, blob = token.encode("utf-8", "surrogatepass"), self._sorted
        lo, hi = 0, len(blob) - 1  # the candidate lines start at a newline in [lo, hi)
        while lo < hi:
            start = blob.rfind(b"\n", lo, (lo + hi) // 2 + 1)  # >= lo: blob[lo] is a newline
            tab = blob.find(b"\t", start)
            line = blob[start + 1 : tab]
            if line == key:
                return int(blob[tab + 1 : blob.find(b"\n", tab)])
            if line < key:
                lo = blob.find(b"\n", tab)  # the next line's start
            else:
                hi = start
        return default

    def __getitem__(self, token: str) -> int:
        found = self.get(token)
        if found is None:
            raise KeyError(token)
        return found

    def as_dict(self) -> dict[str, int]:
        if self._dict is None:
            tokens = self.path.read_text(encoding="utf-8").split("\n")
            self._dict = dict(zip(tokens, range(len(tokens))))
        return self._dict


class WordPiece:
    """The vocabulary and the greedy longest-match cut. Thread-safe lazy load."""

    def __init__(self, path: Path = VOCAB_PATH):
        self.path = path
        self._lock = threading.Lock()
        self._vocab: _Vocab | None = None
        self._cache: dict[str, tuple[int, ...]] = {}

    @property
    def vocab(self) -> _Vocab:
        if self._vocab is None:
            with self._lock:
                if self._vocab is None:
                    self._vocab = _Vocab(self.path, self.path.with_name(SORTED_NAME))
        return self._vocab

    def word_ids(self, word: str) -> tuple[int, ...]:
        """Greedy longest-match WordPiece of one basic word ([UNK] when it cannot be cut)."""
        got = self._cache.get(word)
        if got is not None:
            return got
        vocab = self.vocab
        unk = vocab.get(UNK, 100)
        if len(word) > MAX_WORD:
            ids: tuple[int, ...] = (unk,)
        else:
            out, start = [], 0
            while start < len(word):
                end = len(word)
                while end > start:
                    tid = vocab.get(word[start:end] if start == 0 else "##" + word[start:end])
                    if tid is not None:
                        out.append(tid)
                        break
                    end -= 1
                else:
                    out = [unk]
                    break
                start = end
            ids = tuple(out)
        if len(self._cache) < 200_000:
            self._cache[word] = ids
        return ids

    def token_ids(self, text: str) -> list[int]:
        """The ids of ``text`` without special tokens."""
        ids: list[int] = []
        for w in basic_words(text):
            ids.extend(self.word_ids(w))
        return ids

    def encode(self, text: str, max_tokens: int) -> list[int]:
        """``[CLS] ids [SEP]`` truncated to ``max_tokens`` (the model's input)."""
        vocab = self.vocab
        return [vocab[CLS], *self.token_ids(text)[: max_tokens - 2], vocab[SEP]]


def vocab_from_tokenizer_json(path: Path = TOKENIZER_PATH) -> str:
    """``vocab.txt``'s content: the tokens of ``tokenizer.json`` in id order (ids are 0..n-1)."""
    vocab = json.loads(path.read_text(encoding="utf-8"))["model"]["vocab"]
    tokens = sorted(vocab, key=vocab.__getitem__)
    if [vocab[t] for t in tokens] != list(range(len(tokens))) or any("\n" in t for t in tokens):
        raise ValueError("tokenizer.json vocabulary is not a dense id range of one-line tokens")
    return "\n".join(tokens)


def sorted_from_vocab(text: str) -> bytes:
    """``vocab-sorted.txt``'s content: ``token<TAB>id`` lines of ``vocab.txt``'s text, sorted by bytes."""
    tokens = text.split("\n")
    if len(set(tokens)) != len(tokens) or any("\t" in t for t in tokens):
        raise ValueError("vocab.txt holds a token twice or a token with a tab")
    order = sorted(range(len(tokens)), key=lambda i: tokens[i].encode("utf-8"))
    return b"".join(tokens[i].encode("utf-8") + b"\t" + str(i).encode() + b"\n" for i in order)


if __name__ == "__main__":
    VOCAB_PATH.write_text(vocab_from_tokenizer_json(), encoding="utf-8")
    SORTED_PATH.write_bytes(sorted_from_vocab(VOCAB_PATH.read_text(encoding="utf-8")))
    print(f"wrote {VOCAB_PATH} and {SORTED_PATH}")
