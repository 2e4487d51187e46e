"""The compression engine: detection, routing, the recovery pipeline and query narrowing."""

from .core import Engine, normalize_mode
from .detect import AUTO_TYPES, detect
from .result import Result, SimResult

__all__ = ["Engine", "Result", "SimResult", "detect", "AUTO_TYPES", "normalize_mode"]
