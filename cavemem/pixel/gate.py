"""The pixel density gate that ``evals run`` prints (spec engine-core 7.3, pixel-and-mem A11.6).

Each check renders or resolves real pages, so a regression in geometry, density gating or the
layer floors fails CI: full pages must stay inside their tier's no-resize envelope, only
density-capable readers may get dense or two-layer pages, and unknown models fail closed.
"""

from __future__ import annotations

from .density import (
    BALANCED,
    CONSERVATIVE,
    LEVELS,
    MAX,
    DensityDraw,
    resolve_density,
    resolve_density_draw,
    std_density_draw,
)
from .pricing import anthropic_image_tokens

GATE_MODELS = ("claude-3-5-sonnet", "claude-fable-5")
UNKNOWN_MODEL = "some-unknown-model-2031"


def _check(name: str, passed: bool, detail: str = "") -> dict:
    out = {"name": name, "passed": bool(passed)}
    if detail:
        out["detail"] = detail
    return out


def render_full_page(draw: DensityDraw):
    """The first page of text that fills a page of ``draw`` exactly (all layers)."""
    from .density import BALANCED_STYLE
    from .render import render_text_to_pngs_with_char_limit, render_text_to_two_layer_pngs

    rows = draw.char_budget // draw.cols
    text = "\n".join("x" * draw.cols for _ in range(rows))
    if draw.layers == 2:
        style = draw.style if draw.style.zebra else BALANCED_STYLE
        return render_text_to_two_layer_pngs(text, draw.cols, draw.char_budget, style, draw.canvas_h)[0]
    return render_text_to_pngs_with_char_limit(text, draw.cols, draw.char_budget, draw.style, draw.canvas_h)[0]


def density_gate_checks() -> list[dict]:
    """``[{name, passed, detail?}]`` in the reference's order."""
    checks: list[dict] = []
    hires_max_layers = 0
    rendered: dict = {}  # identical draws (every level of a gated model) render once
    for model in GATE_MODELS:
        for level in LEVELS:
            rp = resolve_density(model, level)
            draw = resolve_density_draw(model, level)
            page = rendered.get(draw) or rendered.setdefault(draw, render_full_page(draw))
            tier = draw.tier
            patches = -(-page.width // 28) * -(-page.height // 28)
            long_edge = max(page.width, page.height)
            checks.append(
                _check(
                    f"envelope {model}/{level}",
                    long_edge <= tier.max_px and patches <= tier.max_tokens
                    and anthropic_image_tokens(page.width, page.height, tier) == patches,
                    f"{page.width}x{page.height} px, {patches} patches ({tier.name} tier: {tier.max_px} px, {tier.max_tokens} tokens)",
                )
            )
            floor = 5 if rp.zebra else 6
            checks.append(
                _check(
                    f"layer floor {model}/{level}",
                    rp.pitch >= floor and 1 <= rp.layers <= 2 and page.layers == rp.layers,
                    f"pitch {rp.pitch} (floor {floor}), layers {rp.layers}, page layers {page.layers}",
                )
            )
            if model == "claude-fable-5" and level == MAX:
                hires_max_layers = page.layers
    checks.append(_check("hires max renders 2 layers", hires_max_layers == 2, f"layers {hires_max_layers}"))
    weak = resolve_density_draw("claude-3-5-sonnet", MAX)
    checks.append(
        _check(
            "non-capable model fails closed",
            weak.layers == 1 and weak.char_budget == 28080 and weak.level == CONSERVATIVE,
            f"{weak.level}, budget {weak.char_budget}, layers {weak.layers}",
        )
    )
    cons, bal, mx = (std_density_draw(level) for level in (CONSERVATIVE, BALANCED, MAX))
    checks.append(_check("capacity conservative", cons.char_budget == 28080, f"{cons.char_budget} chars"))
    checks.append(_check("capacity balanced", bal.char_budget == 46291, f"{bal.char_budget} chars"))
    checks.append(
        _check("capacity max", mx.char_budget == 2 * bal.char_budget and mx.layers == 2, f"{mx.char_budget} chars, {mx.layers} layers")
    )
    unknown = resolve_density_draw(UNKNOWN_MODEL, MAX)
    checks.append(
        _check(
            "unknown model fails closed",
            unknown.char_budget == 28080 and unknown.layers == 1,
            f"{UNKNOWN_MODEL}: budget {unknown.char_budget}, layers {unknown.layers}",
        )
    )
    return checks


def gate_passed(checks: list[dict]) -> bool:
    return all(c["passed"] for c in checks)
