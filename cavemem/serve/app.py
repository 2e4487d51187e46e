"""The ``cavemem serve`` application: API, page, docs and MCP over streamable HTTP in one
Starlette app behind :class:`~cavemem.serve.security.Guard`, plus the uvicorn runner."""

from __future__ import annotations

import contextlib
import os

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
               mcp: bool = True, readers: int = 2):
    """The ASGI app for one Memory (and optionally one Engine). ``token`` is the bearer secret;
    ``readers``: extra Memory instances serving reads in parallel (0 = everything on ``memory``)."""
    service = Service(memory, engine, readers)
    sessions = Sessions()
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
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else f"[{host}]" if ":" in host else host
    app.state.base_url = f"http://{shown}:{port}"
    app.state.mcp = manager is not None
    extra = tuple(h.strip() for h in os.environ.get(HOSTS_ENV, "").split(",") if h.strip())
    return Guard(app, token=token, sessions=sessions, host=host, port=port, extra_hosts=extra), app


def serve(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *, open_browser: bool = False, out=None,
          readers: int = 2) -> None:
    """Check the bind, load the token, print the one-time login link, run uvicorn."""
    import uvicorn

    from ..memory.api import Memory

    out = out or (lambda line: print(line, flush=True))

    token, source = load_token()
    check_bind(host, source)
    memory = Memory()
    guarded, app = create_app(memory, token=token, host=host, port=port, readers=readers)
    link = f"{app.state.base_url}/login?code={app.state.sessions.new_code()}"
    out(f"cavemem serve: {app.state.base_url}  (API /api/v1, docs /docs, MCP {'/mcp' if app.state.mcp else 'off: no [mcp] extra'})")
    out(f"bearer token: {'$CAVEMAN_SERVE_TOKEN' if source == 'env' else os.path.join('$CAVEMAN_HOME', 'serve.token')}")
    out(f"open once to log in: {link}")
    if open_browser:
        import webbrowser

        webbrowser.open(link)
    try:
        # access_log off: request lines would carry one-time login codes
        uvicorn.run(guarded, host=host, port=port, access_log=False, log_level="warning", server_header=False)
    finally:
        memory.close()
