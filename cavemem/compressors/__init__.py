"""Compressors: one module per content type, each a pure bytes -> bytes transform.

A compressor never counts tokens, never writes the store and never does I/O; the engine core
does that around it (see :mod:`cavemem.engine.core`). Adding one = a module + its tests + one
line in :mod:`cavemem.engine.registry`.
"""

from .base import Compressor, Metadata

__all__ = ["Compressor", "Metadata"]
