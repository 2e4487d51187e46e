"""MCP adapter: ``cavemem mcp`` serves the memory and engine tools over stdio.

:mod:`.tools` holds the tool schemas and behaviour (plain Python); :mod:`.server` wires them into
the official MCP SDK, which is imported only there.
"""
