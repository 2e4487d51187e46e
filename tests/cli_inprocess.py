"""``cavemem`` / ``caveman-engine`` run in the test process: the console script's own ``main``
(the same dispatcher, stdin cap, stdout/stderr discipline and exit-code mapping) on in-memory
streams, with the call's environment and working directory applied only for the call.

Why: a fresh interpreter costs ~0.1-0.3 s of CPU per call (imports, model and rank loads that
this process keeps), and the suite makes hundreds of calls. What it does not cover - the process
itself: start-up imports, a closed stdout, ``os._exit`` flushing, fd-level stdin, concurrent
processes - stays with the real subprocess tests (``run_cli_process``; tests/test_cli_contract.py,
test_startup_imports.py, test_wrappers_fast_exit.py, the hook tests)."""

from __future__ import annotations

import io
import os
import sys
import threading
from pathlib import Path

import pytest

ENTRY = {"cavemem": "cavemem.cli.main", "caveman-engine": "cavemem.cli.engine_cli"}
_LOCK = threading.Lock()  # sys.stdin/stdout/stderr are process-wide: one in-process call at a time


class _Exited(BaseException):
    """Raised in place of ``os._exit`` so the call returns its status to the test."""

    def __init__(self, code: int):
        super().__init__(code)
        self.code = code


def _raise_exit(code: int) -> None:
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    raise _Exited(code)


def run_in_process(prog: str, args: tuple[str, ...], input: bytes, env: dict | None,
                   cwd: Path | None, whole_env: bool = False) -> tuple[int, bytes, bytes]:
    """(exit status, stdout bytes, stderr bytes) of ``prog ARGS`` with ``input`` on stdin; ``env``
    is added to this environment, or with ``whole_env`` is the whole environment (as subprocess's)."""
    import importlib

    from cavemem.cli import io as cli_io

    main = importlib.import_module(ENTRY[prog]).main
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)
    stderr = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace", write_through=True)
    stdin = io.TextIOWrapper(io.BytesIO(input), encoding="utf-8")
    with _LOCK, pytest.MonkeyPatch.context() as mp:
        for key in [k for k in os.environ if whole_env and k not in env]:
            mp.delenv(key)
        for key, value in (env or {}).items():
            mp.setenv(key, value)
        mp.setenv("CAVEMAN_RE_CACHE", "0")  # the regex disk cache patches ``re`` for a process's life
        if cwd is not None:
            mp.chdir(cwd)
        mp.setattr(sys, "stdin", stdin)
        mp.setattr(sys, "stdout", stdout)
        mp.setattr(sys, "stderr", stderr)
        mp.setattr(sys, "argv", [prog, *args])
        mp.setattr(cli_io, "exit_now", _raise_exit)
        mp.setattr(cli_io, "_silence_stdout", lambda: None)  # would point this process's fd 1 at /dev/null
        try:
            main(list(args))
            raise AssertionError(f"{prog} main returned without an exit status")
        except _Exited as done:
            code = done.code
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    return code, stdout.buffer.getvalue(), stderr.buffer.getvalue()
