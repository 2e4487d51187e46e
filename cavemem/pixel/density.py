"""Render density (spec pixel-and-mem A5.2-A5.5): how tightly text is packed per page, gated by
which model will read it.

``conservative`` (5 px advance, 8 px pitch, black ink) is readable by every vision model.
``balanced`` (4 px advance, 6 px pitch, rows inked in a dark-red/blue/black cycle) and ``max``
(balanced plus a second red/blue overlay layer) pack 1.65x / 3.3x more text per page but only
models known to read them get them: anything else - including an unknown or empty model name -
fails closed to conservative on the standard tier.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace

from .geometry import (
    CELL_W,
    HIRES_TIER,
    STANDARD_TIER,
    Tier,
    cols_per_page,
    page_height_px,
    page_width_px,
    rows_per_page,
)

CONSERVATIVE = "conservative"
BALANCED = "balanced"
MAX = "max"
LEVELS = (CONSERVATIVE, BALANCED, MAX)
DENSITY_ENV = "CAVE_PIXEL_DENSITY"
MODELS_ENV = "CAVE_PIXEL_MODELS"
_FALSEY = {"0", "false", "no", "off", "none"}
DEFAULT_ALLOWED_MODELS = ("claude-fable-5", "gpt-5.6")
HIRES_MODEL_BASES = ("claude-fable-5", "claude-mythos-5", "claude-sonnet-5")
# Minor versions are 1-2 digits: "claude-opus-4-20250514" is Opus 4 with a date, not 4.20250514.
_OPUS_RE = re.compile(r"^claude-opus-(\d+)(?:[-.](\d{1,2})(?!\d))?")
_GPT56_RE = re.compile(r"^gpt-5\.6")
_VARIANT_TAG = re.compile(r"\[[^\]]*\]")


@dataclass(frozen=True)
class RenderStyle:
    """How glyphs are drawn. The default (all off) is the 1-bit mono atlas at 5x8 px cells."""

    aa: bool = False  # grey-coverage atlas instead of 1-bit
    cell_w_bonus: int = 0  # advance = 5 + bonus px
    cell_h_bonus: int = 0
    pitch_y: int = 0  # row pitch; 0 = 8 + max(0, cell_h_bonus)
    zebra: bool = False  # rows inked dark-red / dark-blue / black
    color_by_role: bool = False  # per-character slot text: user green, assistant blue
    color_cycle: bool = False

    @property
    def cell_w(self) -> int:
        return max(1, CELL_W + self.cell_w_bonus)

    @property
    def pitch(self) -> int:
        return self.pitch_y if self.pitch_y > 0 else 8 + max(0, self.cell_h_bonus)

    @property
    def coloured(self) -> bool:
        return self.zebra or self.color_by_role or self.color_cycle


MONO_STYLE = RenderStyle()
DENSE_RENDER_STYLE = RenderStyle(aa=True)
BALANCED_STYLE = RenderStyle(aa=True, cell_w_bonus=-1, pitch_y=6, zebra=True)


@dataclass(frozen=True)
class RenderProfile:
    """A density level on a tier: cell advance, row pitch, ink and layer count."""

    level: str
    tier: Tier
    adv: int
    pitch: int
    zebra: bool
    layers: int

    @property
    def conservative(self) -> bool:
        return self.adv == CELL_W and self.pitch == 8 and not self.zebra and self.layers == 1

    def page_width_px(self, cols: int) -> int:
        return page_width_px(cols, self.adv)

    def height_for(self, rows: int) -> int:
        return page_height_px(rows, self.pitch)

    def lines_per_page(self, canvas_h: int) -> int:
        return rows_per_page(canvas_h, self.pitch)

    def page_cols(self) -> int:
        return cols_per_page(self.tier.canvas_w, self.adv)

    def page_rows(self) -> int:
        return self.lines_per_page(self.tier.canvas_h)

    def char_budget(self) -> int:
        return self.page_cols() * self.page_rows() * self.layers

    def render_style(self) -> RenderStyle:
        """The drawing style; conservative keeps each caller's own style (MONO or DENSE)."""
        return RenderStyle(aa=True, cell_w_bonus=self.adv - CELL_W, pitch_y=self.pitch, zebra=self.zebra)


def apply_density_floors(p: RenderProfile) -> RenderProfile:
    """Hard legibility floors: pitch >= 6 (mono) or >= 5 (zebra); 1 or 2 layers."""
    pitch = max(p.pitch, 5 if p.zebra else 6)
    return replace(p, pitch=pitch, layers=min(2, max(1, p.layers)))


def profile_for(level: str, tier: Tier = STANDARD_TIER) -> RenderProfile:
    level = normalize_level(level)
    if level == BALANCED:
        p = RenderProfile(BALANCED, tier, 4, 6, True, 1)
    elif level == MAX:
        p = RenderProfile(MAX, tier, 4, 6, True, 2)
    else:
        p = RenderProfile(CONSERVATIVE, tier, CELL_W, 8, False, 1)
    return apply_density_floors(p)


def normalize_level(level: str | None) -> str:
    """A level name, case-insensitive and trimmed; anything unknown is conservative."""
    v = (level or "").strip().lower()
    return v if v in LEVELS else CONSERVATIVE


def parse_level(value: str) -> str | None:
    """Strict parse for flags: the level, or None when the value is not a level."""
    v = value.strip().lower()
    return v if v in LEVELS else None


CONSERVATIVE_STD = profile_for(CONSERVATIVE)


def density_from_env() -> str:
    """``CAVE_PIXEL_DENSITY``, read on every call: unset/blank = balanced, falsey = conservative,
    a level name = that level, anything else = conservative (fail closed)."""
    raw = os.environ.get(DENSITY_ENV, "").strip().lower()
    if not raw:
        return BALANCED
    if raw in _FALSEY:
        return CONSERVATIVE
    return raw if raw in LEVELS else CONSERVATIVE


def model_candidates(model: str) -> list[str]:
    """Every name a (possibly routed) model id could be known by: the whole string, each
    ``.``/``/`` suffix in both joinings, and each with any ``@version`` cut off."""
    m = _VARIANT_TAG.sub("", model).strip().lower()
    if not m:
        return []
    seen: dict[str, None] = {m: None}
    segments = re.split(r"[./]", m)
    for i in range(len(segments)):
        seen.setdefault(".".join(segments[i:]), None)
        seen.setdefault("/".join(segments[i:]), None)
    for cand in list(seen):
        if "@" in cand:
            seen.setdefault(cand.split("@", 1)[0], None)
    return [c for c in seen if c]


def _matches_base(cands: list[str], bases) -> bool:
    return any(c == b or c.startswith(b + "-") for c in cands for b in bases)


def is_hires_reader(model: str) -> bool:
    cands = model_candidates(model)
    if _matches_base(cands, HIRES_MODEL_BASES):
        return True
    for c in cands:
        m = _OPUS_RE.match(c)
        if m:
            major, minor = int(m.group(1)), int(m.group(2) or 0)
            if major > 4 or (major == 4 and minor >= 8):
                return True
    return False


def is_gpt56(model: str) -> bool:
    return any(_GPT56_RE.match(c) for c in model_candidates(model))


def resolve_density(model: str, level: str) -> RenderProfile:
    """The profile actually used for ``model``: hi-res readers get the hi-res tier, GPT-5.6 the
    standard tier, both at the requested level; every other model is conservative standard."""
    if is_hires_reader(model):
        return profile_for(level, HIRES_TIER)
    if is_gpt56(model):
        return profile_for(level, STANDARD_TIER)
    return CONSERVATIVE_STD


@dataclass(frozen=True)
class DensityDraw:
    """What a renderer needs for one level: style, default columns, page char budget, layers."""

    level: str
    style: RenderStyle
    cols: int
    char_budget: int
    layers: int
    canvas_h: int
    tier: Tier
    zebra: bool


def draw_for_profile(p: RenderProfile) -> DensityDraw:
    style = MONO_STYLE if p.conservative else p.render_style()
    return DensityDraw(p.level, style, p.page_cols(), p.char_budget(), p.layers, p.tier.canvas_h, p.tier, p.zebra)


def std_density_draw(level: str) -> DensityDraw:
    """The CLI's drawing parameters: the level on the standard tier, whatever the model."""
    return draw_for_profile(profile_for(level, STANDARD_TIER))


def resolve_density_draw(model: str, level: str) -> DensityDraw:
    return draw_for_profile(resolve_density(model, level))


def allowed_model_bases() -> list[str]:
    """``CAVE_PIXEL_MODELS``: unset = the defaults, falsey = none, else a comma list."""
    raw = os.environ.get(MODELS_ENV)
    if raw is None or not raw.strip():
        return list(DEFAULT_ALLOWED_MODELS)
    if raw.strip().lower() in _FALSEY:
        return []
    return [b.strip().lower() for b in raw.split(",") if b.strip()]


def allowed(model: str) -> bool:
    """Whether a proxy may apply pixel compression for ``model`` (simulate does not check)."""
    if not model:
        return False
    return _matches_base(model_candidates(model), allowed_model_bases())
