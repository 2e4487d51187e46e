"""The first hits' last reordering (cavemem/memory/rank_head.py) and the change cues of implicit
updates (cavemem/memory/update.py), on memories of the coding-agent dev set."""

from __future__ import annotations

import json
import os

import pytest

from cavemem import Memory
from cavemem.embed.scorer import SemanticScorer
from cavemem.memory.rank_head import asks_location, is_location_note, notes_behind
from cavemem.memory.update import newer_first, states_change

DEVSET = os.path.join(os.path.dirname(__file__), "data", "memory_devset", "memories.jsonl")


def test_a_note_is_a_path_or_file_name_first_and_nothing_else_is():
    for note in ("src/sync/queue.ts queues offline workouts.", "db/migrations/ holds goose migration files.",
                 ".golangci.yml configures the Go linters.", "app/(tabs)/feed.tsx renders the feed.",
                 "Makefile.toml holds the tasks."):
        assert is_location_note(note), note
    for prose in ("Node.js 20 is required.", "https://docs.example.com/api is the reference.", "Caroline: hi there",
                  "e.g. this one", "v1.2 shipped on Monday", "Text is rendered with glyphon.", "README.md"):
        assert not is_location_note(prose), prose
    assert asks_location("which file applies coupons") and asks_location("where are exceptions reported")
    assert not asks_location("how is text drawn in game")


def test_notes_go_behind_prose_by_the_penalty_unless_the_question_asks_where():
    texts = {1: "src/text.rs draws text with glyphon.", 2: "Text is rendered with glyphon.", 3: "Fonts are Inter."}
    scores = {1: 1.0, 2: 0.7, 3: 0.2}
    assert notes_behind([1, 2, 3], scores, texts, "how is text drawn", 0.5) == [2, 1, 3]
    assert notes_behind([1, 2, 3], scores, texts, "how is text drawn", 0.2) == [1, 2, 3]  # the gap is larger
    assert notes_behind([1, 2, 3], scores, texts, "which file draws text", 0.5) == [1, 2, 3]
    assert notes_behind([1, 2, 3], scores, texts, "how is text drawn", 0.0) == [1, 2, 3]


def test_a_repartition_or_a_rename_states_a_change():
    old, new = "Topic orders.v2 has 48 partitions.", "We repartitioned orders.v2 to 96 partitions in April."
    assert states_change(new) and states_change("we renamed ingestd to intake") and not states_change(old)
    assert newer_first([1, 2], {1: old, 2: new}, {1: 10, 2: 20}, lambda seqs: {(1, 2): 0.7}) == [2, 1]


@pytest.fixture
def devset(cave_home, tmp_path, semantic_default):
    rows = [json.loads(line) for line in open(DEVSET, encoding="utf-8")]

    def load(project: str) -> Memory:
        m = Memory(str(cave_home / f"{project}.db"), cwd=str(tmp_path))
        for r in rows:
            if r["project"] == project:
                m.remember(r["text"])
        SemanticScorer(m.store, required=True).sync()
        return Memory(m.store.path, cwd=str(tmp_path))

    return load


def first(m: Memory, query: str) -> str:
    hits = m.recall(query)["hits"]
    return hits[0]["text"] if hits else ""


def test_a_how_question_gets_the_decision_and_a_which_file_question_the_note(devset):
    m = devset("tilemap")
    assert first(m, "how is text drawn in game").startswith("Text is rendered with glyphon")
    assert first(m, "which file lays out and draws text").startswith("tilemap-render/src/text.rs")
    m = devset("ledger")  # the Postmark fact or its later version (SES), not notifications/receipts.py
    assert first(m, "which service sends receipt emails").startswith(("Transactional email goes", "We switched transactional"))


def test_a_repartitioned_topic_is_served_before_its_old_partition_count(devset):
    m = devset("dataforge")  # another topic's count may rank first ("The audit topic has 12 partitions."): ranking's
    texts = [h["text"] for h in m.recall("what's the current partition count on the orders topic")["hits"]]  # matter
    new = next(i for i, t in enumerate(texts) if t.startswith("We repartitioned orders.order.v2"))
    old = next((i for i, t in enumerate(texts) if t.startswith("Topic orders.order.v2 has 48")), len(texts))
    assert new < old
