"""The ``cavemem serve`` application: API, page, docs and MCP over streamable HTTP in one
Starlette app behind :class:`~cavemem.serve.security.Guard`, plus the uvicorn runner."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import secrets
import time

from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .api import ROUTES, Service
from .page import docs, index, login, openapi, openapi_json
from .review import ROUTES as REVIEW_ROUTES
from .security import Guard, Sessions, check_bind, load_token

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 37778
HOSTS_ENV = "CAVEMAN_SERVE_HOSTS"  # extra Host names to accept (comma-separated), e.g. a LAN name
STATIC_DIR = os.path.join(os.path.dirname(__file__), "static")
WORKER_ENV = "CAVEMAN_SERVE_WORKER"  # launch settings for the worker processes (JSON)
WORKER_APP = "cavemem.serve.app:worker_app"


def _mcp_parts(service: Service):
    """The MCP SDK's streamable-HTTP route and its session manager, sharing the service's
    Memory, Engine and lock; ``(None, None)`` when the [mcp] extra is absent."""
    try:
        from ..mcp.server import build_server
        from ..mcp.tools import Tools
    except ImportError:
        return None, None
    tools = Tools(memory=service.memory, engine=service._engine)
    tools._lock = service.lock  # one lock for API and MCP calls: one SQLite connection underneath
    try:
        server = build_server(tools)
    except Exception:
        return None, None
    # Host/Origin/auth are checked by Guard in front; the SDK's own check would only see 127.0.0.1
    sub = server.streamable_http_app(streamable_http_path="/mcp", stateless_http=True, json_response=True)
    routes = [r for r in sub.routes if getattr(r, "path", None) == "/mcp"]
    return routes, server.session_manager


async def healthz(request):
    """Liveness for container health checks and the benchmark's HTTP baseline: no store access."""
    return JSONResponse({"ok": True})


def create_app(memory, *, engine=None, token: str, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
               mcp: bool = True, readers: int = 2, salt: str | None = None, owns_memory: bool = False):
    """The ASGI app for one Memory (and optionally one Engine). ``token`` is the bearer secret;
    ``readers``: extra Memory instances serving reads in parallel (0 = everything on ``memory``);
    ``salt``: the launch's session-signing salt, the same in every worker (random if None);
    ``owns_memory``: close ``memory`` at shutdown (the worker processes do)."""
    service = Service(memory, engine, readers)
    sessions = Sessions(token, salt or secrets.token_hex(16))
    mcp_routes, manager = _mcp_parts(service) if mcp else (None, None)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        try:
            if manager is None:
                yield
            else:
                async with manager.run():
                    yield
        finally:
            service.close()
            if owns_memory:
                memory.close()

    api_routes = ROUTES + REVIEW_ROUTES
    routes = api_routes + [
        Route("/", index, methods=["GET"]),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/login", login, methods=["GET"]),
        Route("/docs", docs, methods=["GET"]),
        Route("/openapi.json", openapi_json, methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=STATIC_DIR), name="static"),
    ] + (mcp_routes or [])
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.service = service
    app.state.sessions = sessions
    app.state.openapi = openapi(api_routes)
    app.state.base_url = base_url(host, port)
    app.state.mcp = manager is not None
    extra = tuple(h.strip() for h in os.environ.get(HOSTS_ENV, "").split(",") if h.strip())
    return Guard(app, token=token, sessions=sessions, host=host, port=port, extra_hosts=extra), app


def base_url(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def worker_app():
    """uvicorn's app factory, run in each worker process: the launch settings come from
    ``CAVEMAN_SERVE_WORKER`` (no secret in them: the token is read from where the launcher found it)."""
    from .. import Memory  # the API layer's Memory: it plugs in the semantic scorers, as the CLI's does

    cfg = json.loads(os.environ[WORKER_ENV])
    if cfg.get("workers", 1) > 1:
        _stop_with_parent()
    token, _ = load_token(create=False)
    guarded, _ = create_app(Memory(), token=token, host=cfg["host"], port=cfg["port"], readers=cfg["readers"],
                            salt=cfg["salt"], owns_memory=True)
    return guarded


def _stop_with_parent() -> None:
    """A worker whose launcher died (SIGKILL leaves no time to stop them) stops itself gracefully
    instead of holding the store open as an orphan."""
    import signal
    import threading

    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(1.0)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="cavemem-parent-watch", daemon=True).start()


def serve(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *, open_browser: bool = False, out=None,
          readers: int = 2, workers: int = 1) -> None:
    """Check the bind, load the token, print the one-time login link, run uvicorn with ``workers``
    processes (each its own store connections; sessions and login codes work across them)."""
    import uvicorn

    out = out or (lambda line: print(line, flush=True))
    token, source = load_token()
    check_bind(host, source)
    salt = secrets.token_hex(16)
    os.environ[WORKER_ENV] = json.dumps({"host": host, "port": port, "readers": readers, "salt": salt, "workers": workers})
    url = base_url(host, port)
    link = f"{url}/login?code={Sessions(token, salt).new_code()}"
    mcp = "/mcp" if importlib.util.find_spec("mcp") is not None else "off: no [mcp] extra"
    out(f"cavemem serve: {url}  (API /api/v1, docs /docs, MCP {mcp}, {workers} worker{'s' * (workers != 1)})")
    out(f"bearer token: {'$CAVEMAN_SERVE_TOKEN' if source == 'env' else os.path.join('$CAVEMAN_HOME', 'serve.token')}")
    out(f"open once to log in: {link}")
    if open_browser:
        import webbrowser

        webbrowser.open(link)
    # access_log off: request lines would carry one-time login codes
    uvicorn.run(WORKER_APP, factory=True, workers=workers, host=host, port=port, access_log=False,
                log_level="warning", server_header=False)
