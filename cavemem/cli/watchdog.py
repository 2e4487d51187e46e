"""A hard wall-clock deadline for work done in this very process (the Claude Code hooks).

A hook must answer within its budget, or print nothing and exit 0. Running the work in a forked
worker that the parent killed (the first design, removed) doubled the start-up that counts: the
child copies every page it writes (about 1,300 page faults for ``user-prompt``, each several
microseconds on a virtual machine). Here the work stays on the main thread and two clocks watch it:

- a watchdog thread (``_thread``: no ``threading`` import), which wins whenever the work waits
  with the GIL released — stdin the agent never closes, SQLite busy or reading, a spawn;
- ``SIGALRM`` (``signal.setitimer``), whose handler runs on the main thread between bytecodes and
  inside a regex match (``re`` polls for signals while it backtracks), i.e. while the work holds
  the GIL in the one kind of call that can run away.

Whichever fires first calls ``on_expiry`` (which must only log: ``os.write``, no buffered stream
the main thread may hold), then ``os._exit(0)``. :meth:`Deadline.finish` disarms both under the
same lock before the answer is written, so an answer is printed whole or not at all. A C call that
holds the GIL without polling signals (``json.loads`` of the 16 MiB stdin cap: tens of ms) can
delay the exit by its own length, no more.
"""

from __future__ import annotations

import _thread
import os


class Deadline:
    """Armed on creation; ``finish()`` when the work is done, before printing its answer."""

    def __init__(self, seconds: float, on_expiry) -> None:
        self._lock = _thread.allocate_lock()
        self._wake = _thread.allocate_lock()
        self._wake.acquire()  # released by finish(): the watchdog thread then returns
        self._done = False
        self._on_expiry = on_expiry
        self._previous = _arm_alarm(max(0.001, seconds), self._on_alarm)
        _thread.start_new_thread(self._watch, (max(0.0, seconds),))

    def _watch(self, seconds: float) -> None:
        if not self._wake.acquire(timeout=seconds):
            self._expire(blocking=True)

    def _on_alarm(self, signum, frame) -> None:
        self._expire(blocking=False)  # never wait in a handler: the main thread may hold the lock

    def _expire(self, blocking: bool) -> None:
        if not self._lock.acquire(blocking):
            return  # finish() is running, or the other clock is already expiring
        if self._done:
            self._lock.release()
            return
        try:
            self._on_expiry()
        except BaseException:  # noqa: BLE001 - nothing may stop the exit
            pass
        finally:
            os._exit(0)

    def finish(self) -> None:
        """Disarm both clocks; once this returns the deadline can no longer end the process."""
        with self._lock:  # waits for an expiry already under way (which then exits)
            self._done = True
        self._wake.release()
        if self._previous is not None:
            signal = _signals()
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous)


def _arm_alarm(seconds: float, handler):
    """Install ``handler`` for ``SIGALRM`` in ``seconds``; the previous handler, or None where
    there is no alarm (not the main thread, no ``setitimer``)."""
    signal = _signals()
    if not hasattr(signal, "setitimer"):
        return None
    try:
        previous = signal.signal(signal.SIGALRM, handler)
    except ValueError:  # not the main thread: the watchdog thread alone keeps the time
        return None
    signal.setitimer(signal.ITIMER_REAL, seconds)
    return signal.SIG_DFL if previous is None else previous


def _signals():
    """The C ``_signal`` module: ``signal.py`` on top of it builds enums of every signal name
    (3 M instructions) that a deadline never needs; same functions, plain ints."""
    try:
        import _signal

        return _signal
    except ImportError:  # pragma: no cover - an interpreter without it
        import signal

        return signal
