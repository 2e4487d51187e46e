"""The learned capture classifier beside the rules (memory/capture/classify.py): what it adds, when it runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cavemem import Memory
from cavemem.memory.capture import capture_transcript, classify, extract, review
from cavemem.memory.capture.transcript import Message
from cavemem.store.ccr import open_ccr

pytestmark = pytest.mark.usefixtures("db_backend")

MISSED = "The mobile app talks to the backend through the BFF layer."  # no rule reads this
CHATTER = "Let me run the tests again."


def _msg(uid: str, kind: str, text: str) -> Message:
    return Message(uuid=uid, type=kind, offset=0, length=0, text=text)


def _line(kind, uid, text):
    return json.dumps({"type": kind, "uuid": uid, "sessionId": "s1", "cwd": "/tmp/proj", "gitBranch": "main",
                       "timestamp": "2026-10-01T10:00:00.000Z", "message": {"role": kind, "content": text}}) + "\n"


def test_shipped_weights_name_their_training_files_and_never_a_held_out_one():
    model = json.loads(classify.WEIGHTS.read_text())
    assert len(model["w"]) == 384 + len(classify.features("user", "x"))
    assert set(model["centroids"]) == {"decision", "preference", "bugfix", "fact"}
    files = set(model["provenance"]["files"])
    held_out = _held_out_names()
    assert len(held_out) == 35 and files and not files & held_out
    voices = json.loads((Path(__file__).parent / "data" / "transcripts" / "gold_voices.json").read_text())
    check = {n for n, g in voices.items() if g["split"] == "vcheck"}
    tune = {n for n, g in voices.items() if g["split"] == "vtune"}
    # every later voices set adds vcheck files the weights never saw: the count only grows, the overlap stays empty
    assert len(check) >= 39 and not files & check and len(files & tune) >= 60  # sets A-P (trained on A-J; K-P: rules only)
    assert model["provenance"]["check_never_trained"] == ["vcheck"]
    assert model["threshold"] > classify.CONFIDENCE  # proposals are unconfirmed, but only confident ones


def test_on_by_default_off_by_env_and_rules_alone_without_embeddings(tmp_path, monkeypatch):
    monkeypatch.delenv(classify.ENV, raising=False)
    assert classify.switched_on() is True
    monkeypatch.setenv(classify.ENV, "0")
    assert classify.switched_on() is False and classify.enabled(None) is False
    monkeypatch.setenv(classify.ENV, "1")
    monkeypatch.setenv("CAVEMAN_EMBED", "0")
    assert classify.enabled(None) is False
    p = tmp_path / "t.jsonl"
    p.write_text(_line("user", "u1", MISSED))
    mem, ccr = Memory(str(tmp_path / "m.db"), scorers=[]), open_ccr(str(tmp_path / "c.db"))
    try:
        rep = capture_transcript(mem, str(p), project="p", ccr=ccr, extract_memories=True)
    finally:
        mem.close()
        ccr.close()
    assert rep.extractor == "rules" and rep.stored == []


def test_adds_what_the_rules_missed_at_low_confidence_and_not_chatter(semantic_default):
    msgs = [_msg("1", "user", MISSED), _msg("2", "assistant", CHATTER),
            _msg("3", "user", "We deploy the frontend to Vercel and the API to Fly.io.")]
    rules = extract.extract(msgs)
    assert [c.source_message for c in rules] == ["3"]
    got = classify.augment(msgs, rules, threshold=0.55)
    added = got[len(rules):]
    assert got[: len(rules)] == rules  # nothing vetoed (the shipped model vetoes nothing)
    assert [(c.text, c.confidence, c.source_message) for c in added] == [(MISSED, classify.CONFIDENCE, "1")]
    assert classify.augment(msgs, rules, threshold=0.99) == rules


def test_a_proposal_is_stored_unconfirmed_and_reaches_review(tmp_path, semantic_default, monkeypatch):
    monkeypatch.setenv(classify.ENV, "1")
    monkeypatch.setitem(classify.load(), "threshold", 0.55)
    p = tmp_path / "t.jsonl"
    p.write_text(_line("user", "u1", MISSED) + _line("assistant", "a1", CHATTER))
    mem, ccr = Memory(str(tmp_path / "m.db"), scorers=[]), open_ccr(str(tmp_path / "c.db"))
    try:
        rep = capture_transcript(mem, str(p), project="p", ccr=ccr, extract_memories=True)
        queue = review.pending(mem, project="p")
    finally:
        mem.close()
        ccr.close()
    assert rep.extractor == "rules+classifier"
    assert [(s["capture_kind"], s["confidence"]) for s in rep.stored] == [(classify.kind_of(classify.load(), _vec(MISSED)), 0.5)]
    assert [q["text"] for q in queue] == [MISSED]


def _held_out_names() -> set:
    gold = json.loads((Path(__file__).parent / "data" / "transcripts" / "gold.json").read_text())
    return {n for n, g in gold.items() if g.get("split") in ("fresh6", "fresh7", "fresh8")}


def _vec(text):
    from cavemem.embed.embedder import shared_embedder

    return shared_embedder().embed([text])[0]


def test_one_pass_judges_at_most_max_sentences_the_newest(monkeypatch):
    class Counting:
        seen: list = []

        def embed(self, texts):
            import numpy as np

            Counting.seen = list(texts)
            return np.zeros((len(texts), 384), dtype=np.float32)

    monkeypatch.setattr(classify, "MAX_SENTENCES", 3)
    msgs = [_msg(str(i), "user", f"Sentence number {i} says the service {i} lives on host h{i}.") for i in range(6)]
    classify.augment(msgs, [], embedder=Counting())
    assert Counting.seen == [m.text for m in msgs[-3:]]
