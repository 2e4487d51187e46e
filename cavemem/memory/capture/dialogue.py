"""Rules that need the turn before: a short answer to an "A or B?" question, a fix the user
confirms works, a correction of the value just stated ("actually make it 02:15").

Why apart from :mod:`.extract`: these read two messages together, so they keep a little state
(see :func:`.extract.extract`); the single-sentence shapes stay in extract.
"""

from __future__ import annotations

import re
from dataclasses import replace

from . import asides
from .extract import _ACK, _CHATTER, _FIX, _OPTION_MARK, _PICK, _SPLIT, Candidate, _decision_entity, _finish, sentences, strip_lead
from .transcript import Message

_ALTERNATIVES = re.compile(r"\b(?P<a>[\w.+/-]+)\s+or\s+(?P<b>[\w.+/-]+(?:\s+[\w.+/-]+){0,4})\s*\?\s*$", re.I)
_FILLER = {"the", "a", "an", "in", "on", "at", "to", "of", "for", "it", "its", "our", "we", "go", "be", "is", "live", "stay", "keep", "use"}
_TENTATIVE = re.compile(r"\b(?:probably|maybe|might|perhaps|i\s+think|i\s+guess|seems?|could|try|let\s+me|i'll|i\s+will)\b", re.I)
_WORKS = re.compile(r"\b(?:works|working|worked|fixed|solved|resolved|that\s+did\s+it|all\s+good)\b(?![^.!?\n]{0,30}\b(?:not|but)\b)", re.I)
_AGREE = re.compile(r"\b(?:do\s+that|go\s+ahead|even\s+better|sounds\s+good|ship\s+it|agreed|let'?s\s+do\s+(?:it|that)|yes\s+please)\b", re.I)
_PROPOSAL = re.compile(r"^\W*(?:i'?d\s+(?:rather|suggest|recommend|go\s+with)|i\s+(?:suggest|recommend|propose)|(?:it'?s\s+)?better\s+to|"
                       r"my\s+suggestion)\b", re.I)
_RESTATE = re.compile(r"^\W*(?:scratch\s+that|correction|no\s+wait|sorry|i\s+mean|actually)\W+(?P<rest>\S.{5,})$", re.I | re.S)
_NEGATED = re.compile(r"\b(?:still|not|doesn't|does\s+not|didn't|no\s+luck|same\s+error)\b", re.I)
_CORRECT = re.compile(r"^\W*(?:(?:hmm+|actually|no|wait|sorry|correction|oh|oops)\W+)*(?:actually\s+)?(?:make\s+(?:it|that)|"
                      r"change\s+(?:it|that)\s+to|set\s+(?:it|that)\s+to|move\s+(?:it|that)\s+to|use)\s+(?P<val>[\w:.@/-]*\w)", re.I)
_SHAPES = (re.compile(r"\b(?:[01]?\d|2[0-3]):[0-5]\d\b"), re.compile(r"(?<![\w.])\d{2,5}(?![\w.])"),
           re.compile(r"\b[a-z0-9-]+(?:\.[a-z0-9-]+)+\b", re.I))


def alternatives(body: str) -> tuple[str, set[str]] | None:
    """(the question, the alternatives' words) for "Should we use clap derive or builder?"."""
    sents = sentences(body) or [body.strip()]
    m = _ALTERNATIVES.search(sents[-1])
    if m is None:
        return None  # "their own feature module or live in the main target?": the words that tell the options apart
    words = {m.group("a").lower()} | {w for w in m.group("b").lower().split() if w not in _FILLER}
    return sents[-1], words


def question_pick(msg: Message, body: str, question: tuple[str, set[str]] | None) -> Candidate | None:
    """"derive then" after "clap derive or builder?": the answer, with the question it answers."""
    if question is None or body.rstrip().endswith("?") or len(body.split()) > 8:
        return None
    words = {w.strip(".") for w in re.findall(r"[\w.+/-]+", body.lower())}  # "cloudflare." is "cloudflare"
    if len(words & question[1]) != 1:
        return None
    text = f"{_finish(asides.without_reason_sentences(strip_lead(body)))} (answering: {question[0]})"
    return Candidate(text, "decision", "decision", 0.7, msg.uuid, _decision_entity(question[0]))


# the assistant asking what to do next ("shall I fix it now or later?") is no design choice
_SELF_ASK = re.compile(r"\b(?:shall|should|can|may)\s+i\b|\bwant\s+me\s+to\b|\bnow\s+or\s+later\b|\bor\s+not\b", re.I)
_ORDINAL = re.compile(r"^\W*(?:(?:ok(?:ay)?|yes|yeah|hmm+|so|then)\W+)*(?:the\s+)?(?P<n>first|second|former|latter|1st|2nd)\b", re.I)
_SIDE_WORD = re.compile(r"[a-z0-9][a-z0-9+#_-]*")
_ASK_FILLER = _FILLER | {"should", "would", "do", "does", "you", "want", "it", "be", "by", "with", "or", "and", "your", "own",
                         "just", "only", "one", "which", "where", "what", "how", "shall", "start", "prefer", "rather", "like"}


def _side(text: str) -> set[str]:
    return {w for w in _SIDE_WORD.findall(text.lower()) if w not in _ASK_FILLER}


def offered(body: str) -> tuple[str, set[str], set[str]] | None:
    """(the question, the first side's words, the second's) when the assistant's message ends by asking
    the user to choose ("Should history be paginated by offset or by cursor?")."""
    sents = sentences(body)
    q = next((s for s in reversed(sents[-2:]) if s.endswith("?")), "")  # a last remark may follow ("Raising would remove …")
    if q.endswith("?") and not _SELF_ASK.search(q) and not re.search(r"\sor\s", q, re.I):
        return _laid_out(sents, q)
    if not q.endswith("?") or _SELF_ASK.search(q) or not re.search(r"\sor\s", q, re.I):
        return None
    left, right = re.split(r"\s+or\s+", q.rstrip("?"), flags=re.I)[-2:]
    left = re.split(r"[—:;(]|\s-\s", left)[-1]
    a, b = _side(" ".join(left.split()[-6:])), _side(" ".join(right.split()[:6]))
    a, b = a - b, b - a
    return (q, a, b) if a and b else None


_WHICH = re.compile(r"^\W*which(?:\s+one|\s+of\s+(?:them|the\s+two|these|those))?\s+(?:do|would|should)\s+(?:you|we)\b", re.I)
_TWO_WAYS = re.compile(r":\s*(?P<a>[^;:]{3,}?)\s*;\s*(?P<b>[^;:]{3,})$")  # "two ways: springdoc-openapi …; Spring REST Docs …"


def _named_side(part: str) -> set[str]:
    """The words that name an option laid out as "springdoc-openapi generates them …": its first two, and their parts."""
    head = _side(" ".join(part.split()[:2]))
    return head | {p for w in head for p in w.split("-") if len(p) >= 3}


def _laid_out(sents: list[str], q: str) -> tuple[str, set[str], set[str]] | None:
    """"There are two ways: A does …; B does …. Which one do you want?": the two options of the sentence
    before a "which one" question, and that sentence with the question (what the answer answers)."""
    i = sents.index(q)
    start = next((j for j in range(i - 1, max(-1, i - 3), -1) if ":" in sents[j]), None)  # "…: A …;" "B … ." (split at the ";")
    laid = " ".join(sents[start:i]) if start is not None else ""
    m = _TWO_WAYS.search(laid.rstrip(".")) if _WHICH.match(q) else None
    if m is None:
        return None
    a, b = _named_side(m.group("a")), _named_side(m.group("b"))
    a, b = a - b, b - a
    return (f"{laid} {q}", a, b) if a and b else None


_ASK_BACK = re.compile(r"^\W*(?:which|what|how|why|should|would|could|can|do|does|is|are)\b[^.!]*$", re.I)


def asks_back(body: str) -> bool:
    """The user answers a question with a question ("which one would you pick", with or without its "?")."""
    return body.rstrip().endswith("?") or (len(body.split()) <= 8 and bool(_ASK_BACK.match(body.strip())))


def _names(said: set[str], side: set[str]) -> bool:
    """The answer names that side: a word of it, or the head of one ("timescale" for "TimescaleDB")."""
    return bool(said & side) or any(len(w) >= 5 and s.startswith(w) for w in said for s in side)


def answer_pick(msg: Message, body: str, offer: tuple[str, set[str], set[str]] | None) -> Candidate | None:
    """"cursor, by inserted_at + id" after "by offset or by cursor?", "the second one then, upstash":
    the choice, stored with the question it answers."""
    if offer is None or body.rstrip().endswith("?") or len(body.split()) > 25:
        return None
    q, a, b = offer
    n = _ORDINAL.match(body)
    said = {w.strip(".") for w in _SIDE_WORD.findall(body.lower())}
    if not n and _names(said, a) == _names(said, b):
        return None
    text = f"{_finish(asides.without_reason_sentences(strip_lead(body)))} (answering: {q})"
    return Candidate(text, "decision", "decision", 0.7, msg.uuid, _decision_entity(q))


def remedy(msg: Message, body: str, symptom: str | None) -> Candidate | None:
    """The assistant's first-person fix for the user's open problem, to keep if the user says it works."""
    if not symptom:
        return None
    fixes = [s for s in sentences(body) if _FIX.search(s) and not _CHATTER.match(s) and not _TENTATIVE.search(s)]
    if not fixes:
        return None
    return Candidate(f"Symptom: {_finish(asides.symptom_core(symptom))} Fix: {' '.join(_finish(f) for f in fixes[:2])}", "note", "bugfix", 0.65,
                     msg.uuid, None)


def confirms(body: str) -> bool:
    return bool((_ACK.match(body) or _WORKS.search(body) or _AGREE.search(body)) and not _NEGATED.search(body.split(".")[0]))


def proposal(msg: Message, body: str) -> Candidate | None:
    """"I'd rather use key-pair auth; …": the assistant's proposal, to keep if the user agrees."""
    s = next((s for s in sentences(body) if _PROPOSAL.match(s) and not s.endswith("?")), None)
    return Candidate(_finish(s), "decision", "decision", 0.65, msg.uuid, _decision_entity(s)) if s else None


def corrected(msg: Message, body: str, last: Candidate | None, said: list | None = None) -> Candidate | None:
    """"actually make it 02:15" right after "eval runs nightly at 01:30": the last fact, new value;
    "scratch that, cutover is the 17th": the restatement replaces the last fact (unless it is a fact
    of its own)."""
    if last is None or last.entity is None:
        return None
    m = _CORRECT.match(body)
    if m is None:
        again = _RESTATE.match(body.strip())
        if again and not any(c.kind == "fact" and c.entity for c in said or ()):
            return Candidate(_finish(strip_lead(again.group("rest"))), last.kind, last.capture_kind, 0.7, msg.uuid, last.entity)
        return None
    val = m.group("val")
    for shape in _SHAPES:
        if shape.fullmatch(val):
            old = shape.search(last.text)
            if old and old.group(0) != val:
                text = last.text[: old.start()] + val + last.text[old.end():]
                return Candidate(text, last.kind, last.capture_kind, 0.7, msg.uuid, last.entity)
            return None
    return None


_OK_THEN = re.compile(r"^\W*(?:ok(?:ay)?|done|got\s+it|sure|right|understood|noted|alright|agreed)\s*[:,—–-]\s*(?P<rest>\S.{19,})$", re.I | re.S)


def restated(msg: Message, body: str, pick: Candidate) -> Candidate | None:
    """The assistant's "OK: services now raise domain errors …" right after the user's bare pick ("the
    second one"): the decision in words, kept in place of the pick when it shares its words and is no plan."""
    first = next(iter(sentences(body)), "")
    m = _OK_THEN.match(first)
    rest = m.group("rest").strip() if m else ""
    if not rest or rest.endswith("?") or _TENTATIVE.search(rest) or len(_content(rest) & _content(pick.text)) < 2:
        return None
    from .shapes import replaced_word

    return Candidate(_finish(rest[:1].upper() + rest[1:]), "decision", "decision", 0.7, msg.uuid, pick.entity, replaced_word(rest))


def understood(msg: Message, body: str, unread: str | None) -> list[Candidate]:
    """The assistant's "Understood: Route 53 for DNS, AWS WAF on the ALB" right after a user message the rules
    could not read (terse, another language, a reversal): the restatement, read by the same rules, at lower
    confidence — kept only when it shares words with what the user said."""
    first = next(iter(sentences(body)), "")
    m = _OK_THEN.match(first) if unread else None
    rest = m.group("rest").strip() if m else ""
    if not rest or rest.endswith("?") or _TENTATIVE.search(rest) or not _named(rest) & _named(unread or ""):
        return []
    from .extract import from_user

    return [replace(c, confidence=min(c.confidence, 0.6)) for c in from_user(msg, rest[:1].upper() + rest[1:])
            if c.capture_kind != "explicit"]


def _named(text: str) -> set[str]:
    """Words of three letters or more that are not fillers ("waf", "dns", "route53" too)."""
    return {w for w in _side(text) if len(w) >= 3}


def _content(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z][a-z0-9_-]{3,}", text.lower()) if w not in _ASK_FILLER}


def options_of(body: str) -> dict[str, str]:
    """{"A": "Docusaurus: React, versioned docs built in", ...} when a message lays out two or more
    lettered options, else {} — so a bare pick ("B, we're a Python shop") stores what B was."""
    marks = list(_OPTION_MARK.finditer(body))
    out: dict[str, str] = {}
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(body)
        text = " ".join(body[m.end():end].split()).rstrip(" ;,.")
        if text and m.group(1) not in out:
            out[m.group(1)] = text[:200]
    return out if len(out) >= 2 and ("A" in out or "B" in out) else {}


def picked(body: str, options: dict[str, str]) -> Candidate | None:
    """The decision a bare pick ("B, we're a Python shop") makes among the lettered options laid out before it."""
    m = _PICK.search(body) if options and len(body) < 300 else None
    letter = next((g.upper() for g in m.groups() if g), None) if m else None
    if letter not in options:
        return None
    said = _finish(strip_lead(body))
    opt = _SPLIT.split(options[letter], 1)[0].rstrip(" ;,.")
    text = said if _words(opt) <= _words(said) else f"{_finish(opt)} (picked option {letter}: {said})"
    return Candidate(text, "decision", "decision", 0.75, "", _decision_entity(said))


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]{3,}", text.lower()))
