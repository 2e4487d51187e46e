"""Shared pieces of the request transforms (spec pixel-and-mem A14.1, A15): options, the
TransformInfo report, the static/dynamic system split and small JSON helpers.

Transforms are S4 lossy (the model sees pictures of text), so every failure passes the original
request through; callers keep the original bytes recoverable.
"""

from __future__ import annotations

import base64
import hashlib
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field, fields

from ...gocompat import go_text, loads_verbatim, marshal, trim_space
from ..prepare import js_len


@dataclass
class TransformOptions:
    """A14.1 defaults. ``keep_sharp(kind, text) -> bool`` keeps a block as text."""

    compress: bool = True
    compress_tools: bool = True
    compress_reminders: bool = True
    compress_tool_results: bool = True
    min_compress_chars: int = 2000
    min_reminder_chars: int = 6000
    min_tool_result_chars: int = 6000
    cols: int = 312
    max_images_per_tool_result: int = 10
    multi_col: int = 1
    chars_per_token: float = 4.0
    history_amortization_horizon: int = 1
    collapse_history: bool = True
    reflow: bool = True
    keep_sharp: object = None
    emit_recoverable: bool = False
    model: str = ""
    prior_warm_tokens: float = 0.0
    prior_warm_image_tokens: float = 0.0


def default_transform_options(model: str = "") -> TransformOptions:
    return TransformOptions(model=model)


@dataclass
class Recoverable:
    ID: str
    Kind: str
    ToolUseID: str
    Text: str
    ImageCount: int


def recoverable_id(kind: str, tool_use_id: str, text: str) -> str:
    digest = hashlib.sha256(f"{kind}\x00{tool_use_id}\x00{text}".encode("utf-8", "surrogatepass")).hexdigest()
    return "rec_" + digest[:8]


@dataclass
class TransformInfo:
    """What a transform did. Field names and order are the reference's JSON (A15)."""

    Compressed: bool = False
    Reason: str = ""
    OrigChars: int = 0
    CompressedChars: int = 0
    ImageCount: int = 0
    ImageBytes: int = 0
    ImagePixels: int = 0
    TextTokensEstimate: int = 0
    ImageTokensEstimate: int = 0
    StaticChars: int = 0
    DynamicChars: int = 0
    DynamicBlockCount: int = 0
    unknownStaticTags: list = field(default_factory=list)
    churningStaticTags: list = field(default_factory=list)
    ReminderImgs: int = 0
    ToolResultImgs: int = 0
    DroppedChars: int = 0
    PassthroughReasons: dict | None = field(default_factory=dict)
    KeptSharpBlocks: int = 0
    TruncatedToolResults: int = 0
    OmittedChars: int = 0
    CollapsedTurns: int = 0
    CollapsedChars: int = 0
    CollapsedImages: int = 0
    HistoryReason: str = ""
    Recoverable: list | None = None

    def passthrough(self, reason: str) -> None:
        if self.PassthroughReasons is None:
            self.PassthroughReasons = {}
        self.PassthroughReasons[reason] = self.PassthroughReasons.get(reason, 0) + 1

    def count_pages(self, pages) -> None:
        self.ImageCount += len(pages)
        for p in pages:
            self.ImageBytes += len(p.png)
            self.ImagePixels += p.width * p.height
            self.DroppedChars += p.dropped_chars

    def finish(self) -> None:
        if not self.PassthroughReasons:
            self.PassthroughReasons = None

    def to_dict(self) -> dict:
        out: dict = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name in ("unknownStaticTags", "churningStaticTags") and not v:
                continue
            if f.name == "Recoverable" and v is not None:
                v = [r.__dict__ for r in v]
            out[f.name] = v
        return out

    def to_json(self) -> str:
        """Compact JSON with Go's HTML escaping (``<`` as ``\\u003c``)."""
        return marshal(self.to_dict(), sort_keys=False)


@dataclass
class TransformResult:
    body: object  # transformed JSON value, or None = forward the original
    info: TransformInfo
    error: str | None = None

    @classmethod
    def failed(cls, info: TransformInfo, reason: str) -> TransformResult:
        """Fail closed: the original request is forwarded, ``reason`` is both the error and
        ``info.Reason``."""
        info.Reason = reason
        return cls(None, info, reason)


def decode_body(request) -> dict:
    """A request body as a fresh JSON object (bytes/str are parsed with numbers kept verbatim;
    objects are deep-copied so the caller's value is never mutated). ValueError otherwise."""
    if isinstance(request, bytes):
        request = go_text(request)
    body = loads_verbatim(request) if isinstance(request, str) else json_copy(request)
    if not isinstance(body, dict):
        raise ValueError("request body is not a JSON object")
    return body


def json_copy(value):
    """Deep copy of a decoded JSON value without recursion (bodies may nest ~1000 deep)."""
    if not isinstance(value, (dict, list)):
        return value
    root = {} if isinstance(value, dict) else []
    stack = [(value, root)]
    while stack:
        src, dst = stack.pop()
        items = src.items() if isinstance(src, dict) else enumerate(src)
        for key, v in items:
            if isinstance(v, (dict, list)):
                c = {} if isinstance(v, dict) else []
                stack.append((v, c))
            else:
                c = v
            if isinstance(dst, dict):
                dst[key] = c
            else:
                dst.append(c)
    return root


# --------------------------------------------------------------------------------------------
# System prompt: static vs dynamic parts

DYNAMIC_TAGS = ("env", "context", "git_status", "directoryStructure", "system-reminder")
KNOWN_STATIC_TAGS = frozenset(
    {
        "types", "example", "available_skills", "examples", "rules", "task", "codeSearchInstructions",
        "codeSearchToolUseInstructions", "communicationGuidelines", "gptAgentInstructions", "outputFormatting",
        "structuredWorkflow", "toolUseInstructions",
    }
)
_DYNAMIC_OPEN = re.compile(r"<(env|context|git_status|directoryStructure|system-reminder)(?=[\s>])[^>]*>", re.ASCII)
_MANY_NL = re.compile(r"\n{3,}")
_PAIRED_OPEN = re.compile(r"<([A-Za-z][A-Za-z0-9_.:-]*)(?:\s[^<>]*)?>", re.ASCII)


def split_static_dynamic(text: str) -> tuple[str, list[str]]:
    """Move ``<env>``-like volatile blocks out of the system text. Scanning stops at the first
    such tag that is never closed (the rest stays static)."""
    pos = 0
    static_parts: list[str] = []
    dynamic: list[str] = []
    while True:
        m = _DYNAMIC_OPEN.search(text, pos)
        if not m:
            break
        close_tag = f"</{m.group(1)}>"
        close = text.find(close_tag, m.end())
        if close < 0:
            break
        static_parts.append(text[pos : m.start()])
        dynamic.append(text[m.start() : close + len(close_tag)])
        pos = close + len(close_tag)
    static_parts.append(text[pos:])
    return trim_space(_MANY_NL.sub("\n\n", "".join(static_parts))), dynamic


def paired_tags(text: str) -> list[tuple[str, int, int]]:
    """``(name, body start, body end)`` for each ``<tag …>…</tag>`` pair (first close after)."""
    out = []
    pos = 0
    while True:
        m = _PAIRED_OPEN.search(text, pos)
        if not m:
            return out
        name = m.group(1)
        close = text.find(f"</{name}>", m.end())
        if close >= 0 and len(name) <= 64:
            out.append((name, m.end(), close))
        pos = m.end()


def unknown_static_tags(static: str) -> list[str]:
    names = {n for n, _, _ in paired_tags(static)}
    return sorted(n for n in names if n not in KNOWN_STATIC_TAGS and n not in DYNAMIC_TAGS)


def fnv1a32(text: str) -> int:
    h = 0x811C9DC5
    for b in text.encode("utf-8", "surrogatepass"):
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


_churn_lock = threading.Lock()
_churn_seen: OrderedDict = OrderedDict()
CHURN_LRU = 4096


def churning_static_tags(static: str) -> list[str]:
    """Tags whose body changed since the last request with the same tag-less static text: a
    churning tag breaks the prompt cache of every image after it."""
    tags = paired_tags(static)
    if not tags:
        return []
    skeleton_parts, last = [], 0
    for _, start, end in tags:
        if start >= last:
            skeleton_parts.append(static[last:start])
            last = end
    skeleton_parts.append(static[last:])
    session = hashlib.sha256("".join(skeleton_parts).encode("utf-8", "surrogatepass")).hexdigest()[:8]
    out = set()
    with _churn_lock:
        for name, start, end in tags:
            key = (session, name)
            h = fnv1a32(static[start:end])
            old = _churn_seen.get(key)
            if old is not None and old != h:
                out.add(name)
            _churn_seen[key] = h
            _churn_seen.move_to_end(key)
            while len(_churn_seen) > CHURN_LRU:
                _churn_seen.popitem(last=False)
    return sorted(out)


# --------------------------------------------------------------------------------------------
# Small helpers


def b64png(page) -> str:
    return base64.b64encode(page.png).decode("ascii")


def join_nonempty(parts, sep: str) -> str:
    return sep.join(p for p in parts if p)


def jsl(s: str) -> int:
    return js_len(s)


def compact_json(value) -> str:
    """Compact JSON in the value's own key order (no HTML escaping), numbers verbatim."""
    return marshal(value, sort_keys=False, html_escape=False)


def sorted_json(value) -> str:
    """json.Marshal of a decoded value: keys sorted, HTML-escaped."""
    return marshal(value, sort_keys=True)


def whitespace_preview(text: str, limit: int = 300) -> str:
    collapsed = " ".join(text.split())
    return collapsed[:limit] + "..." if len(collapsed) > limit else collapsed
