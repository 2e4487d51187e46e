"""Result and SimResult with their JSON shapes (spec engine-core §1.7, §1.8).

Field order is part of the contract: tools written for the Go binary read these lines. Floats are
rendered the Go way (``0``, ``0.6666666666666666``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..gocompat import format_float, go_quote

BASIS = "inferred"


def _render(pairs: list[tuple[str, object]]) -> str:
    """Compact JSON object from ordered pairs (str, int, float, bool values)."""
    parts = []
    for k, v in pairs:
        if isinstance(v, bool):
            s = "true" if v else "false"
        elif isinstance(v, int):
            s = str(v)
        elif isinstance(v, float):
            s = format_float(v)
        else:
            s = go_quote(str(v))
        parts.append(f'"{k}":{s}')
    return "{" + ",".join(parts) + "}"


class _OrderedJSON:
    """Both result shapes are an ordered list of ``pairs()``: the dict and the JSON line follow it."""

    def pairs(self) -> list[tuple[str, object]]:  # pragma: no cover - interface
        raise NotImplementedError

    def to_dict(self) -> dict:
        return dict(self.pairs())

    def to_json(self) -> str:
        """The compact JSON line (without the newline), fields in contract order."""
        return _render(self.pairs())


@dataclass
class Result(_OrderedJSON):
    """A compress call's output and its report (JSON fields in contract order)."""
    output: bytes
    content_type: str
    tokens_before: int
    tokens_after: int
    token_count_basis: str
    ratio: float = 0
    basis: str = BASIS
    recovery_handle: str = ""
    method: str = ""
    lossless_to_model: bool | None = None
    error: str = ""  # a cave_* code when the store failed and the input was passed through
    runner_up: str = ""  # the other kind compressed when detection was unsure (engine/trial.py)

    @property
    def passed_through(self) -> bool:
        return not self.recovery_handle and not self.method and self.ratio == 0

    def pairs(self, with_error: bool = True) -> list[tuple[str, object]]:
        p: list[tuple[str, object]] = [
            ("content_type", self.content_type),
            ("tokens_before", self.tokens_before),
            ("tokens_after", self.tokens_after),
            ("token_count_basis", self.token_count_basis),
            ("ratio", self.ratio),
            ("basis", self.basis),
        ]
        if self.recovery_handle:
            p.append(("recovery_handle", self.recovery_handle))
        if self.method:
            p.append(("method", self.method))
        if self.lossless_to_model is not None:
            p.append(("lossless_to_model", self.lossless_to_model))
        if self.runner_up:
            p.append(("runner_up", self.runner_up))
        if with_error and self.error:
            p.append(("error", self.error))
        return p


@dataclass
class SimResult(_OrderedJSON):
    """What a compress call would do, without storing anything (``simulate``)."""
    content_type: str
    tokens_before: int
    tokens_after: int
    token_count_basis: str
    compressor: str = ""
    safety_class: str = ""
    ratio: float = 0
    lossy: bool = False
    requires_ccr: bool = False
    recoverable: bool = True
    method: str = ""
    lossless_to_model: bool | None = None
    basis: str = BASIS
    runner_up: str = ""

    def pairs(self) -> list[tuple[str, object]]:
        p: list[tuple[str, object]] = [("content_type", self.content_type)]
        if self.compressor:
            p.append(("compressor", self.compressor))
        if self.safety_class:
            p.append(("safety_class", self.safety_class))
        p += [
            ("tokens_before", self.tokens_before),
            ("tokens_after", self.tokens_after),
            ("tokens_saved", self.tokens_before - self.tokens_after),
            ("token_count_basis", self.token_count_basis),
            ("ratio", self.ratio),
            ("lossy", self.lossy),
            ("requires_ccr", self.requires_ccr),
            ("recoverable", self.recoverable),
        ]
        if self.method:
            p.append(("method", self.method))
        if self.lossless_to_model is not None:
            p.append(("lossless_to_model", self.lossless_to_model))
        if self.runner_up:
            p.append(("runner_up", self.runner_up))
        p.append(("basis", self.basis))
        return p
