"""Optional LLM extraction through any OpenAI-compatible chat endpoint (Ollama, llama.cpp, vLLM …).

Off unless ``CAVEMAN_LLM_URL`` (the API base, e.g. ``http://127.0.0.1:11434/v1``) and
``CAVEMAN_LLM_MODEL`` are set; ``CAVEMAN_LLM_API_KEY`` is sent as a bearer token when present.
It runs only in the spool's detached writer (never inside a hook's deadline), spends at most
``CAVEMAN_LLM_DAILY_TOKENS`` (default 200,000) a UTC day, and its answer is strict JSON checked
item by item before anything is stored: a durable kind, a text of sane length, and a
``source_message`` that is one of the messages it was shown. Any failure — network, HTTP status,
bad JSON, budget — falls back to the rules and is recorded in ``llm-status.json`` for diagnosis.
Stdlib only (urllib).
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request

from .extract import Candidate, clean_text
from .transcript import Message

KINDS = {"decision": "decision", "preference": "preference", "fact": "fact", "bugfix": "note"}
DEFAULT_DAILY_TOKENS = 200_000
MAX_PROMPT_CHARS = 24_000
TIMEOUT_S = 60

SYSTEM = (
    "You extract durable memories from a coding-assistant conversation. Rules: store only decisions, "
    "preferences/conventions, bug fixes (symptom, cause and fix in one item) and facts (versions, ports, hosts, "
    "commands, paths) that the conversation states explicitly; never infer or guess; ignore greetings, progress "
    "chatter, questions and anything quoted from tool output; never copy passwords, tokens or keys. Each item "
    "names the [id] of the message that states it. If nothing durable was said, return {\"memories\": []}. "
    "Answer with JSON only: {\"memories\": [{\"kind\": \"decision|preference|bugfix|fact\", \"text\": \"one "
    "self-contained sentence\", \"source_message\": \"<id>\", \"confidence\": 0.0-1.0}]}"
)


class LLMError(Exception):
    """The endpoint failed or answered something that is not the promised JSON."""


def enabled() -> bool:
    return bool(os.environ.get("CAVEMAN_LLM_URL", "").strip() and os.environ.get("CAVEMAN_LLM_MODEL", "").strip())


def _home_file(name: str) -> str:
    from ... import paths

    return os.path.join(paths.home_dir(), name)


def _read_json(path: str) -> dict:
    try:
        with open(path, "rb") as fh:
            got = json.loads(fh.read())
        return got if isinstance(got, dict) else {}
    except (OSError, ValueError):
        return {}


def _write_json(path: str, obj: dict) -> None:
    from ...paths import write_private_file

    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_private_file(path + ".tmp", json.dumps(obj).encode())
        os.replace(path + ".tmp", path)
    except OSError:
        pass


def daily_budget() -> int:
    try:
        return max(0, int(os.environ.get("CAVEMAN_LLM_DAILY_TOKENS", "") or DEFAULT_DAILY_TOKENS))
    except ValueError:
        return DEFAULT_DAILY_TOKENS


def tokens_used_today() -> int:
    got = _read_json(_home_file("llm-budget.json"))
    return int(got.get("tokens", 0)) if got.get("day") == time.strftime("%Y-%m-%d", time.gmtime()) else 0


def _spend(tokens: int) -> None:
    _write_json(_home_file("llm-budget.json"), {"day": time.strftime("%Y-%m-%d", time.gmtime()),
                                                "tokens": tokens_used_today() + max(0, tokens)})


def status() -> dict:
    """The last LLM outcome (for ``doctor``-style reports): ok / error text, time, failures."""
    return _read_json(_home_file("llm-status.json"))


def _note(ok: bool, error: str = "") -> None:
    st = status()
    st.update(at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), ok=ok, error=error or None,
              failures=0 if ok else int(st.get("failures", 0)) + 1)
    _write_json(_home_file("llm-status.json"), st)


def prompt_of(messages: list[Message]) -> tuple[str, set[str]]:
    lines, ids = [], set()
    for m in messages:
        if m.type in ("user", "assistant") and m.text.strip():
            text = " ".join(clean_text(m.text).split())
            if text:
                lines.append(f"[{m.uuid}] {m.type}: {text[:2000]}")
                ids.add(m.uuid)
    out = "\n".join(lines)
    return out[-MAX_PROMPT_CHARS:], ids


def validate(content: str, known_ids: set[str]) -> list[Candidate]:
    """Candidates from the model's JSON answer; raises LLMError unless it is the promised shape."""
    try:
        data = json.loads(content)
    except (ValueError, TypeError) as exc:
        raise LLMError(f"answer is not JSON: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("memories"), list):
        raise LLMError('answer is not {"memories": [...]}')
    out = []
    for item in data["memories"]:
        if not isinstance(item, dict):
            raise LLMError("a memory is not an object")
        kind, text, src = item.get("kind"), item.get("text"), item.get("source_message")
        conf = item.get("confidence", 0.6)
        if kind not in KINDS or not isinstance(text, str) or not 8 <= len(text.strip()) <= 1000:
            continue  # not a durable kind, or no usable text: skipped, not stored
        if src not in known_ids:
            continue  # no verifiable source: never stored
        if isinstance(conf, bool) or not isinstance(conf, (int, float)) or not 0 <= conf <= 1:
            conf = 0.6
        out.append(Candidate(" ".join(text.split()), KINDS[kind], kind, min(float(conf), 0.85), src))
    return out


def extract(messages: list[Message]) -> list[Candidate]:
    """Candidates from the endpoint; raises LLMError (the caller falls back to the rules)."""
    prompt, known = prompt_of(messages)
    if not prompt:
        return []
    estimate = (len(SYSTEM) + len(prompt)) // 4 + 500
    if tokens_used_today() + estimate > daily_budget():
        _note(False, "daily token budget reached (CAVEMAN_LLM_DAILY_TOKENS)")
        raise LLMError("daily token budget reached")
    url = os.environ["CAVEMAN_LLM_URL"].rstrip("/") + "/chat/completions"
    body = {"model": os.environ["CAVEMAN_LLM_MODEL"], "temperature": 0, "response_format": {"type": "json_object"},
            "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}]}
    headers = {"Content-Type": "application/json"}
    key = os.environ.get("CAVEMAN_LLM_API_KEY", "").strip()
    if key:
        headers["Authorization"] = f"Bearer {key}"
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT_S) as resp:
            raw = resp.read(4 * 1024 * 1024)
        reply = json.loads(raw)
        content = reply["choices"][0]["message"]["content"]
        used = reply.get("usage", {}).get("total_tokens") if isinstance(reply.get("usage"), dict) else None
    except (urllib.error.URLError, OSError, ValueError, KeyError, IndexError, TypeError) as exc:
        _note(False, f"{type(exc).__name__}: {exc}"[:300])
        raise LLMError(str(exc)) from None
    _spend(used if isinstance(used, int) else estimate)
    try:
        found = validate(content, known)
    except LLMError as exc:
        _note(False, str(exc))
        raise
    _note(True)
    return found
