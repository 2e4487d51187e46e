"""``python -m cavemem.warm.server MODULE:FUNCTION``: the warm recall process (see :mod:`cavemem.warm`).

The handler ``FUNCTION(command, opts) -> exit code`` is named by the adapter that starts the
server (``cavemem.cli.commands.memory:served``): it runs the same code as the in-process command,
writing to ``sys.stdout`` / ``sys.stderr``, which the server captures per request. Requests are
served one at a time (each swaps the process's stdio and cwd), on a fresh store connection each,
so another process's remember / forget / supersede is seen by the next request; concurrent
clients wait in the listen backlog.
"""

from __future__ import annotations

import gc
import io as _io
import json
import os
import signal
import sys
import time

from . import PROTOCOL, Address, environment, file_paths, key, package_dir, peer_uid, recv, send, version, warm_dir

IDLE_S = 600  # leave after this long without a request (CAVEMAN_WARM_IDLE_S)
TICK_S = 1.0  # how often an idle server looks at its socket file, its sources and the clock
REQUEST_READ_S = 2.0  # a client that connects and sends nothing is dropped after this
LOCK_WAIT_S = 1.0  # a server that is leaving may still hold the lock this long


def _idle_limit() -> float:
    try:
        return max(0.1, float(os.environ.get("CAVEMAN_WARM_IDLE_S", "") or IDLE_S))
    except ValueError:
        return float(IDLE_S)


def _lock(path: str) -> int | None:
    """The server lock (held for the process's life; the kernel drops it on any exit), or None
    when another server holds it."""
    import fcntl

    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    deadline = time.monotonic() + LOCK_WAIT_S
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except OSError:
            if time.monotonic() >= deadline:
                os.close(fd)
                return None
            time.sleep(0.05)


def warm_up() -> None:
    """Load what a semantic recall loads: the API and its modules, the token ranks, and the MiniLM
    session — pinned to the quick (unprepacked) session a one-shot process uses, whose vectors
    can differ from the prepacked one's in the last bits; the answers must be the same bytes."""
    import cavemem
    from cavemem.memory import plugins

    with cavemem.Memory(":memory:", scorers=[]) as m:
        m.recall("warm up")
    cavemem.count_tokens("warm up")
    import cavemem.engine.core  # noqa: F401 - recall packs its hits through the engine
    import cavemem.memory.pack  # noqa: F401

    embed = plugins.get("embed")
    if embed is None:
        return
    try:
        encoder = embed.encoder()
        encoder.quick_runs = sys.maxsize
        encoder.embed(["warm up"])
        encoder.prepack_queries()  # the questions' int8 session: the same bytes prepacked, ~1.5 ms less a question
    except Exception:  # noqa: BLE001 - the model fails the same way in the request, which reports it
        pass


def _store_label() -> str:
    from ..store.backend import db_url, mask_url

    url = db_url()
    if os.environ.get("CAVEMAN_MEM_DB"):
        return os.environ["CAVEMAN_MEM_DB"]
    return mask_url(url) if url else os.path.join(os.path.dirname(warm_dir()), "mem.db")


class Server:
    def __init__(self, handler, env: dict, paths: dict):
        self.handler, self.env, self.paths = handler, env, paths
        self.served = 0
        self.started = time.time()
        self.last = time.monotonic()
        self.sources: dict[str, int] = {}
        self.sock = None
        self.inode = None

    # -- life cycle ----------------------------------------------------------------------------
    def bind(self) -> None:
        import socket

        path = self.paths["sock"]
        try:
            os.unlink(path)  # stale: we hold the lock, so no live server answers on it
        except FileNotFoundError:
            pass
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        with Address(path) as address:
            sock.bind(address)
        os.chmod(path, 0o600)
        sock.listen(64)
        sock.settimeout(TICK_S)
        self.sock, self.inode = sock, os.stat(path).st_ino
        self.write_pid("serving")

    def write_pid(self, state: str) -> None:
        """The pid file (``cavemem doctor`` and :func:`cavemem.warm.stop_all` read it): written as soon
        as the lock is held, so a server still warming up can be found and stopped too."""
        path = self.paths["sock"]
        info = {"pid": os.getpid(), "state": state, "socket": path, "key": os.path.basename(path)[:-5],
                "started": int(self.started), "version": version(), "pkg": package_dir(), "store": _store_label(),
                "idle_s": _idle_limit()}
        tmp = self.paths["pid"] + f".{os.getpid()}"
        with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w", encoding="utf-8") as fh:
            json.dump(info, fh)
        os.replace(tmp, self.paths["pid"])

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
        if self._socket_is_ours():
            _unlink(self.paths["sock"])
        try:
            with open(self.paths["pid"], encoding="utf-8") as fh:
                mine = json.load(fh).get("pid") == os.getpid()
        except (OSError, ValueError):
            mine = False
        if mine:
            _unlink(self.paths["pid"])

    def _socket_is_ours(self) -> bool:
        try:
            return self.inode is not None and os.stat(self.paths["sock"]).st_ino == self.inode
        except OSError:
            return False

    def stale(self) -> bool:
        """A cavemem source file this process loaded has changed since it loaded it."""
        pkg = package_dir() + os.sep
        for mod in list(sys.modules.values()):
            path = getattr(mod, "__file__", None)
            if not path or not path.startswith(pkg):
                continue
            try:
                mtime = os.stat(path).st_mtime_ns
            except OSError:
                return True
            if self.sources.setdefault(path, mtime) != mtime:
                return True
        return False

    def serve_forever(self) -> None:
        import socket

        limit = _idle_limit()
        while True:
            try:
                conn, _ = self.sock.accept()
            except socket.timeout:
                if time.monotonic() - self.last > limit or not self._socket_is_ours() or self.stale():
                    return
                continue
            try:
                leave = self.handle(conn)
            finally:
                conn.close()
                self.last = time.monotonic()
            if leave:
                return
            gc.collect()  # after the reply: each request's store connections and vector maps sit in cycles

    # -- one request ---------------------------------------------------------------------------
    def handle(self, conn) -> bool:
        """Answer one connection; True when the server should leave afterwards."""
        try:
            if peer_uid(conn) != os.getuid():
                return False
            conn.settimeout(REQUEST_READ_S)
            header, _ = recv(conn)
            conn.settimeout(None)
            if header.get("op") == "status":
                send(conn, {"ok": True, "pid": os.getpid(), "served": self.served, "started": int(self.started),
                            "idle_s": round(time.monotonic() - self.last, 1), "version": version()})
                return False
            why = self._refusal(header)
            if why:
                send(conn, {"ok": False, "why": why})
                return why == "stale"
            try:
                code, out, err = self._run(header)
            except Exception as exc:  # noqa: BLE001 - the client runs it in process and reports it there
                send(conn, {"ok": False, "why": f"error: {type(exc).__name__}"})
                return False
            self.served += 1
            send(conn, {"ok": True, "code": code}, (out, err))
        except (OSError, EOFError, ValueError, TypeError, AttributeError):
            pass  # a client that went away or spoke nonsense: it falls back on its own
        return False

    def _refusal(self, header: dict) -> str | None:
        if (header.get("v") != PROTOCOL or header.get("version") != version() or header.get("pkg") != package_dir()
                or header.get("env") != self.env or header.get("op") != "run"):
            return "mismatch"
        if self.stale():
            return "stale"
        streams = header.get("streams")
        if not (isinstance(streams, list) and len(streams) == 4 and all(isinstance(s, str) for s in streams)):
            return "mismatch"
        if not isinstance(header.get("opts"), dict) or not isinstance(header.get("cwd"), str):
            return "mismatch"
        return None

    def _run(self, header: dict) -> tuple[int, bytes, bytes]:
        """The handler with this request's cwd and stdio; the stdio and cwd restored after."""
        enc_out, err_out, enc_err, err_err = header["streams"]
        out_b, err_b = _io.BytesIO(), _io.BytesIO()
        out = _io.TextIOWrapper(out_b, encoding=enc_out, errors=err_out, write_through=True)
        err = _io.TextIOWrapper(err_b, encoding=enc_err, errors=err_err, write_through=True)
        saved = sys.stdout, sys.stderr
        os.chdir(header["cwd"])
        try:
            sys.stdout, sys.stderr = out, err
            code = self.handler(header["command"], header["opts"])
            out.flush()
            err.flush()
        finally:
            sys.stdout, sys.stderr = saved
            os.chdir("/")
        if not isinstance(code, int):
            raise TypeError("handler returned no exit code")
        return code, out_b.getvalue(), err_b.getvalue()


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _handler(spec: str):
    import importlib

    module, _, attr = spec.partition(":")
    return getattr(importlib.import_module(module), attr)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    os.umask(0o077)
    os.chdir("/")
    env = environment()
    from ..paths import ensure_private_dir

    ensure_private_dir(warm_dir())
    paths = file_paths(key(env))
    lock = _lock(paths["lock"])
    if lock is None:
        return 0  # another server holds this key
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    server = Server(None, env, paths)
    try:
        server.write_pid("starting")
        server.handler = _handler(argv[0] if argv else "cavemem.cli.commands.memory:served")
        warm_up()
        gc.freeze()  # what warm-up loaded lives as long as the process: the per-request collections skip it
        server.stale()  # record the sources as loaded
        server.bind()
        server.serve_forever()
    finally:
        server.close()
        os.close(lock)
    return 0


if __name__ == "__main__":
    sys.exit(main())
