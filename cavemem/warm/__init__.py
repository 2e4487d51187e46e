"""The warm recall process: a per-user, per-store server that keeps numpy, onnxruntime, the MiniLM
session and the token ranks loaded, so a semantic ``cavemem recall`` costs a socket round trip
instead of ~130 ms of imports and a model load in every new process.

What runs: after a cold in-process semantic recall, the CLI starts ``python -m cavemem.warm.server``
detached (its own session, stdio on /dev/null, no inherited descriptors). It listens on an
AF_UNIX socket ``$CAVEMAN_HOME/warm/<key>.sock`` (directory 0700, socket 0600, the peer's uid checked
with ``SO_PEERCRED`` on both ends) and leaves after ``CAVEMAN_WARM_IDLE_S`` seconds without a
request (600), when a cavemem source file it loaded changes, when its socket file is removed or
replaced, or on SIGTERM. ``CAVEMAN_WARM=0`` turns the client and the start-up off.

The key names one server per (protocol, cavemem version, package directory, interpreter, and
the environment that can change an answer: ``CAVEMAN_*``, ``CAVE_*``, ``PG*``, ``HOME``, ``TZ``,
``PYTHONPATH``), so a server only ever answers a client whose environment equals the one it was
started with (it checks the whole dict, not only the key).

Protocol (one request per connection): a frame is 4 bytes big-endian header length, a JSON
header, then the raw blobs whose lengths the header lists under ``"blobs"``. The request header
carries the parsed options, cwd, environment and stdio encodings; the reply carries the exit code
and two blobs, the stdout and stderr bytes the command wrote — produced by the very function the
in-process path runs, on a fresh store connection, so they are byte-identical. Anything else
(no server, refused, a slow connect, a mismatch, a short read, a crash) makes the client run the
command in process, with the same output.

This module is imported on the hot path of ``recall``: only ``os``, ``sys``, ``json`` and ``_socket``.
"""

from __future__ import annotations

import json
import os
import sys

PROTOCOL = 1
ENV_PREFIXES = ("CAVEMAN_", "CAVE_", "PG")
ENV_NAMES = ("HOME", "TZ", "PYTHONPATH")
MAX_FRAME = 1 << 30  # a recall's output is far smaller; a larger length is a protocol error
SUN_PATH_MAX = 107  # bytes of an AF_UNIX path (108 with the NUL)


def enabled() -> bool:
    """``CAVEMAN_WARM=0`` (or false/no/off) turns the warm process off; on by default."""
    return os.environ.get("CAVEMAN_WARM", "").strip().lower() not in ("0", "false", "no", "off")


def environment() -> dict[str, str]:
    """The variables that can change a recall's answer (the ``CAVEMAN_WARM*`` knobs cannot)."""
    return {k: v for k, v in os.environ.items()
            if (k.startswith(ENV_PREFIXES) and not k.startswith("CAVEMAN_WARM")) or k in ENV_NAMES}


def package_dir() -> str:
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def version() -> str:
    from .. import __version__

    return __version__


def key(env: dict[str, str]) -> str:
    """16 hex digits naming the server for this code, interpreter (its prefix: a venv) and environment."""
    try:
        from _blake2 import blake2b
    except ImportError:  # an interpreter without the builtin module
        from hashlib import blake2b
    ident = json.dumps([PROTOCOL, version(), package_dir(), sys.prefix, sys.version, sorted(env.items())])
    return blake2b(ident.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def warm_dir() -> str:
    from ..paths import home_dir

    return os.path.join(home_dir(), "warm")


def file_paths(name: str) -> dict[str, str]:
    d = warm_dir()
    return {kind: os.path.join(d, f"{name}.{kind}") for kind in ("sock", "lock", "pid")}


class Address:
    """A socket path short enough for ``sun_path``: the path itself, or (Linux) the same file
    reached through ``/proc/self/fd/N`` of its open directory when ``$CAVEMAN_HOME`` is deep."""

    def __init__(self, path: str):
        self.path, self._fd = path, None

    def __enter__(self) -> str:
        if len(self.path.encode("utf-8", "surrogateescape")) <= SUN_PATH_MAX:
            return self.path
        self._fd = os.open(os.path.dirname(self.path), os.O_RDONLY | os.O_DIRECTORY)
        short = f"/proc/self/fd/{self._fd}/{os.path.basename(self.path)}"
        if len(short) > SUN_PATH_MAX or not os.path.isdir("/proc/self/fd"):
            raise OSError("socket path too long")
        return short

    def __exit__(self, *exc) -> None:
        if self._fd is not None:
            os.close(self._fd)


def peer_uid(sock) -> int:
    """The uid of the process at the other end of a connected AF_UNIX socket (Linux ``ucred``)."""
    import _socket

    cred = sock.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, 12)  # pid, uid, gid: 3 ints
    return int.from_bytes(cred[4:8], sys.byteorder)


def send(sock, header: dict, blobs: tuple[bytes, ...] = ()) -> None:
    head = json.dumps(dict(header, blobs=[len(b) for b in blobs]), ensure_ascii=False).encode("utf-8", "surrogatepass")
    sock.sendall(b"".join((len(head).to_bytes(4, "big"), head, *blobs)))


def _exactly(sock, n: int) -> bytes:
    parts, got = [], 0
    while got < n:
        chunk = sock.recv(min(n - got, 1 << 20))
        if not chunk:
            raise EOFError("warm: connection closed mid-frame")
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def recv(sock) -> tuple[dict, list[bytes]]:
    """One frame; raises EOFError / ValueError on anything malformed."""
    size = int.from_bytes(_exactly(sock, 4), "big")
    if size > MAX_FRAME:
        raise ValueError("warm: frame too large")
    header = json.loads(_exactly(sock, size).decode("utf-8", "surrogatepass"))
    lengths = header.get("blobs", []) if isinstance(header, dict) else None
    if not isinstance(lengths, list) or not all(isinstance(n, int) and 0 <= n <= MAX_FRAME for n in lengths):
        raise ValueError("warm: bad frame header")
    return header, [_exactly(sock, n) for n in lengths]


def servers() -> list[dict]:
    """The warm servers of this ``$CAVEMAN_HOME`` whose process is alive (their pid files)."""
    try:
        d = warm_dir()
        names = sorted(n for n in os.listdir(d) if n.endswith(".pid"))
    except OSError:
        return []
    out = []
    for name in names:
        try:
            with open(os.path.join(d, name), encoding="utf-8") as fh:
                info = json.load(fh)
            os.kill(int(info["pid"]), 0)
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if _is_server(int(info["pid"])):
            out.append(info)
    return out


def _is_server(pid: int) -> bool:
    """Guards against a recycled pid: the process must be running ``cavemem.warm.server``."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return b"cavemem.warm.server" in fh.read()
    except FileNotFoundError:
        return False
    except OSError:  # no /proc (macOS): the pid file's own word
        return True


def stop_all(wait: float = 5.0) -> int:
    """SIGTERM every warm server of this ``$CAVEMAN_HOME``, wait up to ``wait`` s, SIGKILL the rest."""
    import signal
    import time

    pids = [int(s["pid"]) for s in servers()]
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in pids:
            try:
                os.kill(pid, sig)
            except OSError:
                pass
        deadline = time.monotonic() + wait
        while pids and time.monotonic() < deadline:
            pids = [p for p in pids if _alive(p)]
            time.sleep(0.02)
        if not pids:
            break
    return len(pids)


def _alive(pid: int) -> bool:
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)  # our own child: reap it
        if done == pid:
            return False
    except ChildProcessError:
        pass
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    return _is_server(pid)
