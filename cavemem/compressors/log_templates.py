"""Log line templates: lines that differ only in their slot values (used by ``log``).

The redundancy gate (spec §2.3) masks digit runs, so ``step 7 ok`` and ``step 12 ok`` are one
class — but a package name, a path, a random temp directory (``/tmp/pip-target-ulb6nyg9``) or a
dotted identifier is a new word every time, and a dpkg or ``pip -v`` log never compresses. A
*template* masks whole slot tokens instead: every whitespace-separated token that carries a digit,
a path or URL, or inner ``.``/``:``/``@`` punctuation (``libfoo:amd64``, ``self.state``) becomes a
placeholder of its kind; words (``status``, ``half-configured``, ``create_users``) and ``key=``
names stay. Two lines with one template say the same thing about different values.

Words can be slots too: :class:`LogTemplates` learns, per log, the rare words where otherwise
identical lines carry a different word each (the package in ``Unpacking libfoo (1.2) ...``).
It gives the strings the gate compares instead of the lines (placeholders are ``_s_<kind>_``
words, so the spec's tokenizer sees them as ordinary tokens) and each line's slot values by kind
for the invariant summary of an elided run (``all date=2026-09-22; id: 14 distinct,
libfoo:amd64..strace:amd64``).

Templates are built by one regex substitution over the whole log that calls back only for tokens
holding a slot character (cached per token), so a log of plain words costs C-speed passes.
"""

from __future__ import annotations

import re
from array import array
from collections import Counter
from itertools import chain

from .invariants import Fields

_LEAD = "([{<\"'`"
_TRAIL = ")]}>\"'`,;:.!?"
_TOKEN = re.compile(r"\S+")
# A whole token holding a slot character. The lookbehind anchors at a token start and the
# lookahead scans that token once, so a 1 MB token costs one linear scan, never a quadratic one.
_SLOTTY_TOKEN = re.compile(r"(?<!\S)(?=[^\s0-9/\\:.@=]*[0-9/\\:.@=])\S+")
_KEY_VALUE = re.compile(r"([A-Za-z_][A-Za-z0-9_.\-]*)=(.+)\Z", re.S)
_DIGIT = re.compile(r"[0-9]")
_NAME_PUNCT = re.compile(r"\w[.:@]\w")  # inner punctuation between word characters

_TIME = re.compile(
    r"\d{4}-\d\d-\d\d[T ]\d|\d{1,2}:\d\d(?::\d\d)?(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\Z|\d{1,2}/[A-Za-z]{3}/\d{4}"
)
_DATE = re.compile(r"\d{4}-\d\d-\d\d\Z|\d{4}/\d\d/\d\d\Z")
_NUMBER = re.compile(r"[+-]?\d+(?:[.,]\d+)?(?:[A-Za-z%]{1,3})?\Z")
_VERSION = re.compile(r"v?\d+(?::\d+)?(?:[.\-+~][0-9A-Za-z]+)+\Z")

KINDS = ("date", "time", "url", "path", "number", "version", "id")
WORD_KIND = "name"
_PLACEHOLDER = {kind: f"_s_{kind}_" for kind in KINDS}
_WORD_PLACEHOLDER = f"_s_{WORD_KIND}_"
_CACHE_LIMIT = 1 << 16
SHAPE_BLOCK_LINES = 4096
# Learned word slots: a word seen at most this often is rare; a slot needs this many lines that
# agree on everything else; a line has at most this many word slots.
RARE_WORD_MAX = 4
MIN_WORD_SLOT_LINES = 4
MAX_WORD_SLOTS_PER_LINE = 2


def slot_kind(core: str) -> str | None:
    """The slot kind of a token stripped of surrounding punctuation, or None for a constant word."""
    if not core:
        return None
    if "://" in core:
        return "url"
    if _DIGIT.search(core) is None:
        if "/" in core or "\\" in core:
            return "path"
        return "id" if _NAME_PUNCT.search(core) else None
    if _DATE.match(core):
        return "date"
    if _TIME.match(core):
        return "time"
    if core[0] in "/~" or "/" in core or "\\" in core:
        return "path"
    if _NUMBER.match(core):
        return "number"
    if _VERSION.match(core):
        return "version"
    return "id"


def split_token(token: str) -> tuple[str, str | None, str]:
    """(constant text, slot kind, slot value) of one whitespace-separated token; kind None when
    the token is a constant. ``key=value`` keeps ``key=`` as the constant part."""
    core = token.lstrip(_LEAD).rstrip(_TRAIL)
    m = _KEY_VALUE.match(core)
    if m is not None:
        key, value = m.group(1), m.group(2).strip(_LEAD + _TRAIL)
        kind = slot_kind(value)
        return (key + "=", kind, value) if kind is not None else (token, None, "")
    kind = slot_kind(core)
    return ("", kind, core) if kind is not None else (token, None, "")


_template_cache: dict[str, str] = {}


def _template_token(m: re.Match) -> str:
    token = m.group()
    got = _template_cache.get(token)
    if got is None:
        const, kind, _ = split_token(token)
        got = const + _PLACEHOLDER[kind] if kind is not None else const
        if len(_template_cache) >= _CACHE_LIMIT:
            _template_cache.clear()
        _template_cache[token] = got
    return got


def shape_templates(lines: list[str]) -> list[str]:
    """Each line with its slot-shaped tokens replaced by placeholders and single-spaced.

    A block of lines at a time: one substitution per block keeps C speed, and no joined or
    half-shaped copy of the whole log lives beside its lines (peak memory, issue 9)."""
    out: list[str] = []
    same: dict[str, str] = {}  # equal templates share one string: most lines of a log repeat a template
    for at in range(0, len(lines), SHAPE_BLOCK_LINES):
        block = lines[at : at + SHAPE_BLOCK_LINES]
        joined = "\n".join(block)
        if joined.count("\n") != len(block) - 1:  # pragma: no cover - split lines hold no newline
            out += [" ".join(_TOKEN.findall(_SLOTTY_TOKEN.sub(_template_token, line))) for line in block]
            continue
        shaped = [" ".join(s.split()) for s in _SLOTTY_TOKEN.sub(_template_token, joined).split("\n")]
        out += [same.setdefault(t, t) for t in shaped]
    return out


class LogTemplates:
    """Templates and slot values of a log's lines.

    Slots come from two sources: tokens whose shape says so (:func:`slot_kind`), and *word* slots
    learned from the log itself — rare words where lines that agree on every other token carry
    a different word each (``Unpacking libfoo (1.2) ...``, ``Unpacking libbar (3.4) ...``). A
    word that recurs (``status installed`` / ``status unpacked``) stays a constant: it names what
    happened, not to what."""

    def __init__(self, lines: list[str]):
        self.lines = lines
        self._member = bytearray(len(lines))  # 1: the line's template carries learned word slots
        self._odd: dict[int, list[int]] = {}  # members whose own text holds the placeholder word
        self.templates = self._learn_word_slots(shape_templates(lines))

    def _rare_template(self, toks: list[str], counts: Counter) -> tuple[str, list[int]] | None:
        """``toks`` with its rare words masked and their positions, or None when it has none or too many."""
        rare = [p for p, t in enumerate(toks) if counts[t] <= RARE_WORD_MAX and not t.startswith("_s_")]
        if not rare or len(rare) > MAX_WORD_SLOTS_PER_LINE or 3 * len(rare) > len(toks):
            return None
        masked = list(toks)
        for p in rare:
            masked[p] = _WORD_PLACEHOLDER
        return " ".join(masked), rare

    def _learn_word_slots(self, shaped: list[str]) -> list[str]:
        """Mask the rare words of lines that agree on every other token.

        A word is *rare* when it occurs at most ``RARE_WORD_MAX`` times in the log (``libfoo`` in
        ``Selecting…``, ``Unpacking…``, ``Setting up libfoo``) — the words that say what
        happened (``Unpacking``, ``installed``) recur on every such line. A line's rare words
        are slots when they are few (at most two, at most a third of the line) and at least
        ``MIN_WORD_SLOT_LINES`` lines share the rest. Per line only a group number is kept
        (4 bytes), not its positions: a 64 MiB log's peak memory (issue 9)."""
        counts = Counter(chain.from_iterable(map(str.split, shaped)))  # a line's tokens at a time, not all at once
        group_of: dict[str, int] = {}
        names: list[str] = []
        sizes: list[int] = []
        gid = array("i", bytes(4 * len(shaped)))
        for i, template in enumerate(shaped):
            got = self._rare_template(template.split(" "), counts)
            if got is None:
                gid[i] = -1
                continue
            g = group_of.setdefault(got[0], len(names))
            if g == len(names):
                names.append(got[0])
                sizes.append(0)
            sizes[g] += 1
            gid[i] = g
        out = list(shaped)
        for i, g in enumerate(gid):
            if g >= 0 and sizes[g] >= MIN_WORD_SLOT_LINES:
                toks = shaped[i].split(" ")
                if _WORD_PLACEHOLDER in toks:
                    self._odd[i] = self._rare_template(toks, counts)[1]
                else:
                    self._member[i] = 1
                out[i] = names[g]
        return out

    def _word_slot_positions(self, i: int) -> list[int]:
        if i in self._odd:
            return self._odd[i]
        if not self._member[i]:
            return []
        return [p for p, t in enumerate(self.templates[i].split(" ")) if t == _WORD_PLACEHOLDER]

    def fields(self, i: int) -> Fields:
        """Line ``i``'s slot values by kind, or by key for ``key=value`` slots (the first value
        of each), for invariant summaries."""
        tokens = self.lines[i].split()
        word_slots = self._word_slot_positions(i)
        if word_slots and len(tokens) != self.templates[i].count(" ") + 1:
            word_slots = ()  # a control character split differently: name no word slot at all
        out: Fields = {}
        for p, token in enumerate(tokens):
            const, kind, value = split_token(token)
            if kind is not None:
                name = const[:-1] if const else kind  # a ``key=value`` slot is named by its key
            elif p in word_slots:
                name, value = WORD_KIND, token.lstrip(_LEAD).rstrip(_TRAIL)
            else:
                continue
            if name not in out:
                out[name] = value
        return out
