"""Gemini generateContent transform (spec pixel-and-mem A14.4).

Gemini 3 bills a flat 1,120 tokens per image at the default/high media resolution whatever its
size, so full 1568x728 pages are very cheap per character. Old history collapses first, then the
static system instruction becomes page images at the start of the first user content, then any
large function response or text part is imaged in place. Always conservative geometry: Gemini
never gets dense or two-layer pages. Every pass-through returns the original body.
"""

from __future__ import annotations

import math

from ...gocompat import marshal
from ..density import CONSERVATIVE_STD, DENSE_RENDER_STYLE, MONO_STYLE
from ..geometry import READABLE_CHARS_PER_IMAGE
from ..prepare import byte_len, compact_slab_whitespace, js_len
from ..pricing import HISTORY_CHARS_PER_TOKEN, SLAB_CHARS_PER_TOKEN, gemini_image_tokens, with_margin
from ..profit import Evaluation, image_line_capacity, is_profitable_amortized, truncate_for_budget
from ..render import render_text_to_pngs_with_char_limit
from ..wrap import count_visual_rows, measure_content_cols
from . import strings as S
from .common import (
    TransformInfo,
    TransformOptions,
    TransformResult,
    b64png,
    compact_json,
    decode_body,
    default_transform_options,
    split_static_dynamic,
)
from .factsheet import fact_sheet_text
from .history import prepare_for_render

KEEP_TAIL = 4
MIN_PREFIX = 10
_RESOLUTIONS = {
    "MEDIA_RESOLUTION_UNSPECIFIED": "default",
    "MEDIA_RESOLUTION_LOW": "low",
    "MEDIA_RESOLUTION_MEDIUM": "medium",
    "MEDIA_RESOLUTION_HIGH": "high",
    "MEDIA_RESOLUTION_ULTRA_HIGH": "ultra_high",
}


class _Unsupported(Exception):
    pass


def media_resolution(body: dict) -> str:
    """The request's media resolution (``default`` when absent); raises when ambiguous/unknown."""
    if "generationConfig" in body and "generation_config" in body:
        raise _Unsupported
    cfg = body.get("generationConfig", body.get("generation_config"))
    if not isinstance(cfg, dict):
        return "default"
    if "mediaResolution" in cfg and "media_resolution" in cfg:
        raise _Unsupported
    value = cfg.get("mediaResolution", cfg.get("media_resolution"))
    if value is None:
        return "default"
    res = _RESOLUTIONS.get(str(value).strip().upper())
    if res is None:
        raise _Unsupported
    return res


def gemini_eval(text: str, cols: int, cpt: float, shrink: bool, per_image: int, image_cap: int = 0) -> Evaluation:
    """The profitability of ``text`` as flat-priced Gemini pages (conservative geometry)."""
    effective = measure_content_cols(text, cols) if shrink else cols
    rows = count_visual_rows(text, effective)
    images = -(-rows // image_line_capacity(effective, 1, READABLE_CHARS_PER_IMAGE, CONSERVATIVE_STD))
    if image_cap > 0:
        images = min(images, image_cap)
    image_tokens = max(1, images) * per_image
    text_tokens = js_len(text) / cpt
    return Evaluation(text_tokens, image_tokens, 0.0, 0.0, image_tokens < text_tokens)


def inline_part(page) -> dict:
    return {"inline_data": {"mime_type": "image/png", "data": b64png(page)}}


def _render(text: str, cols: int, style) -> list:
    return render_text_to_pngs_with_char_limit(text, measure_content_cols(text, cols), READABLE_CHARS_PER_IMAGE, style, 728)


def function_response_text(part: dict) -> str:
    fr = part.get("functionResponse")
    resp = fr.get("response") if isinstance(fr, dict) else None
    if isinstance(resp, str):
        return resp
    return marshal(resp, indent="  ") if resp is not None else "{}"


def part_text(part) -> str:
    if not isinstance(part, dict):
        return compact_json(part)
    if isinstance(part.get("text"), str):
        return part["text"]
    fc = part.get("functionCall")
    if isinstance(fc, dict):
        args = fc.get("args")
        return f"[functionCall {fc.get('name', '?')}]\n{compact_json(args) if args is not None else '{}'}"
    fr = part.get("functionResponse")
    if isinstance(fr, dict):
        return f"[functionResponse {fr.get('name', '?')}]\n{function_response_text(part)}"
    if "inline_data" in part or "inlineData" in part:
        return "[image]"
    return compact_json(part)


def _is_user(content) -> bool:
    role = content.get("role", "") if isinstance(content, dict) else None
    return isinstance(role, str) and role.lower() in ("", "user")


def _parts(content) -> list:
    parts = content.get("parts") if isinstance(content, dict) else None
    return parts if isinstance(parts, list) else []


class _Gemini:
    def __init__(self, opts: TransformOptions, info: TransformInfo, per_image: int):
        self.opts, self.info, self.per_image = opts, info, per_image

    def add(self, pages: list, ev: Evaluation, raw: str) -> None:
        self.info.count_pages(pages)
        self.info.ImageTokensEstimate += len(pages) * self.per_image
        self.info.TextTokensEstimate += math.ceil(ev.text_tokens)
        self.info.CompressedChars += byte_len(raw)

    def history(self, contents: list) -> list:
        n = len(contents)
        if n <= KEEP_TAIL + MIN_PREFIX:
            return contents
        cutoff = n - KEEP_TAIL
        pending: dict[str, int] = {}
        boundary = -1
        for i in range(cutoff):
            for p in _parts(contents[i]):
                if isinstance(p, dict) and isinstance(p.get("functionCall"), dict):
                    name = str(p["functionCall"].get("name"))
                    pending[name] = pending.get(name, 0) + 1
                if isinstance(p, dict) and isinstance(p.get("functionResponse"), dict):
                    name = str(p["functionResponse"].get("name"))
                    pending[name] = pending.get(name, 0) - 1
            if all(v <= 0 for v in pending.values()):
                boundary = i
        collapse_len = boundary + 1
        if collapse_len < MIN_PREFIX:
            self.info.HistoryReason = "prefix_too_short" if boundary >= 0 else "no_closed_prefix"
            return contents
        turns = []
        for i in range(collapse_len):
            role = contents[i].get("role") if isinstance(contents[i], dict) else ""
            tag = "assistant" if isinstance(role, str) and role.lower() in ("model", "assistant") else "user"
            body = "\n\n".join(part_text(p) for p in _parts(contents[i]))
            turns.append(f'<{tag} t="{i}">\n{body}\n</{tag}>' if body else f'<{tag} t="{i}"></{tag}>')
        text = "\n\n".join(turns)
        rendered = prepare_for_render(text, self.opts.reflow)
        ev = gemini_eval(rendered, 312, HISTORY_CHARS_PER_TOKEN, True, self.per_image)
        if not is_profitable_amortized(ev, self.opts.history_amortization_horizon):
            self.info.HistoryReason = "not_profitable"
            self.info.CollapsedChars = byte_len(text)
            return contents
        pages = _render(rendered, 312, DENSE_RENDER_STYLE)
        self.add(pages, ev, text)
        self.info.HistoryReason = "collapsed"
        self.info.CollapsedTurns = collapse_len
        self.info.CollapsedChars = byte_len(text)
        self.info.CollapsedImages = len(pages)
        synthetic = {"role": "user", "parts": [{"text": S.HISTORY_SYNTHETIC_INTRO}] + [inline_part(p) for p in pages]}
        return [synthetic] + contents[collapse_len:]

    def system(self, body: dict, contents: list) -> list:
        si = body.get("systemInstruction")
        parts = si.get("parts") if isinstance(si, dict) else None
        if not isinstance(parts, list):
            return contents
        texts = [p["text"] for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str)]
        kept = [p for p in parts if not (isinstance(p, dict) and isinstance(p.get("text"), str))]
        static, dynamic = split_static_dynamic("\n\n".join(texts))
        self.info.StaticChars = byte_len(static)
        self.info.DynamicChars = byte_len("\n\n".join(dynamic))
        self.info.DynamicBlockCount = len(dynamic)
        self.info.OrigChars = byte_len(static)
        first_user = next((i for i, c in enumerate(contents) if _is_user(c)), -1)
        if first_user < 0:
            self.info.passthrough("no_user_content")
            return contents
        if byte_len(static) < self.opts.min_compress_chars:
            if static:
                self.info.passthrough("below_threshold")
            return contents
        packed = prepare_for_render(compact_slab_whitespace(static), self.opts.reflow)
        header = S.GEMINI_HEADER_TOP + (S.REFLOW_NOTE_GPT if self.opts.reflow else "") + S.BEGIN_RENDERED
        text = header + packed
        ev = gemini_eval(text, self.opts.cols, SLAB_CHARS_PER_TOKEN, False, self.per_image)
        if not ev.profitable:
            self.info.passthrough("not_profitable")
            return contents
        pages = _render(text, self.opts.cols, MONO_STYLE)
        self.add(pages, ev, static)
        facts = fact_sheet_text(static)
        prefix = [inline_part(p) for p in pages] + ([{"text": facts}] if facts else []) + [{"text": S.END_OF_RENDERED_CONTEXT}] + kept
        contents = list(contents)
        target = contents[first_user]
        contents[first_user] = {**target, "parts": prefix + _parts(target)}
        new_si = [{"text": S.GEMINI_SYSTEM_POINTER}] + ([{"text": "\n\n".join(dynamic)}] if dynamic else [])
        body["systemInstruction"] = {**si, "parts": new_si}
        return contents

    def unit(self, raw: str) -> list | None:
        """Image parts (+ factsheet) for one large text, or None to keep it."""
        opts = self.opts
        text = prepare_for_render(compact_slab_whitespace(raw), opts.reflow)
        ev = gemini_eval(text, opts.cols, opts.chars_per_token, True, self.per_image, opts.max_images_per_tool_result)
        if not ev.profitable:
            self.info.passthrough("not_profitable")
            return None
        text, omitted, cut = truncate_for_budget(text, opts.max_images_per_tool_result, opts.cols, 1, READABLE_CHARS_PER_IMAGE, CONSERVATIVE_STD)
        if cut:
            self.info.TruncatedToolResults += 1
            self.info.OmittedChars += omitted
        pages = _render(text, opts.cols, DENSE_RENDER_STYLE)
        self.add(pages, ev, raw)
        self.info.ToolResultImgs += len(pages)
        facts = fact_sheet_text(raw)
        return [inline_part(p) for p in pages] + ([{"text": facts}] if facts else [])

    def contents(self, contents: list) -> list:
        out = []
        for content in contents:
            parts = _parts(content)
            images_before = self.info.ImageCount
            new_parts = []
            for p in parts:
                if isinstance(p, dict) and isinstance(p.get("functionResponse"), dict):
                    raw = function_response_text(p)
                    if byte_len(raw) >= self.opts.min_tool_result_chars:
                        images = self.unit(raw)
                        if images is not None:
                            n = sum(1 for x in images if "inline_data" in x)
                            stub = {"caveman_pixel": {"image_count": n, "original_char_count": byte_len(raw), "payload_rendered_to_following_images": True}}
                            new_parts += [{**p, "functionResponse": {**p["functionResponse"], "response": stub}}] + images
                            continue
                    else:
                        self.info.passthrough("below_threshold")
                elif isinstance(p, dict) and isinstance(p.get("text"), str) and byte_len(p["text"]) >= self.opts.min_tool_result_chars:
                    images = self.unit(p["text"])
                    if images is not None:
                        new_parts += images
                        continue
                new_parts.append(p)
            out.append({**content, "parts": new_parts} if self.info.ImageCount != images_before else content)
        return out


def transform_gemini(request, opts: TransformOptions | None = None) -> TransformResult:
    """Transform a Gemini generateContent body. ``opts.model`` names the model (bodies carry none)."""
    opts = opts or default_transform_options()
    info = TransformInfo()
    if not opts.compress:
        info.Reason = "compress=false"
        return TransformResult(request, info)
    try:
        body = decode_body(request)
        contents = body.get("contents")
        if contents is not None and not isinstance(contents, list):
            raise ValueError("contents is not an array")
    except ValueError as exc:
        return TransformResult.failed(info, f"parse_error: {exc}")
    original = decode_body(body)
    try:
        resolution = media_resolution(body)
    except _Unsupported:
        resolution = "unsupported"
    if resolution not in ("default", "high"):
        info.Reason = "unsupported_media_resolution"
        return TransformResult(original, info)
    per = gemini_image_tokens(opts.model, resolution, 1, 1)
    if per is None:
        info.Reason = "unsupported_image_token_profile"
        return TransformResult(original, info)
    run = _Gemini(opts, info, with_margin(per))
    try:
        contents = list(contents or [])
        if opts.collapse_history and contents:
            contents = run.history(contents)
        contents = run.system(body, contents)
        if opts.compress_tool_results:
            contents = run.contents(contents)
    except Exception as exc:  # fail closed
        return TransformResult.failed(info, f"contents_transform_error: {type(exc).__name__}: {exc}")
    info.finish()
    if info.ImageCount == 0:
        info.Reason = "no_profitable_blocks"
        return TransformResult(original, info)
    body["contents"] = contents
    info.Compressed = True
    info.Reason = "applied"
    return TransformResult(body, info)
