"""Images already inside a request body (spec A15 side figures for ``cavemem pixel simulate``).

A request may carry images before any transform runs (screenshots in Anthropic ``image``
blocks, OpenAI ``image_url`` / ``input_image`` data URLs, Gemini ``inline_data``). What they
cost depends only on their pixel size, so Pillow reads each one's header - from the first
64 KiB of its base64 text, the whole payload only when the header lies further in - and the
sizes are priced per provider like rendered pages.
"""

from __future__ import annotations

import base64
import binascii
import io

PREFIX_CHARS = 65536  # base64 characters decoded first (PNG/GIF/WebP headers are in the first bytes)
MAX_DEPTH = 64


def base64_images(body) -> list[str]:
    """The base64 payloads of every image block in an Anthropic, OpenAI or Gemini body."""
    found: list[str] = []
    stack = [(body, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            continue
        if isinstance(node, list):
            stack.extend((x, depth + 1) for x in reversed(node))
            continue
        if not isinstance(node, dict):
            continue
        data = _image_payload(node)
        if data is not None:
            found.append(data)
            continue
        stack.extend((v, depth + 1) for v in reversed(list(node.values())))
    return found


def _image_payload(node: dict) -> str | None:
    src = node.get("source")
    if node.get("type") == "image" and isinstance(src, dict) and src.get("type") == "base64":
        return src.get("data") if isinstance(src.get("data"), str) else None
    url = node.get("image_url")
    if isinstance(url, dict):
        url = url.get("url")
    if isinstance(url, str) and url.startswith("data:image/") and "," in url:
        return url.split(",", 1)[1]
    inline = node.get("inline_data", node.get("inlineData"))
    if isinstance(inline, dict) and isinstance(inline.get("data"), str):
        return inline["data"]
    return None


def image_size(b64: str) -> tuple[int, int] | None:
    """(width, height) of a base64 image read by Pillow, or None when it is not a readable image."""
    from PIL import Image, UnidentifiedImageError

    text = "".join(b64.split()) if any(c.isspace() for c in b64[:PREFIX_CHARS]) else b64
    for chunk in (text[: PREFIX_CHARS - PREFIX_CHARS % 4], text):
        try:
            raw = base64.b64decode(chunk + "=" * (-len(chunk) % 4))
            with Image.open(io.BytesIO(raw)) as im:
                return im.size
        except (binascii.Error, ValueError, OSError, UnidentifiedImageError, Image.DecompressionBombError):
            if len(chunk) == len(text):
                return None
    return None


class _Size:
    __slots__ = ("width", "height")

    def __init__(self, w: int, h: int):
        self.width, self.height = w, h


def existing_images_report(body, model: str | None) -> dict:
    """Count, pixels and per-provider tokens of the images the request already carries."""
    from .export import RenderRequest, provider_models, provider_tokens, resolve_draw

    payloads = base64_images(body)
    tier = resolve_draw(RenderRequest(model=model or "")).tier
    models = provider_models(model)
    sizes, unreadable = [], 0
    totals = {"anthropic": 0, "openai": 0, "gemini": 0}
    for data in payloads:
        size = image_size(data)
        if size is None:
            unreadable += 1
            continue
        sizes.append(f"{size[0]}x{size[1]}")
        for k, v in provider_tokens(_Size(*size), tier, models).items():
            totals[k] += v
    return {"count": len(payloads), "unreadable": unreadable, "sizes": sizes, "imageTokens": totals, "pricingModels": models}
