"""Tolerant reader for Claude Code transcripts (JSONL, one object per line).

Why tolerant: the file is written while we read it (a torn last line is normal), Claude Code adds
line types between versions, and a transcript is untrusted data — tool output is never read as
instructions and never becomes a memory. Only ``text`` blocks of real user and assistant messages
count as conversation; ``thinking``, ``tool_use`` and ``tool_result`` blocks, meta lines and slash
command echoes do not.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

CONVERSATION_TYPES = ("user", "assistant")


@dataclass
class Message:
    """One transcript line that is a message (user, assistant, system, summary…)."""

    uuid: str
    type: str
    offset: int  # byte offset of the line in the transcript file
    length: int  # bytes of the line, newline excluded
    timestamp: str = ""
    session: str = ""
    cwd: str = ""
    branch: str = ""
    text: str = ""  # conversation text only (see module docstring); "" for tool traffic
    tool: bool = False  # tool_use / tool_result traffic
    extra: dict = field(default_factory=dict)


@dataclass
class Chunk:
    """The complete lines appended since ``start`` (``data`` ends with a newline, or is empty)."""

    start: int
    data: bytes
    messages: list[Message]
    size: int  # the file size seen (a torn tail past start+len(data) is left for next time)

    @property
    def end(self) -> int:
        return self.start + len(self.data)


def conversation_text(content) -> tuple[str, bool]:
    """(text blocks joined, whether the content held tool traffic)."""
    if isinstance(content, str):
        return content, False
    if not isinstance(content, list):
        return "", False
    parts, tool = [], False
    for block in content:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            parts.append(block["text"])
        elif kind in ("tool_use", "tool_result", "server_tool_use", "web_search_tool_result"):
            tool = True
    return "\n".join(parts), tool


def _is_command_echo(text: str) -> bool:
    head = text.lstrip()[:40]
    return head.startswith(("<command-name>", "<command-message>", "<local-command-stdout>", "Caveat: "))


def parse_line(raw: bytes, offset: int) -> Message | None:
    """A :class:`Message` for one line, or None for lines that are not messages or not JSON."""
    try:
        entry = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if not isinstance(entry, dict):
        return None
    kind = entry.get("type")
    uuid = entry.get("uuid") or entry.get("leafUuid") or entry.get("messageId")
    if not isinstance(kind, str) or not isinstance(uuid, str):
        return None

    def s(key: str) -> str:
        value = entry.get(key)
        return value if isinstance(value, str) else ""

    msg = Message(uuid=uuid, type=kind, offset=offset, length=len(raw), timestamp=s("timestamp"),
                  session=s("sessionId"), cwd=s("cwd"), branch=s("gitBranch"))
    if kind in CONVERSATION_TYPES and not entry.get("isMeta") and not entry.get("isSidechain"):
        message = entry.get("message") if isinstance(entry.get("message"), dict) else {}
        text, tool = conversation_text(message.get("content"))
        msg.tool = tool or "toolUseResult" in entry
        if not msg.tool and not _is_command_echo(text):
            msg.text = text
    return msg


def read_from(path: str, start: int = 0, max_bytes: int | None = None) -> Chunk:
    """The complete lines of ``path`` from byte ``start`` on (a torn last line is ignored).

    A file now shorter than ``start`` was replaced: reading restarts at 0. Raises OSError."""
    with open(path, "rb") as fh:
        size = os.fstat(fh.fileno()).st_size
        if start > size:
            start = 0
        fh.seek(start)
        data = fh.read(size - start if max_bytes is None else min(max_bytes, size - start))
    cut = data.rfind(b"\n") + 1
    data = data[:cut]
    messages: list[Message] = []
    pos = 0
    while pos < len(data):
        nl = data.index(b"\n", pos)
        line = data[pos:nl]
        if line.strip():
            msg = parse_line(line, start + pos)
            if msg is not None:
                messages.append(msg)
        pos = nl + 1
    return Chunk(start=start, data=data, messages=messages, size=size)
