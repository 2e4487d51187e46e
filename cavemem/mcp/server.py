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

from ..cli.args import Command
from ..cli.args import command as cli_command
from ..errors import CaveError
from .tools import SPECS, Tools

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
        server.run("stdio")
    except KeyboardInterrupt:
        pass
    finally:
        tools.close()
    return 0
