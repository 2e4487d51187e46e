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
from dataclasses import dataclass, replace

from . import asides, slots
from .facts import _CONTRACTION, _subject, fact_of
from .transcript import Message

MAX_SENTENCE = 400


@dataclass
class Candidate:
    """A memory proposed by an extraction rule, with its kind and confidence."""
    text: str
    kind: str  # the memory kind: fact | preference | decision | note
    capture_kind: str  # decision | preference | bugfix | fact | explicit
    confidence: float
    source_message: str
    entity: str | None = None
    replaces: str | None = None  # "from wandb to mlflow", "instead of RQ": the current memory naming it is superseded
    supersedes: str | None = None  # the id of the memory this one updates, when capture already chose it (:mod:`.split`)


_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[^\n]*\n.*?^[ \t]*\1[ \t]*$", re.M | re.S)
_TAGS = re.compile(r"<(system-reminder|cavemem-context|thinking|private)\b[^>]*>.*?</\1\s*>", re.S | re.I)
_REMEMBER = re.compile(r"<remember(?:\s[^>]*)?>(.*?)</remember\s*>", re.S | re.I)
_SPLIT = re.compile(r"(?<=[.!;?])\s+(?=[A-Z`*\"'(])|(?<=[.!?])\s+(?=[a-z])|\n+")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)]|>(?:\s*\*\*[\w .-]{1,30}\*\*:?)?|[\u2190-\u21ff\u2600-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff]+\ufe0f?)\s+")  # "> **sam** …": a pasted chat line
_EXPLICIT = re.compile(r"^\s*(?:please\s+)?(?:remember\s*:|remember\s+(?:that\s+)?(?=\S)|note\s+to\s+self\s*:)\s*", re.I)

# Classes of phrasing, not instances: a normative adverb or modal ("always", "never", "every X must"),
# a named convention ("that's our house style"), or a first-person preference.
_DONT_VERBS = (r"use|run|commit|push|add|write|put|merge|deploy|touch|edit|change|import|call|log|store|hard-?code|mock|"
               r"skip|bump|install|rename|delete|remove|create|force|rebase|squash|expose|print|return|catch|swallow|"
               r"suggest|propose|recommend|introduce|bring\s+in")
_PREF = re.compile(
    r"\b(?:i\s+(?:always\s+|really\s+|much\s+)?prefer|we\s+(?:always\s+|generally\s+)?prefer|i'd\s+(?:rather|prefer)|"
    r"(?:my|our|the\s+team'?s)\s+preference\s+is|(?:should|must)\s+(?:always|never)|"
    r"(?:^|please\s+|you\s+|[,;]\s*)(?:always|never)\s+[a-z]+|(?:,|(?<=\w))\s+always\s*[.!]?$|don't\s+ever|do\s+not\s+ever|"
    r"i\s+(?:really\s+)?(?:hate|love|dislike|can'?t\s+stand)\s+\w+|\bkeep\s+it\s+[\w-]+$|"
    r"^[\w#+.-]+(?:\s+[\w#+.-]+){0,2}\s+over\s+(?!the\s|a\s|time\b|there\b|here\b)[\w#+.-]+|"
    r"(?:^|please\s+)(?:don'?t|do\s+not|(?<=please\s)not)\s+(?:just\s+)?(?:" + _DONT_VERBS + r")|\bdon'?t\s+just\s+[a-z]+|from\s+now\s+on|going\s+forward|"
    r"(?:our|the)\s+(?:convention|house\s+style|style\s+rule|rule|policy|standard)\s+(?:is|here\s+is|says)|"
    r"(?:convention|house\s+style|style\s+rule|rule\s+of\s+thumb)\s*:|"
    r"(?:that'?s|that\s+is|it'?s|this\s+is)\s+(?:our|the)\s+(?:house\s+style|style|convention|rule|policy|standard|norm)|"
    r"(?:every|each|all|any)\s+[\w-]+(?:\s+[\w-]+)?\s+(?:must|should|needs?|has\s+to|have\s+to)\b|"
    r"\bmust\s+(?:not\s+)?(?:be|go|stay|run|use|happen|come|live|have|get|pass|never|always|support|handle|accept|reject|show|"
    r"send|keep|include|follow|match|respect|return|work|speak|talk|display|load|respond|fit)\b|\b(?:has|have|needs?)\s+to\s+be\s+[\w-]+ed\b|"
    r"we\s+(?:always|never)|no\s+more\s+\w+|(?:is|are|be|stay|stays)\s+(?:always|never)|"
    r"(?:ping|ask|tell|check\s+with)\s+me\s+(?:before|first)|(?:house\s+)?rules?(?:\s+for\s+(?:this|the|our)\s+[\w-]+)?\s*:|"
    r"\bno\s+[\w.-]+(?:\s+[\w.-]+)?\s+(?:please|anywhere|ever|by\s+hand)|(?:^|(?<=[,;.])|(?<=[,;.]\s))no\s+[\w#+.-]+(?:[ \t]+[\w#+.-]+){0,3}[ \t]*(?:[.!](?=\s)|[.!]?$)|"
    r"^(?:please\s+)?(?:use|pick|keep)\s+\S+.*?(?:,\s*not|\binstead\s+of|\brather\s+than)|^[\w.+#-]+,?\s+not\s+[\w.+#-]+\s*[.!]?$|"

    # a routine ("before every commit", "after each deploy"), an exclusive channel ("only through vcpkg",
    # "Polaris only"), an obligation ("mandatory", "required by law")
    r"\b(?:before|after)\s+(?:every|each|any)\s+[\w-]+|\b(?:only|exclusively)\s+(?:through|via|from|with|by)\s+[\w.-]+|"
    r"^[\w.+#-]+(?:\s+[\w.+#-]+){0,2}\s+only\s*(?:[,.;]|$)|\b(?:is|are)\s+(?:mandatory|compulsory|required\s+by)\b|"
    r"we\s+use\s+[\w.-]+,\s+(?:never|not)\s+[\w.-]+|\b(?:is|are)\s+(?:not\s+allowed|forbidden|banned|not\s+permitted)\b|"
    # "X, not with println", "answers always in Thai", "must verify …", "hard limit", "prefix everything with sari_"
    r",\s+not\s+(?:with|via|through|in|as|by)\s+[\w.+#-]+|\b[a-z]{2,}\s+always\s+(?:in|on|with|via|through|as|to|from|at|by)\b|\bmust\s+(?:not\s+)?[a-z]{3,}\b|"
    r"\b(?:hard|strict)\s+limit\b|^(?:and\s+)?(?:prefix|suffix|name|tag|format|log|store)\s+(?:everything|all\s+\w+|every\s+\w+|each\s+\w+)\b|"
    r"\b(?:is|are)\s+for\s+[\w -]{2,30}\s+only\b|^no\s+[^\s,]+(?:\s+[^\s,]+){0,5},?\s+(?:ever|please|anywhere)\s*[.!]?$|"
    r"\b(?:is|are)\s+(?:used|run|enabled|allowed|on)\s+only\s+(?:in|on|for)\s+\w+|i\s+(?:don't|do\s+not)\s+want|we\s+(?:don't|do\s+not)\s+(?:use|want|allow))(?=\W|$)", re.I | re.M)
# After facts: a plain first-person statement of practice ("we use goose to apply them", "we support the
# last 2 versions of safari") or a topic line ("errors: anyhow in the binary, thiserror in the library").
_PRACTICE = re.compile(r"\b(?:we|i)\s+(?:(?:now|also|still|only)\s+){0,2}(?:use|support|ingest|collect|import|export|consume|publish|target|ship|deploy|host|track|run|build|test|write|keep|store|follow|squash|tag|"
                       r"version|apply|release|invoice|bill|sign|lint|format|review|merge|rebase|send|call|handle|generate|render|"
                       r"process|schedule|sync|fetch|cache|serve|encrypt|hash|validate|monitor|back\s+up)\s+(?!it\b|this\b|that\b|them\b)\S+[^.?!]{6,}|"
                       r"\b(?:we|i)\s+(?:are\s+|'re\s+|am\s+)?(?:using|hosting|running|deploying|targeting|shipping|storing|serving|sending)\s+"
                       r"(?!it\b|this\b|that\b|them\b)\S+[^.?!]{6,}", re.I)
_TOPIC = re.compile(r"^(?:for\s+)?(?P<topic>[a-z][\w .-]{1,24}?)\s*:\s+(?P<rest>\S.{7,})$", re.I)
_NOT_TOPIC = re.compile(r"\b(?:error|warning|exception|traceback|fatal|info|debug|note|fyi|q|question|update|edit|ps|re|also|"
                        r"todo|step|output|log|result|reason|answer|example|e\.g|i\.e|https?|update|problem|issue|bug|symptom|thing|"
                        r"yesterday|today|tomorrow|blockers?|wip|done|next)$|error$", re.I)
_FROM_TO = re.compile(r"\b(?:switch|mov|migrat|swap|chang|replac|go)\w*\s+(?:[\w-]+\s+){0,3}?from\s+(?P<old>[\w.+-]+)\s+to\s+\S"
                      r"|\binstead\s+of\s+(?P<old2>[\w.+-]+)|\breplac(?:e|es|ed|ing)\s+(?P<old3>[\w.+-]+)\s+with\s+\S", re.I)
_DVERB = (r"(?:go\s+(?:with|for)|use|adopt|switch\s+(?:over\s+)?to|move\s+(?:over\s+)?to|migrate\s+to|standardi[sz]e\s+on|"
          r"stick\s+with|keep|stay\s+(?:on|with)|pick|choose|settle\s+on|drop|replace|retire|ditch|deprecate)")
_DING = (r"(?:going\s+with|using|adopting|switching\s+(?:over\s+)?to|moving\s+(?:over\s+)?to|migrating\s+to|standardi[sz]ing\s+on|"
         r"sticking\s+with|keeping|staying\s+(?:on|with)|dropping|replacing|retiring|ditching|deprecating)")
_DECISION = re.compile(
    r"\b(?:let'?s\s+(?:just\s+)?" + _DVERB + r"|(?:we(?:'ll|\s+will|\s+should|'re\s+going\s+to|\s+are\s+going\s+to)|i'd|i\s+would)\s+(?:just\s+)?"
    + _DVERB + r"|(?:we'?re|we\s+are)\s+(?:now\s+)?" + _DING + r"|"
    r"(?:i've|we've|i\s+have|we\s+have)\s+decided|(?:i|we)\s+(?:wanna|want\s+to|would\s+like\s+to|'d\s+like\s+to)\s+(?:use|go\s+with|switch\s+to|move\s+to)\b|(?:we|i)\s+decided|decision\s*:|"
    r"go\s+with\s+option|option\s+[a-z0-9]\s+it\s+is|agreed\s*[,:]\s+\w+|(?:we|i)\s+(?:settled|agreed)\s+on|"
    r"(?:we|i)\s+(?:chose|picked|went\s+with|standardi[sz]ed\s+on|adopted|switched\s+to|migrated\s+to)|"
    r"(?:we|i)\s+(?:(?:just|finally|already)\s+)?(?:switched|migrated|replaced|swapped|renamed|dropped|ditched|retired|moved\s+(?:off|away\s+from))\b|"
    r"^(?!(?:ok|okay|fine|good|great|sounds|alright|right|cool|thanks|and|but|so|the|that|this|first|second|one)\b)[\w.+-]+(?:\s+[\w.+-]+){0,3}\s+then\s*[.!]?$|"
    # the present for the past, as many non-native writers put it: "we go with local queue", "we decide to move …"
    r"(?:we|i)\s+(?:now\s+)?(?:go\s+(?:with|for)|decide\s+(?:to|on)|choose|pick)\b|"
    r"^(?:for\s+)?(?:the\s+|our\s+)?[\w-]+(?:\s+[\w-]+){0,3},?\s+use\s+(?-i:[A-Z])[\w.+-]*(?:\s+(?-i:[A-Z])[\w.+-]*)?\s*[.!]?$|"  # "the alert emails, use Postmark"
    r"^(?-i:[A-Z])[\w.+-]*\s+(?:now\s+)?replaces\s+(?-i:[A-Z])[\w.+-]*|"  # "Bugsnag replaces Sentry for …"
    r"^(?-i:[A-Z])[\w.+-]*\s+(?:is|was|got|has\s+been)\s+replaced\s+(?:with|by)\s+(?-i:[A-Z])[\w.+-]*|"  # "Sentry is replaced with Bugsnag"
    r"(?:we|i)\s+(?:now\s+)?(?:change|changed|switch|move|moved|migrate)\s+(?:the\s+|our\s+)?(?:[\w-]+\s+){0,2}?(?:to|onto)\s+(?-i:[A-Z])[\w.+-]*|"
    r"let'?s\s+(?:just\s+)?do\s+(?!it\b|this\b|that\b|so\b|the\s+same\b|some\b|a\b|an\b|one\b|both\b)[\w.+-]+|"
    r"\b[\w.+-]+\s+(?:to|->|→)\s+[\w.+-]+\s+(?:move|migration|switch|swap|cutover)\s+is\s+(?:done|complete|finished|live)|"
    r"(?:we|i)\s+(?:stop(?:ped)?|quit|leave|left|abandon(?:ed)?)\s+(?:with\s+|using\s+)?[\w.+-]+|"
    r"(?:we|i)\s+(?:are\s+|'re\s+|am\s+)?(?:not\s+using\s+any\s?more|no\s+longer\s+using)\b|"
    r"^[\w.+-]+(?:\s+[\w.+-]+){0,3}\s+instead\s+of\s+[\w.+-]+\s*[.!]?$|\b[\w.+-]+\s+(?:is|are)\s+out\s*[,;]\s*[\w.+-]+\s+(?:is|are)\s+in\b|"
    # "storage it is", "so restic cronjobs it is": a pick said as a settled fact
    r"(?:^|[,;]\s*|\bso\s+|\bthen\s+)(?!(?:that|this|how|what|there|here|which|who|it|the\s+way)\b)[\w.+-]+(?:\s+[\w.+-]+){0,2}\s+it\s+is(?=\s*(?:[,;.!]|then\b|$))|"
    r"(?:we'?re|we\s+are|let'?s|we'?ll|we\s+will|we|i)\s+(?:now\s+)?(?:switch|mov|migrat|swap|replac)\w*\s+(?:[\w-]+\s+){0,3}?from\s+[\w.+-]+\s+to)(?=\W|$)", re.I)
_ASSISTANT_DECISION = re.compile(r"^\W*decision\s*\W*:", re.I)
_CAUSE = re.compile(r"(?:^|(?<=[.!]\s))cause\s*:|\b(?:root\s+cause|the\s+cause\s+(?:was|is)|was\s+caused\s+by|is\s+caused\s+by|the\s+bug\s+(?:was|is)|"
                    r"the\s+problem\s+(?:was|is)|the\s+issue\s+(?:was|is))(?=\W|$)", re.I)
_FIX = re.compile(r"\b(?:fixed\s+(?:it\s+)?by|the\s+fix\s+(?:was|is)|fix\s*:|i\s+fixed|to\s+fix\s+(?:it|this)|fixed\s+(?:it|this)\s+by|"
                  r"i(?:'ve|\s+have)?\s+(?:rewrote|rewritten|made|wrote|put|split|built|set|swapped|kept|cut|"
                  r"(?!(?:checked|looked|tested|tried|searched|grepped|noticed|confirmed|verified|reproduced|traced|inspected|reviewed|"
                  r"asked|assumed|suspected|expected|hoped|wanted|needed|started|compared|measured|profiled|logged|printed|opened|"
                  r"listed|scanned|skimmed|glanced|counted|timed|followed|watched|parsed|used)\b)[a-z]{3,}ed)\b|"
                  r"the\s+solution\s+(?:was|is)|resolved\s+by)(?=\W|$)", re.I)
# (the tooling's nouns are no symptom: "error tracking is Sentry", "crash reports go to Bugsnag", "errors go to …")
_SYMPTOM = re.compile(r"\b(?:double[- ](?:book\w*|charg\w*|sen[dt]\w*|post\w*|pay\w*)|errors(?!\s+go\s+to\b)|"
                      r"error(?!\s+(?:tracking|reporting|reports?|monitoring|logs?|handling|pages?|budgets?)\b)|"
                      r"(?-i:[A-Z]\w*Error)|fail(?:s|ed|ing)?|crash(?:es|ed|ing)?(?!\s+report)|exception|traceback|broken|hangs?|"
                      r"timed\s*out|time\s*out(?!s?\s*(?:is|are|of|=|:|to|at|stays?|changed\s+from)\s*(?:now\s+)?\d)|401|403|404|500|502|503|segfault|panic|leak|oom(?:s|ing|ed)?|out\s+of\s+memory|blank|slow|"
                      r"falls?\s+through|double[- ]counts?|problem|flaky|wrong|stuck|freez\w*|flicker\w*|glitch\w*|bug|regress\w*|"
                      r"(?:doesn't|does\s+not|won't|can't|cannot|isn't)\s+(?:work|load|start|render|build|compile|connect)|not\s+working)\b", re.I)
_CREDENTIAL = re.compile(r"\b(?:pas{1,2}w(?:or|ro|o|r)?d|passwd|pwd|passphrase|secret|token|api[\s_-]?key|credentials?|creds|pw)\b|"
                         r"\b(?:secret|access|private|stripe|ssh|deploy)[\s_-]?key\b|\bkey\s*(?:is|:|=|for|hai|ist|es|è|jest|是)\s|\bkey\s+of\s+(?:the\s+)?[\w -]{2,30}?\s+(?:is|=|:)\s|://[^/\s:@]+:[^@\s]+@", re.I)
_OPTION_MARK = re.compile(r"(?:^|(?<=\s))(?:\*\*)?(?:option\s+)?\(?([A-D])(?:\)|\.|:|\*\*:?)(?:\*\*)?\s+(?=\S)", re.M)
_PICK = re.compile(r"^\W*(?:option\s+)?\(?([A-Da-d])\)?\s*(?:[.,:)!-](?:\s|$)|$)|^\W*([B-D])\s|\b(?:go(?:ing)?\s+with|pick(?:ing)?|choose|take|prefer)\s+"
                   r"(?:option\s+)?\(?([A-D])\)?(?=\W|$)|\boption\s+([A-Da-d])\b|(?:^|\s)([A-D])\s+it\s+is\b")
_CHATTER = re.compile(r"^\W*(?:let\s+me|i'll|i\s+will|now\s+(?:let|i)|next,?\s+i|okay|ok|great|done|perfect|sure|thanks|"
                      r"thank\s+you|hi|hello|hey|good\s+morning|running|checking|looking)\b", re.I)

_SCOPE = re.compile(r"\bfor\s+(?:the\s+)?(?P<scope>[a-z][\w -]{2,30}?)(?:\s*,|\s+(?:let'?s|we'?ll|we\s+will|we'?re|we\s+decided|i've))", re.I)
_SCOPE_AFTER = re.compile(r"\b(?:go\s+with|use|switch\s+to|stick\s+with)\s+[\w.-]+(?:\s+[\w.-]+)?\s+for\s+(?:the\s+)?(?P<scope>[a-z][\w -]{2,30}?)(?:[.,;]|$)", re.I)


def clean_text(text: str) -> str:
    """Conversation text without code blocks and injected or private tag spans."""
    return _TAGS.sub(" ", _FENCE.sub(" ", text))


# a lower-case piece that opens a clause of its own ("we don't use storyboards", "can you add …")
_OPENER = re.compile(r"(?:we|i|you|they|it|our|my|can|could|would|pls|please|what|how|why|where|when|which|is|are|do|does)\b"
                     r"(?!\s+(?:and|or|,))", re.I)


_BOLD = re.compile(r"\*\*|__(?=\w)|(?<=\w)__")  # "**Local DB:** Room": markdown emphasis is no part of what is said
_KEY_START = re.compile(r"[a-z][\w .-]{1,24}:\s+\S")  # "… dhaba. stack: next.js 14": a key line starts anew
_EMOTICON = re.compile(r"(?<=\s)[:;]-?[()DPp/|](?=\s|$)|(?<=\s)\^[_-]?\^(?=\s|$)")  # ":(", ";)", "^^"
_LAUGH = re.compile(r"\b(?:lol|lmao|haha\w*|rofl|xd)\W*$", re.I)  # "… its called botfrog lol." ends its sentence


def sentences(text: str) -> list[str]:
    """Sentences of ``text``; a lower-case piece after a full sentence on the same line continues it
    ("… main branch. no kubectl apply by hand"), after a one-to-three-word interjection ("ugh
    safari.") or on a line of its own it starts anew."""
    pieces: list[str] = []
    for line in _EMOTICON.sub("\n", text).splitlines():  # a line is never continued by the next: one fact per line
        first = True
        for part in _SPLIT.split(line):
            part = _BOLD.sub("", _BULLET.sub("", part)).strip().strip("*").strip()
            if (part and not first and part[0].islower() and pieces and len(pieces[-1].split()) > 3 and pieces[-1][-1:] in ".!"
                    and not _OPENER.match(part) and not _LAUGH.search(pieces[-1]) and not _KEY_START.match(part)
                    and not part.endswith(":") and not _CREDENTIAL.search(part)):  # "… use Postmark. the server token is …": apart
                pieces[-1] += " " + part
            elif part:
                pieces.append(part)
                first = False
    return [p for p in pieces if 12 <= len(p) <= MAX_SENTENCE or (len(p) >= 7 and _TERSE_VALUE.search(p))]


_TERSE_VALUE = re.compile(r"\b[a-z][\w.+#-]+\s+v?\d+(?:\.\d+)+\b", re.I)  # "godot 4.2", "node 20.1": short, still a fact


_FOR = re.compile(r"\bfor\s+(?:the\s+|our\s+)?(?P<scope>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s*(?=[,.;]|$)", re.I)
_LEAD = re.compile(r"^\W*(?:(?:(?:kindly|please|just)\s+note(?:\s+that)?|note\s+that|just\s+so\s+you\s+know|"
                   r"(?:small|some|a\s+few|few|two|three|big|quick)\s+(?:changes|updates|things|news|additions?)(?:\s+to\s+[\w\s]{2,20}?)?(?=\s*:)|"
                   r"(?:(?:quick|some|brief|little|a\s+bit\s+of)\s+)?(?:context|background)(?:\s+first)?(?=\s*:)|(?:big|good|bad|great|some|quick)\s+news|quick\s+one|heads\s+up|changed\s+my\s+mind(?:\s+(?:about|on))?|on\s+second\s+thoughts?|yep|yup|good\s+(?:morning|afternoon|evening)|morning|hello|lol|lmao|haha|fyi|btw|also|and|so|ok|okay|yeah|yes|hmm|well|oh|yo|hey|hi|nice|cool|great|"
                   r"perfect|ugh|actually|" + asides.THANKS + r")\b\W*)+", re.I)
_ASK = re.compile(r"^(?:can|could|would)\s+you\s+(?:please\s+)?(?:check|look\s+(?:at|into)|see|find\s+out|figure\s+out)\s+(?:why\s+)?", re.I)
_CLAUSE = re.compile(r"\s*(?:;|,\s*and\s+|\s+and\s+(?=(?:we|the|our|its?|staging|prod\w*|processed|raw)\b)|,\s*so\s+|,\s*(?=the\s))\s*", re.I)


def _decision_entity(sentence: str) -> str | None:
    m = _SCOPE.search(sentence) or _FOR.search(sentence) or _SCOPE_AFTER.search(sentence)
    return "decision:" + _subject(m.group("scope")) if m and _subject(m.group("scope")) else None


def strip_lead(text: str) -> str:
    """Without conversational lead-ins ("fyi", "quick one:", "also") that carry no content."""
    out = _LEAD.sub("", text).strip()
    return out[:1].upper() + out[1:] if out else out


def _finish(text: str) -> str:
    text = " ".join(text.split())
    return text if text[-1:] in ".!。！" else text + "."


def from_user(msg: Message, body: str, options: dict[str, str] | None = None) -> list[Candidate]:
    lead = _EXPLICIT.match(body)
    if lead:
        text = body[lead.end():].strip()
        return [Candidate(_finish(text), "note", "explicit", 0.95, msg.uuid)] if len(text) >= 8 else []
    from .dialogue import picked

    out = []
    pick = picked(body, options or {})
    if pick is not None:  # the pick right after the assistant laid out options is the decision
        return [replace(pick, source_message=msg.uuid)]
    from . import shapes

    items = shapes.listed(body)
    gone = None  # "We are no longer using ComplyAdvantage. Screening moves to Dow Jones …": what the next statement replaces
    for raw in sentences(body):
        if _CREDENTIAL.search(raw):
            continue
        raw = shapes.without_ask_tail(raw)
        if raw.endswith(("?", ":")):  # "We ingest three sources:" heads a list
            continue
        s = shapes.without_task_tail(strip_lead(raw))
        if shapes._RETRACTION.search(s) and shapes.replaced_word(s):
            gone = shapes.replaced_word(s)  # a retraction alone is no memory (shapes.durable); the statement after it is
            continue
        n = len(out)
        if _DECISION.search(s):
            out.append(Candidate(_finish(s), "decision", "decision", 0.8, msg.uuid, _decision_entity(s), shapes.replaced_word(s)))
        elif _PREF.search(s):
            out.append(Candidate(_finish(s), "preference", "preference", 0.8, msg.uuid))
        else:
            found = shapes.with_modifiers(s, [(clause, facts_in(msg, clause, 0.7) or _practice(msg, strip_lead(clause)))
                                              for clause in _CLAUSE.split(s)])
            found = found + shapes.unread_halves(msg, s, found) if found else found
            out.extend(found or _practice(msg, s) or shapes.by_values(msg, s) or statement(msg, s) or shapes.list_item(msg, raw, s, items)
                       or shapes.tool_clauses(msg, s))
        if gone and len(out) > n:
            out[n], gone = replace(out[n], replaces=out[n].replaces or gone), None
    return out


# The broad net, last: a declarative sentence that names something specific (a number, path, host,
# identifier, hyphenated, snake_case ("otter_prod", "tenant_id") or CamelCase name) and is neither a task, a bug
# report nor chatter.
_SPECIFIC = re.compile(r"`[^`]+`|\d|://|\b[\w-]+/[\w./-]+|\b[a-z][\w-]*\.[a-z]{2,}\b|\b[A-Z]{2,}[A-Z0-9_]*\b|"
                       r"\b[a-z]+-[a-z0-9]+(?:-[a-z0-9]+)*\b|\b[a-z][a-z0-9]*_[a-z0-9_]+\b|\b[a-z]+[A-Z]\w*|\b[A-Z][a-z]+[A-Z]\w*")
_STATEMENT = re.compile(r"\b(?:is|are|go|goes|come|comes|live|lives|uses?|runs?|has|have|needs?|takes?|sits?|holds?|points?|"
                        r"lands?|stays?|belongs?|expects?|means?|sends?|keeps?|stores?|writes?|reads?|pulls?|pushes|syncs?|"
                        r"calls?|returns?|lasts?|expires?|refreshes|rotates?|renamed|moved|switched|migrated|"
                        # the copula or "use" of the other languages a sentence mixes in: Hindi "hai", Spanish "son",
                        # German "ist"/"geht", Italian "è", Portuguese "são", Polish "jest"; Chinese 是/叫/用 ("bucket 叫 yunpan-prod")
                        r"hai|hain|es|son|está|están|usamos|ist|sind|geht|läuft|laufen|è|sono|usiamo|é|são|usamos|jest|są|używamy)\b|"
                        r"[是叫用]", re.I)
_TASK = re.compile(r"^(?:please\s+|pls\s+)?(?:can|could|would|will)\s+you\b|^(?:please\s+|pls\s+)?(?:fix|add|make|run|check|look|"
                   r"update|change|remove|delete|write|create|show|tell|explain|help|try|find|open|install|implement|refactor|rename|"
                   r"move|copy|test|build|deploy|push|commit|merge|review|investigate|debug|scaffold|set|put|give|read|print|list|do|"
                   r"bump|revert|drop|start|stop|wire|hook|split|clean)\b(?!\s+(?:is|are|was|were|runs?|happens?|goes|takes)\b)|^i\s+\w+ed\b|^(?:i'll|i\s+will|we'll|let\s+me|let's)\b", re.I)


# a status of this moment, not a durable fact: "tests took 12s, that's fine for now", "56 passed", "build is green now"
_TRANSIENT = re.compile(r"\b(?:(?:build|ci|pipeline|tests?|checks?)\s+(?:is|are)\s+(?:green|red|passing|failing)\b|for\s+now|for\s+the\s+moment|at\s+the\s+moment|took\s+(?:about\s+)?\d|\d+\s+(?:passed|failed|skipped)\b|"
                        r"this\s+(?:morning|afternoon|evening)|tonight|\b(?:says|shows|reports|gives)\s+(?:a\s+|an\s+)?~?\d|(?:all|this|last)\s+(?:week|day|night|month)\b)", re.I)
_ROUGH = re.compile(r"\b(?:like|roughly|approximately|approx\.?|kinda|sort\s+of|more\s+or\s+less)\s+~?\d|(?<![\w~])~\s?\d", re.I)  # an estimate of the moment
_BYE = re.compile(r"\b(?:going\s+to\s+bed|bye|good\s*night|see\s+you|cya|thanks|thank\s+you|thx)\b", re.I)
# a question asking for a fact ("which export preset do we use?"), not for an opinion
_FACT_QUESTION = re.compile(r"^\W*(?!what\s+do\s+you\s+think|should\b|would\b|could\b|can\s+you)(?:which|what|where|when|"
                            r"how\s+(?:many|much|often|long)|is|are|do|does)\b[^?]*\?\s*$", re.I)


_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


def _word_count(sentence: str) -> int:
    """Words, counting two CJK characters as one (Chinese and Japanese put no spaces between words)."""
    return len(sentence.split()) + (len(_CJK.findall(sentence)) + 1) // 2


def _named_value(sentence: str) -> bool:
    """A version, port, host, path, region or size: what a fact in another language, or with no verb, still names."""
    return any(k.split(":")[0] in ("version", "port", "host", "path", "region", "size") for k in slots.values(sentence))


def statement(msg: Message, sentence: str, confidence: float = 0.5) -> list[Candidate]:
    """The broad net (see _SPECIFIC): a plain statement about the project, at low confidence."""
    flat = _CONTRACTION.sub(lambda m: m.group(1) + " is", sentence)
    if (_word_count(sentence) < (4 if slots.values(sentence) else 5) or _TASK.search(sentence) or _CHATTER.match(sentence) or _SYMPTOM.search(sentence)
            or _CREDENTIAL.search(sentence) or _CAUSE.search(sentence) or _FIX.search(sentence) or _BYE.search(sentence)
            or len(_OPTION_MARK.findall(sentence)) >= 2 or not _SPECIFIC.search(sentence) or not (_STATEMENT.search(flat) or _named_value(sentence))
            or _TRANSIENT.search(sentence) or asides.is_intro(sentence)):
        return []
    if _ROUGH.search(sentence):  # "mongo is overkill for like 200 quotes": the estimate goes, the rest is judged alone
        rest = ", ".join(p for p in sentence.rstrip(".!").split(", ") if not _ROUGH.search(p))
        return statement(msg, rest, confidence) if rest and rest != sentence.rstrip(".!") else []
    return [Candidate(_finish(sentence), "fact", "fact", confidence, msg.uuid)]


_FAILING = re.compile(r"\b(?:fails?|failed|failing|crash\w*|broken|flaky)\b", re.I)  # "One test fails: …" is a report


def _practice(msg: Message, sentence: str) -> list[Candidate]:
    """A topic line or a first-person statement of practice: a convention, scoped by its topic."""
    m = _TOPIC.match(sentence)
    if (m and not _NOT_TOPIC.search(m.group("topic")) and not _SYMPTOM.search(m.group("rest")) and not _FAILING.search(m.group("topic"))
            and not _TRANSIENT.search(m.group("rest"))):  # "tests pass: 148 passed in 3.2s" is a status
        entity = "decision:" + _subject(m.group("topic")) if _subject(m.group("topic")) else None
        return [Candidate(_finish(sentence), "preference", "preference", 0.7, msg.uuid, entity)]
    if _PRACTICE.search(sentence):
        return [Candidate(_finish(sentence), "preference", "preference", 0.7, msg.uuid)]
    return []


def facts_in(msg: Message, sentence: str, confidence: float) -> list[Candidate]:
    """One fact candidate per clause of ``sentence`` that states a port, host, path, version,
    command or schedule."""
    out = []
    for clause in _CLAUSE.split(sentence):
        clause = strip_lead(clause)
        fact = fact_of(clause) if len(clause) >= 12 else None
        if fact:
            out.append(Candidate(_finish(clause), "fact", "fact", confidence, msg.uuid, fact[0]))
    return out


# A diagnosis said as an explanation: "the crash happens because …", "the OOM comes from …", "orders are lost
# because …" — a cause only beside a symptom (in the sentence or in the user's problem) and a fix.
_BECAUSE = re.compile(r"\b(?:because|comes?\s+from|came\s+from|is\s+due\s+to|are\s+due\s+to|happens?\s+(?:when|because)|"
                      r"means\s+the\s+\w+\s+(?:was|is|has)|the\s+reason\s+(?:is|was)|"
                      # a consequence ("…, so the view dangles") or "the crash is Discord rejecting the embed"
                      r",\s+so\s+(?:the\s+|both\s+|every\s+|each\s+|all\s+)?\w+(?:\s+\w+)?\s+(?:\w+ed|\w+s|went|got|ran|never|is|are|was|were)|"
                      r"(?:crash|error|failure|bug|problem|timeout|leak|hang)\s+(?:is|was)\s+(?:\w+\s+){0,3}\w+ing)\b", re.I)
_FIX_NOW = re.compile(r"^\W*i\s+now\s+(?!see|think|know|get|understand|suspect)[a-z]+|^\W*now\s+(?:it|we|the\s+\w+)\s+(?!fails|crashes|breaks)\w+s\b", re.I)


# what goes wrong, said without a bug word: "frames are dropped", "orders are lost", "shows up twice", "the line stays"
_WRONG = re.compile(r"\b(?:dropp\w*|lost|los(?:e|es|ing)|missing|overrun\w*|duplicat\w*|twice|off\s+by|disappear\w*|stays?|"
                    r"never\s+(?:arrives?|appears?|gets?\s+sent|shows?)|invalid|refused|rejected|denied|mismatch\w*|stale|"
                    r"too\s+(?:slow|late|long|big)|(?:is|are)\s+(?:late|missing|empty|full)|fills?\s+up|impossible|teleport\w*|"
                    r"rubber[- ]band\w*|dangl\w*|use-after-free|overflow\w*|race|deadlock\w*|locked)\b", re.I)


def _cause_of(sents: list[str], symptom: str | None) -> str | None:
    """The sentence that says why the user's problem happens."""
    cause = next((s for s in sents if _CAUSE.search(s)), None)
    if cause is None:
        bad = [t for t in (symptom,) if t and (_SYMPTOM.search(t) or _WRONG.search(t))]
        cause = next((s for s in sents if _BECAUSE.search(s) and not s.endswith("?")
                      and (bad or _SYMPTOM.search(s) or _WRONG.search(s))), None)
    return cause


_LABEL = re.compile(r"^\W*(?:(?:root\s+)?cause|fix|solution|problem|issue|bug|symptom)\s*:\s*", re.I)  # the story says "Cause:" and "Fix:" itself


def _bugfix(msg: Message, sents: list[str], symptom: str | None) -> Candidate | None:
    cause = _cause_of(sents, symptom)
    fix = next((s for s in sents if (_FIX.search(s) or _FIX_NOW.search(s)) and s != cause), None)
    if cause is None or (fix is None and not _FIX.search(cause)):
        return None
    parts = []
    if symptom:
        core = asides.symptom_core(symptom)
        bare = _LABEL.sub("", core)
        parts.append("Symptom: " + _finish(core if bare == core else bare[:1].upper() + bare[1:]))
    parts.append("Cause: " + _finish(_LABEL.sub("", cause)))
    if fix:
        parts.append("Fix: " + _finish(_LABEL.sub("", fix)))
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


_HEDGE = re.compile(r"\b(?:probably|maybe|might|may|perhaps|i\s+think|i\s+guess|i\s+assume|seems?|looks?\s+like|likely|could|"
                    r"should|would|if|unless|instead\s+of|i'll|i\s+will|let\s+me|we\s+can|you\s+can|try)\b", re.I)
_ACK = re.compile(r"^\W*(?:ok(?:ay)?|yes|yep|yeah|yup|right|correct|exactly|great|perfect|good|nice|cool|thanks|thank\s+you|thx|ty|"
                  r"sounds\s+good|makes\s+sense|confirmed|true|that'?s\s+right|indeed)\b(?![^.!?\n]{0,40}\b(?:no|not|wrong|actually|but)\b)", re.I)


# the assistant reading tool output back ("I see the Gemfile moved to Rails 7.2.1", "The diff shows …"): data, not a statement
_OBSERVED = re.compile(r"^\W*(?:i\s+(?:can\s+)?(?:see|notice|noticed|found)|(?:the\s+)?(?:diff|log|logs|output|trace|git\s+log)\s+"
                       r"(?:shows?|says|suggests|indicates))\b", re.I)


def assistant_facts(msg: Message, body: str) -> list[Candidate]:
    """Plain, unhedged fact statements by the assistant ("Production runs PostgreSQL 15.6.") —
    kept only when they answer the user's question or the user's next words confirm them."""
    out = []
    for s in sentences(_REMEMBER.sub(" ", body)):
        if (_CHATTER.match(s) or s.endswith("?") or _HEDGE.search(s) or _OBSERVED.match(s) or _CREDENTIAL.search(s) or _CAUSE.search(s) or _FIX.search(s)
                or (_BECAUSE.search(s) and (_SYMPTOM.search(s) or _WRONG.search(s)))):
            continue  # a cause or fix belongs to its bug-fix memory, not a fact of its own
        out.extend(facts_in(msg, s, 0.6))
    return out


def extract(messages: list[Message], last_symptom: str | None = None) -> list[Candidate]:
    """Candidates from ``messages`` in order; the latest user problem statement is carried so a
    bug fix reads "symptom + cause + fix" in one memory, the options the assistant laid out so a
    bare pick stores its content, the question a short answer answers, and the assistant's fact
    statements and fixes until the user confirms them (:mod:`.dialogue`)."""
    from . import dialogue

    out: list[Candidate] = []
    symptom = last_symptom
    options: dict[str, str] = {}
    asked, pending = False, []  # the user's last message was a question; assistant facts awaiting a "yes"
    fact_asked = False
    question, last_fact, problem, offer, pick = None, None, None, None, None  # offer: the choice the assistant asked the user to make
    unread = None  # the user's last message, when no rule read anything in it
    for msg in messages:
        if not msg.text.strip():
            continue
        body = clean_text(msg.text)
        if msg.type == "user":
            if pending and dialogue.confirms(body):
                out.extend(pending)
                symptom = None if any(c.capture_kind == "bugfix" for c in pending) else symptom
            sym = next((s for s in sentences(body) if _SYMPTOM.search(s)), None)
            if sym:  # the problem as stated, without "hey, can you check why"
                symptom = _ASK.sub("", strip_lead(sym)).rstrip("?").strip() or sym
            pending = []
            problem = next(iter(sentences(body)), None)
            said = from_user(msg, body, options)
            fixed = dialogue.corrected(msg, body, last_fact, said)
            pick = None if fixed or said else dialogue.question_pick(msg, body, question) or dialogue.answer_pick(msg, body, offer)
            extra = fixed or pick
            offer = offer if dialogue.asks_back(body) else None  # "which one would you pick?" keeps it open
            said = [c for c in said if c.entity or c.kind != "fact"] if extra and extra.kind == "fact" else said  # no loose copy
            out.extend(said + ([extra] if extra else []))
            last_fact = next((c for c in reversed(said + [extra]) if c and c.kind == "fact"), last_fact)
            options = dialogue.options_of(body)  # the user laid out options: the assistant may weigh them first
            asked = body.rstrip().endswith("?")
            fact_asked = asked and bool(_FACT_QUESTION.match((sentences(body) or [body])[-1]))
            question = dialogue.alternatives(body) if asked else None
            unread = body if not (said or extra or asked) else None
        elif msg.type == "assistant":
            options = dialogue.options_of(body) or options
            offer = dialogue.offered(body) or offer
            again = dialogue.restated(msg, body, pick) if pick is not None else None
            if again:  # "OK: services now raise domain errors …" says what "the second one" picked
                out[out.index(pick)] = again
            out.extend([] if again else dialogue.understood(msg, body, unread))  # "Understood: …" says what the user meant
            pick, unread = None, None
            found = from_assistant(msg, body, symptom or problem)  # a diagnosis answers the user's last message
            if any(c.capture_kind == "bugfix" for c in found):
                symptom = None
            out.extend(found)
            facts = assistant_facts(msg, body)
            fix = None if found else dialogue.remedy(msg, body, symptom) or dialogue.proposal(msg, body)
            if fact_asked and not facts:  # an answer to the user's factual question, kept once the user agrees
                first = sentences(body)[:1]
                fix = fix or next(iter(statement(msg, first[0], 0.55)), None) if first else fix
            if asked:
                out.extend(facts)
            else:
                pending.extend(facts)
            pending.extend([fix] if fix else [])
    from .shapes import durable_once

    return durable_once(out)
