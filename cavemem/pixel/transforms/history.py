"""Anthropic history collapse (spec pixel-and-mem A14.5a): old turns become one synthetic user
message holding role-coloured transcript images.

The newest 4 messages stay live; the collapsed prefix ends at a point where every ``tool_use`` has
its ``tool_result`` (an open pair must stay live) and advances in steps of 50 so the images stay
identical across turns. Chunks of 10 turns ("freeze" chunks) render to byte-identical images
turn after turn, which is what lets a moved ``cache_control`` marker keep hitting the cache.
"""

from __future__ import annotations

import math
import re

from ..density import CONSERVATIVE_STD, RenderStyle
from ..geometry import MAX_HEIGHT_PX, READABLE_CHARS_PER_IMAGE, go_div
from ..prepare import neutralize_sentinel, reflow
from ..profit import evaluate, is_profitable_amortized
from ..pricing import HISTORY_CHARS_PER_TOKEN
from ..render import render_text_to_pngs_with_char_limit
from . import strings as S
from .common import TransformInfo, TransformOptions, b64png, compact_json, jsl, whitespace_preview
from .factsheet import fact_sheet_text

KEEP_TAIL = 4
MIN_COLLAPSE_PREFIX = 10
COLLAPSE_CHUNK = 50
FREEZE_CHUNK = 10
ROLE_STYLE = RenderStyle(aa=True, color_by_role=True)
_FILE_STATE = re.compile(S.FILE_STATE_CURRENT)


def image_block(page) -> dict:
    return {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": b64png(page)}}


def text_block(text: str) -> dict:
    return {"type": "text", "text": text}


def _role(msg) -> str:
    return msg.get("role", "") if isinstance(msg, dict) and isinstance(msg.get("role"), str) else ""


def _blocks(msg) -> list | None:
    content = msg.get("content") if isinstance(msg, dict) else None
    return content if isinstance(content, list) else None


def is_reminder(text: str) -> bool:
    return text.lstrip().startswith("<system-reminder>")


def _tool_result_text(block: dict) -> str:
    content = block.get("content")
    if isinstance(content, str):
        inner = content
    elif isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif isinstance(part, dict) and part.get("type") == "image":
                parts.append("[image]")
        inner = "\n".join(parts)
    else:
        inner = ""
    head = "[tool_result (error)]" if block.get("is_error") is True else "[tool_result]"
    return head + "\n" + _FILE_STATE.sub(S.FILE_STATE_PRIOR, inner)


def message_body(msg) -> str:
    content = msg.get("content") if isinstance(msg, dict) else None
    if isinstance(content, str):
        return content
    parts = []
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            parts.append(block["text"])
        elif kind == "tool_use":
            name = block.get("name") if isinstance(block.get("name"), str) else "?"
            parts.append(f"[tool_use {name}]\n{compact_json(block.get('input', {}))}")
        elif kind == "tool_result":
            parts.append(_tool_result_text(block))
        elif kind == "image":
            parts.append("[image]")
    return "\n\n".join(parts)


def transcript(messages: list, start: int, end: int) -> tuple[str, str]:
    """``<user t="i">…</user>`` turns joined by blank lines, and the parallel slot text whose
    tag characters are \\x01 (user) / \\x02 (assistant) so only the tags are coloured."""
    texts, slots = [], []
    for i in range(start, end):
        body = message_body(messages[i])
        if not body.strip():
            continue
        role = "user" if _role(messages[i]) == "user" else "assistant"
        mark = "\x01" if role == "user" else "\x02"
        open_tag, close_tag = f'<{role} t="{i}">', f"</{role}>"
        texts.append(f"{open_tag}\n{body}\n{close_tag}")
        quiet = body.replace("\x01", "\x03").replace("\x02", "\x03")
        slots.append(f"{mark * len(open_tag)}\n{quiet}\n{mark * len(close_tag)}")
    return "\n\n".join(texts), "\n\n".join(slots)


def prepare_for_render(text: str, enabled: bool) -> str:
    """Anthropic-side reflow: neutralise literal ``↵`` first so reflow always succeeds."""
    if not enabled:
        return text
    packed, _ = reflow(neutralize_sentinel(text))
    return packed


def _has_cache_control(msg) -> dict | None:
    found = None
    for block in _blocks(msg) or []:
        if isinstance(block, dict) and "cache_control" in block:
            found = block["cache_control"]
    return found


def closed_boundary(messages: list, cutoff: int) -> int:
    """Last index < cutoff after which every assistant ``tool_use`` has its ``tool_result``."""
    open_ids: set = set()
    boundary = -1
    for i in range(min(cutoff, len(messages))):
        blocks = _blocks(messages[i])
        if blocks is None:
            boundary = i
            continue
        role = _role(messages[i])
        for b in blocks:
            if not isinstance(b, dict):
                continue
            if role == "assistant" and b.get("type") == "tool_use":
                open_ids.add(str(b.get("id")))
            elif role == "user" and b.get("type") == "tool_result":
                open_ids.discard(str(b.get("tool_use_id")))
        if not open_ids:
            boundary = i
    return boundary


def typed_user_text(msg) -> str:
    """What the user typed: text blocks (after the rendered-context marker, if any), without
    system reminders."""
    content = msg.get("content") if isinstance(msg, dict) else None
    if isinstance(content, str):
        return "" if is_reminder(content) else content
    blocks = content if isinstance(content, list) else []
    for i, b in enumerate(blocks):
        if isinstance(b, dict) and b.get("type") == "text" and b.get("text") == S.END_OF_RENDERED_CONTEXT:
            blocks = blocks[i + 1 :]
            break
    texts = [
        b["text"] for b in blocks
        if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str) and not is_reminder(b["text"])
    ]
    return "\n\n".join(t for t in texts if t.strip())


def _verbatim_cap(text: str) -> str:
    if len(text) <= 4000:
        return text
    return text[:2600] + f"\n[\u2026 middle elided ({len(text) - 4000} chars) \u2026]\n" + text[-1400:]


def latest_user_pointer(messages: list, collapse_len: int, pp: int) -> str:
    for i in range(collapse_len - 1, -1, -1):
        if _role(messages[i]) != "user":
            continue
        text = typed_user_text(messages[i])
        if not text:
            continue
        if i >= pp:
            return S.LATEST_USER_PREVIEW.format(i=i, text=whitespace_preview(text))
        return S.LATEST_USER_VERBATIM.format(i=i, text=_verbatim_cap(text))
    return ""


def _demote_head(head: list) -> list:
    """Opening user text after the rendered slab becomes a labelled, non-actionable preview."""
    out = []
    for idx, msg in enumerate(head):
        blocks = _blocks(msg)
        if _role(msg) != "user" or blocks is None:
            out.append(msg)
            continue
        after = False
        new_blocks = []
        for b in blocks:
            if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str):
                if b["text"] == S.END_OF_RENDERED_CONTEXT:
                    after = True
                elif after and not is_reminder(b["text"]):
                    nb = dict(b)
                    nb["text"] = S.OPENING_TURN_DEMOTED.format(i=idx, preview=whitespace_preview(b["text"]))
                    b = nb
            new_blocks.append(b)
        out.append({**msg, "content": new_blocks})
    return out


def _move_slab_anchor(head: list, target: dict) -> None:
    """Move the cache_control of the slab image just before ``[End of rendered context.]`` onto
    the carry-over history image (moved, never added)."""
    for msg in head:
        blocks = _blocks(msg)
        for j, b in enumerate(blocks or []):
            if isinstance(b, dict) and b.get("type") == "text" and b.get("text") == S.END_OF_RENDERED_CONTEXT:
                for k in range(j - 1, -1, -1):
                    prev = blocks[k]
                    if isinstance(prev, dict) and prev.get("type") == "image" and "cache_control" in prev:
                        target["cache_control"] = prev.pop("cache_control")
                        return


def collapse_anthropic_history(messages: list, pp: int, opts: TransformOptions, info: TransformInfo) -> list | None:
    """The new message list, or None (with ``info.HistoryReason`` saying why) when nothing collapsed."""
    if not messages:
        info.HistoryReason = "no_history"
        return None
    raw_cutoff = len(messages) - KEEP_TAIL
    cutoff = min(raw_cutoff, max(MIN_COLLAPSE_PREFIX + pp, go_div(raw_cutoff, COLLAPSE_CHUNK) * COLLAPSE_CHUNK))
    boundary = closed_boundary(messages, cutoff)
    if boundary < 0:
        info.HistoryReason = "no_closed_prefix"
        return None
    collapse_len = boundary + 1
    if collapse_len - pp < MIN_COLLAPSE_PREFIX:
        info.HistoryReason = "prefix_too_short"
        return None
    text, _ = transcript(messages, pp, collapse_len)
    if not text:
        info.HistoryReason = "render_empty"
        return None
    cols = opts.cols or 312
    ev = evaluate(
        prepare_for_render(text, opts.reflow), cols, 0, 1, HISTORY_CHARS_PER_TOKEN, shrink=True,
        rp=CONSERVATIVE_STD, max_chars=READABLE_CHARS_PER_IMAGE,
    )
    if not is_profitable_amortized(ev, opts.history_amortization_horizon):
        info.HistoryReason = "not_profitable"
        info.CollapsedChars = jsl(text)
        return None
    ends = {pp + k * FREEZE_CHUNK for k in range(1, (collapse_len - pp) // FREEZE_CHUNK + 1)}
    freeze_ends = {e for e in ends if e <= collapse_len}
    ends = {e for e in ends if e < collapse_len} | {collapse_len}
    markers = {}
    for i in range(pp, collapse_len):
        cc = _has_cache_control(messages[i])
        if cc is not None:
            ends.add(i + 1)
            markers[i + 1] = cc
    images: list[dict] = []
    pages_all = []
    carry_over = None
    start = pp
    for end in sorted(ends):
        chunk_text, slot_text = transcript(messages, start, end)
        if chunk_text:
            pages = render_text_to_pngs_with_char_limit(
                prepare_for_render(chunk_text, opts.reflow), cols, READABLE_CHARS_PER_IMAGE, ROLE_STYLE,
                MAX_HEIGHT_PX, slot_text=prepare_for_render(slot_text, opts.reflow),
            )
            blocks = [image_block(p) for p in pages]
            if end in markers and blocks:
                blocks[-1]["cache_control"] = markers[end]
            if end in freeze_ends and blocks:
                carry_over = blocks[-1]
            images += blocks
            pages_all += pages
        start = end
    content = [{"type": "text", "text": S.HISTORY_SYNTHETIC_INTRO}] + images
    pointer = latest_user_pointer(messages, collapse_len, pp)
    if pointer:
        content.append(text_block(pointer))
    facts = fact_sheet_text(text)
    if facts:
        content.append(text_block(facts))
    content.append(text_block(S.HISTORY_SYNTHETIC_OUTRO))
    head = _demote_head(messages[:pp])
    if carry_over is not None and "cache_control" not in carry_over:
        _move_slab_anchor(head, carry_over)
    info.HistoryReason = "collapsed"
    info.CollapsedTurns = collapse_len - pp
    info.CollapsedChars = jsl(text)
    info.CollapsedImages = len(pages_all)
    info.count_pages(pages_all)
    info.TextTokensEstimate += math.floor(ev.text_tokens)
    info.ImageTokensEstimate += math.ceil(ev.image_tokens)
    return head + [{"role": "user", "content": content}] + messages[collapse_len:]

