"""Safety classes S0–S4 (spec engine-core §3): what a transform may do to model-visible bytes.

The engine consults the class, never the compressor's own word: an unknown class passes the
input through, ``requires_ccr`` decides whether the original must be stored before output is
published, and ``reversible`` is the default ``lossless_to_model``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SafetyClass:
    """What a transform may do to model-visible bytes, and what the engine must do about it."""
    id: int
    byte_safe: bool
    requires_ccr: bool
    reversible: bool
    use: str

    @property
    def name(self) -> str:
        return f"S{self.id}" if self.id in CLASSES else "S?"


CLASSES: dict[int, SafetyClass] = {}
for _c in (
    SafetyClass(0, True, False, True, "metadata, accounting"),
    SafetyClass(1, True, False, True, "provider-native hints (cache, routing)"),
    SafetyClass(2, False, False, True, "structural changes that need SDK cooperation"),
    SafetyClass(3, False, False, False, "behavioural changes (routing, reasoning); eval-gated"),
    SafetyClass(4, False, True, False, "lossy structural compression, reversible through CCR"),
):
    CLASSES[_c.id] = _c

S4 = 4


def lookup(class_id: int) -> SafetyClass | None:
    """The class for ``class_id``, or None when unknown (callers then fail closed)."""
    return CLASSES.get(class_id)
