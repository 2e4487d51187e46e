"""Which database a store lives in: SQLite files (one person, one machine) or a PostgreSQL server
(a team sharing project memory). Selected by ``CAVEMAN_DB_URL`` (``postgresql://…``; unset = the
SQLite files as before) or an explicit ``--db URL``; the layers above see the same store objects
either way (:class:`MemoryBackend`, :class:`RecoveryBackend`).

This module is imported on the hot path, so it must not import psycopg: the PostgreSQL code in
:mod:`cavemem.store.pg` is loaded only when a ``postgresql://`` URL is actually used.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Sequence

TYPE_CHECKING = False  # typing's own flag without importing typing (12 M instructions of a hot CLI command)
if TYPE_CHECKING:
    from typing import Protocol
else:
    Protocol = object  # the classes below document the interfaces; only type checkers check them

SCHEMES = ("postgresql://", "postgres://")


def db_url(explicit: str | None = None) -> str | None:
    """The configured server URL: ``explicit`` (``--db``) first, then ``CAVEMAN_DB_URL``."""
    url = explicit if explicit is not None else os.environ.get("CAVEMAN_DB_URL", "")
    url = (url or "").strip()
    return url or None


def is_postgres(target: str | None) -> bool:
    return bool(target) and target.strip().lower().startswith(SCHEMES)


def server_url(path: str | None, file_env: str = "") -> str | None:
    """The PostgreSQL URL a store opened with ``path`` uses, or None for SQLite: an explicit
    ``postgresql://`` path, else ``CAVEMAN_DB_URL`` when no file was asked for (neither as
    ``path`` nor through the store's own variable ``file_env``, which is more specific)."""
    if path is not None:
        return path if is_postgres(path) else None
    named = os.environ.get(file_env, "").strip() if file_env else ""
    if named:
        return named if is_postgres(named) else None
    url = db_url()
    return url if is_postgres(url) else None


# Compiled on first use (re caches them): every store open imports this module, few mask a URL.
_PASSWORD = r"(://[^:/@?#]*:)([^@/?#]*)(@)"
_QUERY_PASSWORD = r"(?i)((?:^|[?&\s])password=)([^&\s]*)"


def mask_url(url: str) -> str:
    """``url`` with any password replaced by ``***`` (error messages and reports show URLs)."""
    return re.sub(_QUERY_PASSWORD, r"\1***", re.sub(_PASSWORD, r"\1***\3", url))


class RecoveryBackend(Protocol):
    """What the engine, MCP and memory layer use of the recovery store (``store.ccr.CCRStore``)."""

    max_bytes: int

    def put(self, original: bytes, *, content_type: str, compressor: str, tokens_before: int,
            tokens_after: int, metadata: bytes = b"", owner: str | None = None) -> str: ...
    def put_many(self, items: list[tuple[bytes, dict]]) -> list[str]: ...
    def get(self, handle: str) -> bytes: ...
    def get_metadata(self, handle: str) -> bytes: ...
    def delete(self, handle: str) -> bool: ...
    def release(self, handles: list[str], owner: str) -> int: ...
    def owners(self, handle: str) -> list[str]: ...
    def contains(self, handle: str) -> bool: ...
    def storage_bytes(self) -> int: ...
    def summary(self) -> dict: ...
    def close(self) -> None: ...


class MemoryBackend(Protocol):
    """What the memory API, capture, recall and embeddings use of the memory store
    (``memory.store.MemoryStore``). ``read``/``write`` take the store's SQL dialect (SQLite's,
    with ``?`` parameters); the PostgreSQL store translates it, and implements the search
    primitives (full-text, substrings, vectors) natively."""

    path: str

    def read(self, sql: str, params: Sequence = ()) -> list: ...
    def write(self, fn: Callable, action: str = "write"): ...
    def corpus(self) -> tuple[int, int]: ...
    def doc_freqs(self, terms: Iterable[str]) -> dict[str, int]: ...
    def fts_candidates(self, terms: Sequence[str], where, k: int, *, newest: int = 0) -> list[tuple[int, float]]: ...
    def substring_candidates(self, needle: str, where, k: int) -> list[int]: ...
    # a recall's batched reads: one round trip each on a server (the SQLite store runs its single reads)
    def term_stats(self, terms: Iterable[str]) -> tuple[tuple[int, int], dict[str, int]]: ...
    def pool_rows(self, seqs: Iterable[int]) -> tuple[dict, dict]: ...
    def neighbors_many(self, recs, where) -> tuple[dict, dict]: ...
    def stats(self) -> dict: ...
    def close(self) -> None: ...


def take_db_option(args: list[str]) -> list[str]:
    """``--db URL`` / ``--db=URL`` removed from a command's arguments and exported as
    ``CAVEMAN_DB_URL`` for the stores this process opens (every memory and engine command
    accepts it; a bare ``--`` ends the search so memory text can still be ``--db``)."""
    out: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            out.extend(args[i:])
            break
        if a == "--db" and i + 1 < len(args):
            os.environ["CAVEMAN_DB_URL"] = args[i + 1]
            i += 2
            continue
        if a.startswith("--db="):
            os.environ["CAVEMAN_DB_URL"] = a[len("--db="):]
        else:
            out.append(a)
        i += 1
    return out
