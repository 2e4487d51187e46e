"""A learned sentence classifier beside the extraction rules: durable or not.

Why: hand-written phrasing rules miss the next way people write (each untuned transcript set landed
far below the tuned figure). A logistic regression over the shipped MiniLM sentence vectors plus a
few cheap features generalises over wording instead. It only *adds* what the rules missed, at a
confidence below the rules' (:data:`CONFIDENCE`), so its proposals show as unconfirmed and reach
``cavemem review``; and it may veto a low-confidence rule candidate it is very sure is noise.

It runs where time is allowed — the spool's detached writer (:func:`.pipeline.capture_transcript`),
never inside a hook's deadline — on by default where embeddings are on (``CAVEMAN_CAPTURE_CLASSIFIER=0``
or ``CAVEMAN_EMBED=0``: rules alone).
The weights (``data/capture_classifier.json``) are trained by ``scripts/train_capture_classifier.py``
from the tune transcript sets only; the file records its provenance.

Measured (2026-12-02, stop 19; ``scripts/train_capture_classifier.py --cv --check``): trained on 98 tune
files (861 sentences, 379 positive: the first sets plus the voices sets' tune part), never on the voices
check part (vcheck, 28 files, 95 gold items) nor the held-out sets. The cut-off 0.65 and "on by default"
were chosen on vcheck (the threshold with the highest min(recall, precision)): rules alone 62.1% recall /
80.0% precision / 7 noise; rules + classifier 75.8% / 79.1% / 11. Tune folds (each file scored by a model
trained without its fold): 88.7% / 89.6% / 12 → 92.4% / 88.0% / 14. Retrained 2026-12-02 (stop 20, voices set J added) on 104 tune files (906 sentences, 405 positive), cut-off 0.65
kept: vcheck rules + classifier unchanged at 75.8% / 79.1% / 11 noise. Cost, in the detached writer only
(``scripts/bench_capture.py``): a capture pass loads the embedding model, 0.19 → 0.67 s CPU, 37 → 279 MB.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace
from pathlib import Path

from . import extract, facts
from .transcript import Message

WEIGHTS = Path(__file__).with_name("data") / "capture_classifier.json"
ENV = "CAVEMAN_CAPTURE_CLASSIFIER"
CONFIDENCE = 0.5  # below every rule's, above nothing: an unconfirmed capture for review
MAX_SENTENCES = 2000  # per capture pass: embedding is ~5 ms a sentence; the rules still read every line
VETO_BELOW_RULE = 0.6  # only rule candidates at or under this confidence may be vetoed
_WE = re.compile(r"\b(?:we|our|us|i|my|let's)\b", re.I)
_CODEISH = re.compile(r"`|\b\w+[./_]\w+|\d")
_model: dict | None = None


def features(role: str, sentence: str) -> list[float]:
    """The cheap features beside the vector: who said it, question, names something specific,
    first person, length (words, log)."""
    return [1.0 if role == "user" else 0.0, 1.0 if sentence.rstrip().endswith("?") else 0.0,
            1.0 if _CODEISH.search(sentence) else 0.0, 1.0 if _WE.search(sentence) else 0.0,
            math.log1p(len(sentence.split())) / 4.0]


def load(path: Path = WEIGHTS) -> dict | None:
    """The shipped model (cached per process), or None when its file is missing or unreadable."""
    global _model
    if _model is None or _model.get("_path") != str(path):
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            return None
        data["_path"] = str(path)
        _model = data
    return _model


DEFAULT_ON = True  # chosen on the voices check part (see the module docstring); CAVEMAN_CAPTURE_CLASSIFIER=0 turns it off


def switched_on() -> bool:
    """``CAVEMAN_CAPTURE_CLASSIFIER=1`` / ``=0`` turns it on / off; unset, :data:`DEFAULT_ON`."""
    from ...envflag import env_switch

    chosen = env_switch(ENV)
    return DEFAULT_ON if chosen is None else chosen


def _embed_plugin(db_path: str | None):
    """The registered ``embed`` plugin when embeddings are on for this store (memory never imports embed)."""
    from .. import plugins

    p = plugins.get("embed")
    return p if p is not None and hasattr(p, "encoder") and p.default_for(db_path) else None


def enabled(db_path: str | None) -> bool:
    """Switched on, embeddings on for this store and installed, and the weights present."""
    return switched_on() and WEIGHTS.exists() and _embed_plugin(db_path) is not None


def rows_of(messages: list[Message]) -> list[tuple[Message, str]]:
    """(message, sentence) for every sentence of user and assistant conversation text the
    classifier may judge: no questions, nothing naming a credential."""
    out = []
    for msg in messages:
        if msg.type not in ("user", "assistant") or not msg.text.strip():
            continue
        for s in extract.sentences(extract.clean_text(msg.text)):
            if not s.rstrip().endswith("?") and not extract._CREDENTIAL.search(s):
                out.append((msg, s))
    return out


def scores(model: dict, rows: list[tuple[str, str]], vectors) -> list[float]:
    """P(durable) for each (role, sentence) row with its embedding."""
    import numpy as np

    w = np.asarray(model["w"], dtype=np.float32)
    x = np.hstack([np.asarray(vectors, dtype=np.float32), np.asarray([features(r, s) for r, s in rows], dtype=np.float32)])
    z = x @ w + float(model["b"])
    return [float(p) for p in 1.0 / (1.0 + np.exp(-z))]


def kind_of(model: dict, vector) -> str:
    """The nearest kind centroid of the training positives: decision | preference | bugfix | fact."""
    import numpy as np

    best = max(model["centroids"].items(), key=lambda kv: float(np.dot(np.asarray(kv[1], dtype=np.float32), vector)))
    return best[0]


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]{3,}", text.lower()))


def _covered(sentence: str, found: list[extract.Candidate]) -> bool:
    """A rule candidate already says (most of) this sentence."""
    mine = _words(sentence)
    return any(len(mine & _words(c.text)) >= 0.6 * max(1, len(mine)) for c in found)


def _may_add(model: dict, msg: Message, sentence: str) -> bool:
    """The rules' own vetoes hold for the classifier's proposals too: no greeting or progress chatter,
    no goodbye, no status or estimate of the moment (``sane`` false in the model lets them through, to measure it)."""
    if model.get("sane", True) and (extract._CHATTER.match(sentence) or extract._BYE.search(sentence)
                                    or extract._TRANSIENT.search(sentence) or extract._ROUGH.search(sentence)):
        return False
    return True


_MEMORY_KIND = {"decision": "decision", "preference": "preference", "bugfix": "note", "fact": "fact"}


def augment(messages: list[Message], found: list[extract.Candidate], embedder=None, model: dict | None = None,
            threshold: float | None = None, veto: float | None = None) -> list[extract.Candidate]:
    """The rules' candidates ``found``, minus those the classifier is sure are noise, plus the
    sentences it finds durable that no rule candidate covers (confidence :data:`CONFIDENCE`)."""
    model = model or load()
    rows = rows_of(messages)[-MAX_SENTENCES:]  # a first pass over a huge transcript: its newest sentences only
    if model is None or not rows:
        return found
    threshold = model["threshold"] if threshold is None else threshold
    veto = model.get("veto") if veto is None else veto
    if embedder is None:
        from .. import plugins

        embedder = plugins.get("embed").encoder()
    judged = rows + [(next((m for m, _ in rows if m.uuid == c.source_message), None), c.text) for c in found]
    judged = [(m, s) for m, s in judged if m is not None]
    vectors = embedder.embed([s for _, s in judged])
    probs = scores(model, [(m.type, s) for m, s in judged], vectors)
    kept = list(found)
    if veto is not None:
        prob_of = {s: p for (_, s), p in zip(judged[len(rows):], probs[len(rows):])}
        kept = [c for c in found if c.confidence > VETO_BELOW_RULE or c.capture_kind == "explicit" or prob_of.get(c.text, 1.0) >= veto]
    seen = {c.text.lower() for c in kept}
    said = {c.source_message for c in found}  # a message a rule already read: its sentences are the rules' call
    for (msg, s), p, vec in zip(rows, probs, vectors):
        if p < threshold or msg.uuid in said or _covered(s, found) or not _may_add(model, msg, s):
            continue
        from .shapes import durable  # the rules' cuts (feelings, reasons, asides) hold for its proposals too

        kept_text = durable(extract.Candidate(extract._finish(extract.strip_lead(s)), "fact", "fact", CONFIDENCE, msg.uuid))
        text = kept_text.text if kept_text is not None else ""
        if not text or text.lower() in seen or len(text.split()) < 4:
            continue
        seen.add(text.lower())
        fact = facts.fact_of(text)
        kind = "fact" if fact else kind_of(model, vec)
        kept.append(replace(extract.Candidate(text, _MEMORY_KIND[kind], kind, CONFIDENCE, msg.uuid),
                            entity=fact[0] if fact else None))
    return kept
