"""The stop hook's hand-off: spool files written in milliseconds, stored by a detached writer.

Why: a hook must never wait on the memory store (another process may hold the write lock for
seconds, the disk may be slow), yet what a turn asked to remember must not be lost. So the hook
writes one small JSON file into ``$CAVEMAN_HOME/spool/`` (0700 dir, 0600 file, written to a
temporary name then renamed, so a reader never sees half a file) and starts
``python -m cavemem hook drain`` in a new session with no stdio attached, then exits.

The drainer stores every spool file through :class:`cavemem.Memory` (oldest first) and deletes it
once stored; an entry with a ``capture`` part also archives and extracts that transcript's new
lines (:func:`cavemem.memory.capture.capture_transcript`). A store that is locked or unavailable leaves the file for the next drain; an entry
that can never be stored (empty after ``<private>`` removal, too large, …) is dropped with a line in
``spool/drain.log``. One drainer runs at a time (an ``flock`` on ``spool/lock``); a drainer
that finds the lock taken exits, and the running one re-lists the directory before it stops.
"""

from __future__ import annotations

import json
import os
import sys
import time

PERMANENT_CODES = {"cave_memory_empty", "cave_memory_too_large", "cave_invalid_arguments", "cave_memory_conflict"}
MAX_LOG_BYTES = 256 * 1024


def spool_dir() -> str:
    from .. import paths

    return os.path.join(paths.home_dir(), "spool")


def write(entry: dict) -> str:
    """Write one spool file; returns its path. Raises OSError on failure (the caller logs it).

    Fsynced only when it holds something nothing else keeps (explicit memories, hit-rate feedback):
    an entry that only names a transcript to capture is redone by the next Stop (the archive offset
    lives in the store), and an fsync is a Stop hook's slowest step on a busy disk (~8 ms median here)."""
    d = spool_dir()
    _private_dir(d)
    name = f"{time.time_ns():020d}-{os.getpid()}.json"
    tmp = os.path.join(d, "." + name + ".tmp")
    from ..paths import write_private_file

    durable = bool(entry.get("memories")) or bool(entry.get("feedback"))
    write_private_file(tmp, json.dumps(entry, ensure_ascii=False).encode("utf-8", "surrogatepass"), exclusive=True, sync=durable)
    final = os.path.join(d, name)
    os.replace(tmp, final)
    return final


def pending() -> list[str]:
    d = spool_dir()
    try:
        names = sorted(n for n in os.listdir(d) if n.endswith(".json") and not n.startswith("."))
    except OSError:
        return []
    return [os.path.join(d, n) for n in names]


DRAIN_NICE = 10


def lower_priority() -> None:
    """The detached writer yields the CPU to the agent and its hooks: the next hook process (a
    UserPromptSubmit right after a Stop) must not wait behind a capture pass on a busy machine."""
    try:
        os.nice(DRAIN_NICE)
    except (AttributeError, OSError):  # pragma: no cover - Windows / not permitted: run as is
        pass


def start_drainer() -> None:
    start_detached("drain")


def start_detached(action: str) -> None:
    """Run ``cavemem hook <action>`` detached: new session, no stdin/stdout/stderr tied to the
    hook's pipes (Claude Code waits for the hook's stdout to close)."""
    argv = [sys.executable, "-m", "cavemem", "hook", action]
    if hasattr(os, "posix_spawn"):  # no subprocess import (~5 ms of a Stop hook's start-up), no fork of this process
        devnull = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0) for fd in (0, 1, 2)]
        os.posix_spawn(sys.executable, argv, os.environ, file_actions=devnull, setsid=True)  # other fds are close-on-exec
        return
    import subprocess

    kwargs: dict = {"stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL,
                    "close_fds": True}
    if os.name == "posix":
        kwargs["start_new_session"] = True
    else:  # pragma: no cover - Windows
        kwargs["creationflags"] = getattr(subprocess, "DETACHED_PROCESS", 0) | getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
    subprocess.Popen(argv, **kwargs)


def _log(line: dict) -> None:
    path = os.path.join(spool_dir(), "drain.log")
    try:
        if os.path.exists(path) and os.path.getsize(path) > MAX_LOG_BYTES:
            os.replace(path, path + ".1")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            os.write(fd, (json.dumps(line, ensure_ascii=False) + "\n").encode())
        finally:
            os.close(fd)
    except OSError:
        pass


def _lock():
    """An exclusive, non-blocking lock on ``spool/lock``; None when another drainer holds it."""
    d = spool_dir()
    _private_dir(d)
    fd = os.open(os.path.join(d, "lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except ImportError:  # pragma: no cover - Windows: best effort without a lock
        return fd
    except OSError:
        os.close(fd)
        return None
    return fd


def drain(memory_factory=None, max_rounds: int = 20) -> dict:
    """Store every spooled memory. Returns ``{"stored", "dropped", "kept"}`` counts."""
    from ..errors import CaveError

    counts = {"stored": 0, "dropped": 0, "kept": 0}
    fd = _lock()
    if fd is None:
        return counts
    memories: dict = {}
    try:
        for _ in range(max_rounds):
            files = pending()
            if not files:
                break
            progressed = False
            for path in files:
                try:
                    with open(path, "rb") as fh:
                        entry = json.loads(fh.read().decode("utf-8", "replace"))
                    items = entry["memories"]
                    if not isinstance(items, list):
                        raise ValueError("memories is not a list")
                except (OSError, ValueError, KeyError, TypeError) as exc:
                    _log({"file": os.path.basename(path), "dropped": "unreadable spool file", "error": str(exc)})
                    _unlink(path)
                    counts["dropped"] += 1
                    continue
                cwd = entry.get("cwd") if isinstance(entry.get("cwd"), str) else None
                try:
                    mem = memories.get(cwd)
                    if mem is None:
                        mem = memories[cwd] = (memory_factory or _default_memory)(cwd)
                    left = []
                    for item in items:
                        try:
                            mem.remember(
                                item.get("text", ""), session=entry.get("session"), kind=item.get("kind"),
                                topic=item.get("topic"), tags=tuple(item.get("tags") or ("claude-code",)),
                            )
                            counts["stored"] += 1
                        except CaveError as exc:
                            if exc.code in PERMANENT_CODES:
                                _log({"file": os.path.basename(path), "dropped": exc.code, "message": exc.message})
                                counts["dropped"] += 1
                            else:
                                left.append(item)
                    if isinstance(entry.get("feedback"), dict) and isinstance(entry["feedback"].get("injected"), list):
                        from ..memory.capture import feedback

                        feedback.record(mem, entry["feedback"]["injected"], str(entry["feedback"].get("reply") or ""))
                        entry.pop("feedback")  # counted once, even if capture below must wait
                    if isinstance(entry.get("capture"), dict):
                        try:
                            if _capture(mem, entry["capture"], os.path.basename(path)):
                                counts["captured"] = counts.get("captured", 0) + 1
                        except CaveError:  # locked / unavailable: the memories above are stored, capture later
                            entry["memories"] = left
                            _rewrite(path, entry)
                            raise
                except CaveError as exc:  # the store itself is unavailable or locked: try later
                    _log({"file": os.path.basename(path), "kept": exc.code, "message": exc.message})
                    counts["kept"] += 1
                    break
                if left:
                    entry["memories"] = left
                    _rewrite(path, entry)
                    counts["kept"] += 1
                    continue
                _unlink(path)
                progressed = True
            if not progressed:
                break
    finally:
        for mem in memories.values():
            try:
                mem.close()
            except Exception:  # noqa: BLE001 - closing is best effort
                pass
        os.close(fd)
    return counts


def _capture(mem, request: dict, name: str) -> bool:
    """Archive and extract the transcript a Stop / SessionEnd / PreCompact named. A missing or
    unreadable transcript is logged and dropped; store trouble (CaveError) is the caller's."""
    from ..errors import CaveError
    from ..memory.capture import capture_transcript

    path = request.get("transcript_path")
    if not isinstance(path, str) or not path:
        return False
    session = request.get("session") if isinstance(request.get("session"), str) else None
    cwd = request.get("cwd") if isinstance(request.get("cwd"), str) else None
    try:
        report = capture_transcript(mem, path, session=session, cwd=cwd)
    except CaveError:
        raise
    except Exception as exc:  # noqa: BLE001 - a bad transcript must not stop the queue
        _log({"file": name, "capture_dropped": type(exc).__name__, "message": str(exc)[:300]})
        return False
    if report.stored:
        _log({"file": name, "captured": len(report.stored), "session": report.session, "new_messages": report.new_messages})
    return True


def _default_memory(cwd: str | None):
    from .. import Memory

    return Memory(cwd=cwd)


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _rewrite(path: str, entry: dict) -> None:
    from ..paths import write_private_file

    tmp = path + ".tmp"
    try:
        write_private_file(tmp, json.dumps(entry, ensure_ascii=False).encode("utf-8", "surrogatepass"), sync=False)
        os.replace(tmp, path)
    except OSError:
        pass


def _private_dir(d: str) -> None:
    """The spool and every missing parent (the home) 0700; OSError like ``os.makedirs``."""
    from .. import paths
    from ..errors import CaveError

    try:
        paths.ensure_private_dir(d)
    except CaveError as exc:
        raise OSError(str(exc)) from exc
