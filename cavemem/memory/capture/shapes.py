"""Sentence shapes read through typed values (:mod:`.slots`): a terse stack line ("flask app,
python 3.11"), a statement that a value changed ("we bumped min iOS to 17"), and the task clause a
fact is often glued to ("we moved to python 3.12, update the Dockerfile") cut off.

Why apart from :mod:`.extract`: these shapes are defined by the values a sentence holds, not by its
verbs, so they share :mod:`.slots`' value reader rather than extract's phrase lists.
"""

from __future__ import annotations

import re
from dataclasses import replace

from . import asides, slots
from .extract import (_BULLET, _BYE, _CHATTER, _CREDENTIAL, _DECISION, _FACT_QUESTION, _FROM_TO, _PREF, _SPECIFIC, _SYMPTOM, _TASK,
                      _TRANSIENT, Candidate, _finish, statement)
from .transcript import Message

_PARTS = re.compile(r"\s*(?:,|;|\+|/(?=\s)|\s&\s|\band\b)\s*", re.I)
_VERB_WORD = re.compile(r"\b(?:is|are|was|were|be|can|could|would|will|should|do|does|did|have|has|had|get|make|add|fix|need|want)\b",
                        re.I)
# ", update the Dockerfile base image" after a statement: the request, not part of what is true
_TASK_TAIL = re.compile(r"(?:,|;|\s-+|\s—)\s*(?:so\s+|and\s+|then\s+)?(?:please\s+|pls\s+|can\s+you\s+|could\s+you\s+)?"
                        r"(?:update|add|fix|make|change|remove|delete|write|create|run|check|bump|set|move|rename|regenerate|rebuild|"
                        r"redeploy|deploy|install|adjust|edit|migrate)\s+(?:the|a|an|our|my|it|this|that|all|every)\b.*$", re.I)


_HOWTO = re.compile(r"^\W*(?:to|for|if|when|whenever|before|after|once)\b", re.I)  # "to run it locally, run …": the tail is the answer


def without_task_tail(sentence: str) -> str:
    """``sentence`` without a trailing request clause, when what is left still says something."""
    m = None if _HOWTO.match(sentence) else _TASK_TAIL.search(sentence)
    head = sentence[: m.start()].rstrip(" ,;-—") if m else sentence
    return head if len(head) >= 12 and len(head.split()) >= 3 else sentence


_NOT_NAMED = re.compile(r"^\W*(?:yes|no|ok|okay|see|step|page|line|chapter|section|issue|pr|v|version|maybe|like|about)\b", re.I)


_NOW = re.compile(r"\b(?:now|already)\W*$", re.I)  # "Node 22 now.": a whole version said as the new one


def one_value(msg: Message, sentence: str) -> list[Candidate]:
    """"terraform 1.8." / "default ~/Documents/Quillpad" / "tf 1.9 for all infra": a fragment of at most four
    words (six when it opens with the named version), no verb, that names one dotted version (or any version
    said to be the one now: "Node 22 now."), path, host or cloud region — the terse writer's whole statement."""
    vals = slots.values(sentence)
    dotted = [k for k, vs in vals.items() if k.startswith("version:") and (any("." in v for v in vs) or _NOW.search(sentence))]
    named = dotted or "path" in vals or "host" in vals or "region" in vals
    opens = bool(dotted) and sentence.lower().startswith(dotted[0].split(":", 1)[1] + " ")
    if (not named or len(sentence.split()) > (6 if opens else 4) or _VERB_WORD.search(sentence) or _NOT_NAMED.match(sentence)
            or _CHATTER.match(sentence) or _CREDENTIAL.search(sentence) or sentence.rstrip().endswith("?")):
        return []
    return [Candidate(_finish(sentence), "fact", "fact", 0.55, msg.uuid)]


def stack_line(msg: Message, sentence: str) -> list[Candidate]:
    """"flask app, python 3.11" / "go 1.22, postgres 16, chi router": short parts, no verb, a version."""
    parts = [p for p in _PARTS.split(sentence.rstrip(".!")) if p.strip()]
    if len(parts) == 1:
        return one_value(msg, sentence)
    if (len(sentence.split()) > 16 or any(len(p.split()) > 4 for p in parts) or _VERB_WORD.search(sentence)
            or not any(k.startswith("version:") or k == "region" for k in slots.values(sentence))):
        return []
    return [Candidate(_finish(sentence), "fact", "fact", 0.6, msg.uuid)]


def changed_value(msg: Message, sentence: str) -> list[Candidate]:
    """"we bumped min iOS to 17 for the new observation APIs": a value said to have changed."""
    vals = slots.values(sentence)
    if (not vals or not slots._CHANGE.search(sentence) or len(sentence.split()) < 4 or (_TASK.search(sentence) and not _I_CHANGED.match(sentence))
            or _CHATTER.match(sentence) or _SYMPTOM.search(sentence) or _CREDENTIAL.search(sentence) or _MEASURED.search(sentence)):
        return []
    return [Candidate(_finish(sentence), "fact", "fact", 0.65, msg.uuid)]


# a run measured ("Tests took 12s, that's fine for now"): its "now" is no change, its "12s" no setting
_MEASURED = re.compile(r"\b(?:took|takes|taking)\s+(?:about\s+|around\s+|~)?\d|\bfor\s+now\b", re.I)


_I_CHANGED = re.compile(r"^i\s+(?:upgraded|bumped|moved|switched|changed|migrated|raised|lowered|increased|decreased|renamed|replaced)\b", re.I)


# "Error tracking is Sentry.", "Tests run with jest.", "The worker service is called ingestd.", "CI is GitHub Actions.",
# "Payments go through Stripe.", "The frontend is on Vercel now.", "Auth moved to Clerk last week.", "Screening moves
# to Dow Jones Risk & Compliance from January.": which tool or
# name (a product name of two capitalised words too), where a thing is, where a job went
_TOOL_LINE = re.compile(r"^(?:(?:from|since|starting)\s+(?:this|next|last)\s+\w+,?\s+)?(?:the\s+|our\s+)?[\w-]+(?:\s+[\w-]+){0,2}\s+(?:(?:is|are)\s+(?:called|named)\s+\S+|"
                        r"(?:runs?\s+on|(?:runs?|go(?:es)?(?:\s+out)?|(?:is|are)\s+(?:done|built|deployed|tested|handled|sent))\s+(?:with|via|through|using))\s+"
                        r"(?:a\s+|an\s+|the\s+)?[\w.+-]+|(?:is|are|go(?:es)?\s+to)\s+(?-i:[A-Z][\w.+-]+(?:\s+[A-Z][\w.+-]+)?)(?:\s+now)?|"
                        r"(?:via|using)\s+(?:a\s+|an\s+|the\s+)?[\w.+-]+|"  # verbless: "releases via goreleaser"
                        r"(?:(?:is|are)\s+(?:now\s+)?on|(?:has\s+|have\s+|is\s+)?(?:moved|moves|moving|switched|switches|migrated|migrates)\s+"
                        r"(?:over\s+)?(?:to|onto))\s+(?-i:[A-Z][\w.+-]+(?:\s+(?:&\s+)?[A-Z][\w.+-]+){0,3})"
                        r"(?:\s+(?:now|last\s+(?:week|month)|yesterday|today|recently|(?:from|in|on|starting)\s+(?-i:[A-Z][a-z]+)))?)\W*$", re.I)


_SINCE = re.compile(r"^(?:from|since|starting)\s+(?:this|next|last)\s+\w+,?\s+", re.I)
_MOVED_TO = re.compile(r"\b(?:moved|moves|moving|switched|switches|migrated|migrates)\s+(?:over\s+)?(?:to|onto)\s", re.I)


def tool_line(msg: Message, sentence: str) -> list[Candidate]:
    """A short statement of which tool does a job or what a thing is called (see _TOOL_LINE)."""
    words = len(_SINCE.sub("", sentence).split())  # "From this week the Django app is on Hetzner": the when is no part of the line
    if (words > (10 if _MOVED_TO.search(sentence) else 8) or not _TOOL_LINE.match(sentence) or _TASK.search(sentence) or _CHATTER.match(sentence)
            or _SYMPTOM.search(sentence) or _CREDENTIAL.search(sentence) or _DEICTIC.match(sentence)):
        return []
    return [Candidate(_finish(sentence), "fact", "fact", 0.6, msg.uuid)]


def by_values(msg: Message, sentence: str) -> list[Candidate]:
    return stack_line(msg, sentence) or changed_value(msg, sentence) or tool_line(msg, sentence)


_COMMA = re.compile(r",\s*(?:and\s+)?")
_PRONOUN = re.compile(r"\b(?:we|i|you|they|he|she|it)\b", re.I)


def with_modifiers(sentence: str, read: list[tuple[str, list[Candidate]]]) -> list[Candidate]:
    """The candidates read clause by clause; when one clause alone said something and the others are
    short verbless modifiers of it ("we use Twilio SMS, the day before at 18:00"), the whole sentence."""
    found = [c for _, cands in read for c in cands]
    rest = [clause for clause, cands in read[1:] if not cands]  # after the first clause: a lead-in ("Oya, …") is no modifier
    if len(found) != 1 or not read[0][1] or not rest or any(len(c.split()) > 10 or _VERB_WORD.search(c) or _PRONOUN.search(c) for c in rest):
        return found
    return [replace(found[0], text=_finish(sentence))]


def tool_clauses(msg: Message, sentence: str) -> list[Candidate]:
    """A tool line per clause of a sentence no other rule read ("The orchestrator is Dagster, the warehouse is
    Snowflake, and …"); the whole sentence when the other clauses go on about it ("…is Burak, he approves …")."""
    parts = _COMMA.split(sentence)
    found = [c for part in parts if len(parts) > 1 for c in tool_line(msg, part[:1].upper() + part[1:])]
    if len(found) == 1 and all(tool_line(msg, p) or _GOES_ON.match(p) for p in parts):
        return [replace(found[0], text=_finish(sentence))]
    return found


_GOES_ON = re.compile(r"(?:he|she|they|it)\s+\w+", re.I)


# a list of what happened ("Results so far:", "Errors:", "TODO:") is no spec of the project
_LOG_HEADER = re.compile(r"\b(?:results?|so\s+far|status|progress|output|logs?|errors?|warnings?|traces?|todo|tasks?|questions?|"
                         r"steps?|issues?|problems?|failures?|changes|changelog|done|next|standup|stand-up|recap|agenda|retro|crash(?:es)?|bugs?)\b", re.I)


def listed(body: str) -> list[str]:
    """The items of a spec list the user wrote ("- horizon 8 weeks ahead", "- polars for features,
    pandas only at the model boundary"): two or more bullet lines, not under a results / todo
    header. Terse writers state a project's setup this way, without the verbs the sentence rules need."""
    items, header = [], ""
    for line in body.splitlines():
        if _BULLET.match(line) or _KEY_VALUE.match(line):
            items.append(_BULLET.sub("", line).strip().strip("*").strip())
        elif line.strip() and not items:
            header = line
    return items if len(items) >= 2 and not _LOG_HEADER.search(header) else []


_KEY_VALUE = re.compile(r"^\s*[a-z][\w -]{1,20}:\s+\S[^:]{0,60}$", re.I)  # "cache: redis 7"
_DEICTIC = re.compile(r"\b(?:those|these|them|this|that|it)\b", re.I)  # "keep those features": about the turn, not the project


def list_item(msg: Message, raw: str, sentence: str, items: list[str]) -> list[Candidate]:
    """``sentence`` (``raw`` without its lead-in) of a spec-list item that no other rule read, as a low-confidence fact."""
    if (not any(raw in item for item in items) or len(sentence.split()) < 3 or sentence.rstrip().endswith("?") or _DEICTIC.search(sentence)
            or _TASK.search(sentence) or _CHATTER.match(sentence) or _SYMPTOM.search(sentence) or _CREDENTIAL.search(sentence)
            or _TRANSIENT.search(sentence) or _BYE.search(sentence)):
        return []
    return [Candidate(_finish(sentence), "fact", "fact", 0.55, msg.uuid)]


# how people feel about the project, and the moment's status, are no memory: "marketing is unhappy", "the support folks
# keep moaning", "a build chain from hell", "lol"
_GRUMBLE = re.compile(r"\b(?:moan\w*|grumbl\w*|whin(?:e|es|ing)|complain\w*|(?:un)?happy|annoy\w*|frustrat\w*|upset|angry|"
                      r"boh|meh|be\s+patient|bear\s+with\s+me|forgive\s+me|sorry|tired|exhausted|sleepy|stressed|relieved|long\s+day|"
                      r"(?:just\s+)?had\s+(?:a\s+|my\s+)?(?:coffee|lunch|break|nap)|that\s+was\s+(?:quick|fast|easy|painless)|from\s+hell|nightmare|scared|worried|(?:zero|no)\s+drama|painful|lol|lmao|haha+|rofl|all\s+green|fingers\s+crossed|forced\s+our\s+hand|won\s+(?:that|the)\s+argument|[a-z]*(?:o{3,}|h{3,}|e{3,}|s{3,})[a-z]*)\b", re.I)  # "sooo", "ohhh"
# a choice still open ("we must choose how terminals talk to the API") is not yet a decision or a fact
_UNDECIDED = re.compile(r"\b(?:we|i)\s+(?:must|need\s+to|have\s+to|should|want\s+to|gotta)\s+(?:choose|decide|pick|figure\s+out|"
                        r"think\s+about|work\s+out)\b", re.I)
# "Problem: when a customer removes the gift wrap, the line stays": a report of what goes wrong, kept only in its bug fix
_REPORT = re.compile(r"^\W*(?:(?:the\s+|one\s+|a\s+)?(?:strange|weird|odd|funny|new)?\s*(?:problem|issue|bug|symptom|thing))\s*:", re.I)
# a musing, not a durable statement: a remark on what was just seen ("huh, z2m is on 1.41 already, didn't know",
# "interesting that the plan still uses 200 partitions"), an idea for someday ("maybe we look at X at some point, no rush")
_MUSING = re.compile(r"^\W*(?:huh|hm+|interesting(?:ly)?|funny|weird|odd|strange|surprising(?:ly)?|(?:kinda\s+|a\s+bit\s+)?surprised)\b(?!\s*:)|"
                     r"^\W*(?:maybe|perhaps)\s+(?:we|i)\b|\b(?:at\s+some\s+point|some\s+day|someday|one\s+day(?!\s+(?:before|after|ahead|earlier|later|prior|of|per|in\s+advance)\b)|no\s+rush)\b|"
                     r"\b(?:didn'?t|did\s+not)\s+know\b|\bi\s+wonder\b|,\s*whatever\W*$", re.I)
# ("one day before the appointment" is a duration, not "one day we …")
# "No exceptions." after a rule: it stresses the sentence before, it says nothing of its own
_EMPHASIS = re.compile(r"^\W*(?:no\s+exceptions?|no\s+excuses|always|never|period|full\s+stop|non-negotiable|mandatory)\W*$", re.I)
_GRUMBLE_PARTS = re.compile(r"(?:,|;|(?<=[.!?])|\s+but|\s+and)\s+", re.I)


# a password / key value: letters and digits mixed, 8+ characters, no path or dotted name ("tq-8841-walnut-Fog")
_SECRET_LIKE = re.compile(r"(?<![\w./-])(?=[\w+=-]*\d)(?=[\w+=-]*[A-Za-z])[\w+=-]{8,}(?![\w./-])")
_CONTRACTED = re.compile(r"(?<=\w)'s\b")  # "that's the policy" is "that": about the turn


# a retraction alone ("the retention period is no longer five years", "we are no longer using X") states only the old
# value, under a negation: the new one comes in its own sentence, and a memory of this one would read as the old fact
_RETRACTION = re.compile(r"^[^,;]*\bno\s+longer\b(?![^,;]*\b(?:instead|now|but|replaced|rather)\b)[^,;]*$", re.I)


def durable(cand: Candidate) -> Candidate | None:
    """``cand`` without the clauses that say how someone feels; None when nothing specific is left,
    the choice it states is still open or it reports a problem. Explicit requests and bug fixes stay as written."""
    if cand.capture_kind != "explicit" and _CREDENTIAL.search(cand.text) and _SECRET_LIKE.search(cand.text):
        if cand.capture_kind != "bugfix":  # a credential word beside a token that looks like its value: never stored
            return None
        cand = replace(cand, text=_SECRET_LIKE.sub("[REDACTED]", cand.text))  # a bug fix keeps its story, not the value
    if cand.capture_kind in ("explicit", "bugfix"):
        return cand
    if cand.capture_kind != "decision" and (_UNDECIDED.search(cand.text) or _MUSING.search(cand.text) or _REPORT.match(cand.text) or asides.is_intro(cand.text)):
        return None
    if _RETRACTION.search(cand.text) or _EMPHASIS.match(cand.text):
        return None
    if cand.replaces is None and cand.capture_kind in ("fact", "preference"):
        cand = replace(cand, replaces=replaced_word(cand.text))  # "we use pnpm now, npm was too slow"
    cand = _without_reason(cand)
    text = asides.without_team_clause(asides.without_reason_clause(asides.without_person_event(cand.text)))
    cand = replace(cand, text=text) if text != cand.text else cand
    if not _GRUMBLE.search(cand.text):
        return cand
    keep = [p.rstrip(".!") for p in _GRUMBLE_PARTS.split(cand.text.rstrip(".!")) if p.strip() and not _GRUMBLE.search(p)
            and not _DEICTIC.match(_CONTRACTED.sub("", p))]
    text = ", ".join(keep)
    if len(text.split()) < 3 or not (_SPECIFIC.search(text) or cand.kind != "fact") or _DEICTIC.match(_CONTRACTED.sub("", text)):
        return None
    return replace(cand, text=_finish(text[:1].upper() + text[1:]))


# a reason glued to what is true ("… because netlify's bandwidth pricing scared me", ", retina screens looked crunchy otherwise"):
# the memory keeps the fact, its source message keeps the why
_REASON = re.compile(r"\s*\((?:[^()]*\s)?(?:because|since|as|otherwise|anyway)\b[^()]*\)\W*$|"
                     r"(?:,\s*|\s+)(?:because|cause|cuz|coz|bc)\s+\S.*$|,\s*(?:[^,(]{3,60}\s+)?(?:otherwise|anyway)\W*$|"
                     r",\s*(?:it|that|this)(?:\s+is|'s|\s+was)\s+(?:much\s+|way\s+|a\s+lot\s+)?(?:cheaper|faster|easier|simpler|better|nicer|"
                     r"safer|smaller|lighter|more\s+\w+|less\s+\w+)\b.*$|,\s*(?:the\s+)?[\w.+-]+\s+(?:was|were)\s+too\s+\w+\W*$", re.I)


def _without_reason(cand: Candidate) -> Candidate:
    """``cand`` without a trailing reason that names nothing specific (one that does, "because everybody
    pays with iDEAL", is a fact of its own and stays)."""
    m = _REASON.search(cand.text.rstrip(".!"))
    head = cand.text[: m.start()].rstrip(" ,;") if m and not _SPECIFIC.search(m.group(0)) else ""
    return replace(cand, text=_finish(head)) if len(head.split()) >= 3 else cand


# what a statement says is gone: "renamed master to main", "we dropped Redis", "npm was too slow", "no more jest"
_GONE = re.compile(r"\brenam\w*\s+(?:the\s+)?(?P<a>[\w.+-]+)\s+(?:to|as)\s+\S|"
                   r"\b(?:dropped|ditched|retired|removed|killed|got\s+rid\s+of|moved\s+(?:off|away\s+from)|got\s+off)\s+(?:the\s+|our\s+)?(?P<b>[\w.+-]+)|"
                   r"\bno\s+more\s+(?P<c>[\w.+-]+)|\b(?:stop(?:ped)?|quit)\s+(?:with|using)\s+(?:the\s+|our\s+)?(?P<f>[\w.+-]+)|"
                   r"\bnot\s+using\s+any\s?more\s+(?P<h>[\w.+-]+)|\bnot\s+any\s?more\s+(?P<o>[\w.+-]+)|"
                   r"\b(?:don'?t|do\s+not)\s+use\s+(?P<p>[\w.+-]+)\s+any\s?more\b|(?P<q>[\w.+-]+)\s+(?:is|was|got|has\s+been)\s+replaced\s+(?:with|by)\b|\bno\s+longer\s+(?:using|use|on|with)\s+(?:the\s+|our\s+)?(?P<n>[\w.+-]+)|\b(?:we|i)\s+(?:leave|left|abandon(?:ed)?)\s+(?:the\s+|our\s+)?(?P<i>[\w.+-]+)|"
                   r"(?:^|[,;:]\s*)(?!(?:we|i|you|they|he|she|it)\b)(?P<k>[\w.+-]+)\s+(?:dropped|removed|retired|ditched)\b|"
                   r"\b(?P<j>(?-i:[A-Z][a-z]+))\s+left\s+(?:the\s+)?(?:company|team|project)\b|"
                   r"\b(?P<g>[\w.+-]+)\s+(?:to|->|→)\s+[\w.+-]+\s+(?:move|migration|switch|swap|cutover)\b|\bnot\s+(?!using\b)(?P<d>[\w.+-]+)\s+any\s?more\b|"
                   r"(?:^|[,;]\s*|\bsince\s+|\bbecause\s+|\bbc\s+)(?:the\s+|our\s+)?(?P<e>[\w.+-]+)(?:\s+(?:wrapper|layer|setup|thing|service|stuff))?\s+(?:was|is|were|got)\s+"
                   r"(?:too\s+\w+|gone|dead|deprecated|retired|removed)\b|"
                   # a choice closed by the product it rules out: "Route 53 for DNS, AWS WAF on the ALB; no Cloudflare."
                   r"\S\s*[;,]\s*(?:and\s+)?no\s+(?P<l>(?-i:[A-Z][a-z][\w.+-]*))\s*[.!]?$|"
                   r"(?:^|[,;]\s*)(?P<m>[\w.+-]+)\s+(?:is|are)\s+out\b(?=\s*[,;.]|\s*$)|"  # "Jest is out, Vitest is in"
                   # "Bugsnag replaces Sentry", "redis -> valkey" (names, not numbers: "8080 -> 10000" is a value)
                   r"\b[\w.+-]+\s+(?:now\s+)?replaces\s+(?:the\s+|our\s+)?(?P<r>[\w.+-]+)|"
                   r"(?:^|[\s,;:(])(?P<s>[a-z][\w.+-]*)\s*(?:->|→|=>)\s*[a-z][\w.+-]*", re.I)
_NOT_OLD = {"the", "a", "an", "it", "this", "that", "we", "our", "my", "them", "all", "everything", "one", "old", "thing", "stuff",
            "support", "i", "you", "he", "she", "they", "there", "here", "which", "what"}


def replaced_word(sentence: str) -> str | None:
    """The name a change statement says is gone ("from wandb to mlflow" → wandb, "we dropped Redis" → Redis), or None."""
    for rx in (_FROM_TO, _GONE):
        m = rx.search(sentence)
        word = next((g for g in m.groups() if g), None) if m else None
        if word and word.lower().strip(".") not in _NOT_OLD and len(word) >= 2:
            return word.strip(".")
    return None


# "…, can you set that up?": a request tacked on a statement; "… for now": the current value, until it changes
_ASK_TAIL = re.compile(r"[,;]\s*(?:so\s+|and\s+)?(?:can|could|would|will)\s+you\s+(?:please\s+)?(?!tell|explain|confirm|check\s+if|see\s+if)"
                       r"[a-z][^,;?]*\?\s*$", re.I)
_FOR_NOW = re.compile(r",?\s+(?:for\s+now|for\s+the\s+time\s+being)(?=\W*$)", re.I)
_ASKS = ("should", "would", "could", "can", "do", "does", "is", "are")


def without_ask_tail(sentence: str) -> str:
    """``sentence`` without a request tacked on a decision or convention ("We're replacing ESLint with
    Biome, can you set that up?" states the decision) and without a closing "for now" ("CI is GitHub
    Actions for now" is the current value). A fact with a request stays a request (it may hand a value
    over: "the admin login is admin / x9, can you put it in the seed?"), a real question stays one."""
    m = _ASK_TAIL.search(sentence)
    head = sentence[: m.start()].rstrip() if m else sentence
    if m and (len(head.split()) < 4 or _SECRET_LIKE.search(sentence) or not (_DECISION.search(head) or _PREF.search(head))
              or _FACT_QUESTION.match(head + "?") or head.lower().startswith(_ASKS)):
        return sentence
    cut = _FOR_NOW.search(head)
    if cut and len(head[: cut.start()].split()) >= 3 and not _TRANSIENT.search(head[: cut.start()]):
        head = head[: cut.start()]
    return head if m or cut else sentence


def unread_halves(msg: Message, sentence: str, found: list[Candidate]) -> list[Candidate]:
    """The broad net over each ";" half that no rule read when the other half said something ("Everything
    lives in the otter_prod catalog; the cluster runtime is 14.3 LTS": the runtime is a fact, the catalog too)."""
    halves = [h.strip() for h in sentence.split(";") if h.strip()]
    said = " ".join(c.text.lower() for c in found)
    return [c for h in halves if len(halves) > 1 and h.lower().rstrip(".") not in said
            for c in statement(msg, h[:1].upper() + h[1:])]


def durable_once(found: list[Candidate]) -> list[Candidate]:
    """Each candidate through :func:`.shapes.durable` (what a memory leaves out), once per text."""
    seen, unique = set(), []
    for c in filter(None, map(durable, found)):
        if c.text.lower() not in seen:
            seen.add(c.text.lower())
            unique.append(c)
    return unique
