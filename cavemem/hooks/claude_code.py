"""Claude Code hook I/O (spec memory-anchors.md §d.1): what each event reads and prints.

Claude Code runs a hook command with the event as JSON on stdin (``session_id``, ``cwd``,
``hook_event_name``, ``transcript_path`` …) and, on exit 0, reads stdout. For SessionStart and
UserPromptSubmit, ``{"hookSpecificOutput": {"hookEventName": …, "additionalContext": …}}`` adds
text to the model's context. Nothing here ever blocks: no ``decision: block``, no exit 2.

- **session-start** — a briefing of the project's (and global) memories, preferences and decisions
  first, newest first within a kind, packed under **1,500 inferred tokens** (exact o200k counts of
  the injected text, header included). No memories → no output.
- **user-prompt** — the prompt is recalled against memory (limit 3, 600 tokens); the recall's
  refusal gate decides whether the prompt is on-topic, so an unrelated prompt injects nothing.
  Slash commands and empty prompts are skipped; ``<private>`` spans and injected
  ``<cavemem-context>`` blocks are never part of the query.
- **stop / session-end / pre-compact** — hand the transcript to the detached writer, which archives
  its new lines and extracts durable memories by rule (:mod:`cavemem.memory.capture`;
  ``CAVEMAN_CAPTURE=0`` turns that off). The stop hook also records what the turn *explicitly*
  asked to keep (see :func:`remember_requests`):
  ``<remember>…</remember>`` blocks the assistant wrote (outside code fences), and a user prompt
  that starts with "remember:", "remember that …", "please remember …" or "note to self:". Nothing
  is inferred from ordinary conversation: a wrong guess stored as a fact is worse than a missing
  one. Texts still go through ``Memory.remember`` (secret redaction, ``<private>`` removal).
"""

from __future__ import annotations

import json
import os
import re

SESSION_START_TOKENS = 1500
PROMPT_TOKENS = 600
PROMPT_LIMIT = 3
MAX_QUERY_CHARS = 2000
BRIEFING_CANDIDATES = 300
LINE_CHARS = 320
MAX_REMEMBER = 10
MAX_REMEMBER_BYTES = 16 * 1024
TRANSCRIPT_TAIL_BYTES = 512 * 1024
KIND_ORDER = {"preference": 0, "decision": 1, "fact": 2}

EVENT_NAMES = {"session-start": "SessionStart", "user-prompt": "UserPromptSubmit", "stop": "Stop",
               "session-end": "SessionEnd", "pre-compact": "PreCompact"}
CAPTURE_EVENTS = ("stop", "session-end", "pre-compact")  # archive + extract the transcript's new lines


class HookInputError(ValueError):
    """The hook's stdin is not a JSON object."""


def parse_event(raw: bytes) -> dict:
    if not raw.strip():
        raise HookInputError("empty hook input (expected the event JSON on stdin)")
    try:
        event = json.loads(raw.decode("utf-8", "replace"))
    except (ValueError, RecursionError) as exc:
        raise HookInputError(f"hook input is not JSON: {exc}") from None
    if not isinstance(event, dict):
        raise HookInputError(f"hook input is a JSON {type(event).__name__}, expected an object")
    return event


def event_cwd(event: dict) -> str | None:
    cwd = event.get("cwd")
    if isinstance(cwd, str) and cwd.strip():
        return cwd
    env = os.environ.get("CLAUDE_PROJECT_DIR", "")
    return env or None


def event_session(event: dict) -> str | None:
    sid = event.get("session_id")
    return sid.strip()[:200] if isinstance(sid, str) and sid.strip() else None


def hook_output(event_name: str, context: str) -> dict:
    return {"hookSpecificOutput": {"hookEventName": event_name, "additionalContext": context}}


# -- session start ----------------------------------------------------------------------------------


def _one_line(text: str, width: int = LINE_CHARS) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def _briefing_order(records, unconfirmed: frozenset = frozenset()):
    """Confirmed memories before unconfirmed captures; within each, preferences, decisions,
    facts, then the rest; newest first within each kind."""
    indexed = list(enumerate(records))  # records come newest first
    indexed.sort(key=lambda p: (p[1].id in unconfirmed, KIND_ORDER.get(p[1].kind or "", 3), p[0]))
    return [r for _, r in indexed]


def _unconfirmed(memory, records) -> frozenset:
    """Ids among ``records`` that were captured automatically and not confirmed yet."""
    found = [r.id for r in records]
    if not found:
        return frozenset()
    try:
        rows = memory.store.read(f"SELECT id FROM mem_capture WHERE captured = 1 AND confidence < 1 AND id IN ({','.join('?' * len(found))})", found)
    except Exception:  # noqa: BLE001 - an older store without capture tables: no captures
        return frozenset()
    return frozenset(r[0] for r in rows)


def briefing(memory, budget: int = SESSION_START_TOKENS) -> str:
    """The session-start block: as many memories as fit in ``budget`` tokens (all of it counted)."""
    from ..tokens import count_tokens

    records = memory.list(limit=BRIEFING_CANDIDATES)
    if not records:
        return ""
    total = memory.count()
    project = memory.project(None)
    lines: list[str] = []
    unconfirmed = _unconfirmed(memory, records)
    for rec in _briefing_order(records, unconfirmed):
        tags = [rec.created_at[:10] or "?"]
        if rec.kind:
            tags.append(rec.kind)
        if rec.topic:
            tags.append(_one_line(rec.topic, 60))
        if rec.id in unconfirmed:
            tags.append("unconfirmed")
        tags.append(rec.id)
        lines.append(f"- [{' · '.join(tags)}] {_one_line(rec.text)}")

    def block(body: list[str]) -> str:
        head = (
            f"[cavemem · project {project or '(global)'} · {len(body)} of {total} memories · "
            f"basis inferred · more: cavemem recall <query> · full text: cavemem show <id>]"
        )
        return "\n".join(["<cavemem-context>", head, *body, "</cavemem-context>"]) + "\n"

    # One count over every candidate first: the counter then knows all the text's pieces and
    # the per-line counts below reuse one encoder instead of rebuilding it for each line.
    likely, chars = [], 0
    for line in lines:  # ~4 characters a token: lines past budget×5 characters rarely fit
        if chars > budget * 5:
            break
        likely.append(line)
        chars += len(line)
    count_tokens(block(likely))
    # greedy by line cost, then confirm on the whole block (the header's numbers change with it)
    overhead = count_tokens(block([]))
    chosen: list[str] = []
    used = overhead
    misses = 0
    for line in lines:
        if budget - used < 12 or misses >= 8:  # nothing useful fits any more: stop counting
            break
        cost = count_tokens(line + "\n")
        if used + cost <= budget:
            chosen.append(line)
            used += cost
        else:
            misses += 1
    while chosen and count_tokens(block(chosen)) > budget:
        chosen.pop()
    return block(chosen) if chosen else ""


def session_start(memory, event: dict) -> dict | None:
    text = briefing(memory, SESSION_START_TOKENS)
    return hook_output("SessionStart", text) if text else None


# -- user prompt ------------------------------------------------------------------------------------


def prompt_query(prompt) -> str | None:
    """The recall query for a prompt, or None when the prompt should not trigger recall."""
    if not isinstance(prompt, str):
        return None
    from ..memory.privacy import strip_private

    text, _ = strip_private(prompt)
    text = text.strip()
    if not text or text.startswith("/"):  # empty, or a slash command
        return None
    return text[:MAX_QUERY_CHARS]


def user_prompt(memory, event: dict) -> dict | None:
    query = prompt_query(event.get("prompt"))
    if query is None:
        return None
    from ..memory.render import context_block

    result = memory.recall(query, limit=PROMPT_LIMIT, token_budget=PROMPT_TOKENS)
    if not result["hits"]:
        return None
    note_injected(event, result["hits"])
    return hook_output("UserPromptSubmit", context_block(result))  # marks unconfirmed captures


_PLAIN_SESSION = re.compile(r"[A-Za-z0-9-]{1,64}")


def _injected_path(session: str) -> str:
    """The per-session note of injected memories. A plain session id (Claude Code's are uuids) names
    the file as it is; anything else is hashed — so a Stop hook never loads OpenSSL for ``hashlib``."""
    from . import spool

    if _PLAIN_SESSION.fullmatch(session):
        name = "s-" + session
    else:
        import hashlib

        name = hashlib.sha256(session.encode("utf-8", "replace")).hexdigest()[:24]
    return os.path.join(spool.spool_dir(), "injected", name + ".json")


def note_injected(event: dict, hits: list[dict]) -> None:
    """Remember which memories this session was shown (for the next Stop's hit-rate count)."""
    session = event_session(event)
    if not session:
        return
    path = _injected_path(session)
    try:
        with open(path, "rb") as fh:
            noted = json.loads(fh.read())
    except (OSError, ValueError):
        noted = []
    noted = (noted if isinstance(noted, list) else []) + [{"id": h["id"], "text": h.get("text", "")} for h in hits if h.get("id")]
    try:
        from ..paths import write_private_file

        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        write_private_file(path + ".tmp", json.dumps(noted[-50:]).encode("utf-8", "surrogatepass"))
        os.replace(path + ".tmp", path)
    except OSError:
        pass


def take_injected(event: dict) -> list[dict]:
    """The memories noted since the last Stop of this session (the note is consumed)."""
    session = event_session(event)
    if not session:
        return []
    path = _injected_path(session)
    try:
        with open(path, "rb") as fh:
            noted = json.loads(fh.read())
        os.unlink(path)
    except (OSError, ValueError):
        return []
    return noted if isinstance(noted, list) else []


# -- stop -------------------------------------------------------------------------------------------

# Hook input is hostile: every parser here is linear-time (issue 15 item 3). Fences and
# <remember> blocks are found by scanning once with str.find / per-line checks; the regexes
# left run only on bounded pieces (one line, one opening tag).
_FENCE_OPEN = re.compile(r"(`{3,}|~{3,})")
_REMEMBER_HEAD = re.compile(r"((?:\s+[a-z]+\s*=\s*\"[^\"\n]{0,200}\")*)\s*", re.I)
_REMEMBER_CLOSE = re.compile(r"</remember\s*>", re.I)
MAX_TAG_CHARS = 4096
_ATTR = re.compile(r"([a-z]+)\s*=\s*\"([^\"\n]{0,200})\"", re.I)
_PROMPT_LEAD = re.compile(
    r"^\s*(?:please\s+)?(?:remember\s*:|remember\s+(?:that\s+)?(?=\S)|note\s+to\s+self\s*:)\s*", re.I
)
KINDS = ("fact", "preference", "decision", "note")


def _text_of(content) -> str:
    """Plain text of a transcript message's ``content`` (a string or a list of blocks)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"]
        return "\n".join(p for p in parts if isinstance(p, str))
    return ""


def last_turn(transcript_path) -> tuple[str, str]:
    """(last real user prompt, assistant text after it) from the tail of the transcript JSONL.

    The transcript is written asynchronously and may be missing, partial or huge: only the last
    512 KiB are read and unparsable lines are skipped."""
    if not isinstance(transcript_path, str) or not transcript_path:
        return "", ""
    try:
        with open(transcript_path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - TRANSCRIPT_TAIL_BYTES))
            tail = fh.read()
    except OSError:
        return "", ""
    user, assistant = "", []
    for line in tail.decode("utf-8", "replace").splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if not isinstance(entry, dict):
            continue
        message = entry.get("message") if isinstance(entry.get("message"), dict) else {}
        role = message.get("role") or entry.get("type")
        text = _text_of(message.get("content"))
        if role == "user" and text.strip():  # tool results carry no "text" blocks
            user, assistant = text, []
        elif role == "assistant" and text.strip():
            assistant.append(text)
    return user, "\n".join(assistant)


def strip_fences(text: str) -> str:
    """Remove fenced code blocks, CommonMark style: a line starting with 3+ backticks or tildes
    opens one; a line of the same character, at least as long, plus spaces closes it; an
    unclosed fence runs to the end. The newline after a closing line stays. One pass."""
    if "```" not in text and "~~~" not in text:
        return text
    out: list[str] = []
    fence = ""
    for line in text.split("\n"):
        if fence:
            bare = line.rstrip(" \t")
            if bare.startswith(fence) and bare.strip(fence[0]) == "":
                fence = ""
                out.append("")
            continue
        m = _FENCE_OPEN.match(line)
        if m:
            fence = m.group(1)
            continue
        out.append(line)
    if fence:
        out.append("")
    return "\n".join(out)


def remember_blocks(body: str) -> list[tuple[str, str]]:
    """``[(attributes, inner text)]`` of each ``<remember …>…</remember>`` in ``body``, first
    closing tag wins. Linear: closing tags are listed once, each opening tag is checked on at
    most MAX_TAG_CHARS characters."""
    import bisect

    closes = [(m.start(), m.end()) for m in _REMEMBER_CLOSE.finditer(body)]
    if not closes:
        return []
    starts = [c[0] for c in closes]
    low = body.lower()
    out: list[tuple[str, str]] = []
    pos = 0
    while len(out) < MAX_REMEMBER * 4:
        i = low.find("<remember", pos)
        if i < 0:
            break
        gt = body.find(">", i + 9, i + 9 + MAX_TAG_CHARS)
        head = _REMEMBER_HEAD.fullmatch(body, i + 9, gt) if gt >= 0 else None
        k = bisect.bisect_left(starts, gt + 1) if head else len(starts)
        if k == len(starts):
            if head:
                break  # no closing tag after this one: none after any later one either
            pos = i + 9
            continue
        out.append((head.group(1) or "", body[gt + 1 : starts[k]]))
        pos = closes[k][1]
    return out


def remember_requests(event: dict) -> list[dict]:
    """What this turn explicitly asked to remember: ``[{"text", "kind", "topic"?}]``."""
    user, assistant = last_turn(event.get("transcript_path"))
    last = event.get("last_assistant_message")
    if isinstance(last, str) and last.strip():
        assistant = last
    found: list[dict] = []
    body = strip_fences(assistant or "")
    for head, inner in remember_blocks(body):
        attrs = {k.lower(): v for k, v in _ATTR.findall(head)}
        item = {"text": inner.strip(), "kind": attrs.get("kind", "").lower() if attrs.get("kind", "").lower() in KINDS else "note"}
        if attrs.get("topic"):
            item["topic"] = attrs["topic"].strip()
        found.append(item)
    lead = _PROMPT_LEAD.match(user or "")
    if lead:
        found.append({"text": user[lead.end():].strip(), "kind": "note"})
    out, seen = [], set()
    for item in found:
        text = item["text"]
        if not text or text in seen or len(text.encode("utf-8", "surrogatepass")) > MAX_REMEMBER_BYTES:
            continue
        seen.add(text)
        out.append(item)
    return out[:MAX_REMEMBER]


# -- capture (stop, session-end, pre-compact) -------------------------------------------------------


def capture_request(event: dict) -> dict | None:
    """The spool entry's ``capture`` part: which transcript to archive and extract, later, in the
    detached writer (never inside the hook's deadline). None when the event names no transcript."""
    path = event.get("transcript_path")
    if not isinstance(path, str) or not path.strip():
        return None
    return {"transcript_path": path, "session": event_session(event), "cwd": event_cwd(event),
            "event": event.get("hook_event_name") if isinstance(event.get("hook_event_name"), str) else None}


def spool_stop(event: dict, items: list[dict]) -> bool:
    """Spool what a Stop / SessionEnd / PreCompact hook hands on (explicit memories and the
    transcript to capture) and start the writer; False when there is nothing to hand on."""
    import time

    from . import spool

    off = os.environ.get("CAVEMAN_CAPTURE", "1").strip().lower() in ("0", "false", "no", "off")
    capture = None if off else capture_request(event)
    injected = take_injected(event)
    if not items and capture is None and not injected:
        return False
    entry = {"cwd": event_cwd(event), "session": event_session(event),
             "memories": [dict(item, tags=["claude-code"]) for item in items], "spooled_at": time.time()}
    if capture is not None:
        entry["capture"] = capture
    if injected:
        reply = event.get("last_assistant_message")
        if not isinstance(reply, str) or not reply.strip():
            reply = last_turn(event.get("transcript_path"))[1]
        entry["feedback"] = {"injected": injected, "reply": reply[-20000:]}
    spool.write(entry)
    spool.start_drainer()
    return True
