"""Image token cost per provider (spec pixel-and-mem A12; Gemini via engine-core 9.2).

All economics are in tokens, estimated offline. Anthropic bills 28x28-px patches after fitting
the image into a tier envelope; OpenAI bills 32-px patches (newer models) or 512-px tiles (older
ones) per model profile; Gemini 3 bills a flat price per image whatever its size.
"""

from __future__ import annotations

import json
import math
import os
import re
import threading
from dataclasses import dataclass, replace

from .geometry import DEFAULT_GPT_STRIP_COLS, GPT_MAX_HEIGHT_PX, STANDARD_TIER, Tier

IMAGE_COST_SAFETY_MARGIN = 1.10
CACHE_CREATE_RATE = 1.25
CACHE_READ_RATE = 0.10
CHARS_PER_TOKEN = 4.0
SLAB_CHARS_PER_TOKEN = 2.0
HISTORY_CHARS_PER_TOKEN = 2.0
GPT_PROFILES_ENV = "CAVE_PIXEL_GPT_PROFILES"
_INT63 = float(2**63)


def with_margin(tokens: float) -> int:
    """``ceil(tokens * 1.10)`` in IEEE doubles, exactly as estimates are padded (900 -> 991)."""
    return math.ceil(tokens * IMAGE_COST_SAFETY_MARGIN)


def _round(x: float) -> int:
    return int(math.floor(x + 0.5))


def anthropic_image_tokens(w: int, h: int, tier: Tier = STANDARD_TIER) -> int:
    """Patch billing: fit the long edge into the tier, then ceil(w/28) * ceil(h/28), capped."""
    if w <= 0 or h <= 0:
        return 0
    long_edge = max(w, h)
    if long_edge > tier.max_px:
        s = tier.max_px / long_edge
        w = max(1, _round(w * s))
        h = max(1, _round(h * s))
    return min(-(-w // 28) * -(-h // 28), tier.max_tokens)


# --------------------------------------------------------------------------------------------
# OpenAI (GPT) vision profiles


@dataclass(frozen=True)
class Vision:
    regime: str  # "patch" or "tile"
    base: float = 0.0
    per_tile: float = 0.0
    multiplier: float = 1.0
    patch_cap: int = 0


@dataclass(frozen=True)
class GptProfile:
    vision: Vision
    strip_cols: int = DEFAULT_GPT_STRIP_COLS
    max_height_px: int = GPT_MAX_HEIGHT_PX


_MINI_FAMILY = re.compile(r"^(?:(?:gpt-5(?:\.\d+)?|gpt-4\.1)-(?:mini|nano)|o4-mini)")
_BUILTIN_PROFILES = (
    (lambda m: bool(_MINI_FAMILY.match(m)) and "nano" in m, Vision("patch", multiplier=2.46, patch_cap=1536)),
    (lambda m: bool(_MINI_FAMILY.match(m)), Vision("patch", multiplier=1.62, patch_cap=1536)),
    (lambda m: m.startswith("gpt-5.6"), Vision("patch", multiplier=1.0, patch_cap=10000)),
    (lambda m: bool(re.match(r"^gpt-5\.\d", m)), Vision("patch", multiplier=1.0, patch_cap=10000)),
    (lambda m: m.startswith("gpt-5"), Vision("tile", base=70, per_tile=140)),
    (lambda m: bool(re.match(r"^o[13]", m)), Vision("tile", base=75, per_tile=150)),
)
_DEFAULT_VISION = Vision("tile", base=85, per_tile=170)


def builtin_gpt_profile(model: str) -> GptProfile:
    """First matching built-in rule on the lower-cased model name. A router prefix such as
    ``openai/`` is dropped first (the reference does not, so ``openai/gpt-5.6`` fell to the
    default tile profile; decided: price the model that is actually named)."""
    m = model.lower().rsplit("/", 1)[-1]
    for match, vision in _BUILTIN_PROFILES:
        if match(m):
            return GptProfile(vision)
    return GptProfile(_DEFAULT_VISION)


def _finite_num(v) -> float | None:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    f = float(v)
    return f if math.isfinite(f) else None


def _valid_vision(raw) -> Vision | None:
    if not isinstance(raw, dict):
        return None
    regime = raw.get("regime")
    if regime == "tile":
        base, per = _finite_num(raw.get("base", 0)), _finite_num(raw.get("perTile", 0))
        if base is None or per is None or base < 0 or per < 0 or (base == 0 and per == 0):
            return None
        if not base + 16 * per < _INT63:
            return None
        return Vision("tile", base=base, per_tile=per)
    if regime == "patch":
        mult, cap = _finite_num(raw.get("multiplier")), _finite_num(raw.get("patchCap"))
        if mult is None or cap is None or mult <= 0 or cap <= 0 or not cap < _INT63:
            return None
        cap_i = math.floor(cap)
        if cap_i <= 0 or not math.isfinite(mult * cap_i) or not mult * cap_i < _INT63:
            return None
        return Vision("patch", multiplier=mult, patch_cap=cap_i)
    return None


def _valid_px(v) -> int | None:
    f = _finite_num(v)
    if f is None or not f < _INT63:
        return None
    n = math.floor(f)
    return n if n >= 1 else None


_override_lock = threading.Lock()
_override_cache: tuple[str | None, dict[str, GptProfile]] = (None, {})


def _override_profiles() -> dict[str, GptProfile]:
    """``CAVE_PIXEL_GPT_PROFILES`` parsed (again only when the raw string changes)."""
    global _override_cache
    raw = os.environ.get(GPT_PROFILES_ENV)
    with _override_lock:
        if raw == _override_cache[0]:
            return _override_cache[1]
        parsed: dict[str, GptProfile] = {}
        try:
            obj = json.loads(raw) if raw else {}
        except ValueError:
            obj = {}
        if isinstance(obj, dict):
            for key, entry in obj.items():
                if not isinstance(entry, dict):
                    continue
                k = key.lower()
                prof = builtin_gpt_profile(k)
                vision = _valid_vision(entry.get("vision"))
                if vision is not None:
                    prof = replace(prof, vision=vision)
                cols = _valid_px(entry.get("stripCols"))
                if cols is not None:
                    prof = replace(prof, strip_cols=cols)
                height = _valid_px(entry.get("maxHeightPx"))
                if height is not None:
                    prof = replace(prof, max_height_px=height)
                parsed[k] = prof
        _override_cache = (raw, parsed)
        return parsed


def gpt_profile(model: str) -> GptProfile:
    """The env override with the longest matching key prefix (of the full name or the name
    without its router prefix), else the built-in profile."""
    m = model.lower()
    names = {m, m.rsplit("/", 1)[-1]}
    best = None
    for key, prof in _override_profiles().items():
        if any(n.startswith(key) for n in names) and (best is None or len(key) > len(best[0])):
            best = (key, prof)
    return best[1] if best else builtin_gpt_profile(m)


def openai_vision_tokens(model: str, w: int, h: int) -> int:
    """Tokens of one image for an OpenAI model (no safety margin)."""
    if w <= 0 or h <= 0:
        return 0
    v = gpt_profile(model).vision
    if v.regime == "patch":
        patches = min(-(-w // 32) * -(-h // 32), v.patch_cap)
        return math.ceil(patches * v.multiplier)
    long_edge = max(w, h)
    if long_edge > 2048:
        w, h = math.floor(w * 2048 / long_edge), math.floor(h * 2048 / long_edge)
    short = min(w, h)
    if short > 768:
        w, h = math.floor(w * 768 / short), math.floor(h * 768 / short)
    tiles = -(-w // 512) * -(-h // 512)
    return math.ceil(v.base + v.per_tile * tiles)


# --------------------------------------------------------------------------------------------
# Gemini (engine-core 9.2, provider "gemini"/"google"): flat per-image price

GEMINI_3_MODELS = frozenset(
    {
        "gemini-3-pro",
        "gemini-3-pro-preview",
        "gemini-3-flash",
        "gemini-3-flash-preview",
        "gemini-3.1-pro-preview",
        "gemini-3.1-flash-lite",
        "gemini-3.1-flash-lite-preview",
        "gemini-3.5-flash",
        "gemini-3.5-flash-lite",
        "gemini-3.6-flash",
    }
)
GEMINI_25_MODELS = frozenset({"gemini-2.5-pro", "gemini-2.5-flash", "gemini-2.5-flash-lite"})
_GEMINI_3_PRICES = {"low": 280, "medium": 560, "default": 1120, "high": 1120, "ultra_high": 2240, "ultra-high": 2240}
_GEMINI_25_PRICES = {"low": 64, "medium": 256}
MAX_IMAGE_PIXELS = 100_000_000


def normalize_image_model(model: str) -> str:
    m = model.strip().lower()
    m = m.rsplit("/", 1)[-1]
    m = m.split("@", 1)[0].split(":", 1)[0]
    i = m.find("claude-")
    return m[i:] if i > 0 else m


def gemini_image_tokens(model: str, detail: str, w: int, h: int) -> int | None:
    """Tokens of one image for a Gemini model at a media resolution, or None when unsupported."""
    if w <= 0 or h <= 0 or w * h > MAX_IMAGE_PIXELS:
        return None
    m = normalize_image_model(model)
    d = (detail or "default").strip().lower()
    if m in GEMINI_3_MODELS:
        return _GEMINI_3_PRICES.get(d)
    if m in GEMINI_25_MODELS:
        return _GEMINI_25_PRICES.get(d)
    return None

