"""Cross-session updates by value slot: "we moved to python 3.12" supersedes "flask app, python 3.11".

Why not the entity key alone: two sessions rarely word one subject the same way ("it runs from a
systemd timer at 02:00" / "the nightly sync now runs at 01:15"), so an exact key misses most real
updates. Here a statement is read as typed values — a version of a named thing, a time of day, a
port, a host, a path, a quantity with its unit, a constant — and a new statement replaces the current
memory that holds a *different* value of the same type, when the new statement says it changed
(now / moved / bumped / instead of / new …) and

* it is a version of the same named thing ("python 3.11" → "we moved to python 3.12"), or
* it names the old value ("01:15 instead of 02:00"), or
* both share a subject word or a value family (TRANSFORM_L → TRANSFORM_XL) in the same scope.

Never across scopes: a statement about staging never replaces one about prod (scope words are read
in the text and inside host names), and a bug-fix memory (an event, not a current value) is never
replaced. The supersede is an ordinary one: ``history`` shows it, ``review reject`` undoes it; the
other facts the replaced memory held stay current (:func:`residual`).
"""

from __future__ import annotations

import re
from functools import lru_cache

_SCOPES = {"prod": "prod", "production": "prod", "prd": "prod", "live": "prod", "staging": "staging", "stage": "staging",
           "stg": "staging", "dev": "dev", "development": "dev", "test": "test", "testing": "test", "qa": "test",
           "uat": "test", "preview": "preview", "local": "local", "locally": "local", "bench": "bench", "ci": "ci",
           "sandbox": "sandbox", "beta": "beta", "canary": "canary", "demo": "demo"}
_CHANGE = re.compile(r"\b(?:now|new|moved?|moving|changed?|changing|switch(?:ed|ing)?|bump(?:ed|ing)?|upgrad(?:ed|ing|e)|"
                     r"downgrad(?:ed|ing|e)|updated?|migrated?|instead|no\s+longer|any\s?more|from\s+\S+\s+to|shift(?:ed)?|"
                     r"raised?|lowered?|increased?|decreased?|went|renamed?|replaced?|dropp(?:ed|ing)|go(?:es)?\s+(?:up\s+|down\s+)?to|"
                     r"correction|(?:is|are)\s+out|ended\s+up\s+(?:with|on)|(?:from|starting)\s+(?:this|next)\s+\w+)\b|"
                     r"\S\s*(?:->|→|=>)\s*\S|,\s*not\s+\S|改成|改为|换成|升级|变成|迁移到", re.I)  # "8080 -> 10000", "5 attempts, not 3"
_TIME = re.compile(r"\b(?:[01]?\d|2[0-3]):[0-5]\d\b")
_HOST = re.compile(r"\b(?:[a-z][a-z0-9+]*://)?(?P<v>[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|io|org|dev|app|internal|local|lan|"
                   r"cloud|corp|svc|cluster\.local))\b|\b(?P<ip>(?:\d{1,3}\.){3}\d{1,3})\b", re.I)
_PATH = re.compile(r"(?<![\w.])(?:[a-z][a-z0-9+]*://[\w.@/-]+|~?/[\w.@-]+(?:/[\w.@-]+)+/?|~/[\w.@-]*\w)", re.I)  # "~/.tallow.toml" too
_PORT = re.compile(r"\bport\s+:?(?P<a>\d{2,5})\b|\bport\s+(?:is|=)\s*(?P<e>\d{2,5})\b|(?<![\w.:])\:(?P<b>\d{2,5})\b|\b(?:listens?|listening|serves?|binds?)\s+(?:on|to)\s+:?"
                   r"(?P<c>\d{2,5})\b|\bport\b[^.;,]{0,20}?(?:(?:\bto|->|→)\s+|(?:改成|改为|换成)\s*):?(?P<d>\d{2,5})\b", re.I)
_PORT_ARROW = re.compile(r"\bport\b[^.;,\d]{0,20}?(?P<a>\d{2,5})\s*(?:->|→|=>)\s*(?P<b>\d{2,5})\b", re.I)  # "port changed: 8080 -> 10000"
_QTY = re.compile(r"\b(?P<v>\d+(?:[.,]\d+)?)\s?(?P<u>[kmg]?hz|[kmgt]i?b|ms|kbps|mbps|fps|rpm|baud|px|km|mi|miles|kg|"
                  r"yen|jpy|eur|euros?|usd|dollars?|gbp|kes|inr|rupees?|baht|vnd|brl|reais|pln|chf|sek|nok|dkk|"
                  r"attempts|retries|tries|replicas|workers|threads|shards|partitions|instances|pods|dynos)\b", re.I)  # amounts and counts too
# durations ("horizon 8 weeks", "retention 30 days"), the unit made singular so "1 week" and "2 weeks" are one type
_DURATION = re.compile(r"\b(?P<v>\d+(?:[.,]\d+)?)\s?(?P<u>week|day|hour|month|minute|second|year)s?\b|"
                       r"\b(?P<v2>\d+)(?P<u2>[dhwy]|mo|min)\b", re.I)  # "15d local, 400d in thanos": the unit abbreviated
# a count said by its noun ("the worker count is 4", "replica count: 3"): the same slot as "8 workers"
_COUNT = re.compile(r"\b(?P<u>worker|replica|shard|partition|instance|pod|dyno|thread|retry|attempt)s?\s+count\s*(?:is\s+|=\s*|:\s*|of\s+)?"
                    r"(?:now\s+)?(?P<v>\d+)\b", re.I)
_PLURAL = {"retry": "retries"}
# seconds abbreviated, only after what is timed ("the HTTP timeout is 30s now"): "10s of users" is no duration
_SECONDS = re.compile(r"\b(?:timeouts?|delay|interval|ttl|every|debounce|grace\s+period)\s+(?:is\s+|of\s+|=\s*|to\s+)?(?:now\s+)?"
                      r"(?P<v>\d+(?:\.\d+)?)\s?s\b", re.I)
_NUMBERS = {w: str(i) for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())}
_NUMBER_WORD = re.compile(r"\b(" + "|".join(_NUMBERS) + r")(?=\s+(?:minute|hour|day|week|month|year)s?\b)", re.I)
_MINUTES = {"second": 1 / 60, "minute": 1, "hour": 60, "day": 1440, "week": 10080, "month": 43200, "year": 525600}
_UNIT = {"d": "day", "h": "hour", "w": "week", "y": "year", "mo": "month", "min": "minute"}
# one tool under its other names, so "Postgres is 16 now" is a version of "DB is PostgreSQL 15"
_ALIAS = {"postgresql": "postgres", "pg": "postgres", "psql": "postgres", "nodejs": "node", "node.js": "node", "python3": "python",
          "py": "python", "k8s": "kubernetes", "tf": "terraform", "golang": "go", "ts": "typescript", "rubyonrails": "rails",
          "mysql8": "mysql"}
# a cloud region ("aws eu-west-1", "us-central1", "europe-west4"): one value a project moves between
_REGION = re.compile(r"\b(?:(?:us|eu|ap|sa|ca|me|af|il|cn)-(?:gov-)?(?:north|south|east|west|central|northeast|southeast|northwest|"
                     r"southwest)-\d|(?:us|europe|asia|australia|northamerica|southamerica|me|africa)-(?:north|south|east|west|central|"
                     r"northeast|southeast|northwest|southwest)\d)\b", re.I)
_WEEKDAY = re.compile(r"\b(?P<v>mon|tues|wednes|thurs|fri|satur|sun)days?\b", re.I)
_CHANNEL = re.compile(r"(?<![\w&#])#[a-z][\w-]{1,40}\b", re.I)  # a chat channel: "#pc-alerts"
# a rate ("100 requests per minute", "50 req/s")
_RATE = re.compile(r"\b(?P<v>\d+(?:[.,]\d+)?)\s?(?:requests?|reqs?|calls|messages|msgs|events|jobs)\s*(?:/|per\s+)"
                   r"(?P<u>s|sec|second|min|minute|h|hour|day)\b", re.I)
# a cloud instance size ("db.t3.medium" -> "db.r6g.large", "m5.xlarge"): no host, yet a value that changes
_SIZE = re.compile(r"\b(?:[a-z]+\.)?[a-z]{1,3}\d+[a-z]*\.(?:nano|micro|small|medium|large|\d*xlarge|metal)\b", re.I)
# "Quarkus we upgrade now to 3.15", "postgres got bumped to 16.4": the named thing before the change verb
_VERSION_TO = re.compile(r"\b(?P<name>[a-z][\w+#-]{1,24})\s+(?:(?:we|i|is|was|has|have|been|got|gets|now|just|finally|also)\s+){0,3}"
                         r"(?:upgrad|bump|mov|updat|migrat|went|go)\w*\s+(?:now\s+)?to\s+v?(?P<v>\d{1,3}\.\d+(?:\.\d+)?)\b", re.I)
# "MySQL upgrade is done, 8.4 now": the version after the news that the named thing's upgrade is done
_VERSION_DONE = re.compile(r"\b(?P<name>[a-z][\w+#-]{1,24})\s+(?:upgrade|bump|migration)\s+(?:is\s+|was\s+)?(?:done|complete|finished)"
                           r"\W+(?:(?:now|we'?re|we\s+are|on|at)\s+){0,2}v?(?P<v>\d{1,3}\.\d+(?:\.\d+)?)\b", re.I)
# a calendar date ("1 March", "march 15", "2026-12-15") and a percentage ("over 80%"): values a plan or a rule moves between
_DATE = re.compile(r"\b(?:\d{1,2}(?:st|nd|rd|th)?\s+(?P<m1>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*|"
                   r"(?P<m2>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+\d{1,2}(?:st|nd|rd|th)?|\d{4}-\d{2}-\d{2})\b", re.I)
_PERCENT = re.compile(r"(?<![\w.])(?P<v>\d+(?:[.,]\d+)?)\s?%")
_CONST = re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b")
_BIGNUM = re.compile(r"(?<![\w.:/-])\d{4,7}(?![\w.:/-])")
# "python 3.11", "iOS to 17", "node 20", "Airflow 2.10", "go 1.22"; the named thing before the number
_VERSION = re.compile(r"\b(?P<name>[a-z][\w+#-]{1,24}?)(?:\s+(?:to|version|at|is|are|v|now|still|already)){0,2}\s+v?(?P<v>\d{1,3}(?:\.\d+){0,2})\b"
                      r"(?!\s*(?:%|ms|s\b|sec|min|minutes|hours?|days?|weeks?|months?|years?|times|x\b|gb|mb|kb|px|km|kg|mi\b|files|rows|items|"
                      r"tests|users|nodes|workers|degrees?|passed|failed|lines|mails?|requests|retries|tries|bytes|[kmg]?hz|"
                      r"[:.]\d|/))", re.I)
_NOT_NAME = {"the", "a", "an", "to", "at", "on", "in", "of", "for", "is", "are", "was", "be", "and", "or", "by", "with", "from",
             "every", "each", "after", "before", "within", "about", "around", "only", "than", "last", "first", "next", "port",
             "step", "line", "lines", "item", "option", "version", "v", "db", "top", "over", "under", "up", "down", "it", "its",
             "we", "our", "you", "takes", "took", "get", "got", "gets", "retry", "retries", "now", "min", "max", "minimum",
             "maximum", "run", "runs", "tier", "level", "phase", "page", "pages", "day", "days", "week", "chapter", "issue", "pr",
             "like", "about", "around", "approx", "least", "most", "just", "per", "x", "than", "then", "after", "took", "take"}
_WORD = re.compile(r"[a-z][a-z0-9_-]{2,}")
_GENERIC = {"the", "and", "for", "are", "our", "with", "from", "that", "this", "now", "new", "use", "uses", "used", "using",
            "runs", "run", "is", "was", "been", "has", "have", "had", "not", "but", "all", "any", "its", "it's", "via", "into",
            "then", "than", "also", "just", "still", "only", "every", "each", "instead", "moved", "move", "changed", "change",
            "switched", "bumped", "upgraded", "updated", "later", "last", "week", "today", "yesterday", "morning", "set",
            "because", "since", "too", "there", "here", "we're", "were", "will", "going", "gonna", "make", "made", "sure", "okay",
            "yes", "yeah", "please", "pls", "thanks", "time", "at", "on", "in", "to", "of", "a", "an", "be", "so", "fyi", "btw",
            "heads", "app", "project", "service", "should", "must", "always", "never", "everywhere", "across", "board", "both",
            "sides", "default", "value", "before", "after", "again", "same", "correction", "actually",
            # verbs that say how a value is held, not what it is about ("the api listens on", "redis listens on")
            "listen", "live", "sit", "point", "go", "goe", "host", "hosted", "serve", "served", "read", "write", "store", "stored",
            "keep", "kept", "call", "talk", "connect", "send", "receive", "deploy", "deployed", "build", "built", "ship", "release",
            "bind", "bound", "expose", "exposed", "schedule", "scheduled", "happen", "take", "stay", "set", "now",
            # the value's own type word says nothing about whose value it is
            "port", "host", "hostname", "version", "path", "url", "address", "addres", "utc", "daily", "nightly"}


_TLD = re.compile(r"(?<=\w)\.(?:dev|local|test|app|io|com|net|org|internal|lan|cloud|live)\b")


def scopes(text: str) -> set[str]:
    """Deployment scopes named in ``text`` (words and host-name parts): prod, staging, dev, bench…"""
    text = _TLD.sub(" ", text.lower())  # "shop.dev" is a domain, not the dev environment
    return {_SCOPES[w] for w in re.findall(r"[a-z]+", text) if w in _SCOPES}


def other_scope(new_text: str, old_text: str) -> bool:
    """Both texts name a scope and they share none (staging vs prod)."""
    sn, so = scopes(new_text), scopes(old_text)
    return bool(sn and so and not sn & so)


@lru_cache(maxsize=4096)  # one capture pass compares each candidate with up to 300 stored texts
def values(text: str) -> dict[str, frozenset[str]]:
    """{type: {values}} of the typed values ``text`` states (see the module docstring)."""
    flat = _NUMBER_WORD.sub(lambda m: _NUMBERS[m.group(1).lower()], text.replace("`", ""))  # "every six hours" is 6 hours
    out: dict[str, set[str]] = {}

    def add(kind: str, val: str) -> None:
        out.setdefault(kind, set()).add(val.lower().rstrip("/"))

    for m in _TIME.finditer(flat):
        add("time", m.group(0).zfill(5))
    for m in _HOST.finditer(flat):
        add("host", m.group("v") or m.group("ip"))
    for m in _PATH.finditer(flat):
        add("path", m.group(0))
    for m in _PORT.finditer(flat):
        add("port", next(g for g in m.groups() if g))
    for m in _PORT_ARROW.finditer(flat):
        add("port", m.group("a"))
        add("port", m.group("b"))
    for m in _QTY.finditer(flat):
        add("qty:" + m.group("u").lower(), m.group("v"))
    for m in _DURATION.finditer(flat):
        unit = (m.group("u") or _UNIT[m.group("u2").lower()]).lower()  # in minutes: "45 minutes" -> "1 hour" is one value changing
        add("qty:time", f"{float((m.group('v') or m.group('v2')).replace(',', '.')) * _MINUTES[unit]:g}")
    for m in _COUNT.finditer(flat):
        add("qty:" + _PLURAL.get(m.group("u").lower(), m.group("u").lower() + "s"), m.group("v"))
    for m in _SECONDS.finditer(flat):
        add("qty:time", f"{float(m.group('v')) / 60:g}")
    for m in _REGION.finditer(flat):
        add("region", m.group(0))
    for m in _CHANNEL.finditer(flat):
        add("channel", m.group(0))
    for m in _WEEKDAY.finditer(flat):
        add("weekday", m.group("v"))
    for m in _RATE.finditer(flat):
        add("rate:" + m.group("u").lower()[:1], m.group("v"))
    for m in _SIZE.finditer(flat):
        add("size", m.group(0))
    for m in [*_VERSION_TO.finditer(flat), *_VERSION_DONE.finditer(flat)]:
        if m.group("name").lower() not in _NOT_NAME:
            add("version:" + _ALIAS.get(m.group("name").lower(), m.group("name").lower()), m.group("v"))
    for m in _CONST.finditer(flat):
        add("const", m.group(0))
    for m in _DATE.finditer(flat):
        add("date", " ".join(m.group(0).lower().split()))
    for m in _PERCENT.finditer(flat):
        add("qty:%", m.group("v"))
    for m in _BIGNUM.finditer(flat):
        if not 1990 <= int(m.group(0)) <= 2100 and m.group(0) not in out.get("port", ()):
            add("number", m.group(0))
    for m in _VERSION.finditer(flat):
        name = m.group("name").lower()
        if name not in _NOT_NAME and not name.isdigit() and m.group("v") not in out.get("port", set()) | out.get("number", set()):
            add("version:" + _ALIAS.get(name, name), m.group("v"))
    return {k: frozenset(v) for k, v in out.items()}


def subject_words(text: str, vals: dict[str, set[str]]) -> set[str]:
    """Content words of ``text`` that are not values, scopes or generic words."""
    flat = text.lower()
    for v in sorted((v for vs in vals.values() for v in vs), key=len, reverse=True):
        flat = flat.replace(v, " ")  # "config now in ~/.config/tallow/config.toml": "config" is said outside the path too
    words = {w.rstrip("s") if len(w) > 3 else w for w in _WORD.findall(flat) if w not in _SCOPES}
    return {w for w in words if w not in _GENERIC}


def _stems(vals: set[str]) -> set[str]:
    """Value families: a name's head ("transform" of TRANSFORM_L), a numbered host without its number
    ("db.fjord.internal" of db1.fjord.internal, so db2.fjord.internal is the same host moved)."""
    heads = {head for v in vals for head in re.split(r"[_./:-]", v)[:1] if len(head) >= 3 and not head.isdigit()}
    hosts = {re.sub(r"\d+$", "", v.split(".", 1)[0]) + "." + v.split(".", 1)[1] for v in vals
             if v.count(".") >= 2 and re.match(r"[a-z][\w-]*\d\.", v)}
    return heads | hosts


def replaces(new_text: str, old_text: str) -> int:
    """How strongly ``new_text`` states a changed value of what ``old_text`` holds: 3 a version of
    the same named thing or a change naming the old value, 2 a change about a shared subject, 0 none."""
    new, old = values(new_text), values(old_text)
    sn, so = scopes(new_text), scopes(old_text)
    if not new or not old or other_scope(new_text, old_text):
        return 0  # staging never replaces prod, nor the bench rig the robots
    changed = bool(_CHANGE.search(new_text))
    best = 0
    for kind in new.keys() & old.keys():
        nv, ov = new[kind], old[kind]
        if not nv - ov:
            continue  # only values the old memory already holds: a restatement, not an update
        sk = scopes_holding(old_text, kind) if so else so
        if changed and (kind.startswith("version:") or nv & ov):
            best = 3  # "python 3.11" -> "python 3.12"; "01:15 instead of 02:00"
        elif changed and (sn <= sk if sn else not sk) and (subject_words(new_text, new) & subject_words(old_text, {})
                                                   or _stems(nv) & _stems(ov)):  # old side: "broker" in broker.kelpie.lan too
            best = max(best, 2)  # a shared subject word, or values of one family (TRANSFORM_L -> TRANSFORM_XL)
        elif changed and kind == "region" and len(nv) == len(ov) == 1 and (sn <= sk if sn else not sk):
            best = max(best, 2)  # a project sits in one region: "cluster is in eu-central-1 now" moves it
        elif changed and len(nv) == len(ov) == 1 and (sn <= sk if sn else not sk) and _said_of_the_same(new_text, new, old_text, old):
            best = max(best, 2)
    return best


_FUNCTION = {"the", "and", "for", "are", "our", "with", "from", "that", "this", "now", "new", "is", "was", "has", "have", "had", "its",
             "at", "on", "in", "to", "of", "be", "we", "it", "all", "also", "just", "still", "then", "than", "too", "every", "each",
             "moved", "changed", "switched", "bumped", "updated", "instead", "going", "will", "again", "same", "yes", "okay"}
_KIND_WORD = {"port", "host", "hostname", "path", "url", "address", "version", "region", "size", "ip"}
_TYPE_WORD = {"day", "time", "hour", "date", "count", "number", "size", "limit", "window", "slot", "amount", "value"}


def _said_of_the_same(new_text: str, new: dict, old_text: str, old: dict) -> bool:
    """Neither text names a subject of its own (its words are all generic: "The nightly deploy is at 03:00
    now" / "Deploys run nightly at 02:00"), yet they share a word: one value of one thing, said twice.
    A subject word on either side ("Standup is at 09:30") and it is another thing."""
    if _own_words(new_text, new) or _own_words(old_text, old):
        return False
    shared = _plain_words(new_text, new) & _plain_words(old_text, old)
    return bool(shared - _FUNCTION - _TYPE_WORD)


def _own_words(text: str, vals: dict) -> set[str]:
    """Subject words but the value's type word and a weekday's full name ("Release day is Thursday")."""
    return {w for w in subject_words(text, vals) - _TYPE_WORD if not _WEEKDAY.fullmatch(w)}


def _plain_words(text: str, vals: dict) -> set[str]:
    inside = {p for vs in vals.values() for v in vs for p in re.findall(r"[a-z0-9]+", v)}
    return {w.rstrip("s") if len(w) > 3 else w for w in _WORD.findall(text.lower()) if w not in inside}


def scopes_holding(text: str, kind: str) -> set[str]:
    """The scopes of the clauses of ``text`` that hold a value of ``kind``: in "Backend API is
    https://api.hanok.kr/v2, dev server is api-dev.hanok.kr" the API path is said of no scope (the dev
    clause holds another value), so "now it is https://api.hanok.kr/v3" replaces it. All of the text's
    scopes when no one clause holds the value."""
    held = [c for c in _CLAUSES.split(text) if c.strip() and kind in values(c)]
    return set().union(*map(scopes, held)) if held else scopes(text)


def replaced(memory, project: str, cand) -> object | None:
    """The current memory of ``project`` that candidate ``cand`` updates by value, or None."""
    from ..model import SELECT_ROWS, record_from_row

    moved = _MOVED.search(cand.text) or _MOVED_AFTER.search(cand.text)
    host = runs_on(cand.text) if _CHANGE.search(cand.text) else None
    if cand.capture_kind in ("bugfix", "explicit") or not (values(cand.text) or moved or host):
        return None
    from .. import ids

    same = memory.store.get(ids.memory_id(cand.text, project))
    if same is not None and same.current:
        return None  # already stored as it stands (a re-read transcript): nothing to compare
    sql = (SELECT_ROWS + " WHERE project = ? AND valid_until IS NULL AND NOT EXISTS (SELECT 1 FROM mem_capture c "
           "WHERE c.id = memories.id AND (c.capture_kind = 'bugfix' OR c.source_message = ?)) ORDER BY ts DESC LIMIT 300")
    try:  # never a memory from the same message (its sentences are siblings, not versions)
        rows = memory.store.read(sql, (project, cand.source_message or ""))
    except Exception:  # noqa: BLE001 - no capture table yet: nothing captured to update
        return None
    best, pick = 0, None
    recs = [record_from_row(row) for row in rows]
    for rec in recs:
        score = (replaces(cand.text, rec.text) or (2 if host and moved_host(host, cand.text, rec.text) else 0)
                 or (1 if moved and moved_from(moved, cand.text, rec.text) else 0) if rec.text != cand.text else 0)
        if score > best:
            best, pick = score, rec
    return pick or _only_holder(cand.text, recs)


def _only_holder(text: str, recs: list) -> object | None:
    """"Port is 9000 now": a change that names no subject, only the value's type, replaces the one current
    memory holding a value of that type (the server's ":8080"); with two holders it is left alone."""
    new = values(text)
    if len(new) != 1 or not _CHANGE.search(text) or _plain_words(text, new) - _FUNCTION - _TYPE_WORD - _KIND_WORD:
        return None  # "The nightly deploy is at 03:00 now" names a thing: not the standup's time
    kind = next(iter(new))
    holders = [r for r in recs if r.text != text and kind in values(r.text) and not other_scope(text, r.text)]
    return holders[0] if len(holders) == 1 and len(values(holders[0].text)[kind]) == 1 and values(holders[0].text)[kind] != new[kind] else None


_KEPT = re.compile(r"\b(?:stays?|stayed|still|unchanged|same|remains?|as\s+before)\b", re.I)


def as_change(clause: str) -> str:
    """A clause read as a change: its sentence said one ("We're on Node 22 since Monday, and CI moved to
    Buildkite"), or it already replaces a memory, so a clause without a change word of its own reads with
    "now" — unless it says what stays ("thanos stays 400d")."""
    return clause if _CHANGE.search(clause) or _KEPT.search(clause) else clause.rstrip(".!。") + " now."


_CLAUSES = re.compile(r"(?<=[.!;])\s+|,\s+|\s+and\s+(?=[a-z])", re.I)


def residual(old_text: str, new_text: str) -> str:
    """What ``old_text`` said besides the values ``new_text`` changes ("Godot 4.2 project, gdscript
    only. target is 60fps" updated by "we bumped to godot 4.3" leaves "gdscript only. target is
    60fps"), or "" when nothing else was said — so an update never drops the other facts. An update
    not by value ("from wandb to mlflow") replaces the whole memory, but for what it said of another
    scope ("LOG_LEVEL is info in prod" when staging changes)."""
    new, old = values(new_text), values(old_text)
    changed = {k for k in new.keys() & old.keys() if new[k] - old[k]}
    new_text = as_change(new_text)  # it replaces old_text: "We're on Node 22 since Monday." changed the Node clause
    clauses = [c.strip(" .;,") for c in _CLAUSES.split(old_text) if c.strip(" .;,")]
    host = runs_on(new_text)
    if not changed and host and moved_host(host, new_text, old_text):  # "HA runs on a raspberry pi 4, zigbee goes …": the zigbee clause stays
        place = runs_on(old_text)[1].split()[0]
        keep = [c for c in clauses if place not in c.lower() and not _SUBJECT_ONLY.fullmatch(c) and not _ASIDE.match(c)]
    elif not changed:
        keep = [c for c in clauses if other_scope(new_text, c)]
    else:
        keep = [c for c in clauses if not _SUBJECT_ONLY.fullmatch(c) and not _ASIDE.match(c)
                and (not changed & values(c).keys() or not replaces(new_text, c))]  # another scope, or a value of something else
    text = ", ".join(keep)
    if len(keep) == len(_CLAUSES.split(old_text)) or ((len(text) < 12 or len(text.split()) < 3) and not values(text)):
        return ""  # too little left, unless it is a value of its own ("Go 1.22")
    return text[:1].upper() + text[1:] + "."


# a clause that only names what the values were about ("flask app", "the NAS", "SwiftUI app")
_SUBJECT_ONLY = re.compile(r"(?:the\s+|our\s+|a\s+)?[\w.#+-]+(?:\s+[\w.#+-]+)?\s+(?:app|project|service|repo|codebase|site|game|cli|"
                           r"api|library|lib|server|box|tool)|(?:the\s+|our\s+)?[\w.#+-]+", re.I)
_ASIDE = re.compile(r"(?:that|this|it|which)(?:'s|\s+is|\s+was)\b", re.I)  # "that's the policy": about the clause before


# "we switched the tests to vitest", "we moved hosting to fly.io": a job handed to another tool, said without the old one
_MOVED = re.compile(r"\b(?:switch|mov|migrat|port|chang)\w*\s+(?:the\s+|our\s+|all\s+)?(?P<subj>[a-z][\w-]{2,}(?:\s+(?!over\b)[a-z][\w-]{2,})?)\s+"
                    r"(?:over\s+)?(?:to|onto)\s+"
                    r"(?P<new>[\w.+-]{2,})", re.I)
# the job named first: "CI moved to Buildkite", "…, and tracking switched over to mlflow", "the S3 bucket got renamed to …"
_MOVED_AFTER = re.compile(r"(?:^|[,;]\s*|\band\s+)(?:the\s+|our\s+)?(?P<subj>[a-z][\w-]+(?:\s+(?!has\b|have\b|was\b|got\b)[a-z][\w-]+)?)\s+(?:has\s+|have\s+|was\s+|got\s+)?"
                          r"(?:moved|switched|migrated|renamed)\s+(?:over\s+)?(?:to|onto)\s+"
                          r"(?!(?:port|version|path|url|host|address|the|a|an|new|another|its|our|their|\d+)\b)(?P<new>[\w.+-]{2,})", re.I)
# (not "Envoy admin moved to port 9902": a value moved, read by its type)


def moved_from(moved: re.Match, new_text: str, old_text: str) -> bool:
    """``old_text`` is a short statement of how the moved job was done before ("Tests run with jest."
    for "we switched the tests to vitest"): it names the job (its stem), not the new tool, in ten words at most."""
    stem = moved.group("subj").lower().split()[-1]  # "background jobs moved to Dramatiq": the job is "jobs"
    stem = stem[:-3] if stem.endswith("ing") and len(stem) > 6 else stem.rstrip("s")
    words = re.findall(r"[a-z][\w.+-]*", old_text.lower())
    return (len(words) <= 10 and any(w.startswith(stem) for w in words) and moved.group("new").lower() not in words
            and stem not in _NOT_JOB and not other_scope(new_text, old_text))


_NOT_JOB = {"it", "them", "everything", "all", "this", "that", "over", "back", "up", "down", "away", "out", "thing", "stuff", "one",
            "here", "there", "now", "new", "prod", "staging", "dev", "the", "our", "we", "i", "you", "they", "he", "she", "us"}


# where a named thing runs: "HA runs on a raspberry pi 4", "the shop is hosted on PythonAnywhere", "home assistant
# runs on an intel NUC now" — a value of no type of its own (a machine, a platform), so it is read by its subject
_RUNS_ON = re.compile(r"(?:^|[,;.:]\s+)(?:(?:so|and|now|but|(?:from|since|starting)\s+(?:this\s+|next\s+|last\s+)?\w+)\s+)?"
                      r"(?:the\s+|our\s+|my\s+)?(?P<subj>[a-z][\w.+-]*(?:\s+[a-z][\w.+-]*)?)\s+"
                      r"(?:now\s+)?(?:(?:runs?|is\s+(?:now\s+)?(?:hosted|running|deployed|living)|lives?|sits?)\s+(?:now\s+)?on|"
                      r"(?:is|are)\s+(?:now\s+)?on(?=\s+(?-i:[A-Z]))|go(?:es)?\s+(?:out\s+)?(?:now\s+)?(?:through|via))\s+"
                      r"(?:a\s+|an\s+|the\s+|our\s+)?(?P<place>[\w.+-]+(?:\s+(?!now\b)[\w.+-]+)?)", re.I)  # "is on Vercel", "emails go through Postmark"
# "we host the Django app on PythonAnywhere": the same, said by who runs it
_HOSTED = re.compile(r"(?:^|[,;.:]\s+)(?:we|i)\s+(?:now\s+)?(?:host|run|deploy|keep)\s+(?:the\s+|our\s+|my\s+)?"
                     r"(?P<subj>[a-z][\w.+-]*(?:\s+[a-z][\w.+-]*)?)\s+(?:now\s+)?on\s+(?:a\s+|an\s+|the\s+|our\s+)?"
                     r"(?P<place>(?-i:[A-Z])[\w.+-]+(?:\s+(?!now\b)[\w.+-]+)?)", re.I)
_NOT_HOST = {"it", "this", "that", "which", "what", "everything", "all", "who", "we", "i", "you", "they", "he", "she", "job", "cron",
             "script", "task", "check", "test", "tests"}


def runs_on(text: str) -> tuple[str, str] | None:
    """(subject, place) of the first "<subject> runs on <place>" clause of ``text``, lower-cased, or None."""
    m = _RUNS_ON.search(text) or _HOSTED.search(text)
    if m is None or m.group("subj").lower().split()[-1] in _NOT_HOST:
        return None
    return m.group("subj").lower(), m.group("place").lower().rstrip(".")


def same_name(a: str, b: str) -> bool:
    """One name, or a name and its initials ("HA" and "home assistant", "k8s" never: initials are letters)."""
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    parts = long_.split()
    return " " not in short and len(parts) >= 2 and short.isalpha() and short == "".join(p[0] for p in parts)


def moved_host(host: tuple[str, str], new_text: str, old_text: str) -> bool:
    """``old_text`` says the same thing runs somewhere else ("HA runs on a raspberry pi 4" for "home
    assistant runs on an intel NUC now"): one subject (or its initials), another place, one scope."""
    old = runs_on(old_text)
    return (old is not None and same_name(host[0], old[0]) and host[1].split()[0] != old[1].split()[0]
            and not other_scope(new_text, old_text))
