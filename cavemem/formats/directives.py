"""Directive-style server configuration (issue 9): ``keyword arguments`` lines, optionally in
brace blocks (nginx, Dovecot, BIND, keepalived) or ``<Section>`` tags (Apache, ProFTPD, collectd).

Why: the key/section readers in :mod:`.configs` know ``key = value``, ``key: value`` and
``[section]``; a server's shipped default speaks its own directive language, so it fell to
``text`` (or, with ``;`` line ends, to ``code``). What every such file shares, and prose and
programs do not: nearly every line opens on a bare keyword (no call, no sentence), most lines give
it arguments, those arguments carry values (paths, numbers, ``$vars``, addresses, quoted strings),
and statement words (``if``, ``return``, ``def``) and operators (``==``, ``&&``) are rare.
"""

from __future__ import annotations

import re

from .tables import FILE_MODE

# comment leads of these languages: ``#`` (most), ``;`` (INI-like), ``!`` (keepalived), ``//`` (BIND)
_COMMENT = ("#", ";", "!", "//")
# the line's first token: a keyword, ``$Keyword`` (rsyslog), ``.ifdef`` (exim), ``&Attr`` (FreeRADIUS), a selector
# (``kern.*``, ``*.*;auth.none``) or a ``<Section ...>`` / ``</Section>`` tag
# ``-m 64`` (memcached's option-per-line file; not an ``ls -l`` row's ``-rw-r--r--``)
_HEAD = re.compile(rf"(?!{FILE_MODE})(?:</?[A-Za-z][\w.:-]*(?:[ \t][^<>]*)?>|(?:--?|[$.&])?[A-Za-z_*][\w.*,;:/!@$+=-]*)(?=[ \t]|$)")
# a comment after a setting (``register 0 ; not a real host``, ``port 80 # default``): a space, the lead, a space
_INLINE_COMMENT = re.compile(r"[ \t]+[;#](?:[ \t].*)?$")
_BRACES = re.compile(r"[{}][ \t]*;?")
# a block's list item: an address or number alone (keepalived's ``virtual_ipaddress {`` entries)
_LIST_ITEM = re.compile(r"[\d][\w.:/-]*;?")
# a value in an argument: a digit, a path or address sign, a ``$var``, a quote, ``=``, ``*``, a
# CONSTANT, a ``;``/``{`` line end
_VALUE = re.compile(r"[\d/$\"'=*@:{};]|\b[A-Z][A-Z0-9_]{2,}\b")
_STATEMENT = re.compile(
    r"(?:if|then|fi|elif|else|for|foreach|while|do|done|case|esac|return|function|def|class|import|from|local|export"
    r"|echo|print|var|let|const|package|func|my|sub|proc|begin|end|try|catch"
    r"|CREATE|ALTER|INSERT|SELECT|UPDATE|DELETE|DROP|GRANT|RETURNS|LANGUAGE|AS|BEGIN|COMMIT|WITH|FROM|WHERE)\b"
)
# ``[::1]`` is an address, ``Mail::SpamAssassin::Plugin`` a Perl module's name (not ``std::string``, ``Vec::new(``); `` | `` a pipe
_OPERATOR = re.compile(r"==|!=|&&|\|\||\+=|->|::[a-z_]|::[A-Z]\w*\(|\(\);|\+\+|[ \t]\|[ \t]")
_CALL = re.compile(r"\b\w+\(")
# English function words: arguments are values, prose is built of these (not ``on``, ``from``,
# ``all``: ``IgnoreHidden on``, ``Allow from all`` are settings); whole words only (not ``in-reply-to``, ``-A``)
_FUNCTION_WORD = re.compile(r"(?<![\w-])(?:the|a|an|of|to|and|is|are|was|in|for|with|that|this|it|be|by)(?![\w-])", re.I)
_QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'")
_WORD = re.compile(r"[(\"'`]?[A-Za-z][a-z'-]*[.,;:!?)\"'`]{0,2}")


def _sentence(words: list[str]) -> bool:
    return len(words) >= 6 and sum(1 for w in words if _WORD.fullmatch(w)) * 5 >= len(words) * 4


def directive_file(text: str) -> bool:
    """True when ``text`` is a directive-style configuration file (see the module docstring):
    9 in 10 body lines directive-shaped, a third of them with arguments, half of those with a
    value and at most 1 in 5 with English function words (``the``, ``of``) outside quotes; at
    most 1 in 10 lines sentences (a short file counts as ten lines), 1 in 8 statement words
    (``case X {`` in a FreeRADIUS block), 1 in 20 operators, 1 in 5 calls; not a table, unless
    comments outnumber its rows (Postfix's ``master.cf``: a program prints no comments). A
    shipped default that is nearly all comments (12 or more, three per body line) needs one
    directive line; any other file eight. Comments after a setting are no part of it."""
    body, comments = _body_lines(text[: 1 << 16])  # the first 64 KiB, as detection's other readers
    n = len(body)
    if not (n >= 8 or (n >= 1 and comments >= 12 and comments >= 3 * n)) or text.startswith("#!"):
        return False
    v = _votes(body)
    return v is not None and (v["shaped"] * 10 >= n * 9 and v["args"] * 3 >= v["shaped"] and v["valued"] * 2 >= v["args"]
            and v["worded"] * 5 <= v["args"] and v["sentences"] * 10 <= max(n, 10) and v["statements"] * 8 <= n
            and v["operators"] * 20 <= n and v["calls"] * 5 <= n and not (comments < n and _table(body)))


def _body_lines(text: str) -> tuple[list[str], int]:
    """The stripped non-comment lines (a ``\\`` continuation joined to its line) and the comment count."""
    body: list[str] = []
    comments = 0
    joined = False  # the line before ended in ``\\``: this one continues its arguments
    for raw in text.split("\n"):
        line = raw.strip()
        if not line:
            continue
        if line.startswith(_COMMENT):
            comments += 1
        elif not joined:
            body.append(_INLINE_COMMENT.sub("", line))
        joined = line.endswith("\\")
    return body, comments


def _votes(body: list[str]) -> dict[str, int] | None:
    """How many lines have each feature :func:`directive_file` weighs; None as soon as more
    than one line in ten is not directive-shaped (the verdict is certain: prose stops early)."""
    v = dict.fromkeys(("shaped", "args", "valued", "worded", "sentences", "statements", "operators", "calls"), 0)
    allowed = len(body) // 10
    depth = 0  # brace blocks open: inside one, ``key: value`` is a setting (corosync), not YAML
    for seen, line in enumerate(body, 1):
        depth = max(depth - line.startswith("}"), 0) + line.endswith("{")
        if seen - v["shaped"] > allowed + 1:  # the line before this one was the miss too many
            return None
        v["sentences"] += _sentence(line.split())
        v["statements"] += _STATEMENT.match(line) is not None
        v["operators"] += _OPERATOR.search(line) is not None
        call = _CALL.match(line) is not None  # ``module(load="imuxsock")``: few, or it is a program
        v["calls"] += call or _CALL.search(line) is not None
        if call or _BRACES.fullmatch(line) or depth and _LIST_ITEM.fullmatch(line):
            v["shaped"] += 1
            continue
        head = _HEAD.match(line)
        if head is None or head.group().endswith(":") and not depth or not any(ch.isalpha() for ch in head.group()):
            continue  # ``key:`` outside braces is YAML
        v["shaped"] += 1
        rest = line[head.end():].strip()
        if rest:
            v["args"] += 1
            v["valued"] += _VALUE.search(rest) is not None or len(rest.split()) <= 2
            # a ``key = value`` setting's value may be a message (Exim's ``message = ...``)
            v["worded"] += not rest.startswith("=") and _FUNCTION_WORD.search(_QUOTED.sub("", rest)) is not None
    return v


def _table(body: list[str]) -> bool:
    """Aligned rows (``column -t``, ``dpkg-query -W``): eight lines or more, two in three of one
    field count of three or more, opening on distinct values; a directive file repeats its keywords."""
    if len(body) < 8:
        return False
    if sum(1 for line in body if line.split()[1:2] == ["="]) * 3 >= len(body):
        return False  # ``key = value`` rows are settings
    counts: dict[int, int] = {}
    for line in body:
        k = len(line.split())
        counts[k] = counts.get(k, 0) + 1
    width, rows = max(counts.items(), key=lambda kv: kv[1])
    heads = {line.split(None, 1)[0] for line in body}
    return width >= 3 and rows * 3 >= len(body) * 2 and len(heads) * 4 >= len(body) * 3


# ``Name[de]=Soundsystem``: a key with a locale (freedesktop ``.desktop`` files, ``.directory``)
_LOCALIZED = re.compile(r"[A-Za-z0-9_.-]+(?:\[[\w@.-]+\])?[ \t]*=.*|\[[^\]\n]+\]")


def localized_keys(text: str) -> bool:
    """Every body line a ``[Section]`` or a ``Key[locale]=value`` setting, eight at least:
    the key reader's ``key = value`` knows no locale suffix."""
    body, _ = _body_lines(text)
    return len(body) >= 8 and all(_LOCALIZED.fullmatch(line) for line in body)
