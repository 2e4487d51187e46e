"""Process I/O for both CLIs: the capped stdin read and the stdout/stderr discipline.

stdout carries only payload bytes; reports and errors go to stderr as one compact JSON line.
"""

from __future__ import annotations

import os
import sys

from ..errors import CaveError

STDIN_LIMIT = 64 * 1024 * 1024  # 67,108,864 bytes accepted; one more is refused


class InputTooLarge(CaveError):
    def __init__(self, limit: int = STDIN_LIMIT) -> None:
        super().__init__("cave_input_too_large", f"stdin exceeds {limit} bytes")
        self.limit = limit


def read_stdin(limit: int = STDIN_LIMIT) -> bytes:
    """Read all of stdin, refusing more than ``limit`` bytes (reads at most limit+1)."""
    stream = sys.stdin.buffer if sys.stdin is not None else None
    if stream is None:
        return b""
    if _is_tty(sys.stdin):
        write_stderr_line("cavemem: reading stdin (pipe a payload in, or type and press Ctrl-D; Ctrl-C cancels)")
    chunks: list[bytes] = []
    got = 0
    while got <= limit:
        chunk = stream.read(min(1 << 20, limit + 1 - got))
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    if got > limit:
        raise InputTooLarge(limit)
    return b"".join(chunks)


def write_stdout(data: bytes) -> None:
    """Payload bytes to stdout; a closed stdout (``>&-``) is a broken pipe, reported quietly."""
    if sys.stdout is None:
        raise BrokenPipeError("stdout is closed")
    out = sys.stdout.buffer
    out.write(data)
    out.flush()


def write_stderr_line(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def json_line(obj) -> str:
    import json

    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def report_error(err: CaveError) -> int:
    """The cavemem error contract: one JSON line on stderr, the code's exit status."""
    write_stderr_line(json_line(err.to_json()))
    return err.exit_code


def _is_tty(stream) -> bool:
    try:
        return os.isatty(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return False


def stderr_is_tty() -> bool:
    return _is_tty(sys.stderr)


def stdout_is_tty() -> bool:
    return _is_tty(sys.stdout)


def run_and_exit(run, argv: list[str] | None, commands=()) -> None:
    """A console-script ``main``: ``run(argv)`` (default ``sys.argv[1:]``) gives the exit
    status; a closed stdout (``| head``) exits 1 and Ctrl-C 130, without a traceback.
    Compiled regular expressions come from the disk cache (:mod:`.recache`; ``CAVEMAN_RE_CACHE=0``
    turns it off), one file per command named in ``commands``."""
    argv = sys.argv[1:] if argv is None else argv
    if os.environ.get("CAVEMAN_RE_CACHE", "") != "0":
        from . import recache

        recache.install(run.__module__.rpartition(".")[2], argv[0] if argv and argv[0] in commands else "")
    try:
        code = run(argv)
    except BrokenPipeError:
        _silence_stdout()
        code = 1
    except KeyboardInterrupt:
        code = 130
    exit_now(code)


def _silence_stdout() -> None:
    """After a broken pipe, point fd 1 at /dev/null so the final flush cannot raise again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
    except OSError:
        pass


def exit_now(code: int) -> None:
    """Flush and leave without interpreter teardown (freeing big caches costs tens of ms)."""
    recache = sys.modules.get("cavemem.cli.recache")
    if recache is not None:
        recache.flush()
    try:
        sys.stdout.flush()
    except Exception:
        pass
    try:
        sys.stderr.flush()
    except Exception:
        pass
    os._exit(code)


class Fatal(Exception):
    """``message\\n`` on stderr and exit 1 (Go's fatal)."""

    def __init__(self, message: str, code: int = 1):
        super().__init__(message)
        self.message = message
        self.code = code


def read_stdin_or_fatal() -> bytes:
    try:
        return read_stdin()
    except InputTooLarge:
        raise Fatal(f"read stdin: cave_input_too_large: stdin exceeds {STDIN_LIMIT} bytes") from None
    except OSError as exc:
        raise Fatal(f"read stdin: {exc}") from None
