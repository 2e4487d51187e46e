"""Rule-based extraction: durable decisions, preferences, bug fixes, facts and explicit requests.

Why rules and not a model: they run inside the ``Stop`` path in milliseconds, cost no tokens and
never invent anything — a sentence becomes a memory only when it *says* a durable thing in one of
a few recognisable shapes. Only conversation text is read (no tool output, no code blocks, no
thinking: see :mod:`.transcript`); questions and progress chatter never match. Each candidate
carries a confidence (explicit requests highest, assistant-stated facts lowest) and, for facts and
scoped decisions, an ``entity`` key ("port:staging api") so a later value supersedes the earlier.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .transcript import Message

MAX_SENTENCE = 400


@dataclass
class Candidate:
    text: str
    kind: str  # the memory kind: fact | preference | decision | note
    capture_kind: str  # decision | preference | bugfix | fact | explicit
    confidence: float
    source_message: str
    entity: str | None = None


_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[^\n]*\n.*?^[ \t]*\1[ \t]*$", re.M | re.S)
_TAGS = re.compile(r"<(system-reminder|cavemem-context|thinking|private)\b[^>]*>.*?</\1\s*>", re.S | re.I)
_REMEMBER = re.compile(r"<remember(?:\s[^>]*)?>(.*?)</remember\s*>", re.S | re.I)
_SPLIT = re.compile(r"(?<=[.!;])\s+(?=[A-Z`*\"'(])|\n+")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
_EXPLICIT = re.compile(r"^\s*(?:please\s+)?(?:remember\s*:|remember\s+(?:that\s+)?(?=\S)|note\s+to\s+self\s*:)\s*", re.I)

_PREF = re.compile(
    r"\b(?:i\s+(?:always\s+|really\s+)?prefer|i'd\s+(?:rather|prefer)|(?:please\s+)?always\s+(?:use|run|write|put|keep|add)|"
    r"(?:please\s+)?never\s+(?:use|run|commit|push|add|write|put)|don't\s+ever|do\s+not\s+ever|from\s+now\s+on|going\s+forward|"
    r"(?:our|the)\s+convention\s+is|convention\s*:|we\s+always|we\s+never|no\s+more\s+\w+|"
    r"we\s+use\s+[\w.-]+,\s+(?:never|not)\s+[\w.-]+|i\s+(?:don't|do\s+not)\s+want|we\s+(?:don't|do\s+not)\s+(?:use|want|allow))(?=\W|$)", re.I)
_DECISION = re.compile(
    r"\b(?:let'?s\s+(?:go\s+with|use|switch\s+to|stick\s+with|keep)|we'?ll\s+(?:go\s+with|use|stick\s+with)|"
    r"we\s+will\s+(?:go\s+with|use)|(?:i've|we've|i\s+have|we\s+have)\s+decided|we\s+decided|decision\s*:|"
    r"we'?re\s+going\s+with|go\s+with\s+option|option\s+[a-z0-9]\s+it\s+is|agreed\s*[,:]\s+\w+|"
    r"(?:we|i)\s+(?:settled|agreed)\s+on|we\s+(?:chose|picked|went\s+with)|(?:we'?ll|we\s+will|we'?re\s+going\s+to)\s+(?:keep|stay\s+(?:on|with))|"
    r"we'?re\s+keeping|we'?re\s+sticking\s+with)(?=\W|$)", re.I)
_ASSISTANT_DECISION = re.compile(r"^\W*decision\s*\W*:", re.I)
_CAUSE = re.compile(r"\b(?:root\s+cause|the\s+cause\s+(?:was|is)|was\s+caused\s+by|is\s+caused\s+by|the\s+bug\s+(?:was|is)|"
                    r"the\s+problem\s+(?:was|is)|the\s+issue\s+(?:was|is))(?=\W|$)", re.I)
_FIX = re.compile(r"\b(?:fixed\s+(?:it\s+)?by|the\s+fix\s+(?:was|is)|fix\s*:|i\s+fixed|to\s+fix\s+(?:it|this)|fixed\s+(?:it|this)\s+by|"
                  r"the\s+solution\s+(?:was|is)|resolved\s+by)(?=\W|$)", re.I)
_SYMPTOM = re.compile(r"\b(?:error|errors|fail(?:s|ed|ing)?|crash(?:es|ed|ing)?|exception|traceback|broken|hangs?|"
                      r"timed?\s*out|timeout|401|403|404|500|502|503|segfault|panic|leak)\b", re.I)
_CREDENTIAL = re.compile(r"\b(?:password|passwd|passphrase|secret|token|api[\s_-]?key|credentials?|creds)\b", re.I)
_OPTIONS_LISTED = re.compile(r"(?:^|\s)\(?[A-D]\)\s+\S.*(?:^|\s)\(?[B-D]\)\s+\S", re.S)
_CHATTER = re.compile(r"^\W*(?:let\s+me|i'll|i\s+will|now\s+(?:let|i)|next,?\s+i|okay|ok|great|done|perfect|sure|thanks|"
                      r"thank\s+you|hi|hello|hey|good\s+morning|running|checking|looking)\b", re.I)

_VERB = (r"(?:still\s+|now\s+)?(?:is|are|runs|run|listens|lives|live|sits|moved|was\s+moved|has\s+moved|is\s+now|are\s+now|"
         r"uses|points|goes|go|is\s+stored|are\s+stored|is\s+kept|are\s+kept|is\s+written|are\s+written)")
_PORT = re.compile(r"^(?P<subj>.{2,60}?)\s+" + _VERB + r"\b.{0,30}?\bport\s+(?P<val>\d{2,5})\b", re.I)
_HOST = re.compile(r"^(?P<subj>.{2,60}?)\s+" + _VERB + r"\b.{0,20}?(?:\bat\s+|\bon\s+|\bto\s+|\s)`?(?:[a-z][a-z0-9+]*://)?(?P<val>[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|io|org|dev|internal|local|lan|cloud))\b", re.I)
_PATH = re.compile(r"^(?P<subj>.{2,60}?)\s+" + _VERB + r"\b.{0,20}?(?:\bin\s+|\bat\s+|\bunder\s+|\bto\s+)`?(?P<val>~?/[\w.@-]+(?:/[\w.@-]+)+/?)", re.I)
_VERSION = re.compile(r"\b(?:we'?re\s+(?:on|using)|we\s+(?:are\s+on|use|run|target|pin)|(?:is|are)\s+pinned\s+to|upgraded\s+to|"
                      r"bumped\s+to|moved\s+to|requires|version\s+is|standardi[sz]ed\s+on|(?:is|are)\s+on)\s+"
                      r"(?P<subj>[A-Za-z][\w.+-]{1,24})\s+v?(?P<val>\d+(?:\.\d+){1,2})\b", re.I)
_VERSION_MIN = re.compile(r"\b(?:targets?|targeting|minimum(?:\s+is)?|min\.?|require|requires)\s+(?:is\s+)?(?P<subj>[A-Za-z][\w.+-]{1,24})\s+v?(?P<val>\d+(?:\.\d+){0,2})\b", re.I)
_VERSION2 = re.compile(r"\b(?P<subj>[A-Za-z][\w.+-]{1,24})\s+(?:is\s+now|is|stays)\s+(?:pinned\s+(?:to|at)\s+|at\s+)?v?(?P<val>\d+(?:\.\d+){1,2})\b", re.I)
_COMMAND = re.compile(r"\b(?:run|build|deploy|start|test|lint|format|migrate)\b[^`]{0,40}?\b(?:with|using|via|by\s+running|is|:)\s+`(?P<val>[^`\n]{3,80})`", re.I)
_STOP = {"the", "our", "a", "an", "now", "so", "and", "that", "this", "we", "also", "btw", "fyi", "note", "ok", "okay", "just",
         "actually", "which", "it", "its", "of", "for", "server", "service", "still", "locally", "files", "file", "yeah", "hmm"}
_SCOPE = re.compile(r"\bfor\s+(?:the\s+)?(?P<scope>[a-z][\w -]{2,30}?)(?:\s*,|\s+(?:let'?s|we'?ll|we\s+will|we'?re|we\s+decided|i've))", re.I)
_SCOPE_AFTER = re.compile(r"\b(?:go\s+with|use|switch\s+to|stick\s+with)\s+[\w.-]+(?:\s+[\w.-]+)?\s+for\s+(?:the\s+)?(?P<scope>[a-z][\w -]{2,30}?)(?:[.,;]|$)", re.I)


def clean_text(text: str) -> str:
    """Conversation text without code blocks and injected or private tag spans."""
    return _TAGS.sub(" ", _FENCE.sub(" ", text))


def sentences(text: str) -> list[str]:
    out = []
    for part in _SPLIT.split(text):
        part = _BULLET.sub("", part).strip().strip("*").strip()
        if 12 <= len(part) <= MAX_SENTENCE:
            out.append(part)
    return out


def _subject(raw: str) -> str:
    words = [w for w in re.findall(r"[a-z0-9][a-z0-9_.-]*", raw.lower()) if w not in _STOP]
    return " ".join(words[-3:])


def fact_of(sentence: str) -> tuple[str, str] | None:
    """(entity key, value) when the sentence states a port, host, path, version or command."""
    if sentence.rstrip().endswith("?"):
        return None
    flat = sentence.replace("`", "")
    for attr, rx in (("port", _PORT), ("host", _HOST), ("path", _PATH)):
        m = rx.search(flat)
        if m and _subject(m.group("subj")):
            return f"{attr}:{_subject(m.group('subj'))}", m.group("val")
    for rx in (_VERSION, _VERSION2, _VERSION_MIN):
        m = rx.search(flat)
        if m and m.group("subj").lower() not in _STOP and not m.group("subj")[0].isdigit():
            return f"version:{m.group('subj').lower()}", m.group("val")
    m = _COMMAND.search(sentence)
    if m:
        purpose = re.search(r"\b(run|build|deploy|start|test|lint|format|migrate)\w*\b(?:\s+(?:the\s+)?(\w+))?", sentence, re.I)
        key = purpose.group(1).lower() + (" " + purpose.group(2).lower() if purpose and purpose.group(2) else "")
        return f"command:{key}", m.group("val")
    return None


_FOR = re.compile(r"\bfor\s+(?:the\s+|our\s+)?(?P<scope>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s*(?=[,.;]|$)", re.I)
_LEAD = re.compile(r"^\W*(?:(?:quick\s+one|fyi|btw|also|and|so|ok|okay|yeah|yes|hmm|well|oh|yo|hey|hi|actually)\b\W*)+", re.I)
_ASK = re.compile(r"^(?:can|could|would)\s+you\s+(?:please\s+)?(?:check|look\s+(?:at|into)|see|find\s+out|figure\s+out)\s+(?:why\s+)?", re.I)
_CLAUSE = re.compile(r"\s*(?:;|,\s*and\s+|\s+and\s+(?=(?:we|the|our|its?|staging|prod\w*|processed|raw)\b)|,\s*so\s+|,\s*(?=the\s))\s*", re.I)
_OPTION = re.compile(r"^\s*(?:option\s+)?\(?([a-d])\)?\s*[.,:)!-]\s+\S", re.I)


def _decision_entity(sentence: str) -> str | None:
    m = _SCOPE.search(sentence) or _FOR.search(sentence) or _SCOPE_AFTER.search(sentence)
    return "decision:" + _subject(m.group("scope")) if m and _subject(m.group("scope")) else None


def strip_lead(text: str) -> str:
    """Without conversational lead-ins ("fyi", "quick one:", "also") that carry no content."""
    out = _LEAD.sub("", text).strip()
    return out[:1].upper() + out[1:] if out else out


def _finish(text: str) -> str:
    text = " ".join(text.split())
    return text if text[-1:] in ".!" else text + "."


def from_user(msg: Message, body: str, options_offered: bool = False) -> list[Candidate]:
    lead = _EXPLICIT.match(body)
    if lead:
        text = body[lead.end():].strip()
        return [Candidate(_finish(text), "note", "explicit", 0.95, msg.uuid)] if len(text) >= 8 else []
    out = []
    if options_offered and _OPTION.match(body) and len(body) < 300:
        # "B. Short-lived JWTs …" right after the assistant laid out options: the pick is the decision
        return [Candidate(_finish(strip_lead(body)), "decision", "decision", 0.75, msg.uuid, None)]
    for s in sentences(body):
        if s.endswith("?") or _CREDENTIAL.search(s):
            continue
        s = strip_lead(s)
        if _DECISION.search(s):
            out.append(Candidate(_finish(s), "decision", "decision", 0.8, msg.uuid, _decision_entity(s)))
        elif _PREF.search(s):
            out.append(Candidate(_finish(s), "preference", "preference", 0.8, msg.uuid))
        else:
            for clause in _CLAUSE.split(s):
                clause = strip_lead(clause)
                fact = fact_of(clause) if len(clause) >= 12 else None
                if fact:
                    out.append(Candidate(_finish(clause), "fact", "fact", 0.7, msg.uuid, fact[0]))
    return out


def _bugfix(msg: Message, sents: list[str], symptom: str | None) -> Candidate | None:
    cause = next((s for s in sents if _CAUSE.search(s)), None)
    fix = next((s for s in sents if _FIX.search(s) and s != cause), None)
    if cause is None or (fix is None and not _FIX.search(cause)):
        return None
    parts = []
    if symptom:
        parts.append("Symptom: " + _finish(symptom))
    parts.append("Cause: " + _finish(cause))
    if fix:
        parts.append("Fix: " + _finish(fix))
    return Candidate(" ".join(parts), "note", "bugfix", 0.75, msg.uuid, None)


def from_assistant(msg: Message, body: str, symptom: str | None) -> list[Candidate]:
    out = [Candidate(_finish(m.group(1).strip()), "note", "explicit", 0.9, msg.uuid)
           for m in _REMEMBER.finditer(body) if len(m.group(1).strip()) >= 8]
    body = _REMEMBER.sub(" ", body)
    sents = sentences(body)
    bug = _bugfix(msg, sents, symptom)
    if bug:
        out.append(bug)
    for s in sents:
        if _CHATTER.match(s) or s.endswith("?"):
            continue
        if _ASSISTANT_DECISION.match(s):
            out.append(Candidate(_finish(s.split(":", 1)[1].strip()), "decision", "decision", 0.6, msg.uuid, _decision_entity(s)))
    return out


def extract(messages: list[Message], last_symptom: str | None = None) -> list[Candidate]:
    """Candidates from ``messages`` in order; the latest user problem statement is carried so a
    bug fix reads "symptom + cause + fix" in one memory."""
    out: list[Candidate] = []
    symptom = last_symptom
    options = False
    for msg in messages:
        if not msg.text.strip():
            continue
        body = clean_text(msg.text)
        if msg.type == "user":
            sym = next((s for s in sentences(body) if _SYMPTOM.search(s)), None)
            if sym:  # the problem as stated, without "hey, can you check why"
                symptom = _ASK.sub("", strip_lead(sym)).rstrip("?").strip() or sym
            out.extend(from_user(msg, body, options))
            options = False
        elif msg.type == "assistant":
            options = bool(_OPTIONS_LISTED.search(body))
            found = from_assistant(msg, body, symptom)
            if any(c.capture_kind == "bugfix" for c in found):
                symptom = None
            out.extend(found)
    seen, unique = set(), []
    for c in out:
        if c.text.lower() not in seen:
            seen.add(c.text.lower())
            unique.append(c)
    return unique
