"""``pixel render``: a text file to ``<file>.pxN.png`` pages plus their metrics (spec A11.2-A11.3).

Rendering happens entirely in memory; pages are then written under temporary names and renamed
into place only once every page was written, so a failure never leaves a partial page set.
Stale pages of an earlier, longer run (``<file>.px<N+1>.png`` …) are removed so the set on disk
always matches the metrics printed.
"""

from __future__ import annotations

import os
import re
import secrets
from dataclasses import dataclass, field

from ..gocompat import go_text
from .density import (
    CONSERVATIVE,
    DENSE_RENDER_STYLE,
    MONO_STYLE,
    DensityDraw,
    density_from_env,
    resolve_density_draw,
    std_density_draw,
)
from .geometry import STANDARD_TIER
from .prepare import reflow_or_raw
from .pricing import anthropic_image_tokens, gemini_image_tokens, openai_vision_tokens, with_margin
from .raster import Page
from .render import (
    DenseOptions,
    render_dense_pages,
    render_text_to_pngs_multicol,
    render_text_to_pngs_with_char_limit,
    render_text_to_two_layer_pngs,
)
from .wrap import measure_content_cols

DEFAULT_OPENAI_MODEL = "gpt-5.6"
DEFAULT_GEMINI_MODEL = "gemini-3-pro"
_OPENAI_NAME = re.compile(r"^(?:[\w.-]+/)?(?:gpt-|o\d|chatgpt-)", re.ASCII)


@dataclass
class RenderRequest:
    cols: int | None = None  # maximum width in cells; None = the level's default
    multicol: int = 1
    level: str | None = None  # None = CAVE_PIXEL_DENSITY
    dense: bool = False
    reflow: bool = True
    model: str | None = None  # None = standard tier, the level as asked (the engine CLI)


@dataclass
class RenderRun:
    pages: list[Page]
    draw: DensityDraw
    level: str
    text_tokens: int
    files: list[str] = field(default_factory=list)

    @property
    def two_layer(self) -> bool:
        return any(p.layers == 2 for p in self.pages)


def resolve_draw(req: RenderRequest) -> DensityDraw:
    level = req.level or density_from_env()
    if req.multicol > 1:
        level = CONSERVATIVE
    if req.model is None:
        return std_density_draw(level)
    return resolve_density_draw(req.model, level)


def render_bytes(data: bytes, req: RenderRequest, count_text_tokens: bool = True, progress=None) -> RenderRun:
    """Render input bytes (bad UTF-8 bytes become U+FFFD) per the CLI pipeline's four branches.
    ``count_text_tokens=False`` skips the o200k count of the input (benchmarks time rendering);
    ``progress(done, total)`` is called after each page."""
    from ..tokens import count_tokens

    text = go_text(data)
    draw = resolve_draw(req)
    cols = req.cols or draw.cols
    source = reflow_or_raw(text, req.reflow)
    if draw.layers == 2:
        pages = render_text_to_two_layer_pngs(
            source, measure_content_cols(source, cols), draw.char_budget, draw.style, draw.canvas_h, progress
        )
    elif req.dense:
        style = DENSE_RENDER_STYLE if draw.style == MONO_STYLE else draw.style
        opts = DenseOptions(
            cols=cols, multi_col=req.multicol, reflow=req.reflow, style=style,
            max_chars_per_image=draw.char_budget, max_height_px=draw.canvas_h,
        )
        pages = render_dense_pages(text, opts, progress)
    elif req.multicol > 1:
        pages = render_text_to_pngs_multicol(source, cols, req.multicol, progress)
    else:
        pages = render_text_to_pngs_with_char_limit(
            source, measure_content_cols(source, cols), draw.char_budget, draw.style, draw.canvas_h, progress=progress
        )
    return RenderRun(pages, draw, draw.level, count_tokens(data) if count_text_tokens else 0)


def page_path(path: str, index: int) -> str:
    return f"{path}.px{index}.png"


def write_pages(path: str, pages: list[Page]) -> list[str]:
    """Write pages as ``<path>.px1.png`` … all-or-nothing; returns the final file names."""
    tag = secrets.token_hex(4)
    temps: list[str] = []
    finals = [page_path(path, i + 1) for i in range(len(pages))]
    renamed = 0
    try:
        for i, page in enumerate(pages):
            tmp = f"{finals[i]}.tmp-{tag}"
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            temps.append(tmp)
            with os.fdopen(fd, "wb") as fh:
                fh.write(page.png)
        for tmp, final in zip(temps, finals):
            os.replace(tmp, final)
            renamed += 1
    except BaseException:
        for tmp in temps:
            _unlink(tmp)
        if renamed:  # the old set is already partly replaced: leave no set rather than a mixed one
            _remove_pages_from(path, 1)
        raise
    _remove_pages_from(path, len(pages) + 1)
    return finals


def _unlink(name: str) -> bool:
    try:
        os.unlink(name)
        return True
    except FileNotFoundError:
        return False
    except OSError:
        return False


def _remove_pages_from(path: str, first: int) -> None:
    """Delete ``<path>.px<first>.png``, ``…px<first+1>.png`` … while they exist."""
    n = first
    while os.path.exists(page_path(path, n)) and _unlink(page_path(path, n)):
        n += 1


# --------------------------------------------------------------------------------------------
# Metrics


def est_tokens(page: Page, tier=STANDARD_TIER) -> int:
    """Anthropic patch tokens of a page with the 1.10 margin (the reference's ``estTokens``)."""
    return with_margin(anthropic_image_tokens(page.width, page.height, tier))


def engine_page_line(page: Page, level: str) -> dict:
    """A11.3 page object, in the reference's field order."""
    out = {
        "width": page.width,
        "height": page.height,
        "charsRendered": page.chars_rendered,
        "droppedChars": page.dropped_chars,
        "estTokens": est_tokens(page),
        "density": level,
    }
    if page.layers == 2:
        out["layers"] = 2
    return out


def engine_summary_line(run: RenderRun) -> dict:
    out = {
        "summary": True,
        "pages": len(run.pages),
        "textEstTokens": run.text_tokens,
        "imageEstTokens": sum(est_tokens(p) for p in run.pages),
        "density": run.level,
    }
    if run.two_layer:
        out["layers"] = 2
    return out


def provider_models(model: str | None) -> dict[str, str]:
    """Which model prices each provider: the reader model for its own provider, else a
    reference model (OpenAI gpt-5.6, Gemini gemini-3-pro)."""
    m = (model or "").strip()
    openai = m if m and _OPENAI_NAME.match(m.lower()) else DEFAULT_OPENAI_MODEL
    gemini = m if m and gemini_image_tokens(m, "default", 1, 1) is not None else DEFAULT_GEMINI_MODEL
    return {"openai": openai, "gemini": gemini}


def provider_tokens(page: Page, tier, models: dict[str, str]) -> dict[str, int]:
    gem = gemini_image_tokens(models["gemini"], "default", page.width, page.height) or 0
    return {
        "anthropic": with_margin(anthropic_image_tokens(page.width, page.height, tier)),
        "openai": openai_vision_tokens(models["openai"], page.width, page.height),
        "gemini": with_margin(gem),
    }


def reader_provider(model: str | None) -> str:
    m = (model or "").lower()
    if _OPENAI_NAME.match(m):
        return "openai"
    if "gemini" in m:
        return "gemini"
    return "anthropic"


def cavemem_report(run: RenderRun, model: str | None) -> tuple[list[dict], dict]:
    """Per-page lines and the summary for ``cavemem pixel render``: characters rendered and
    dropped, image tokens per provider, the text tokens replaced, and whether imaging pays."""
    models = provider_models(model)
    tier = run.draw.tier
    lines: list[dict] = []
    totals = {"anthropic": 0, "openai": 0, "gemini": 0}
    for i, page in enumerate(run.pages):
        tokens = provider_tokens(page, tier, models)
        for k, v in tokens.items():
            totals[k] += v
        lines.append(
            {
                "page": i + 1,
                "file": run.files[i] if i < len(run.files) else None,
                "width": page.width,
                "height": page.height,
                "layers": page.layers,
                "charsRendered": page.chars_rendered,
                "droppedChars": page.dropped_chars,
                "droppedCodepoints": {f"U+{cp:04X}": n for cp, n in sorted(page.dropped_codepoints.items())},
                "imageTokens": tokens,
            }
        )
    reader = reader_provider(model)
    summary = {
        "summary": True,
        "pages": len(run.pages),
        "density": run.level,
        "tier": tier.name,
        "model": model,
        "charsRendered": sum(p.chars_rendered for p in run.pages),
        "droppedChars": sum(p.dropped_chars for p in run.pages),
        "textTokens": run.text_tokens,
        "imageTokens": totals,
        "pricingModels": {"anthropic": f"{tier.name} tier", **models},
        "profitable": {k: v < run.text_tokens for k, v in totals.items()},
        "reader": reader,
        "verdict": "images pay" if totals[reader] < run.text_tokens else "keep text",
    }
    return lines, summary
