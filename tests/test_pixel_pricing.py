"""Image token formulas, density gating and the profitability gate (spec pixel-and-mem
A5.2-A5.5, A12, A13; C23-C31) plus the evals density gate (engine-core 7.3)."""

from __future__ import annotations

import json

import pytest

from cavemem.pixel.density import (
    BALANCED,
    CONSERVATIVE,
    MAX,
    RenderProfile,
    allowed,
    apply_density_floors,
    density_from_env,
    resolve_density,
    std_density_draw,
)
from cavemem.pixel.gate import density_gate_checks
from cavemem.pixel.geometry import HIRES_TIER, STANDARD_TIER
from cavemem.pixel.pricing import (
    anthropic_image_tokens,
    gemini_image_tokens,
    gpt_profile,
    openai_vision_tokens,
    with_margin,
)
from cavemem.pixel.profit import (
    classify_content,
    estimate_image_count,
    evaluate,
    image_tokens_for_rows,
    is_profitable,
    is_profitable_amortized,
    truncate_for_budget,
)

# -- A12.1 Anthropic -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "w, h, tier, tokens",
    [
        (1092, 1092, STANDARD_TIER, 1521),
        (1568, 728, STANDARD_TIER, 1456),
        (2576, 1456, STANDARD_TIER, 1568),
        (2576, 1456, HIRES_TIER, 4784),
        (15680, 4, STANDARD_TIER, 56),
        (1568, 1568, STANDARD_TIER, 1568),
        (0, 728, STANDARD_TIER, 0),
        (33, 16, STANDARD_TIER, 2),
    ],
)
def test_anthropic_image_tokens(w, h, tier, tokens):
    assert anthropic_image_tokens(w, h, tier) == tokens


def test_safety_margin_float_semantics():
    assert [with_margin(x) for x in (900, 1170, 1456, 1120, 2)] == [991, 1287, 1602, 1232, 3]


# -- A12.2 OpenAI --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "model, w, h, tokens",
    [
        ("gpt-5", 768, 1932, 1190),
        ("gpt-4o", 768, 1932, 1445),
        ("gpt-5-mini", 768, 1932, 2372),
        ("o4-mini", 768, 1932, 2372),
        ("gpt-5", 2048, 2048, 630),
        ("o1", 512, 512, 75 + 150),
        ("gpt-5.6", 1024, 1024, 1024),
        ("gpt-5-nano", 64, 64, 10),  # 4 patches x 2.46
        ("openai/gpt-5.6", 512, 512, 256),  # decided: the router prefix is dropped (reference: tile default)
    ],
)
def test_openai_vision_tokens(model, w, h, tokens):
    assert openai_vision_tokens(model, w, h) == tokens


def test_gpt_profile_env_override(monkeypatch):
    monkeypatch.setenv("CAVE_PIXEL_GPT_PROFILES", '{"gpt-5.6":{"stripCols":176}}')
    assert gpt_profile("gpt-5.6-alpha").strip_cols == 176
    monkeypatch.setenv(
        "CAVE_PIXEL_GPT_PROFILES",
        json.dumps({"gpt-5.6-special": {"vision": {"regime": "tile", "base": 1, "perTile": 2}, "maxHeightPx": 2400}}),
    )
    prof = gpt_profile("gpt-5.6-special-v1")
    assert prof.max_height_px == 2400 and openai_vision_tokens("gpt-5.6-special-v1", 512, 512) == 3
    assert gpt_profile("gpt-5.6").vision.regime == "patch"
    bad = {
        "gpt-5": {"vision": {"regime": "tile", "base": -1, "perTile": 2}, "stripCols": 0.5, "maxHeightPx": 1e308},
        "gpt-4o": {"vision": {"regime": "patch", "multiplier": 1e308, "patchCap": 1e308}},
    }
    monkeypatch.setenv("CAVE_PIXEL_GPT_PROFILES", json.dumps(bad))
    assert gpt_profile("gpt-5").vision.base == 70 and gpt_profile("gpt-5").strip_cols == 152
    assert gpt_profile("gpt-5").max_height_px == 1932
    assert gpt_profile("gpt-4o").vision.regime == "tile"
    monkeypatch.setenv("CAVE_PIXEL_GPT_PROFILES", "{not json")
    assert gpt_profile("gpt-5.6-special-v1").vision.regime == "patch"


# -- A12.3 Gemini --------------------------------------------------------------------------------


def test_gemini_flat_prices():
    assert gemini_image_tokens("gemini-3.6-flash", "default", 1568, 728) == 1120
    assert with_margin(gemini_image_tokens("gemini-3.6-flash", "high", 1, 1)) == 1232
    assert gemini_image_tokens("projects/p/models/gemini-3-pro@001", "ultra_high", 5, 5) == 2240
    assert gemini_image_tokens("gemini-2.5-flash", "low", 5, 5) == 64
    assert gemini_image_tokens("gemini-2.5-flash", "default", 5, 5) is None
    assert gemini_image_tokens("future-gemini", "default", 5, 5) is None
    assert gemini_image_tokens("gemini-3-pro", "default", 10001, 10000) is None


# -- A5 density ----------------------------------------------------------------------------------


def test_resolve_density():
    p = resolve_density("claude-fable-5", BALANCED)
    assert (p.tier, p.level, p.adv, p.pitch, p.zebra) == (HIRES_TIER, BALANCED, 4, 6, True)
    p = resolve_density("gpt-5.6", MAX)
    assert (p.tier, p.adv, p.pitch, p.zebra, p.layers) == (STANDARD_TIER, 4, 6, True, 2)
    assert resolve_density("claude-opus-4-7", BALANCED).conservative
    assert resolve_density("claude-opus-4-7", BALANCED).tier == STANDARD_TIER
    assert resolve_density("claude-fable-5", "ultra").tier == HIRES_TIER
    assert resolve_density("claude-fable-5", "ultra").conservative
    assert resolve_density("claude-opus-4-8", MAX).tier == HIRES_TIER
    assert resolve_density("claude-opus-5", MAX).layers == 2
    assert resolve_density("", MAX).conservative and resolve_density("gpt-5.5", MAX).conservative
    assert resolve_density("claude-3-5-sonnet", MAX).conservative
    # decided quirk: a date is not a minor version, so Opus 4 (May 2025) is not a hi-res reader
    assert resolve_density("claude-opus-4-20250514", MAX).conservative
    assert resolve_density("us.anthropic.claude-fable-5-v1:0", MAX).tier == HIRES_TIER


def test_density_from_env(monkeypatch):
    monkeypatch.delenv("CAVE_PIXEL_DENSITY", raising=False)
    assert density_from_env() == BALANCED
    for value, level in [("garbage", CONSERVATIVE), ("off", CONSERVATIVE), (" MAX ", MAX), ("  ", BALANCED), ("0", CONSERVATIVE)]:
        monkeypatch.setenv("CAVE_PIXEL_DENSITY", value)
        assert density_from_env() == level


def test_density_floors():
    def prof(pitch, zebra, layers):
        return RenderProfile("x", STANDARD_TIER, 4, pitch, zebra, layers)

    assert apply_density_floors(prof(4, False, 1)).pitch == 6
    assert apply_density_floors(prof(3, True, 1)).pitch == 5
    assert apply_density_floors(prof(6, True, 3)).layers == 2
    assert apply_density_floors(prof(6, True, 0)).layers == 1


def test_std_density_draw_budgets():
    draws = [std_density_draw(level) for level in (CONSERVATIVE, BALANCED, MAX)]
    assert [(d.char_budget, d.layers, d.cols) for d in draws] == [(28080, 1, 312), (46291, 1, 389), (92582, 2, 389)]
    assert draws[0].style.aa is False and draws[1].style.zebra and draws[2].style == draws[1].style
    assert round(46291 / 28080, 4) == 1.6485


def test_allowlist(monkeypatch):
    monkeypatch.delenv("CAVE_PIXEL_MODELS", raising=False)
    for model in ("us.anthropic.claude-fable-5-v1:0", "claude-fable-5@20260115", "claude-fable-5[1m]", "openai/gpt-5.6-preview"):
        assert allowed(model), model
    assert not allowed("claude-opus-4-8") and not allowed("")
    monkeypatch.setenv("CAVE_PIXEL_MODELS", "gemini-3, claude-opus-4-8")
    assert allowed("projects/x/locations/y/publishers/google/models/gemini-3-pro")
    assert not allowed("gpt-5.6")
    monkeypatch.setenv("CAVE_PIXEL_MODELS", "off")
    assert not allowed("claude-fable-5")


# -- A13 gate ------------------------------------------------------------------------------------


def test_image_tokens_for_rows():
    assert image_tokens_for_rows(90, 312, 1, 0, 28080, resolve_density("x", MAX)) == 1602
    balanced = resolve_density("gpt-5.6", BALANCED)
    assert image_tokens_for_rows(90, 312, 1, 0, 28080, balanced) == 991
    assert image_tokens_for_rows(119, 312, 1, 0, 312 * 119, balanced) == 1287
    conservative = resolve_density("", BALANCED)
    assert image_tokens_for_rows(300, 100, 2, 0, 28080, balanced) == image_tokens_for_rows(300, 100, 2, 0, 28080, conservative)
    assert image_tokens_for_rows(900, 312, 1, 3, 28080, conservative) == with_margin(3 * 1456)


def test_profitability_and_hysteresis():
    text = "hello" * 500
    assert not is_profitable(text, 100, 0, 1, 50)
    assert is_profitable(text, 100, 0, 1, 50, prior_warm_image_tokens=60000)
    ev = evaluate(text, 100, 0, 1, 50, prior_warm_tokens=40000, prior_warm_image_tokens=60000)
    assert ev.burn_image == pytest.approx(46000, abs=1e-5) and ev.burn_text == pytest.approx(69000, abs=1e-5)
    assert evaluate("", 100) is None
    same = evaluate(text, 100, 0, 1, 50, prior_warm_tokens=1000, prior_warm_image_tokens=1000)
    assert same.profitable == evaluate(text, 100, 0, 1, 50).profitable
    twelve_k = "x" * 12000
    assert evaluate(twelve_k, 312).profitable
    assert not evaluate(twelve_k, 312, prior_warm_tokens=50000).profitable


def test_amortized_verdict():
    ev = evaluate("x" * 12000, 312, chars_per_token=4)
    assert is_profitable_amortized(ev, 1) == ev.profitable
    # images pay creation once then cheap reads; text is read from cache every turn
    assert is_profitable_amortized(ev, 50) == (ev.image_tokens * (1.25 + 0.10 * 49) < ev.text_tokens * 0.10 * 50)


def test_estimate_image_count():
    assert estimate_image_count("\n".join(["x"] * 90), 100) == 1
    assert estimate_image_count("\n".join(["x"] * 91), 100) == 2
    assert estimate_image_count("x" * (100 * 90 + 1), 100, 1, 9000) == 2
    assert estimate_image_count("\n".join(["x"] * 900), 100) == 10
    assert estimate_image_count("", 100) == 1


def test_classify_content():
    assert classify_content('[{"a":1},{"b":2}]') == "structured"
    assert classify_content("  {\n \"k\": 1}") == "structured"
    assert classify_content("---\nkey: v") == "structured"
    assert classify_content("diff --git a/x b/x") == "structured"
    assert classify_content("\n".join(f"[INFO] line {i:02d}" for i in range(20))) == "log"
    assert classify_content("[ERROR] x\n  at foo()\n  at bar()\n  at baz()") == "other"
    assert classify_content("one\ntwo\nthree") == "other"


def test_truncate_log_keeps_head_and_tail():
    text = "\n".join(f"2026-01-01 INFO entry {i}" for i in range(10000))
    out, omitted, cut = truncate_for_budget(text, 10, 100, 1, 9000)
    assert cut and "pxpipe paging:" in out and "entry 0\n" in out and out.endswith("entry 9999")
    assert estimate_image_count(out, 100, 1, 9000) <= 10
    assert omitted == len(text) - len(out.split("\n\n[ pxpipe")[0]) - len(out.split(" ]\n\n")[-1])
    assert "Showing first" in out and "and last" in out


def test_truncate_structured_keeps_head_only():
    items = json.dumps([{"id": f"item-{i}", "v": i} for i in range(5000)], indent=1)
    out, _, cut = truncate_for_budget(items, 2, 100, 1, 9000)
    assert cut and "tail elided" in out and '"item-0"' in out and "item-4999" not in out


def test_truncate_noop_when_it_fits():
    assert truncate_for_budget("small", 10, 100) == ("small", 0, False)


# -- engine-core 7.3: the evals density gate ---------------------------------------------------


def test_density_gate_checks():
    checks = density_gate_checks()
    names = [c["name"] for c in checks]
    expected = []
    for model in ("claude-3-5-sonnet", "claude-fable-5"):
        for level in ("conservative", "balanced", "max"):
            expected += [f"envelope {model}/{level}", f"layer floor {model}/{level}"]
    expected += [
        "hires max renders 2 layers",
        "non-capable model fails closed",
        "capacity conservative",
        "capacity balanced",
        "capacity max",
        "unknown model fails closed",
    ]
    assert names == expected
    assert all(c["passed"] for c in checks), [c for c in checks if not c["passed"]]
    assert all(set(c) <= {"name", "passed", "detail"} for c in checks)
