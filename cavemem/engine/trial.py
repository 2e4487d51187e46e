"""The two-candidate trial (issue 9): when detection is unsure, compress both ways, keep the better.

Detection is a cascade of yes/no readers; on line-based payloads two of them can both be
nearly convinced (a build log full of code, a README of commands, a config of prose comments).
For those kinds the trial scores the first lines of the body: each kind's *share* of lines of
its shape, divided by the share its reader needs. The detected kind and the best other one are
the two candidates; when the runner-up reaches :data:`MIN_RUNNER` and scores within
:data:`MARGIN` of the winner, or above it, the input is *contested* and both compressors run.
The engine ships with the trial off (``MARGIN = None``): see the measurement below.

A result is valid when its compressor accepted the input (its own gates: the code re-parse
gate, the strict table and config readers, the log and search readers), the output is strictly
smaller, and a lossy output says so (it carries a ``caveman`` marker). The smaller valid result
wins; a declined compressor loses; on a tie the detected kind stays. With the trial on,
uncontested inputs (every structural kind, and most others) pay only the scoring.
"""

from __future__ import annotations

import re

from .detect import _HIT_LINE, _LOG_LINE, _STATEMENT, _STATEMENT_ENDS, _is_sentence

SCAN_LINES = 300
MIN_LINES = 8
MIN_RUNNER = 1.0  # the runner-up must itself be as convinced as its reader needs
# Off (None): on the corpus tune split no margin gained anything without losing routing or
# probes (``scripts/bench_detect.py --split tune --trial``: at 0–0.5 the contested files were
# ones both compressors decline; wider margins let the smaller, lossier kind win — text over
# code, log over grep output — +0.4 pt saved for −19 files routed right and −3 probes).
MARGIN: float | None = None

_CONFIG_LINE = re.compile(rb"[\t ]*(?:\[[^\]\n]+\]|[\w.@/-]+[\t ]*(?:=|:(?:[\t ]|$))|#|;)")
_CODE_WORD = re.compile(
    rb"\b(?:def|class|function|return|import|const|let|var|fn|func|struct|impl|public|private|static)\b"
)


def _is_code_line(line: bytes) -> bool:
    s = line.strip()
    return bool(_STATEMENT.match(s) or s.endswith(_STATEMENT_ENDS) or _CODE_WORD.search(s))


# kind -> (does a line have its shape, the share its reader needs), most specific first: a
# ``path:12:`` hit is a search line before a log line, a log line before a statement
_SHAPES = {
    "search-result": (lambda line: _HIT_LINE.match(line) is not None, 0.66),
    "log": (lambda line: _LOG_LINE.search(line) is not None, 0.5),
    "code": (_is_code_line, 0.7),
    "config": (lambda line: _CONFIG_LINE.match(line) is not None, 0.8),
    "text": (lambda line: _is_sentence(line.strip()), 0.5),
}


def scores(body: bytes) -> dict[str, float]:
    """Each line-based kind's share of shaped lines over the share its reader needs (1.0 = as
    convinced as the reader must be), on the first non-blank lines of ``body``."""
    lines = [line for line in body[: 1 << 16].split(b"\n", SCAN_LINES * 2)[: SCAN_LINES * 2] if line.strip()]
    lines = lines[:SCAN_LINES]
    if len(lines) < MIN_LINES:
        return {}
    votes = dict.fromkeys(_SHAPES, 0)
    for line in lines:  # each line votes once, for the most specific shape it has
        kind = next((k for k, (shaped, _) in _SHAPES.items() if shaped(line)), None)
        if kind:
            votes[kind] += 1
    return {kind: votes[kind] / len(lines) / need for kind, (_, need) in _SHAPES.items()}


def contender(body: bytes, detected: str, margin: float | None = None) -> str | None:
    """The runner-up kind when ``detected`` is contested (within ``margin``, default
    :data:`MARGIN`), else None."""
    margin = MARGIN if margin is None else margin
    if margin is None or detected not in _SHAPES:
        return None
    got = scores(body)
    if not got:
        return None
    runner = max((k for k in got if k != detected), key=got.__getitem__)
    if got[runner] >= MIN_RUNNER and got[runner] + margin >= got[detected]:
        return runner
    return None


def valid(got) -> bool:
    """A compressor's result counts when it accepted and saved (``_attempt`` gave a tuple) and a
    lossy output marks what it left out."""
    if not got:
        return False
    res = got[0]
    return bool(res.lossless_to_model) or b"caveman" in res.output


def pick(first, second):
    """The smaller valid attempt (the first on a tie), each ``_attempt``'s answer; when neither
    is valid, the first one's answer (None or False) so the engine's fallback rules apply."""
    ok = [g for g in (first, second) if valid(g)]
    if not ok:
        return first
    return min(ok, key=lambda g: g[0].tokens_after)
