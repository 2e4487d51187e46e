"""``cavemem mcp``: the memory and engine tools over MCP on stdio (official ``mcp`` SDK).

The SDK (``pip install 'cavemem[mcp]'``) costs ~0.6 s to import, so it is imported here and only
here — no other CLI path touches it. The server is :class:`~mcp.server.mcpserver.MCPServer` with
its two tool hooks (``list_tools``/``call_tool``) answered from :mod:`.tools`, which owns the tool
schemas and the reference's error payloads; the SDK owns framing, the handshake and protocol
versions. stdout carries only JSON-RPC; logs go to stderr. Calls run one at a time on a worker
thread, so the event loop keeps answering pings during a long compress.

Client configuration: ``{"mcpServers": {"cavemem": {"command": "cavemem", "args": ["mcp"]}}}``.
"""

from __future__ import annotations

import io
import json
import os

from ..cli.args import Command
from ..cli.args import command as cli_command
from ..errors import CaveError
from .tools import INVALID_MARK, SPECS, Tools, argument_problem

SERVER_NAME = "cavemem"
INSTRUCTIONS = (
    "cavemem keeps durable memories across sessions and compresses big tool outputs recoverably. "
    "Use cavemem_recall before re-asking the user for something they may have told you; "
    "cavemem_remember for facts, preferences and decisions worth keeping; cavemem_supersede to "
    "correct one; cavemem_compress for large outputs, and cavemem_retrieve with a recovery_handle "
    "for the exact original."
)


def build_server(tools: Tools | None = None):
    """An MCPServer answering the cavemem tools (import-heavy: only for ``cavemem mcp``)."""
    try:
        import anyio
        from mcp.server.mcpserver import MCPServer
        from mcp_types import CallToolResult, TextContent, ToolAnnotations
        from mcp_types import Tool as MCPTool
    except ImportError as exc:
        raise CaveError(
            "cave_mcp_unavailable",
            f"cavemem mcp needs the [mcp] extra (the official MCP SDK): pip install 'cavemem[mcp]' ({exc})",
        ) from None
    from .. import __version__

    tools = tools or Tools()
    listed = [
        MCPTool(
            name=spec.name,
            description=spec.description,
            input_schema=spec.input_schema,
            annotations=ToolAnnotations(
                read_only_hint=spec.annotations.get("readOnlyHint"),
                destructive_hint=spec.annotations.get("destructiveHint"),
                idempotent_hint=spec.annotations.get("idempotentHint"),
                open_world_hint=spec.annotations.get("openWorldHint"),
            ),
        )
        for spec in SPECS
    ]

    class CavememServer(MCPServer):
        async def list_tools(self):
            return list(listed)

        async def call_tool(self, name, arguments, context=None):
            is_error, text = await anyio.to_thread.run_sync(tools.call, name, arguments or {})
            return CallToolResult(content=[TextContent(type="text", text=text)], is_error=is_error)

    return CavememServer(
        SERVER_NAME,
        version=__version__,
        instructions=INSTRUCTIONS,
        log_level="WARNING",
        warn_on_duplicate_tools=False,
    )


@cli_command(
    Command(
        "cavemem mcp",
        "Serve cavemem over MCP on stdio: cavemem_remember, cavemem_recall, cavemem_supersede,\n"
        "cavemem_history, cavemem_forget (memory) and cavemem_compress, cavemem_retrieve (engine).\n"
        "stdout is the JSON-RPC channel; logs go to stderr. Needs the [mcp] extra.",
        [],
        epilog='client config: {"mcpServers": {"cavemem": {"command": "cavemem", "args": ["mcp"]}}}',
    )
)
def command(opts: dict) -> int:
    tools = Tools()
    server = build_server(tools)
    try:
        run_stdio(server)
    except KeyboardInterrupt:
        pass
    finally:
        tools.close()
    return 0


# -- stdio with a defusing filter -----------------------------------------------------------------
# The SDK drops (never answers) a request its parser rejects: a lone surrogate in a string, an
# integer past Python's 4,300-digit limit. Every request must get an answer (issue 15 item 9),
# so each line is read first with a tolerant parser; a tools/call whose arguments cannot be
# handled has them replaced by a marker that Tools answers with cave_invalid_arguments.


class _BigInt(int):
    """An integer literal too long for int(): kept as a flag, never converted."""


def _parse_int(text: str) -> int:
    return _BigInt(0) if len(text.lstrip("-")) > 30 else int(text)


def _has_big(value, depth: int = 0) -> bool:
    if isinstance(value, _BigInt):
        return True
    if depth > 32:
        return False
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return any(_has_big(v, depth + 1) for v in items)


def defuse_line(line: str) -> str:
    """The JSON-RPC line to hand the SDK: unchanged unless it is a tools/call with bad arguments."""
    if len(line) > 64 * 1024 * 1024:
        return line
    try:
        msg = json.loads(line, parse_int=_parse_int)
    except ValueError:
        return line  # not JSON: the SDK answers that itself
    if not isinstance(msg, dict) or msg.get("method") != "tools/call" or not isinstance(msg.get("params"), dict):
        return line
    args = msg["params"].get("arguments")
    why = "an integer argument is too large" if _has_big(args) else argument_problem(args) if args is not None else None
    ident = msg.get("id")
    if not why or isinstance(ident, _BigInt) or argument_problem(ident):
        return line
    name = msg["params"].get("name")
    safe = {"jsonrpc": "2.0", "id": ident, "method": "tools/call",
            "params": {"name": name if isinstance(name, str) and not argument_problem(name) else "", "arguments": {INVALID_MARK: why}}}
    return json.dumps(safe) + "\n"


class _Defused:
    """An async line iterator over the SDK's stdin wrapper that passes each line through defuse_line."""

    def __init__(self, inner):
        self.inner = inner

    def __aiter__(self):
        return self._lines()

    async def _lines(self):
        async for line in self.inner:
            yield defuse_line(line)


def run_stdio(server) -> None:
    """``server.run("stdio")`` with :func:`defuse_line` in front of the SDK's parser."""
    import sys

    import anyio
    from mcp.server.stdio import stdio_server

    async def main() -> None:
        # the SDK's own wrapper (errors="replace": invalid UTF-8 bytes cannot stall it either)
        stdin = anyio.wrap_file(io.TextIOWrapper(os.fdopen(os.dup(sys.stdin.fileno()), "rb", buffering=0), encoding="utf-8", errors="replace"))
        async with stdio_server(stdin=_Defused(stdin)) as (read_stream, write_stream):
            low = server._lowlevel_server
            await low.run(read_stream, write_stream, low.create_initialization_options())

    anyio.run(main)
