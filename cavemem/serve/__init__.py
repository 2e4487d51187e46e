"""``cavemem serve``: a local HTTP API, a web page and MCP over streamable HTTP on one store.

Needs the ``[serve]`` extra (Starlette + uvicorn). Loopback only unless ``--host`` names another
address *and* ``CAVEMAN_SERVE_TOKEN`` is set; every call needs the bearer token or a browser
session from the one-time login link printed on start.
"""
