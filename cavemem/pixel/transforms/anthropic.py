"""Anthropic Messages transform (spec pixel-and-mem A14.2).

The static part of the system prompt plus the full tool documentation become a *slab* of page
images at the start of the first user message; big system reminders and tool results are imaged
in place; old history collapses to transcript images. Volatile system parts (``<env>`` etc.) move
to the last user message so they stop breaking the cached prefix. ``cache_control`` markers are
moved with the content they marked and never added.

Returns ``body=None`` ("forward the original") whenever nothing was imaged or on error.
"""

from __future__ import annotations

import math
import re

from ..density import DENSE_RENDER_STYLE, MONO_STYLE, density_from_env, resolve_density
from ..geometry import READABLE_CHARS_PER_IMAGE, max_fitting_cols
from ..prepare import compact_slab_whitespace
from ..pricing import SLAB_CHARS_PER_TOKEN
from ..profit import evaluate, truncate_for_budget
from ..render import (
    render_text_to_pngs_multicol,
    render_text_to_pngs_with_char_limit,
    render_text_to_two_layer_pngs,
)
from ..wrap import measure_content_cols, wrap_lines
from . import strings as S
from .common import (
    Recoverable,
    TransformInfo,
    TransformOptions,
    TransformResult,
    churning_static_tags,
    compact_json,
    decode_body,
    default_transform_options,
    join_nonempty,
    jsl,
    recoverable_id,
    split_static_dynamic,
    unknown_static_tags,
)
from .factsheet import fact_sheet_text
from .history import collapse_anthropic_history, image_block, is_reminder, prepare_for_render, text_block
from .schema import schema_has_structure, strip_schema_descriptions

MAX_REQUEST_IMAGES = 100
BILLING_PREFIX = "x-anthropic-billing-header:"
_HEADING = re.compile(r"^#{1,6} ")


def extract_system_text(system) -> tuple[str, list]:
    """(text blocks joined by blank lines, the non-text blocks in order)."""
    if isinstance(system, str):
        return system, []
    texts, rest = [], []
    for b in system if isinstance(system, list) else []:
        if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str):
            texts.append(b["text"])
        else:
            rest.append(b)
    return "\n\n".join(texts), rest


def last_static_cache_control(system):
    found = None
    for b in system if isinstance(system, list) else []:
        if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str) and "cache_control" in b:
            if split_static_dynamic(b["text"])[0]:
                found = b["cache_control"]
    return found


def strip_billing_line(text: str) -> tuple[str, str]:
    first, nl, rest = text.partition("\n")
    if first.startswith(BILLING_PREFIX):
        return first, rest
    return "", text


def strip_markdown_env_section(text: str) -> tuple[str, str]:
    """Cut the ``# Environment`` section (to the next heading): volatile per-turn state."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.strip().startswith("# Environment"):
            j = i + 1
            while j < len(lines) and not _HEADING.match(lines[j]):
                j += 1
            section = "\n".join(lines[i:j]).rstrip()
            return section, "\n".join(lines[:i] + lines[j:])
    return "", text


def _tool_docs(tools: list) -> tuple[str, list]:
    docs, new_tools = [], []
    for t in tools:
        schema = t.get("input_schema") if isinstance(t, dict) else None
        if not isinstance(schema, dict):  # server tools carry no schema or description: untouched
            new_tools.append(t)
            continue
        name = t["name"] if isinstance(t.get("name"), str) else "?"
        desc = t["description"] if isinstance(t.get("description"), str) else ""
        docs.append(f"## Tool: {name}" + (f"\n{desc}" if desc else "") + f"\n```json\n{compact_json(schema)}\n```")
        nt = dict(t)
        stripped, changed = strip_schema_descriptions(schema)
        if changed and schema_has_structure(stripped):
            nt["input_schema"] = stripped
        nt["description"] = S.TOOL_STUB.format(name=name) + (S.READ_BEFORE_WRITE_NOTE if name in S.READ_BEFORE_WRITE_TOOLS else "")
        new_tools.append(nt)
    if not docs:
        return "", new_tools
    return S.TOOL_REFERENCE_OPEN + "\n\n".join(docs) + S.TOOL_REFERENCE_CLOSE, new_tools


def _count_images(messages: list) -> int:
    n = 0
    for m in messages:
        for b in m.get("content") if isinstance(m, dict) and isinstance(m.get("content"), list) else []:
            if isinstance(b, dict) and b.get("type") == "image":
                n += 1
            elif isinstance(b, dict) and b.get("type") == "tool_result" and isinstance(b.get("content"), list):
                n += sum(1 for p in b["content"] if isinstance(p, dict) and p.get("type") == "image")
    return n


class _Run:
    """One transform call: density, geometry and the running info."""

    def __init__(self, opts: TransformOptions, model: str, info: TransformInfo, existing_images: int):
        self.opts, self.info = opts, info
        self.rp = resolve_density(model, density_from_env())
        conservative = self.rp.conservative
        self.slab_style = MONO_STYLE if conservative else self.rp.render_style()
        self.dense_style = DENSE_RENDER_STYLE if conservative else self.rp.render_style()
        self.num_cols = min(max(1, opts.multi_col), max(1, max_fitting_cols(opts.cols)))
        if self.num_cols > 1:
            self.dense_cols, self.dense_max = opts.cols, READABLE_CHARS_PER_IMAGE
        else:
            self.dense_cols, self.dense_max = self.rp.page_cols(), self.rp.char_budget()
        self.existing_images = existing_images

    def keep_sharp(self, kind: str, text: str) -> bool:
        fn = self.opts.keep_sharp
        if fn is None:
            return False
        try:
            return bool(fn(kind, text))
        except Exception:  # a failing callback never blocks compression
            return False

    def render(self, text: str, cols: int, slab: bool = False):
        style = self.slab_style if slab else self.dense_style
        if self.num_cols > 1:
            return render_text_to_pngs_multicol(text, cols, self.num_cols)
        if self.rp.layers == 2:
            return render_text_to_two_layer_pngs(text, cols, self.dense_max, style, self.rp.tier.canvas_h)
        return render_text_to_pngs_with_char_limit(text, cols, self.dense_max, style, self.rp.tier.canvas_h)

    def image_unit(self, raw: str, kind: str, tool_use_id: str, cache_control, truncate: bool) -> list | None:
        """Replacement blocks for one reminder / tool result, or None to keep it as text."""
        info, opts = self.info, self.opts
        if self.keep_sharp(kind, raw):
            info.KeptSharpBlocks += 1
            info.passthrough("kept_sharp")
            return None
        limit = opts.min_reminder_chars if kind == "reminder" else opts.min_tool_result_chars
        if jsl(raw) < limit:
            info.passthrough("below_threshold")
            return None
        text = prepare_for_render(compact_slab_whitespace(raw), opts.reflow)
        cap = opts.max_images_per_tool_result if truncate else 0
        ev = evaluate(text, self.dense_cols, cap, self.num_cols, opts.chars_per_token, shrink=True, rp=self.rp, max_chars=self.dense_max)
        if ev is None or not ev.profitable:
            info.passthrough("not_profitable")
            return None
        if truncate:
            text, omitted, cut = truncate_for_budget(
                text, opts.max_images_per_tool_result, self.dense_cols, self.num_cols, self.dense_max, self.rp
            )
            if cut:
                info.TruncatedToolResults += 1
                info.OmittedChars += omitted
        cols = self.dense_cols if self.num_cols > 1 else measure_content_cols(text, self.rp.page_cols())
        pages = self.render(text, cols)
        if self.existing_images + info.ImageCount + len(pages) > MAX_REQUEST_IMAGES:
            info.passthrough("not_profitable")
            return None
        blocks = [text_block(S.TWO_LAYER_NOTE.strip())] if any(p.layers == 2 for p in pages) else []
        images = [image_block(p) for p in pages]
        if cache_control is not None and images:
            images[-1]["cache_control"] = cache_control
        blocks += images
        facts = fact_sheet_text(raw)
        if facts:
            blocks.append(text_block(facts))
        info.count_pages(pages)
        if kind == "reminder":
            info.ReminderImgs += len(pages)
        else:
            info.ToolResultImgs += len(pages)
        info.CompressedChars += jsl(raw)
        info.TextTokensEstimate += math.floor(ev.text_tokens)
        info.ImageTokensEstimate += math.ceil(ev.image_tokens)
        if opts.emit_recoverable:
            if info.Recoverable is None:
                info.Recoverable = []
            info.Recoverable.append(Recoverable(recoverable_id(kind, tool_use_id, raw), kind, tool_use_id, raw, len(pages)))
        return blocks

    def reminders(self, blocks: list) -> list:
        out = []
        for b in blocks:
            if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str) and is_reminder(b["text"]):
                new = self.image_unit(b["text"], "reminder", "", b.get("cache_control"), truncate=False)
                if new is not None:
                    out += new
                    continue
            out.append(b)
        return out

    def tool_results(self, blocks: list) -> list:
        out = []
        for b in blocks:
            if not (isinstance(b, dict) and b.get("type") == "tool_result" and b.get("is_error") is not True):
                out.append(b)
                continue
            tid = b.get("tool_use_id") if isinstance(b.get("tool_use_id"), str) else ""
            content = b.get("content")
            if isinstance(content, str):
                new = self.image_unit(content, "tool_result", tid, None, truncate=True)
                if new is not None:
                    b = {**b, "content": new}
            elif isinstance(content, list):
                parts = []
                for part in content:
                    if isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str):
                        new = self.image_unit(part["text"], "tool_result_part", tid, part.get("cache_control"), truncate=True)
                        if new is not None:
                            parts += new
                            continue
                    parts.append(part)
                b = {**b, "content": parts}
            out.append(b)
        return out


def _user_index(messages: list) -> int:
    for i, m in enumerate(messages):
        if isinstance(m, dict) and m.get("role") == "user":
            return i
    return -1


def _as_blocks(content) -> list:
    if isinstance(content, str):
        return [text_block(content)]
    return list(content) if isinstance(content, list) else []


def _history_only(body: dict, messages: list, opts: TransformOptions, info: TransformInfo) -> TransformResult:
    new = collapse_anthropic_history(messages, 0, opts, info) if opts.collapse_history else None
    if new is None:
        return TransformResult(None, info)
    body["messages"] = new
    info.Compressed = info.ImageCount > 0
    return TransformResult(body, info)


def transform_anthropic(request, opts: TransformOptions | None = None) -> TransformResult:
    """Transform an Anthropic Messages body (bytes, str or a decoded object)."""
    opts = opts or default_transform_options()
    info = TransformInfo()
    if not opts.compress:
        info.Reason = "compress=false"
        return TransformResult(None, info)
    try:
        body = decode_body(request)
    except ValueError as exc:
        return TransformResult.failed(info, f"parse_error: {exc}")
    try:
        return _transform(body, opts, info)
    except Exception as exc:  # fail closed: the original request is forwarded
        return TransformResult.failed(info, f"render_error: {type(exc).__name__}: {exc}")


def _transform(body: dict, opts: TransformOptions, info: TransformInfo) -> TransformResult:
    model = body["model"] if isinstance(body.get("model"), str) else opts.model
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        info.Reason = "no_messages"
        return TransformResult(None, info)
    run = _Run(opts, model, info, _count_images(messages))
    system = body.get("system")
    static_cc = last_static_cache_control(system)
    sys_text, remainder = extract_system_text(system)
    billing, sys_text = strip_billing_line(sys_text)
    env_md, sys_text = strip_markdown_env_section(sys_text)
    static, dynamic_blocks = split_static_dynamic(sys_text)
    dynamic = "\n\n".join(dynamic_blocks)
    info.StaticChars = jsl(static)
    info.DynamicChars = jsl(dynamic) + jsl(env_md)
    info.DynamicBlockCount = len(dynamic_blocks)
    info.unknownStaticTags = unknown_static_tags(static)
    info.churningStaticTags = churning_static_tags(static)

    tools = body.get("tools")
    tool_ref, new_tools = "", None
    if opts.compress_tools and isinstance(tools, list) and tools:
        tool_ref, new_tools = _tool_docs(tools)
    combined_raw = join_nonempty([static, tool_ref], "\n\n")
    combined = prepare_for_render(compact_slab_whitespace(combined_raw), opts.reflow)
    info.OrigChars = jsl(combined_raw)
    if jsl(combined) < opts.min_compress_chars:
        info.Reason = f"below_min_chars ({jsl(combined)} < {opts.min_compress_chars})"
        return _history_only(body, messages, opts, info)
    user_idx = _user_index(messages)
    if user_idx < 0:  # nowhere to put the slab: keep the system prompt as it is
        info.Reason = "no_user_message"
        return _history_only(body, messages, opts, info)

    rp = run.rp
    column_note = S.COLUMN_NOTE.format(n=run.num_cols) if run.num_cols > 1 else ""
    reflow_note = S.REFLOW_NOTE if opts.reflow else ""
    ink = ""
    if run.num_cols == 1 and not rp.conservative:
        if rp.layers == 2:
            probe = S.SESSION_HEADER_TOP + column_note + reflow_note + S.TWO_LAYER_NOTE + S.BEGIN_RENDERED + combined
            ink = S.TWO_LAYER_NOTE if len(wrap_lines(probe, run.dense_cols)) > rp.page_rows() else ""
        else:
            ink = S.ZEBRA_NOTE
    slab_text = S.SESSION_HEADER_TOP + column_note + reflow_note + ink + S.BEGIN_RENDERED + combined
    slab_cols = measure_content_cols(slab_text, run.dense_cols)
    ev = evaluate(
        slab_text, slab_cols, 0, run.num_cols, SLAB_CHARS_PER_TOKEN, opts.prior_warm_tokens,
        opts.prior_warm_image_tokens, shrink=False, rp=rp,
    )
    if ev is None or not ev.profitable:
        info.Reason = f"not_profitable (slab={jsl(combined)} chars)"
        info.passthrough("not_profitable")
        return _history_only(body, messages, opts, info)
    pages = run.render(slab_text, slab_cols, slab=True)
    slab = [image_block(p) for p in pages]
    if static_cc is not None and slab:
        slab[-1]["cache_control"] = static_cc
    info.count_pages(pages)
    info.CompressedChars += info.OrigChars
    info.TextTokensEstimate += math.floor(ev.text_tokens)
    info.ImageTokensEstimate += math.ceil(ev.image_tokens)

    new_system = [text_block(billing)] if billing else []
    new_system += remainder
    if new_system:
        body["system"] = new_system
    else:
        body.pop("system", None)

    messages = list(messages)
    for i, msg in enumerate(messages):
        if not (isinstance(msg, dict) and msg.get("role") == "user"):
            continue
        blocks = _as_blocks(msg.get("content"))
        images_before = info.ImageCount
        if i == user_idx and opts.compress_reminders:
            blocks = run.reminders(blocks)
        if opts.compress_tool_results:
            blocks = run.tool_results(blocks)
        if i == user_idx:
            facts = fact_sheet_text(combined_raw)
            head = slab + ([text_block(facts)] if facts else []) + [text_block(S.END_OF_RENDERED_CONTEXT)]
            blocks = head + blocks
        if i == user_idx or info.ImageCount != images_before:  # every replacement adds images
            messages[i] = {**msg, "content": blocks}
    if new_tools is not None:
        body["tools"] = new_tools
    if opts.collapse_history:
        collapsed = collapse_anthropic_history(messages, user_idx + 1, opts, info)
        if collapsed is not None:
            messages = collapsed
    volatile = join_nonempty([dynamic, env_md], "\n\n")
    if volatile:
        last = max(i for i, m in enumerate(messages) if isinstance(m, dict) and m.get("role") == "user")
        blocks = _as_blocks(messages[last].get("content"))
        blocks.append(text_block(S.ENV_RELOCATION_OPEN + volatile + S.ENV_RELOCATION_CLOSE))
        messages[last] = {**messages[last], "content": blocks}
    body["messages"] = messages
    info.Compressed = info.ImageCount > 0
    info.Reason = ""
    info.finish()
    return TransformResult(body, info)
