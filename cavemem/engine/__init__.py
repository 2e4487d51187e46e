"""The compression engine: detection, routing, the recovery pipeline and query narrowing.

Names are resolved lazily so ``from cavemem.engine.detect import detect`` (a hot CLI path)
does not pay for the whole pipeline.
"""

_LAZY = {
    "Engine": "core",
    "normalize_mode": "core",
    "Result": "result",
    "SimResult": "result",
    "detect": "detect",
    "AUTO_TYPES": "detect",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str):
    mod = _LAZY.get(name)
    if mod is None:
        raise AttributeError(f"module 'cavemem.engine' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{mod}"), name)
    globals()[name] = value
    return value
