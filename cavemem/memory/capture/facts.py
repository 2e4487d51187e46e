"""Facts a sentence states about one subject: ports, hosts, paths, versions, tools, settings, roles,
commands and schedules, each as an ``(entity key, value)`` pair.

Why a module of its own: the key ("port:staging api") is what lets a later capture of the same
subject supersede the earlier one, so these shapes are shared by extraction, the classifier and the
pipeline's update check — and they are the largest single family of rules.
"""

from __future__ import annotations

import re

# A fact is "<subject> <verb> ... <value>": the verb class is any copula, a third-person verb with a
# direction ("reads from", "publishes to", "talks to"), or a passive participle ("is served from").
_VERB = (r"(?:still\s+|now\s+|also\s+)?(?:is|are|runs?|listens|lives?|sits|uses|points|goes|go|moved|"
         r"(?:was|has|have|is|are)\s+(?:now\s+|been\s+)?(?:[a-z]+ed|kept|written|run|built|held|sent|bound)|"
         r"[a-z]+s\s+(?:from|to|on|at|in|into|via|against|through|off|with)|(?:come|live|sit|go)\s+(?:from|in|to|under|at))")
_PORT = re.compile(r"^(?P<subj>.{2,60}?)\s+" + _VERB + r"\b.{0,30}?\bport\s+(?P<val>\d{2,5})\b", re.I)
_HOST = re.compile(r"^(?P<subj>.{2,60}?)\s+" + _VERB + r"\b.{0,40}?(?:\bat\s+|\bon\s+|\bto\s+|\s)`?(?:[a-z][a-z0-9+]*://)?(?P<val>[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|io|org|dev|internal|local|lan|cloud))\b", re.I)
_PATH = re.compile(r"^(?P<subj>.{2,60}?)\s+" + _VERB + r"\b.{0,20}?(?:\bin\s+|\bat\s+|\bunder\s+|\bto\s+|\binto\s+)`?"
                   r"(?P<val>[a-z][a-z0-9+]*://[\w.@/-]+|~?/[\w.@-]+(?:/[\w.@-]+)+/?|(?!and/|or/)[a-z_][\w.-]*/[\w.@-]+(?:/[\w.@-]+)*/?)", re.I)
# a bare port: "the service listens on 7070", "it's served on :8008"
_PORT_BARE = re.compile(r"^(?P<subj>.{2,60}?)\s+(?:now\s+)?(?:listens|runs|serves|binds|is\s+(?:served|exposed|reachable|bound))\s+"
                        r"(?:on|at|to)\s+:?(?P<val>\d{2,5})\b(?![.:/]\d)", re.I)
_IP = re.compile(r"^(?P<subj>.{2,60}?)\s+" + _VERB + r"\b.{0,30}?\b(?P<val>(?:\d{1,3}\.){3}\d{1,3})\b", re.I)
# "experiments are tracked in wandb": which tool does a job
_TOOL = re.compile(r"^(?P<subj>.{2,40}?)\s+(?:is|are)\s+(?:tracked|stored|kept|logged|managed|hosted|handled|scheduled|monitored|"
                   r"orchestrated|built|deployed|released|tested|served|versioned)\s+(?:in|on|with|by|through|via)\s+(?P<val>[\w.@/-]{2,40})", re.I)
_VERSION = re.compile(r"\b(?:we'?re\s+(?:on|using|running)|we\s+(?:are\s+on|use|run|target|pin)|(?:is|are)\s+pinned\s+to|upgraded\s+to|"
                      r"bumped\s+to|moved\s+to|requires|version\s+is|standardi[sz]ed\s+on|(?:is|are)\s+on|is|are|runs?|running|uses|using)\s+"
                      r"(?P<subj>[A-Za-z][\w.+-]{1,24})\s+v?(?P<val>\d+(?:\.\d+){1,2})\b", re.I)
_VERSION_ON = re.compile(r"\b(?:we'?re\s+(?:on|using|running)|we\s+(?:are\s+on|use|run)|upgraded\s+to|bumped\s+to)\s+"
                         r"(?P<subj>[A-Za-z][\w.+-]{1,24})\s+v?(?P<val>\d+(?:\.\d+){0,2})\b", re.I)
_VERSION_PROJ = re.compile(r"\b(?P<subj>[A-Za-z][\w.+-]{1,24})\s+v?(?P<val>\d+(?:\.\d+){1,2})\s+(?:project|app|service|repo|codebase|site|game)\b", re.I)
# "warehouse for dev is TRANSFORM_XS", "we moved prod to TRANSFORM_XL": a named setting's value
_SETTING = re.compile(r"^(?P<subj>[a-z][\w .-]{1,40}?)\s+(?:is|are|uses|is\s+set\s+to|defaults\s+to)\s+`?(?P<val>[A-Z][A-Z0-9]*_[A-Z0-9_]+|"
                      r"[a-z][\w-]*(?:\.[\w-]+){2,})`?(?=\W|$)", re.I)
_SETTING_MOVED = re.compile(r"\b(?:moved|switched|changed|set|bumped)\s+(?P<subj>[a-z][\w -]{1,30}?)\s+to\s+`?(?P<val>[A-Z][A-Z0-9]*_[A-Z0-9_]+)`?(?=\W|$)")
# "the deploy branch is main only", "Deploy branch is release from now": which branch does a job
_BRANCH = re.compile(r"^(?P<subj>(?:the\s+|our\s+)?[\w-]+(?:\s+[\w-]+)?\s+branch)\s+(?:is|=|:)\s+(?:now\s+)?`?(?P<val>[\w./-]+)", re.I)
# a one-off date: "the cutover is scheduled for Tuesday 2026-12-15 at 05:00 UTC"
_WHEN = re.compile(r"^(?P<subj>.{2,40}?)\s+(?:is|are)\s+(?:scheduled|planned|set|due|booked)\s+(?:for|on|at)\s+(?P<val>.{4,60})$", re.I)
_VERSION_IS = re.compile(r"^(?:the\s+|our\s+)?[\w-]+(?:\s+[\w-]+)?\s+(?:is|are)\s+(?P<subj>[A-Z][\w.+-]{1,24})\s+v?(?P<val>\d{1,3}(?:\.\d+){0,2})\b"
                         r"(?!\s*(?:%|ms|s\b|min|minutes|hours|days|weeks|gb|mb|kb|files|rows|items|tests|users|nodes))")
# "our product manager is Burak", "now Elif is our product manager": who holds a role
_ROLES = r"(?:(?:product|project|engineering|tech|team|release|qa)\s+)?(?:manager|lead|owner|pm|cto|ceo|designer|maintainer|reviewer|admin)"
_ROLE = re.compile(r"(?:\b(?:our|the)\s+|^)(?:new\s+)?(?P<subj>" + _ROLES + r")\s+is\s+(?:now\s+)?(?P<val>(?-i:[A-Z][a-z]+))\b", re.I)  # "Product manager is Elif now" too
_ROLE_OF = re.compile(r"\b(?P<val>(?-i:[A-Z][a-z]+))\s+is\s+(?:now\s+)?(?:our|the)\s+(?:new\s+)?(?P<subj>" + _ROLES + r")\b", re.I)
_VERSION_MIN = re.compile(r"\b(?:targets?|targeting|minimum(?:\s+is)?|min\.?|require|requires)\s+(?:is\s+)?(?P<subj>[A-Za-z][\w.+-]{1,24})\s+v?(?P<val>\d+(?:\.\d+){0,2})\b", re.I)
_VERSION3 = re.compile(r"\b(?P<subj>[A-Za-z][\w.+-]{1,24})\s+version\b[^.?!\d]{0,30}?\bv?(?P<val>\d+(?:\.\d+){1,2})\b", re.I)
_VERSION_IN = re.compile(r"\b(?:in|with|on)\s+(?P<subj>[A-Z][\w.+-]{1,24})\s+v?(?P<val>\d{1,2}(?:\.\d+){0,2})\b"
                         r"(?!\s*(?:%|ms|s\b|min|minutes|hours|days|weeks|gb|mb|kb|files|rows|items|tests|users|nodes))")
_VERSION2 = re.compile(r"\b(?P<subj>[A-Za-z][\w.+-]{1,24})\s+(?:is\s+now|is|stays)\s+(?:pinned\s+(?:to|at)\s+|at\s+)?v?(?P<val>\d+(?:\.\d+){1,2})\b", re.I)
_CMD_VERBS = r"run|build|deploy|start|test|lint|format|migrate|preview|serve|release|publish|install|seed|reset|bench|typecheck|check|generate|regenerate|bootstrap|package|debug|profile|restart|rebuild|clean"
_COMMAND = re.compile(r"\b(?:" + _CMD_VERBS + r")\b[^`]{0,40}?\b(?:with|using|via|by\s+running|is|:)\s+`(?P<val>[^`\n]{3,80})`", re.I)
_CMD_PURPOSE = re.compile(r"\b(" + _CMD_VERBS + r")\w*\b(?:\s+(?:the\s+)?(\w+))?", re.I)
# A schedule: a recurrence ("every month", "nightly", "on the 1st") pinned to a time, day or cron line.
_RECUR = re.compile(r"\b(?:every|each)\s+(?:other\s+)?(?:day|night|morning|evening|week|weekday|weekend|month|quarter|year|hour|"
                    r"\d+\s+(?:minutes|hours|days|weeks)|mon|tue|wed|thu|fri|sat|sun)\w*|\b(?:daily|nightly|weekly|monthly|hourly|"
                    r"quarterly|yearly)\b|\bon\s+the\s+\d{1,2}(?:st|nd|rd|th)\b|\bon\s+(?:mon|tues|wednes|thurs|fri|satur|sun)days\b", re.I)
_AT_TIME = re.compile(r"\b(?:[01]?\d|2[0-3]):[0-5]\d\b|\b\d{1,2}\s*(?:am|pm)\b|\bmidnight\b|\bnoon\b|\bcron\b|"
                      r"\b\d{1,2}(?:st|nd|rd|th)\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b", re.I)
_STOP = {"the", "our", "a", "an", "now", "so", "and", "that", "this", "we", "also", "btw", "fyi", "note", "ok", "okay", "just",
         "actually", "which", "it", "its", "of", "for", "server", "service", "still", "locally", "files", "file", "yeah", "hmm"}


def _subject(raw: str) -> str:
    words = [w for w in re.findall(r"[a-z0-9][a-z0-9_.-]*", raw.lower()) if w not in _STOP]
    return " ".join(words[-3:])


_CONTRACTION = re.compile(r"\b(it|that|there|what|here|who)'s\b", re.I)
_PRONOUN = re.compile(r"(?:^|,\s*)(?:it|they|that|this|which|its)\s*$", re.I)
_VERBISH = re.compile(r"\s(?:got|gets|is|are|was|were|has|had|moved|changed|runs?|lives?|went)\b.*$", re.I)


def _fact_subject(raw: str) -> str:
    """The subject words; for "the NAS got a new name, it" the thing the pronoun stands for."""
    if _PRONOUN.search(raw):
        head = _VERBISH.sub("", re.split(r",", raw, maxsplit=1)[0])
        return _subject(head) if head.strip() and not _PRONOUN.fullmatch(head.strip()) else ""
    return _subject(raw.rsplit(":", 1)[-1] if ":" in raw else raw)


def fact_of(sentence: str) -> tuple[str, str] | None:
    """(entity key, value) when the sentence states a port, host, path, version or command."""
    if sentence.rstrip().endswith("?"):
        return None
    flat = _CONTRACTION.sub(lambda m: m.group(1) + " is", sentence.replace("`", ""))
    for attr, rx in (("port", _PORT), ("port", _PORT_BARE), ("host", _HOST), ("host", _IP), ("path", _PATH), ("tool", _TOOL),
                     ("setting", _SETTING), ("setting", _SETTING_MOVED), ("when", _WHEN), ("branch", _BRANCH), ("role", _ROLE), ("role", _ROLE_OF)):
        m = rx.search(flat)
        subj = _fact_subject(m.group("subj")) if m else ""
        if m and (subj or attr == "port"):
            return f"{attr}:{subj or 'main'}", m.group("val")  # an unnamed service is the project's own
    for rx in (_VERSION, _VERSION3, _VERSION_PROJ, _VERSION2, _VERSION_ON, _VERSION_IN, _VERSION_MIN, _VERSION_IS):
        m = rx.search(flat)
        if m and m.group("subj").lower() not in _STOP and not m.group("subj")[0].isdigit():
            return f"version:{m.group('subj').lower()}", m.group("val")
    m = _COMMAND.search(sentence)
    if m and not _FAILS.search(sentence.split("`", 1)[0]):  # "One test fails: `test_x` …" reports a failure, names no command
        purpose = _CMD_PURPOSE.search(sentence)
        key = purpose.group(1).lower() + (" " + purpose.group(2).lower() if purpose and purpose.group(2) else "")
        return f"command:{key}", m.group("val")
    return schedule_of(flat)


_FAILS = re.compile(r"\b(?:fails?|failed|failing|crash\w*|broken|flaky|errors?\s+(?:in|on|at))\b", re.I)


def schedule_of(sentence: str) -> tuple[str, str] | None:
    """("schedule:<what>", "<when>") for "we invoice on the 1st of every month at 06:00 UTC"."""
    rec = _RECUR.search(sentence)
    if rec is None or not (_AT_TIME.search(sentence[rec.end():]) or _AT_TIME.search(sentence[:rec.start()]) or _WEEKDAY.search(rec.group(0))):
        return None
    what = _subject(re.split(r"\b(?:on|at|every|each|runs?|happens?|goes|go|is|are)\b", sentence[:rec.start()], maxsplit=1, flags=re.I)[0]
                    or sentence[:rec.start()]) or _subject(re.split(r"\b(?:is|are|at|on)\b", sentence[rec.end():], maxsplit=1)[0])
    when = " ".join(sentence[rec.start():].split())[:60].rstrip(".")
    return (f"schedule:{what}", when) if what else None


_WEEKDAY = re.compile(r"(?:mon|tue|wed|thu|fri|sat|sun)\w*day", re.I)
