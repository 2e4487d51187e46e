"""Clauses that ride along with a memory but are not it: the reason given for a choice ("…, it is
cheaper for SMS in Egypt"), a person's coming or going ("Burak left the company, now …"), what
still works beside a symptom ("ios is fine") or a verdict on it ("…, impossible with truck"), and
sentences that only introduce the project or team ("Tenanto is SaaS for property managers").

Why a module of its own: each of these is a class of sentence part found on the tune sets as a
stored noise string; :mod:`.shapes` decides *whether* a sentence is durable, this decides which
of its parts the memory keeps (the source message keeps the rest).
"""

from __future__ import annotations

import re

from . import slots

# a clause opening on a subject of its own, not on a preposition or "we": "the customers don't read the SMS", "it is cheaper …"
_OWN_SUBJECT = re.compile(r"^(?!(?:we|i|you|us|for|to|with|in|on|at|by|from|so|and|but|or|if|when|because|like|not|no|never|"
                          r"always|only|except|nor|neither|even|also|please|pls|kindly)\b)"
                          r"(?:(?:the|our|my|their|most|all|many|some)\s+)?[\w-]+\s+\S", re.I)
# something a later reader could look up: a code span, a path, a dotted or snake_case name, CamelCase, a number with a unit
_NAMED = re.compile(r"`|\b[\w-]+/[\w./-]+|\b\w+\.\w{2,}\b|\b\w+_\w+\b|\b[a-z]+[A-Z]\w*|\b[A-Z][a-z]+[A-Z]\w*|\b[a-z]+-[a-z0-9]+\b")
# "api is laravel", "db = postgres": a short identity is a fact of its own, never the reason for the clause before
_IDENTITY = re.compile(r"^(?:the\s+)?[\w-]+(?:\s+[\w-]+)?\s+(?:is|are|=)\s+(?:a\s+|an\s+)?[\w.+-]+$", re.I)
_LOOKUP = re.compile(r"`|\b[\w-]+/[\w./-]+|\b\w+\.\w{2,}\b|\b\w+_\w+\b|\d")  # "SaaS" is a word, not a name
_CHOICE_WORDS = re.compile(r"\b(?:now|use|using|go|goes|with|instead|switch\w*|mov\w*|is\s+on|are\s+on|on)\b", re.I)
# what a reason says: a comparison, a habit or lack of one, growth, familiarity
_WHY = re.compile(r"\b(?:cheaper|faster|easier|simpler|better|worse|nicer|safer|smaller|lighter|slower|overkill|too\s+\w+|"
                  r"(?:more|less)\s+\w+|don't|doesn't|didn't|can't|cannot|won't|never|grown|grew|growing|doubled|tripled|"
                  r"knows?|knew|familiar|used\s+to|likes?|loves?|hates?|prefers?|"
                  # the same comparisons in the languages a sentence mixes in ("das ist halt billiger als Vercel")
                  r"billiger|günstiger|schneller|einfacher|besser|mejor|más|più|meglio|taniej|szybciej|lepiej|sasta|zyada)\b", re.I)
_STOP = {"the", "and", "for", "are", "our", "with", "from", "that", "this", "now", "not", "but", "all", "its", "was", "were",
         "has", "have", "had", "they", "them", "their", "very", "much", "more", "less", "too", "also", "just", "does", "don't"}


# thanks, goodbyes and cheers in any language, said before a comma or "!" (a lead-in of extract._LEAD): "grazie mille, …",
# "谢谢, …", "bis morgen, …", "shukriya bhai, …"; never "Super admin is …"
THANKS = (r"(?:thanks|thank\s+you|thx|ty|grazie(?:\s+mille)?|danke(?:\s+sch[öo]n)?|gracias|dzi[ęe]ki|dzi[ęe]kuj[ęe]|merci(?:\s+beaucoup)?|"
          r"obrigad[oa]|arigato|shukriya|dhanyavaad|te[şs]ekk[üu]rler|谢谢|多谢|감사합니다|고마워요?|bis\s+morgen|a\s+domani|"
          r"hasta\s+ma[ñn]ana|do\s+jutra|see\s+you(?:\s+tomorrow)?|bhai|yaar|perfetto|super|klappt|funziona|yay|phew|finally)"
          r"(?:\s+(?:bhai|yaar|bro|man|mate|dude|a\s+lot|so\s+much))?(?=\s*[,!.:;…])")


def _content(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z][a-z0-9_-]{2,}", text.lower()) if w not in _STOP}


def is_reason(clause: str, head: str) -> bool:
    """``clause`` (after ``head``) is the why, not the what: its own subject and verb, no value or name
    a reader could look up, not one word shared with what it follows."""
    clause = clause.strip().rstrip(".!")
    return (len(clause.split()) >= 3 and bool(_OWN_SUBJECT.match(clause)) and bool(_WHY.search(clause)) and not _IDENTITY.match(clause)
            and not slots.values(clause)
            and not _NAMED.search(clause) and not (_content(clause) & _content(head)) and not _CHOICE_WORDS.search(clause))


_TOP_COMMA = re.compile(r",\s+")


# "… is called scrape2.x.internal the old one is gone": the update says that already
_OLD_GONE = re.compile(r"(?:,\s*|\s+)(?:and\s+)?the\s+(?:old|previous)\s+(?:one|box|server|host|machine|instance|version|setup)\s+"
                       r"(?:is|was|got)\s+(?:gone|dead|retired|deleted|decommissioned|off|shut\s+down)\W*$", re.I)


def without_reason_clause(text: str) -> str:
    """``text`` without its last comma clause when that clause is a reason (see :func:`is_reason`), or
    says the old thing is gone."""
    m = _OLD_GONE.search(text)
    if m and len(text[: m.start()].split()) >= 3:
        text = text[: m.start()].rstrip(" ,") + "."
    body = text.rstrip(".!")
    parts = _TOP_COMMA.split(body)
    if len(parts) < 2:
        return text
    head = ", ".join(parts[:-1])
    return head + "." if len(head.split()) >= 3 and is_reason(parts[-1], head) else text


_SENT = re.compile(r"(?<=[.!])\s+")


def without_reason_sentences(answer: str) -> str:
    """A short answer ("REST. JSON. The app team knows it") without its sentences that only give a reason."""
    sents = _SENT.split(answer.strip())
    kept = [s for i, s in enumerate(sents) if i == 0 or not is_reason(s, " ".join(sents[:i]))]
    return " ".join(kept)


# a person joining or leaving, said before the fact it changes: "Burak left the company, now Elif is …"
_PERSON_EVENT = re.compile(r"^\W*(?:also\s+|and\s+|so\s+)?(?-i:[A-Z][a-z]+)\s+(?:has\s+)?(?:left|quit|joined|is\s+leaving|is\s+on\s+leave|"
                           r"went\s+on\s+(?:\w+\s+)?leave|retired)(?:\s+(?:the|our)\s+(?:company|team|project|job))?\s*[,;]\s*(?:and\s+|so\s+)?"
                           r"(?:now\s+)?(?=\w)", re.I)


def without_person_event(text: str) -> str:
    m = _PERSON_EVENT.match(text)
    if not m or len(text[m.end():].split()) < 4:
        return text
    rest = text[m.end():]
    return rest[:1].upper() + rest[1:]


# beside a symptom: what still works ("ios is fine", "chrome works") and a verdict ("impossible with truck", "60%+ error")
_FINE = re.compile(r"\b(?:is|are|works?|worked|seems?|looks?)\s+(?:fine|ok|okay|good|normal|correct|perfect)\b|"
                   r"\b(?:works|working)\s*(?:fine|ok|okay)?\s*$|\bno\s+(?:problem|issue)s?\b", re.I)
_SCOPE_LEAD = re.compile(r"^(?:only|on|in|for|when|while|after|before|since|with|under|at|from|during|every|each|if|unless|"
                         r"but\s+only|except|not\s+on|on\s+\w+)\b", re.I)
_VERBISH = re.compile(r"\b(?:is|are|was|were|be|been|has|have|had|do|does|did|shows?|get|gets|got|goes|went|comes?|stays?|"
                      r"\w+(?:ed|es)|can|could|will|would)\b", re.I)
_PIECES = re.compile(r"(?<=[.!])\s+|,\s+")


def symptom_core(symptom: str) -> str:
    """The symptom without the pieces that say what works and without a trailing short verdict."""
    pieces = [p for p in _PIECES.split(symptom.strip()) if p.strip()]
    if len(pieces) < 2:
        return symptom
    kept = [pieces[0]] + [p for p in pieces[1:] if not _FINE.search(p)]
    while (len(kept) > 1 and len(kept[-1].rstrip(".!").split()) <= 3 and not _SCOPE_LEAD.match(kept[-1])
           and not _VERBISH.search(kept[-1]) and not _NAMED.search(kept[-1])):
        kept.pop()
    out = ", ".join(p.rstrip(".!,") for p in kept)
    return out if len(out.split()) >= 3 else symptom


# "Tenanto is SaaS for property managers", "we are a team of three in Lviv", "I am the only developer": who and
# what, said to introduce the project, not a fact a later session would look up
_INTRO = re.compile(r"^(?:(?:so|ok|well|hi|hello|hey)\W+|[\w ]{1,20}:\s*)?(?:(?:the\s+)?[\w-]+\s+(?:is|=)\s+(?:(?:a|an|the|our|my)\s+)?(?:[\w-]+\s+){0,3}?"
                    r"(?:saas|app|application|service|tool|cli|library|backend|frontend|platform|website|site|bot|game|"
                    r"product|system|plugin|startup|marketplace|dashboard|portal)\b(?:\s+(?:for|that|which|to|where)\b|\s*[,.]|$)|"
                    r"(?:we\s+are|we're|i\s+am|i'm)\s+(?:a\s+team\s+of|the\s+only|a\s+(?:solo|small|tiny)|(?:two|three|four|five|\d+)\s+"
                    r"(?:devs?|developers|people|engineers))|(?:it's|it\s+is)\s+(?:just\s+)?(?:a|an)\s+(?:small|tiny|simple|side|hobby|new)\b)",
                    re.I)
_TEAM = re.compile(r"\b(?:we\s+are|we're|i\s+am|i'm)\s+(?:a\s+team\s+of|the\s+only|a\s+(?:solo|small|tiny))\b", re.I)


# the speaker's own story: "By way of introduction: I wrote COBOL for the county council for thirty-one years",
# "a bit about me: I've been a nurse for ten years" — who is asking, not what the project is
_ABOUT_ME = re.compile(r"^\W*(?:by\s+way\s+of\s+(?:an\s+)?introduction|(?:a\s+(?:little\s+)?bit\s+)?about\s+me(?:self)?)\s*[:,-]|"
                       r"^\W*i(?:'ve|\s+have)?\s+(?:been\s+an?|worked\s+(?:as|at|in)|taught)\b[^.;]*\bfor\s+"
                       r"(?:over\s+|almost\s+|about\s+)?(?:\d+|[a-z]+(?:-[a-z]+)?)\s+years\b", re.I)


def is_intro(sentence: str) -> bool:
    """A sentence that introduces the project, the team or the speaker and holds no value a later session needs."""
    return ((bool(_INTRO.search(sentence)) and not slots.values(sentence) and not _LOOKUP.search(sentence))
            or bool(_ABOUT_ME.search(sentence)))


def without_team_clause(text: str) -> str:
    """``text`` without a clause that says who the team is ("…, we are a team of three in Lviv")."""
    parts = _TOP_COMMA.split(text.rstrip(".!"))
    kept = [p for p in parts if not _TEAM.search(p)]
    return text if len(kept) == len(parts) or not kept else ", ".join(kept) + "."
