"""The client side of the warm recall process: ask the server, or say why not.

:func:`call` returns ``(exit code, stdout bytes, stderr bytes)`` when the server answered, else a
short reason (``"off"``, ``"absent"``, ``"refused"``, ``"timeout"``, ``"mismatch"``, ``"stale"``,
``"error"``, ...), and the caller runs the command in process. :func:`after_cold` then starts a
server when the in-process run loaded the semantic model and none is running. Imports only
``os``, ``sys``, ``json`` and ``_socket`` until a server has to be started.
"""

from __future__ import annotations

import os
import sys

from . import PROTOCOL, Address, enabled, environment, file_paths, key, package_dir, peer_uid, recv, send, version

CONNECT_TIMEOUT_S = 0.05  # a local socket connects at once or not at all; a full backlog waits
REPLY_TIMEOUT_MS = 10_000  # a recall that backfills vectors after a bulk write can take seconds
HANDLER = "cavemem.cli.commands.memory:served"
SPAWN_REASONS = ("absent", "refused", "stale", "mismatch")


def _reply_timeout() -> float:
    try:
        return max(1, int(os.environ.get("CAVEMAN_WARM_TIMEOUT_MS", "") or REPLY_TIMEOUT_MS)) / 1000
    except ValueError:
        return REPLY_TIMEOUT_MS / 1000


def _streams() -> list[str] | None:
    """The encodings the in-process command would write with (None: a stream is closed)."""
    out, err = sys.stdout, sys.stderr
    if out is None or err is None or not hasattr(out, "buffer") or not hasattr(err, "buffer"):
        return None
    return [out.encoding, out.errors, err.encoding, err.errors]


def call(command: str, opts: dict, timeout_s: float | None = None):
    """The server's ``(code, stdout, stderr)`` for ``command`` with parsed ``opts``, or a reason.
    ``timeout_s`` bounds the wait for the reply (a hook under a deadline), else
    ``CAVEMAN_WARM_TIMEOUT_MS`` or 10 s."""
    if not enabled():
        return "off"
    streams = _streams()
    if streams is None:
        return "closed-stdio"
    try:
        import _socket

        env = environment()
        paths = file_paths(key(env))
        request = {"v": PROTOCOL, "op": "run", "command": command, "opts": opts, "cwd": os.getcwd(), "env": env,
                   "version": version(), "pkg": package_dir(), "streams": streams}
    except Exception as exc:  # noqa: BLE001 - no home, cwd gone, opts not JSON: the in-process path says why
        return f"error: {exc}"
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.settimeout(CONNECT_TIMEOUT_S)
        try:
            with Address(paths["sock"]) as address:
                sock.connect(address)
        except (FileNotFoundError, NotADirectoryError):
            return "absent"
        except ConnectionRefusedError:
            return "refused"
        except OSError as exc:  # a timeout (full backlog), a too-long path, ...
            return f"connect: {exc}"
        if peer_uid(sock) != os.getuid():
            return "foreign"
        sock.settimeout(_reply_timeout() if timeout_s is None else max(0.001, timeout_s))
        send(sock, request)
        header, blobs = recv(sock)
    except (OSError, EOFError, ValueError, TypeError) as exc:  # incl. timeouts and a server killed mid-reply
        return "timeout" if "timed out" in str(exc) else f"error: {exc}"
    finally:
        sock.close()
    if header.get("ok") is not True or len(blobs) != 2 or not isinstance(header.get("code"), int):
        return str(header.get("why") or "error")
    return header["code"], blobs[0], blobs[1]


def write_reply(out: bytes, err: bytes) -> None:
    """The served bytes on our stdout and stderr, as the in-process command would have left them."""
    if out:
        sys.stdout.flush()
        sys.stdout.buffer.write(out)
        sys.stdout.buffer.flush()
    if err:
        sys.stderr.flush()
        sys.stderr.buffer.write(err)
        sys.stderr.buffer.flush()


def after_cold(reason) -> bool:
    """After an in-process run: start a server for the next call when this one paid for the
    semantic model and no server is running or starting. Never raises; True when one was started."""
    if not isinstance(reason, str) or reason not in SPAWN_REASONS or "onnxruntime" not in sys.modules:
        return False
    return start_unless_running()


def start_unless_running() -> bool:
    """Start a server for this environment unless one is serving or starting (the session-start
    hook warms one up before the first prompt needs it). Never raises; True when one was started."""
    if not enabled():
        return False
    try:
        paths = file_paths(key(environment()))
        if _starting(paths["lock"]):
            return False
        return start(HANDLER)
    except Exception:  # noqa: BLE001 - a convenience for the next call, never a failure of this one
        return False


def _starting(lock_path: str) -> bool:
    """Whether a server holds the lock (warming up or serving)."""
    import fcntl

    try:
        fd = os.open(lock_path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    except OSError:
        return True
    finally:
        os.close(fd)


def start(handler: str = HANDLER) -> bool:
    """Start ``python -m cavemem.warm.server HANDLER`` detached from this process: its own session,
    stdio on /dev/null, no inherited descriptors, this environment. It starts in the directory
    above this package (so ``-m`` finds this very copy of cavemem) and moves to ``/`` at once."""
    import subprocess

    try:
        subprocess.Popen([sys.executable, "-m", "cavemem.warm.server", handler], stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=True,
                         start_new_session=True, cwd=os.path.dirname(package_dir()), env=dict(os.environ))
    except OSError:
        return False
    return True
