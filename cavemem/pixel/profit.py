"""When imaging text pays (spec pixel-and-mem A13): image-token estimates for a row count, the
single-turn and amortised verdicts with anti-flap hysteresis, image counts, content class and
budget truncation with a visible paging marker.

Text tokens are estimated as UTF-16 units / chars-per-token; image tokens as the Anthropic patch
cost of the pages the text would fill, padded once by the 1.10 safety margin.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from .density import CONSERVATIVE_STD, RenderProfile
from .geometry import (
    LINES_PER_IMAGE,
    READABLE_CHARS_PER_IMAGE,
    STANDARD_TIER,
    multicol_width,
    page_height_px,
)
from .prepare import NL_SENTINEL, js_len
from .pricing import CACHE_CREATE_RATE, CACHE_READ_RATE, CHARS_PER_TOKEN, anthropic_image_tokens, with_margin
from .wrap import count_visual_rows, measure_content_cols, measure_line_cols

BURN_FACTOR = CACHE_CREATE_RATE - CACHE_READ_RATE  # 1.15: re-creating a warm cache


def _layout(cols: int, num_cols: int, max_chars: int, rp: RenderProfile):
    """(width, height_for(rows), tier, rows per image, lines per image) for a page layout."""
    cols = max(1, cols)
    if num_cols > 1:
        width = multicol_width(cols, num_cols)
        tier = STANDARD_TIER
        hard = LINES_PER_IMAGE
        layers = 1

        def height_for(rows: int) -> int:
            return page_height_px(rows, 8)
    else:
        num_cols = 1
        width = rp.page_width_px(cols)
        tier = rp.tier
        hard = rp.lines_per_page(tier.canvas_h)
        layers = 2 if rp.layers == 2 else 1
        height_for = rp.height_for
    rows_per_image = min(hard, max(1, max_chars // cols))
    return width, height_for, tier, rows_per_image, rows_per_image * num_cols * layers


def image_tokens_for_rows(
    rows: int, cols: int, num_cols: int = 1, image_cap: int = 0, max_chars: int = READABLE_CHARS_PER_IMAGE,
    rp: RenderProfile = CONSERVATIVE_STD,
) -> int:
    """Padded Anthropic tokens of the pages ``rows`` wrapped rows fill (full pages + the last)."""
    width, height_for, tier, rows_per_image, lines_per_image = _layout(cols, num_cols, max_chars, rp)
    images = -(-rows // lines_per_image)
    if image_cap > 0:
        images = min(images, image_cap)
    last_rows = min(max(1, rows - (images - 1) * lines_per_image), rows_per_image)
    total = (images - 1) * anthropic_image_tokens(width, height_for(rows_per_image), tier)
    total += anthropic_image_tokens(width, height_for(last_rows), tier)
    return with_margin(total)


def image_tokens_cost(
    text: str, cols: int, num_cols: int = 1, image_cap: int = 0, shrink: bool = False,
    max_chars: int = READABLE_CHARS_PER_IMAGE, rp: RenderProfile = CONSERVATIVE_STD,
) -> int:
    effective = measure_content_cols(text, cols) if shrink else cols
    rows = count_visual_rows(text, effective)
    return image_tokens_for_rows(rows, effective, num_cols, image_cap, max_chars, rp)


@dataclass
class Evaluation:
    text_tokens: float
    image_tokens: int
    burn_image: float
    burn_text: float
    profitable: bool


def _burn(warm: float) -> float:
    v = warm * BURN_FACTOR
    return v if math.isfinite(v) and v > 0 else 0.0


def evaluate(
    text: str, cols: int, image_cap: int = 0, num_cols: int = 1, chars_per_token: float = CHARS_PER_TOKEN,
    prior_warm_tokens: float = 0, prior_warm_image_tokens: float = 0, shrink: bool = False,
    rp: RenderProfile = CONSERVATIVE_STD, max_chars: int | None = None,
) -> Evaluation | None:
    """Single-turn verdict: imaging pays when image + burnImage < text + burnText.

    The burn terms are hysteresis: switching a warm text prefix to images (or back) throws away
    a cache, so it must win by the cost of re-creating that cache. None for empty text."""
    if not text:
        return None
    cpt = chars_per_token if isinstance(chars_per_token, (int, float)) and math.isfinite(chars_per_token) and chars_per_token > 0 else CHARS_PER_TOKEN
    if max_chars is None:
        max_chars = rp.char_budget() if num_cols <= 1 else READABLE_CHARS_PER_IMAGE
    text_tokens = js_len(text) / cpt
    image = image_tokens_cost(text, cols, num_cols, image_cap, shrink, max_chars, rp)
    burn_image, burn_text = _burn(prior_warm_tokens), _burn(prior_warm_image_tokens)
    return Evaluation(text_tokens, image, burn_image, burn_text, image + burn_image < text_tokens + burn_text)


def is_profitable(text: str, cols: int, image_cap: int = 0, num_cols: int = 1, chars_per_token: float = CHARS_PER_TOKEN, **kw) -> bool:
    ev = evaluate(text, cols, image_cap, num_cols, chars_per_token, **kw)
    return bool(ev and ev.profitable)


def is_profitable_amortized(ev: Evaluation | None, horizon: int) -> bool:
    """Over ``horizon`` turns images pay cache creation once then cheap reads; text is read
    from cache each turn."""
    if ev is None:
        return False
    if horizon <= 1:
        return ev.profitable
    n = max(2, horizon)
    image_cost = ev.image_tokens * (CACHE_CREATE_RATE + CACHE_READ_RATE * (n - 1)) + ev.burn_image
    return image_cost < ev.text_tokens * CACHE_READ_RATE * n + ev.burn_text


def image_line_capacity(cols: int, num_cols: int, max_chars: int, rp: RenderProfile = CONSERVATIVE_STD) -> int:
    return _layout(cols, num_cols, max_chars, rp)[4]


def estimate_image_count(
    text: str, cols: int, num_cols: int = 1, max_chars: int = READABLE_CHARS_PER_IMAGE, rp: RenderProfile = CONSERVATIVE_STD
) -> int:
    rows = count_visual_rows(text, cols)
    cap = image_line_capacity(cols, num_cols, max_chars, rp)
    by_chars = -(-js_len(text) // (max_chars * max(1, num_cols)))
    return max(1, -(-rows // cap), by_chars)


# --------------------------------------------------------------------------------------------
# Content class and truncation

_STRUCT_OBJ = re.compile(r'^\{\s*("|\})', re.ASCII)
_STRUCT_ARR = re.compile(r'^\[\s*("|\{|\[|-?\d|true\b|false\b|null\b|\])', re.ASCII)
_YAML_DOC = re.compile(r"^---\s+\S", re.ASCII)
_LOG_LINE = re.compile(
    r"^(\[?(DEBUG|INFO|WARN|WARNING|ERROR|TRACE|FATAL)\]?\b|\d{4}-\d{2}-\d{2}[T ]?|\d{2}:\d{2}:\d{2}\b)", re.ASCII
)
STRUCTURED, LOG, OTHER = "structured", "log", "other"


def classify_content(text: str) -> str:
    """``structured`` (JSON, YAML documents, diffs), ``log`` or ``other``, from the first 4 KB."""
    head = text.encode("utf-8", "surrogatepass")[:4096].decode("utf-8", "ignore")
    t = head.lstrip(" \t\r\n\v\f")
    if t.startswith("{") and _STRUCT_OBJ.match(t):
        return STRUCTURED
    if t.startswith("[") and _STRUCT_ARR.match(t):
        return STRUCTURED
    if t.startswith(("---\n", "---\r\n", "diff --git ")) or _YAML_DOC.match(t):
        return STRUCTURED
    lines = [ln for ln in head.split("\n") if ln.strip()][:40]
    if len(lines) >= 4:
        hits = sum(1 for ln in lines if _LOG_LINE.match(ln.strip()))
        if hits / len(lines) >= 0.3:
            return LOG
    return OTHER


def comma_int(n: int) -> str:
    return f"{n:,}"


def truncate_for_budget(
    text: str, max_images: int, cols: int, num_cols: int = 1, max_chars: int = READABLE_CHARS_PER_IMAGE,
    rp: RenderProfile = CONSERVATIVE_STD,
) -> tuple[str, int, bool]:
    """Cut ``text`` to about ``max_images`` pages, keeping head and tail (or only the head of
    structured data) around a marker that says what was omitted. Returns (text, omitted, cut)."""
    estimate = estimate_image_count(text, cols, num_cols, max_chars, rp)
    if estimate <= max_images:
        return text, 0, False
    cols = max(1, cols)
    cap = image_line_capacity(cols, num_cols, max_chars, rp)
    row_budget = max(8, max_images * cap - 6)
    char_budget = max(128, max_images * max_chars * max(1, num_cols) - 512)
    sep = "\n" if "\n" in text else NL_SENTINEL
    lines = text.split(sep)
    costs = [(max(1, -(-measure_line_cols(ln) // cols)), js_len(ln) + 1) for ln in lines]

    def take(indices, rows_left: int, chars_left: int, minimum: int) -> list[int]:
        got: list[int] = []
        for i in indices:
            r, c = costs[i]
            if len(got) >= minimum and (r > rows_left or c > chars_left):
                break
            got.append(i)
            rows_left -= r
            chars_left -= c
        return got

    if classify_content(text) == STRUCTURED:
        head = take(range(len(lines)), row_budget, char_budget, 1)
        tail: list[int] = []
    else:
        head_rows, head_chars = math.floor(0.6 * row_budget), math.floor(0.6 * char_budget)
        head = take(range(len(lines)), head_rows, head_chars, 1)
        first_tail = head[-1] + 1
        tail = take(range(len(lines) - 1, first_tail - 1, -1), row_budget - head_rows, char_budget - head_chars, 0)
        tail.reverse()
    head_text = sep.join(lines[i] for i in head)
    tail_text = sep.join(lines[i] for i in tail)
    omitted = js_len(text) - js_len(head_text) - (js_len(tail_text) if tail else 0)
    om_lines = len(lines) - len(head) - len(tail)
    if tail:
        shown = f" Showing first {len(head)} lines and last {len(tail)} lines."
    else:
        shown = f" Showing first {len(head)} lines (tail elided)."
    marker = (
        f"\n\n[ pxpipe paging: omitted {comma_int(om_lines)} lines ({comma_int(omitted)} chars) of content here. "
        f"Original length: {comma_int(js_len(text))} chars ({comma_int(len(lines))} lines, ~{estimate} images).{shown} ]\n\n"
    )
    return head_text + marker + tail_text, omitted, True
