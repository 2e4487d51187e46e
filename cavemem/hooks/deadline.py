"""A hard wall-clock limit for hook work (issue 15 item 3).

A deadline kept by a thread fails when the work holds the GIL inside one C call (a regex, a
big ``json.loads``): the waiting thread never gets to run. So the work runs in a forked child
and the parent, which does nothing but wait on a pipe, kills it at the deadline. The child's
answer comes back whole over the pipe, so a killed child can never leave half a line on stdout.
Where ``fork`` is unavailable the work runs on a thread, as before.

A hook's answer is plain data (a JSON-shaped dict), sent with the built-in ``marshal``; only an
exception or an answer marshal refuses is pickled, so the common path never imports ``pickle``
(a tenth of a hook's start-up).
"""

from __future__ import annotations

import marshal
import os
import select
import signal
import time
from collections.abc import Callable

TIMED_OUT = object()


def run_with_deadline(work: Callable[[], object], seconds: float) -> tuple[object, BaseException | None]:
    """``(result, None)``, ``(None, exception)``, or ``(TIMED_OUT, None)`` when ``work`` did not
    finish within ``seconds`` (it is then killed). ``work``'s result must pickle."""
    if not hasattr(os, "fork"):
        return _on_thread(work, seconds)
    started = time.monotonic()
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: do the work, send the outcome, leave without cleanup handlers
        os.close(rfd)
        code = 0
        try:
            try:
                blob = _dumps((work(), None))
            except BaseException as exc:  # noqa: BLE001 - the parent reports it
                blob = _dumps((None, _portable(exc)))
            view = memoryview(blob)
            while view:
                view = view[os.write(wfd, view):]
        except BaseException:  # noqa: BLE001
            code = 1
        finally:
            os._exit(code)
    os.close(wfd)
    try:
        blob = _read_until(rfd, started + seconds)
    finally:
        os.close(rfd)
    if blob is None:
        _kill(pid)
        return TIMED_OUT, None
    _reap(pid)
    if not blob:
        return None, RuntimeError("hook worker exited without an answer")
    return _loads(blob)


def _dumps(outcome: tuple) -> bytes:
    """``b"M"`` + marshal for plain data, ``b"P"`` + pickle for the rest (exceptions)."""
    if outcome[1] is None:
        try:
            return b"M" + marshal.dumps(outcome)
        except ValueError:  # not plain data
            pass
    import pickle

    return b"P" + pickle.dumps(outcome)


def _loads(blob: bytes):
    if blob[:1] == b"M":
        return marshal.loads(blob[1:])
    import pickle

    return pickle.loads(blob[1:])


def _read_until(fd: int, deadline: float) -> bytes | None:
    """Everything the child writes (until it closes the pipe), or None at the deadline."""
    chunks = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            return None
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
    _reap(pid)


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, 0)
    except OSError:
        pass


def _portable(exc: BaseException) -> BaseException:
    """``exc`` if it pickles, else a RuntimeError carrying its code and message."""
    import pickle

    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:  # noqa: BLE001
        err = RuntimeError(f"{type(exc).__name__}: {exc}")
        code = getattr(exc, "code", None)
        if isinstance(code, str):
            err.code = code  # type: ignore[attr-defined]
            err.message = getattr(exc, "message", str(exc))  # type: ignore[attr-defined]
        return err


def _on_thread(work: Callable[[], object], seconds: float) -> tuple[object, BaseException | None]:
    import threading

    box: dict = {}
    done = threading.Event()

    def run() -> None:
        try:
            box["out"] = work()
        except BaseException as exc:  # noqa: BLE001
            box["exc"] = exc
        finally:
            done.set()

    threading.Thread(target=run, name="cavemem-hook", daemon=True).start()
    if not done.wait(seconds):
        return TIMED_OUT, None
    return box.get("out"), box.get("exc")
