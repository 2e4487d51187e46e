"""Where cavemem keeps its files: ``~/.caveman`` unless the environment says otherwise.

- ``CAVEMAN_HOME`` moves the whole directory (recovery store, memories, caches).
- ``CAVEMAN_CCR_DB`` moves only the recovery-store file.
- ``CAVEMAN_MEM_DB`` moves only the memory-store file.
- ``CAVEMAN_CACHE_DIR`` moves only the cache (parsed token ranks), so test runs that use a fresh
  home each time can share one cache.
"""

from __future__ import annotations

import os

from .errors import StoreUnavailable


def home_dir() -> str:
    env = os.environ.get("CAVEMAN_HOME", "")
    if env.strip():
        return os.path.abspath(os.path.expanduser(env))
    home = os.path.expanduser("~")
    if home == "~" or not home:
        raise StoreUnavailable("cannot resolve home directory: $HOME is not set")
    return os.path.join(home, ".caveman")


def ensure_private_dir(path: str, code: str = "cave_ccr_unavailable") -> str:
    """Create ``path`` and every missing parent with mode 0700 (``os.makedirs`` gives parents the
    umask's mode); never chmods a directory that already exists. Failures raise ``code``."""
    from .errors import CaveError

    missing = []
    cur = os.path.abspath(path)
    while not os.path.isdir(cur):
        missing.append(cur)
        parent = os.path.dirname(cur)
        if parent == cur:
            break
        cur = parent
    try:
        for d in reversed(missing):
            try:
                os.mkdir(d, 0o700)
            except FileExistsError:
                if not os.path.isdir(d):
                    raise
                continue
            os.chmod(d, 0o700)  # a umask like 077 is fine; one like 0o200 must not weaken it
    except OSError as exc:
        raise CaveError(code, f"cannot create {path}: {exc.strerror or exc}") from exc
    return path


def write_private_file(path: str, data: bytes, *, exclusive: bool = False, sync: bool = True) -> None:
    """Write ``data`` to a 0600 file (truncating it, or refusing an existing one when
    ``exclusive``), every byte, fsynced unless ``sync`` is off. Raises OSError."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_EXCL if exclusive else os.O_TRUNC)
    fd = os.open(path, flags, 0o600)
    try:
        view = memoryview(data).cast("B")
        while view:
            view = view[os.write(fd, view):]
        if sync:
            os.fsync(fd)
    finally:
        os.close(fd)


def ccr_db_path() -> str:
    env = os.environ.get("CAVEMAN_CCR_DB", "")
    if env:
        return env
    return os.path.join(ensure_private_dir(home_dir()), "ccr.db")


def mem_db_path() -> str:
    env = os.environ.get("CAVEMAN_MEM_DB", "")
    if env:
        return env
    return os.path.join(ensure_private_dir(home_dir(), "cave_store_unavailable"), "mem.db")


def cache_dir() -> str:
    env = os.environ.get("CAVEMAN_CACHE_DIR", "")
    if env.strip():
        return os.path.abspath(os.path.expanduser(env))
    return os.path.join(home_dir(), "cache")
