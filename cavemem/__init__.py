"""cavemem: recoverable context compression and durable memory for AI coding agents.

The public Python API (what the CLI itself uses)::

    from cavemem import Engine, Memory, open_store
    res = Engine().compress(data)          # Result: .output, .recovery_handle, .ratio, ...
    Engine().retrieve(res.recovery_handle) # the exact original bytes

Names are imported lazily so ``import cavemem`` stays cheap for short CLI calls.
"""

from __future__ import annotations

__version__ = "0.1.0"

_LAZY = {
    "Engine": ("cavemem.engine.core", "Engine"),
    "Result": ("cavemem.engine.result", "Result"),
    "SimResult": ("cavemem.engine.result", "SimResult"),
    "detect": ("cavemem.engine.detect", "detect"),
    "open_store": ("cavemem.store.ccr", "open_ccr"),
    "count_tokens": ("cavemem.tokens", "count_tokens"),
    "CaveError": ("cavemem.errors", "CaveError"),
    "Memory": ("cavemem.memory.api", "Memory"),
}

__all__ = sorted(_LAZY) + ["__version__"]


def __getattr__(name: str):
    target = _LAZY.get(name)
    if target is None:
        raise AttributeError(f"module 'cavemem' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(target[0]), target[1])
    if name == "Memory":  # the API layer plugs optional scorers into memory (memory never imports them)
        from .embed.plugin import register

        register()
    globals()[name] = value
    return value
