"""``pixel simulate`` (spec pixel-and-mem A15): run the matching request transform on a body
offline and report its TransformInfo. The transformed body is discarded; nothing is sent.

The format is sniffed by top-level key, in this order: ``input`` (OpenAI Responses, or Chat when
``messages`` is also present), ``contents`` (Gemini), ``messages`` (Anthropic Messages - so a
plain OpenAI Chat body is simulated as Anthropic, as the reference does).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..gocompat import go_text, loads_verbatim
from .transforms.common import TransformInfo, default_transform_options

SNIFF_ERROR = "cannot sniff request format (expected input, contents, or messages)"


class SimulateError(Exception):
    """A request simulate cannot run: ``stage`` is " parse" or "" (the message prefix)."""

    def __init__(self, stage: str, message: str):
        super().__init__(message)
        self.stage = stage
        self.message = message


@dataclass
class SimulateResult:
    info: TransformInfo
    error: str | None
    body: object
    format: str
    existing: dict | None = None  # images the request already carried (``existing_images=True``)

    def info_json(self) -> str:
        return self.info.to_json()

    def cavemem_json(self) -> str:
        """``cavemem pixel simulate``'s line: the TransformInfo fields, then ``ExistingImages``
        (count, sizes read by Pillow, per-provider tokens) when they were measured."""
        from ..gocompat import marshal

        out = self.info.to_dict()
        if self.existing is not None:
            out["ExistingImages"] = self.existing
        return marshal(out, sort_keys=False)


def sniff(body: dict) -> str:
    if "input" in body:
        return "openai"
    if "contents" in body:
        return "gemini"
    if "messages" in body:
        return "anthropic"
    return ""


def simulate(data: bytes, model: str | None = None, existing_images: bool = False) -> SimulateResult:
    """Parse ``data`` as a JSON object and run the transform its format calls for.
    ``existing_images`` also prices the images the body carries before the transform."""
    try:
        body = loads_verbatim(go_text(data))
    except ValueError as exc:
        raise SimulateError(" parse", str(exc)) from None
    if not isinstance(body, dict):
        raise SimulateError(" parse", f"request body is a JSON {type(body).__name__}, not an object")
    if model is not None:
        body["model"] = model
    name = model if model is not None else (body["model"] if isinstance(body.get("model"), str) else "")
    kind = sniff(body)
    if not kind:
        raise SimulateError("", SNIFF_ERROR)
    opts = default_transform_options(name)
    existing = None
    if existing_images:
        from .imagesize import existing_images_report

        existing = existing_images_report(body, name)
    if kind == "openai":
        from .transforms.openai import transform_openai as transform
    elif kind == "gemini":
        from .transforms.gemini import transform_gemini as transform
    else:
        from .transforms.anthropic import transform_anthropic as transform
    result = transform(body, opts)
    return SimulateResult(result.info, result.error, result.body, kind, existing)
