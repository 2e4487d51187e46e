"""A settings file of a dialect no strict reader knows, told from prose by its line shapes.

Why: every corpus batch brought config families the strict readers (``configs.classify``) had
not seen, and each one fell through to ``text``. What they share is not a syntax but a shape:
outside their comments, the lines are short settings — ``key = value``, ``key: value``,
``word arg arg`` directives, block and section markers — and almost never sentences; prose
is the other way round. Shares measured on the corpus's tune split only (config files median
≥ 0.9 setting lines, text ≤ 0.2). Detection asks this only of what would otherwise be
``text``; the config compressor accepts the same files, so both agree.
"""

from __future__ import annotations

import re

from ..gocompat import utf8_text
from . import CODE_HEADS, remember_last_answer
from .configs import line_count

# comment lines of the common dialects; C block comments are cut out first
_COMMENT_HEADS = ("#", ";", "//", "--", "!", "'", "REM ", "dnl ", "%")
_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_KEY = r"(?:\"[^\"]*\"|'[^']*'|[\w.$@%/*-]+(?:\[[^\]]*\])?)"
# ``key = value``, ``key := v``, ``key += v``, ``key => v``, ``key: value``
_KEY_VALUE = re.compile(_KEY + r"[\t ]*(?:[:+?]?=>?|:(?=[\t ]|$))")
# ``}``, ``};``, ``[section]``, ``<Directory /x>``, ``</Directory>``, ``name "x" {``, ``} else {``
_BLOCK = re.compile(r"[{}\[\]()]+[;,]?|\[[^\]]+\]|</?[A-Za-z][^>]*>|[^{]*\{|\}[^{}]*")
# a word and up to seven arguments (``check process x with pidfile /run/x.pid`` is eight)
_DIRECTIVE = re.compile(r"[A-Za-z_][\w.:-]*(?:[\t ]+\S+){0,7}")
# a rule of two words or more ended by a comma (AppArmor's ``/etc/hosts r,``, ``capability setuid,``, ``@{PROC}/x rw,``)
_COMMA_RULE = re.compile(r"[\w@/{*.-][^\s,]*(?:[\t ]+[^\s,]+){1,7},")
_STOP_WORDS = frozenset(
    "the a an and or of to in is are be was for with that this it as on by not from at which can will you "
    "your when we has have these those there their".split()  # not ``if``: config dialects open conditionals on it
)
_WORD = re.compile(r"[(\"'`]?[A-Za-z][a-z'\u2019-]*[.,;:!?)\"'`]{0,2}")
MIN_LINES = 12  # the strict readers' gate
MIN_BODY_LINES = 8
SETTING_SHARE = 0.75  # setting lines among the non-comment lines, at least
PROSE_SHARE = 0.2  # sentence lines among them, at most


def _is_sentence(line: str) -> bool:
    """Six words or more, nearly all plain words (detection's sentence test, on text)."""
    words = line.split()
    return len(words) >= 6 and sum(1 for w in words if _WORD.fullmatch(w)) * 5 >= len(words) * 4


def line_shape(line: str) -> str:
    """``"prose"``, ``"setting"`` or ``"other"`` for one stripped, non-comment line."""
    words = line.split()
    stops = sum(1 for w in words if w.lower().strip(".,;:()") in _STOP_WORDS)
    if stops >= 2 or _is_sentence(line) or (line.endswith((".", "?", "!")) and not line.endswith("...")):
        return "prose"
    if _KEY_VALUE.match(line) or _BLOCK.fullmatch(line):
        return "setting"
    if _COMMA_RULE.fullmatch(line) and stops == 0:
        return "setting"
    if _DIRECTIVE.fullmatch(line) and stops == 0:
        return "setting"
    if line.startswith("- ") and len(words) <= 4 and stops == 0:
        return "setting"  # a short list item (``- /var/log``)
    return "other"


def shares(text: str) -> tuple[int, float, float]:
    """(non-comment lines, their setting share, their prose share) over the first 64 KiB."""
    head = _BLOCK_COMMENT.sub("", text[: 1 << 16])
    body = [t for t in (raw.strip() for raw in head.split("\n")) if t and not t.startswith(_COMMENT_HEADS)]
    if not body:
        return 0, 0.0, 0.0
    shapes = [line_shape(line) for line in body]
    return len(body), shapes.count("setting") / len(body), shapes.count("prose") / len(body)


@remember_last_answer
def looks_settings(data: bytes) -> bool:
    """Nearly every non-comment line a setting, hardly any a sentence; RFC 822 records (every
    top-level line ``Field: value``: package metadata, mail headers) are messages, not settings."""
    if line_count(data) < MIN_LINES:
        return False
    text = utf8_text(data)
    if text is None or '"""' in text or "'''" in text:
        return False  # a multi-line string: the spec's fail rule for every INI/TOML shape
    n, setting, prose = shares(text)
    if n < MIN_BODY_LINES:
        return _commented_out(text, n)
    if (setting < SETTING_SHARE or prose > PROSE_SHARE) and not _commented_settings(text, prose):
        return False
    return not _rfc822_record(text) and not _yaml_shaped(text)


# C's ``#define`` lines are code, not comments (a kernel header's ``#define TCA_MPLS_PAD 7``)
_PREPROCESSOR = re.compile(r"#[\t ]*(?:define|undef|include|if|ifdef|ifndef|elif|else|endif|pragma|error|warning|line)\b")
COMMENTED_SHARE = 0.33  # ``#`` / ``;`` lines among the non-blank lines, at least
COMMENTED_PROSE = 0.15  # sentence lines among the others, at most


def _commented_settings(text: str, prose: float) -> bool:
    """A shipped file that explains itself in ``#`` comment blocks around terse lines of a
    dialect the setting shapes miss (Exim's ``driver = plaintext`` examples, sysstat's
    ``3:hd:...`` records, AppArmor rules, BIND's ``trust-anchors {``): a third of its lines or
    more are comments, two of them in a row at least, and hardly any other line is a
    sentence. Tune split: these configs 0.35-0.86 comment lines; text at most 0.22 (Markdown
    headings are ``#`` lines too, but one at a time)."""
    if prose > COMMENTED_PROSE:
        return False
    lines = [raw.strip() for raw in text[: 1 << 16].split("\n") if raw.strip()]
    marks = [line.startswith(("#", ";")) and not _PREPROCESSOR.match(line) for line in lines]
    if sum(marks) < COMMENTED_SHARE * len(lines):
        return False
    return any(a and b for a, b in zip(marks, marks[1:]))


_YAML_KEY = re.compile(r"[\t ]*(?:- )?[\w.-]+[\t ]*:(?:[\t ]|$)")


def _yaml_shaped(text: str) -> bool:
    """Half the lines or more are ``key:`` lines: YAML, whose own parser (the strict reader) is
    the judge; a document it rejects (broken flow, duplicate keys) stays rejected."""
    lines = [raw for raw in text[: 1 << 16].split("\n") if raw.strip() and not raw.lstrip().startswith("#")]
    return sum(1 for line in lines if _YAML_KEY.match(line)) * 2 >= len(lines)


def _commented_out(text: str, body: int) -> bool:
    """A shipped default with its settings commented out: twelve ``#`` / ``;`` lines or more,
    twice the live lines, one of them a setting after its marker (``# loadplugin X::Y``).
    On the tune split every such file is a config (61 of 62 already were) and no text is."""
    comments = [raw.strip() for raw in text[: 1 << 16].split("\n") if raw.lstrip().startswith(("#", ";"))]
    if len(comments) < 12 or len(comments) < 2 * body:
        return False
    return any(len(c.split()) >= 2 and line_shape(c.lstrip("#; \t")) == "setting" for c in comments)


_CALL = re.compile(r"[A-Za-z_]\w*\(")
_CODE_HEADS = re.compile(CODE_HEADS, re.M)


def settings_not_code(data: bytes) -> bool:
    """A settings file that code's votes would claim (``server x {``, ``if (&A == B) {``,
    ``apply Service "x" {``): block dialects share code's braces and keywords, not its calls.
    Under a tenth of the non-comment lines call ``name(`` and fewer than three open on a
    declaration or import (tune: code files 0.12–0.66 calls or 3+ heads, these configs 0)."""
    if not looks_settings(data):
        return False
    text = utf8_text(data) or ""
    head = _BLOCK_COMMENT.sub("", text[: 1 << 16])
    if len(_CODE_HEADS.findall(head)) >= 3:
        return False
    body = [t for t in (raw.strip() for raw in head.split("\n")) if t and not t.startswith(_COMMENT_HEADS)]
    return sum(1 for line in body if _CALL.search(line)) * 10 < len(body)


_RFC822_FIELD = re.compile(r"[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*:[ \t]+\S.*|[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*:")


def _rfc822_record(text: str) -> bool:
    """No comment line, and every line at the margin a capitalised ``Field:``."""
    top = [raw.rstrip("\r") for raw in text.split("\n") if raw.strip() and raw[:1] not in (" ", "\t")]
    return bool(top) and all(_RFC822_FIELD.fullmatch(line) for line in top)


# comment heads of the statement dialects (detection's list)
_STATEMENT_COMMENTS = (b"#", b"//", b"/*", b"*", b'"', b"--", b";", b"%", b"<!--", b"REM ", b"dnl ")
_ASSIGN_STMT = re.compile(rb"[\t ]*[\w.-]+[\t ]*=[\t ]*(?:\"[^\"\n]*\"|[\w.:/-]+)[\t ]*;[\t ]*\r?$")


def assignments_only(data: bytes) -> bool:
    """A block settings dialect written in statements (irssi's ``max_msgs = "20";`` inside
    ``name = { ... };``): half its statement lines assign a quoted or plain word and end on
    ``;``, and none calls ``name(`` outside its quoted values (CMake, Vim and Tcl call on nearly
    every line). Detection asks it of what its line shapes took for statement code."""
    lines = [line.strip() for line in data[: 1 << 16].split(b"\n")]
    lines = [line for line in lines if line and not line.startswith(_STATEMENT_COMMENTS) and line not in (b"{", b"}", b"};", b"},")]
    if not lines or any(_CALL_OPEN.search(_QUOTED.sub(b'""', line)) for line in lines):
        return False
    return sum(1 for line in lines if _ASSIGN_STMT.match(line)) * 2 >= len(lines)


_CALL_OPEN = re.compile(rb"[A-Za-z_]\w*\(")
_QUOTED = re.compile(rb'"(?:[^"\\\n]|\\.)*"')  # a value's text: a command quoted in it calls nothing
