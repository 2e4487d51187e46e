"""``cavemem serve``: the local HTTP API, web page and MCP-over-HTTP server (``[serve]`` extra).

Thin: options parsed here, everything else in :mod:`cavemem.serve.app` (imported only when the
command runs, so other commands never pay for Starlette/uvicorn).
"""

from __future__ import annotations

from ...errors import CaveError
from ..args import Command, Opt, command, non_negative_int, positive_int


@command(
    Command(
        "cavemem serve",
        "Serve the memory store over HTTP: JSON API under /api/v1, a web page at /, docs at /docs,\n"
        "MCP over streamable HTTP at /mcp. Every call needs Authorization: Bearer <token> (the token\n"
        "is $CAVEMAN_HOME/serve.token, created 0600) or the one-time login link printed on start.\n"
        "Loopback only unless --host names another address and CAVEMAN_SERVE_TOKEN is set.",
        [
            Opt("--host", "", "ADDR", "address to listen on (default 127.0.0.1)", default="127.0.0.1"),
            Opt("--port", "-p", "N", "port (default 37778)", type=positive_int, default=37778),
            Opt("--readers", "", "N", "read-only store connections serving recall/list in parallel (default 2; 0 = one)",
                type=non_negative_int, default=2),
            Opt("--workers", "", "N", "server processes (default 1); each has its own store connections, and a login "
                "or session works on any of them", type=positive_int, default=1),
            Opt("--open", help="open the login link in a browser"),
        ],
        epilog="example: cavemem serve --open",
    )
)
def serve(opts: dict) -> int:
    try:
        from ...serve.app import serve as run_server
    except ImportError as exc:
        raise CaveError("cave_internal", f"serve: needs the [serve] extra: pip install 'cavemem[serve]' ({exc})") from None
    if opts["port"] > 65535:
        raise CaveError("cave_invalid_arguments", "serve: --port must be at most 65535")
    run_server(opts["host"], opts["port"], open_browser=bool(opts["open"]), readers=opts["readers"],
               workers=opts["workers"])
    return 0
