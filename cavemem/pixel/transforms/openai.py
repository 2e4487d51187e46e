"""OpenAI transform (spec pixel-and-mem A14.3): Chat Completions (``messages``) and Responses
(``input``).

System/developer instructions and full tool docs are rendered into tall strips (152 cols,
at most 1932 px) inserted as a user message before the first user turn; the original messages
keep a pointer. Tool definitions stay native JSON with descriptions of the schema stripped.
Pass-through returns the original body; errors return None.
"""

from __future__ import annotations

from ...tokens import count_tokens
from ..density import MONO_STYLE, density_from_env, resolve_density
from ..geometry import DEFAULT_GPT_STRIP_COLS, READABLE_CHARS_PER_IMAGE
from ..prepare import byte_len, compact_slab_whitespace, js_len, reflow
from ..pricing import gpt_profile, openai_vision_tokens
from ..render import render_text_to_pngs_with_char_limit, split_readable_pages
from ..wrap import measure_content_cols, wrap_lines
from . import strings as S
from .common import (
    TransformInfo,
    TransformOptions,
    TransformResult,
    b64png,
    decode_body,
    default_transform_options,
    join_nonempty,
    sorted_json,
)
from .factsheet import fact_sheet_text
from .schema import strip_schema_descriptions

RESPONSES_TEXT_TYPES = ("input_text", "output_text", "text", "summary_text", "refusal")


class ParseError(ValueError):
    pass


def gpt_style(rp):
    """Strip style: mono for conservative, else the density style drawn single-layer (max
    renders as balanced)."""
    return MONO_STYLE if rp.conservative else rp.render_style()


def strip_pages(text: str, cols: int, rp) -> list[list[str]]:
    rows = min(rp.lines_per_page(1932), max(1, READABLE_CHARS_PER_IMAGE // max(1, cols)))
    return split_readable_pages(wrap_lines(text, cols), rows, READABLE_CHARS_PER_IMAGE)


def gpt_gate(text: str, cols: int, model: str, rp, cpt: float) -> tuple[bool, int, float]:
    """(profitable, image tokens, text tokens): strips priced per the model's vision profile,
    no safety margin, against UTF-16 units / chars-per-token."""
    width = rp.page_width_px(cols)
    tokens = sum(openai_vision_tokens(model, width, rp.height_for(len(p))) for p in strip_pages(text, cols, rp))
    text_tokens = js_len(text) / (cpt if cpt and cpt > 0 else 4.0)
    return tokens < text_tokens, tokens, text_tokens


def render_strips(text: str, cols: int, rp):
    return render_text_to_pngs_with_char_limit(text, cols, READABLE_CHARS_PER_IMAGE, gpt_style(rp), 1932)


def with_notes(header: str, reflowed: bool, rp) -> str:
    notes = (S.REFLOW_NOTE_GPT if reflowed else "") + (S.ZEBRA_NOTE if rp.zebra else "")
    i = header.find("\n====")
    return header[:i] + notes + header[i:]


def chat_image_part(page) -> dict:
    return {"type": "image_url", "image_url": {"url": "data:image/png;base64," + b64png(page), "detail": "high"}}


def responses_image_part(page) -> dict:
    return {"type": "input_image", "image_url": "data:image/png;base64," + b64png(page), "detail": "high"}


def _chat_text(content) -> str:
    if isinstance(content, str):
        return content
    parts = [p["text"] for p in content if isinstance(p, dict) and p.get("type") == "text" and isinstance(p.get("text"), str)] if isinstance(content, list) else []
    return "\n\n".join(parts)


def responses_text(content) -> str:
    if isinstance(content, str):
        return content
    parts = []
    for p in content if isinstance(content, list) else []:
        if not isinstance(p, dict):
            continue
        kind = p.get("type")
        if kind in RESPONSES_TEXT_TYPES:
            v = p.get("refusal" if kind == "refusal" else "text")
            if isinstance(v, str):
                parts.append(v)
        elif kind in ("input_image", "image"):
            parts.append("[image]")
    return "\n".join(parts)


def _tool_doc(name, desc, params) -> str:
    return f"## Tool: {name if isinstance(name, str) else '?'}" + (f"\n{desc}" if isinstance(desc, str) and desc else "") + f"\n```json\n{sorted_json(params)}\n```"


class _Slab:
    """The static context of one request and how it renders."""

    def __init__(self, opts: TransformOptions, model: str, header: str):
        self.opts, self.model = opts, model
        self.rp = resolve_density(model, density_from_env())
        self.profile = gpt_profile(model)
        self.cols_limit = min(opts.cols or DEFAULT_GPT_STRIP_COLS, self.profile.strip_cols)
        self.header = header

    def build(self, docs: list[str], info: TransformInfo):
        """(pages, combined_raw) or a pass-through reason string."""
        combined_raw = join_nonempty(docs, "\n\n")
        info.OrigChars = byte_len(combined_raw)
        if not combined_raw:
            return "no_static_context"
        packed, reflowed = reflow(compact_slab_whitespace(combined_raw)) if self.opts.reflow else (compact_slab_whitespace(combined_raw), False)
        if byte_len(packed) < self.opts.min_compress_chars:
            return f"below_min_chars ({byte_len(packed)} < {self.opts.min_compress_chars})"
        text = with_notes(self.header, reflowed, self.rp) + packed
        cols = min(measure_content_cols(text, self.cols_limit), self.profile.strip_cols)
        profitable, _, _ = gpt_gate(text, cols, self.model, self.rp, self.opts.chars_per_token)
        if not profitable:
            info.passthrough("not_profitable")
            return f"not_profitable (slab={byte_len(packed)} chars)"
        pages = render_strips(text, cols, self.rp)
        info.count_pages(pages)
        info.ImageTokensEstimate += sum(openai_vision_tokens(self.model, p.width, p.height) for p in pages)
        info.CompressedChars = byte_len(combined_raw)
        return pages, combined_raw

    def content(self, docs: list[str], tool_docs: list[str], info: TransformInfo, image_part, text_type: str):
        """``(parts, combined_raw)``: the image parts of the rendered docs and tool docs, then the
        fact sheet and the end-of-context line as ``text_type`` parts; None (with
        ``info.Reason``) when the static context passes through."""
        built = self.build(docs + ["\n\n".join(tool_docs)], info)
        if isinstance(built, str):
            info.Reason = built
            return None
        pages, combined_raw = built
        facts = fact_sheet_text(combined_raw)
        parts = [image_part(p) for p in pages]
        parts += ([{"type": text_type, "text": facts}] if facts else []) + [{"type": text_type, "text": S.END_OF_GPT_CONTEXT}]
        return parts, combined_raw


def _collect_system(items: list, text_of, docs: list[str], system_texts: list[str], info: TransformInfo) -> None:
    """Each system/developer message's text as a ``## ROLE MESSAGE`` doc, counted as static."""
    for m in items:
        role = m.get("role") if isinstance(m, dict) else None
        if role in ("system", "developer"):
            text = text_of(m.get("content"))
            if text:
                docs.append(f"## {role.upper()} MESSAGE\n{text}")
                system_texts.append(text)
                info.StaticChars += byte_len(text)


def _text_estimate(system_texts: list[str], tools, stripped_tools, combined_raw: str) -> int:
    n = sum(count_tokens(t) for t in system_texts)
    if tools:
        n += max(0, count_tokens(sorted_json(tools)) - count_tokens(sorted_json(stripped_tools)))
    return n or count_tokens(combined_raw)


def transform_openai(request, opts: TransformOptions | None = None) -> TransformResult:
    """Transform an OpenAI Chat or Responses body. Pass-through returns the original body."""
    opts = opts or default_transform_options()
    info = TransformInfo()
    try:
        body = decode_body(request)
    except ValueError as exc:
        return TransformResult.failed(info, f"parse_error: {exc}")
    original = body
    model = body["model"] if isinstance(body.get("model"), str) else opts.model
    try:
        if "messages" in body:
            out = _chat(decode_body(body), model, opts, info)
        elif "input" in body:
            out = _responses(decode_body(body), model, opts, info)
        else:
            info.Reason = "parse_error: neither messages nor input present"
            return TransformResult(original, info)
    except ParseError as exc:
        return TransformResult.failed(info, f"parse_error: {exc}")
    except Exception as exc:  # fail closed
        return TransformResult.failed(info, f"render_error: {type(exc).__name__}: {exc}")
    if out is None:
        return TransformResult(original, info)
    info.Compressed = info.ImageCount > 0
    info.Reason = ""
    info.finish()
    return TransformResult(out, info)


def _chat(body: dict, model: str, opts: TransformOptions, info: TransformInfo):
    messages = body.get("messages")
    if not isinstance(messages, list):
        raise ParseError("messages is not an array")
    first_user = next((i for i, m in enumerate(messages) if isinstance(m, dict) and m.get("role") == "user"), -1)
    if first_user < 0:
        info.Reason = "no_user_message"
        return None
    tools = body.get("tools")
    if tools is not None and not isinstance(tools, list):
        raise ParseError("tools is not an array")
    docs, system_texts = [], []
    _collect_system(messages, _chat_text, docs, system_texts, info)
    tool_docs, new_tools = [], []
    for t in tools or []:
        fn = t.get("function") if isinstance(t, dict) and t.get("type") == "function" else None
        if not isinstance(fn, dict):
            new_tools.append(t)
            continue
        tool_docs.append(_tool_doc(fn.get("name"), fn.get("description"), fn.get("parameters")))
        stripped, _ = strip_schema_descriptions(fn.get("parameters"))
        new_tools.append({**t, "function": {**fn, "parameters": stripped}} if "parameters" in fn else t)
    built = _Slab(opts, model, S.CHAT_RENDERED_HEADER).content(docs, tool_docs, info, chat_image_part, "text")
    if built is None:
        return None
    content, combined_raw = built
    new_messages = _with_pointers(messages, first_user, content, _chat_text, _chat_pointer)
    if tools:
        body["tools"] = new_tools
    info.TextTokensEstimate = _text_estimate(system_texts, tools, new_tools, combined_raw)
    if opts.collapse_history:
        from .gpt_history import collapse_gpt_history

        new_messages = collapse_gpt_history(new_messages, first_user + 1, model, opts, info, chat=True)
    body["messages"] = new_messages
    return body


def _responses(body: dict, model: str, opts: TransformOptions, info: TransformInfo):
    items = body.get("input")
    if not isinstance(items, (str, list)):
        raise ParseError("input is neither a string nor an array")
    tools = body.get("tools")
    if tools is not None and not isinstance(tools, list):
        raise ParseError("tools is not an array")
    first_user = -1
    if isinstance(items, list):
        first_user = next((i for i, it in enumerate(items) if isinstance(it, dict) and it.get("role") == "user"), -1)
        if first_user < 0:
            info.Reason = "no_user_message"
            return None
    docs, system_texts = [], []
    instructions = body.get("instructions")
    if isinstance(instructions, str) and instructions:
        docs.append("## INSTRUCTIONS\n" + instructions)
        system_texts.append(instructions)
        info.StaticChars += byte_len(instructions)
    _collect_system(items if isinstance(items, list) else [], responses_text, docs, system_texts, info)
    tool_docs, new_tools = [], []
    for t in tools or []:
        if not (isinstance(t, dict) and t.get("type") == "function" and isinstance(t.get("name"), str)):
            new_tools.append(t)
            continue
        tool_docs.append(_tool_doc(t["name"], t.get("description"), t.get("parameters")))
        stripped, _ = strip_schema_descriptions(t.get("parameters"))
        new_tools.append({**t, "parameters": stripped} if "parameters" in t else t)
    built = _Slab(opts, model, S.RESPONSES_RENDERED_HEADER).content(docs, tool_docs, info, responses_image_part, "input_text")
    if built is None:
        return None
    content, combined_raw = built
    if isinstance(instructions, str) and instructions:
        body["instructions"] = S.RESPONSES_POINTER
    if tools:
        body["tools"] = new_tools
    info.TextTokensEstimate = _text_estimate(system_texts, tools, new_tools, combined_raw)
    if isinstance(items, str):
        body["input"] = [{"role": "user", "content": content + [{"type": "input_text", "text": items}]}]
        return body
    new_items = _with_pointers(items, first_user, content, responses_text, _responses_pointer)
    if opts.collapse_history:
        from .gpt_history import collapse_gpt_history

        new_items = collapse_gpt_history(new_items, first_user + 1, model, opts, info, chat=False)
    body["input"] = new_items
    return body


def _with_pointers(items: list, first_user: int, content: list, text_of, pointer) -> list:
    """``items`` with the rendered context inserted as a user message before the first user turn
    and each system/developer message that had text swapped for ``pointer(message)``."""
    out = []
    for i, m in enumerate(items):
        if i == first_user:
            out.append({"role": "user", "content": content})
        role = m.get("role") if isinstance(m, dict) else None
        if role in ("system", "developer") and text_of(m.get("content")):
            m = pointer(m)
        out.append(m)
    return out


def _chat_pointer(m: dict) -> dict:
    """A Chat system message whose text now lives in the images: the pointer, plus any non-text parts."""
    c = m.get("content")
    if isinstance(c, list):
        rest = [p for p in c if not (isinstance(p, dict) and p.get("type") == "text")]
        return {**m, "content": [{"type": "text", "text": S.CHAT_POINTER}] + rest}
    return {**m, "content": S.CHAT_POINTER}


def _responses_pointer(it: dict) -> dict:
    """A Responses system item whose text now lives in the images: the pointer, plus any non-text parts."""
    c = it.get("content")
    rest = [p for p in c if not (isinstance(p, dict) and p.get("type") in RESPONSES_TEXT_TYPES)] if isinstance(c, list) else []
    return {**it, "content": [{"type": "input_text", "text": S.RESPONSES_POINTER}] + rest}
