"""GPT history collapse for Chat and Responses (spec pixel-and-mem A14.5b, ``PlanGptCollapse``).

Old turns after the slab become one user message of transcript strips (mono, 152 cols) followed
by a developer guard that says they are past context. The latest collapsible user turn is
*pinned*: kept as plain text between the images so the model answers it rather than something
OCR'd. Unknown item types are opaque barriers the collapse never crosses; open tool calls stay live.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...tokens import count_tokens
from ..density import CONSERVATIVE_STD
from ..prepare import byte_len, reflow_or_raw
from ..pricing import openai_vision_tokens
from . import strings as S
from .common import TransformInfo, TransformOptions, compact_json
from .factsheet import fact_sheet_text
from .openai import _chat_text, chat_image_part, gpt_gate, render_strips, responses_image_part, responses_text

KEEP_TAIL = 6
MIN_PREFIX = 10
MIN_COLLAPSE_TOKENS = 2000
STRIP_COLS = 152
COLLAPSE_CHUNK = 10
SECTION_TOKENS = 2000
MAX_IMAGES = 16
PIN_ECHO_CHARS = 600


@dataclass
class Turn:
    index: int
    role: str = ""
    body: str = ""
    opens: set = field(default_factory=set)
    closes: set = field(default_factory=set)
    opaque: bool = False

    @property
    def text(self) -> str:
        if not self.body.strip():
            return ""
        return f'<{self.role} t="{self.index}">\n{self.body}\n</{self.role}>'


def _args(value) -> str:
    return value if isinstance(value, str) else compact_json(value if value is not None else {})


def _chat_turn(i: int, m) -> Turn:
    if not isinstance(m, dict) or not isinstance(m.get("role"), str):
        return Turn(i, opaque=True)
    t = Turn(i, m["role"])
    parts = []
    text = _chat_text(m.get("content"))
    if isinstance(m.get("content"), list) and any(isinstance(p, dict) and p.get("type") == "image_url" for p in m["content"]):
        text = "\n\n".join(x for x in (text, "[image]") if x)
    if t.role == "tool":
        parts.append("[tool_result]\n" + text)
        t.closes.add(str(m.get("tool_call_id")))
    elif text:
        parts.append(text)
    calls = m.get("tool_calls") if t.role == "assistant" and isinstance(m.get("tool_calls"), list) else []
    for call in calls:
        fn = call.get("function") if isinstance(call, dict) else None
        name = fn.get("name") if isinstance(fn, dict) and isinstance(fn.get("name"), str) else "?"
        parts.append(f"[tool_use {name}]\n{_args(fn.get('arguments') if isinstance(fn, dict) else None)}")
        t.opens.add(str(call.get("id") if isinstance(call, dict) else None))
    t.body = "\n\n".join(parts)
    return t


def _responses_turn(i: int, it) -> Turn:
    if not isinstance(it, dict):
        return Turn(i, opaque=True)
    kind = it.get("type")
    if kind == "function_call":
        name = it["name"] if isinstance(it.get("name"), str) else "?"
        return Turn(i, "assistant", f"[tool_use {name}]\n{_args(it.get('arguments'))}", opens={str(it.get("call_id"))})
    if kind == "function_call_output":
        out = it.get("output")
        text = out if isinstance(out, str) else responses_text(out)
        return Turn(i, "tool", "[tool_result]\n" + text, closes={str(it.get("call_id"))})
    if kind == "reasoning":
        return Turn(i, "assistant")
    if kind not in (None, "message") or not isinstance(it.get("role"), str):
        return Turn(i, opaque=True)
    return Turn(i, it["role"], responses_text(it.get("content")))


def _parts(chat: bool):
    if chat:
        return (lambda s: {"type": "text", "text": s}), chat_image_part
    return (lambda s: {"type": "input_text", "text": s}), responses_image_part


def collapse_gpt_history(
    items: list, pp: int, model: str, opts: TransformOptions, info: TransformInfo, chat: bool
) -> list:
    """The new item list (unchanged when nothing collapses; ``info.HistoryReason`` says why)."""
    turns = [(_chat_turn if chat else _responses_turn)(i, it) for i, it in enumerate(items)]
    raw_cutoff = len(items) - KEEP_TAIL
    cutoff = min(raw_cutoff, max(pp + MIN_PREFIX, pp + ((raw_cutoff - pp) // COLLAPSE_CHUNK) * COLLAPSE_CHUNK))
    open_ids: set = set()
    closed_after: dict[int, bool] = {}
    boundary = -1
    for i in range(pp, max(pp, cutoff)):
        t = turns[i]
        if t.opaque:
            break
        open_ids |= t.opens
        open_ids -= t.closes
        closed_after[i] = not open_ids
        if not open_ids:
            boundary = i
    if boundary < 0:
        info.HistoryReason = "no_closed_prefix"
        return items
    end = boundary + 1
    if end - pp < MIN_PREFIX:
        info.HistoryReason = "prefix_too_short"
        return items
    full = "\n\n".join(t.text for t in turns[pp:end] if t.text)
    if count_tokens(full) < MIN_COLLAPSE_TOKENS:
        info.HistoryReason = "below_min_tokens"
        return items
    rendered_full = reflow_or_raw(full, opts.reflow)
    if not gpt_gate(rendered_full, STRIP_COLS, model, CONSERVATIVE_STD, opts.chars_per_token)[0]:
        info.HistoryReason = "not_profitable"
        info.CollapsedChars = byte_len(full)
        return items
    pin = -1
    for i in range(end - 1, pp - 1, -1):
        if turns[i].role == "user" and turns[i].body.strip() and (i == pp or closed_after.get(i - 1, False)):
            pin = i
            break
    sections: list[list[Turn]] = []
    current: list[Turn] = []
    tokens = 0
    for i in range(pp, end):
        if i == pin:
            if current:
                sections.append(current)
            sections.append([])  # the pin's place
            current, tokens = [], 0
            continue
        if turns[i].text:
            current.append(turns[i])
            tokens += count_tokens(turns[i].text)
        if tokens >= SECTION_TOKENS and closed_after.get(i, False):
            sections.append(current)
            current, tokens = [], 0
    if current:
        sections.append(current)
    text_part, image_part = _parts(chat)
    before, after, pages_all = [], [], []
    pinned = False
    last_end = pp
    for section in sections:
        if not section:
            pinned = True
            last_end = pin + 1
            continue
        pages = render_strips(reflow_or_raw("\n\n".join(t.text for t in section), opts.reflow), STRIP_COLS, CONSERVATIVE_STD)
        if len(pages_all) + len(pages) > MAX_IMAGES:
            break
        pages_all += pages
        (after if pinned else before).extend(image_part(p) for p in pages)
        last_end = section[-1].index + 1
    if not pages_all:
        info.HistoryReason = "too_many_images"
        return items
    end = last_end
    collapsed_text = "\n\n".join(t.text for t in turns[pp:end] if t.text)
    content = [text_part(S.HISTORY_SYNTHETIC_INTRO)] + before
    guard = S.GPT_GUARD_NO_PIN
    if pinned and pin < end:
        pin_text = turns[pin].body
        content.append(text_part(S.GPT_PIN_OPEN + pin_text + S.GPT_PIN_CLOSE))
        echo = pin_text if len(pin_text) <= PIN_ECHO_CHARS else pin_text[:PIN_ECHO_CHARS] + "..."
        guard = S.GPT_GUARD_WITH_PIN.format(echo=echo)
    content += after
    facts = fact_sheet_text(collapsed_text)
    if facts:
        content.append(text_part(facts))
    content.append(text_part(S.HISTORY_SYNTHETIC_OUTRO))
    info.HistoryReason = "collapsed"
    info.CollapsedTurns = end - pp
    info.CollapsedChars = byte_len(collapsed_text)
    info.CollapsedImages = len(pages_all)
    info.count_pages(pages_all)
    info.ImageTokensEstimate += sum(openai_vision_tokens(model, p.width, p.height) for p in pages_all)
    info.TextTokensEstimate += count_tokens(collapsed_text)
    synthetic = {"role": "user", "content": content}
    return items[:pp] + [synthetic, {"role": "developer", "content": guard}] + items[end:]
