"""Implicit updates rank above what they replace; the calibrated joint refusal gate."""

from __future__ import annotations

import pytest

from cavemem import Memory
from cavemem.memory.update import newer_first, states_change

TEXTS = {
    1: "the celery worker runs on worker-b.internal",
    2: "the celery worker moved to worker-c.internal after the resize",
    3: "production api host is api.example.com",
    4: "staging api host is now api.staging.example.com",
}
TS = {1: 10, 2: 20, 3: 10, 4: 20}


def sims(pairs: dict):
    return lambda seqs: {k: v for k, v in pairs.items() if k[0] in seqs and k[1] in seqs}


def test_a_newer_statement_of_change_goes_before_the_fact_it_replaces():
    assert newer_first([1, 3, 2], TEXTS, TS, sims({(1, 2): 0.8})) == [2, 1, 3]


def test_no_reordering_without_a_change_cue_a_shared_subject_or_a_newer_date():
    assert not states_change(TEXTS[1]) and states_change(TEXTS[2])
    assert newer_first([2, 1], TEXTS, TS, sims({(1, 2): 0.8})) == [2, 1]  # already first
    assert newer_first([1, 2], TEXTS, TS, sims({(1, 2): 0.5})) == [1, 2]  # another subject
    assert newer_first([1, 2], TEXTS, {1: 30, 2: 20}, sims({(1, 2): 0.8})) == [1, 2]  # the "update" is older


def test_production_and_staging_are_distinct_facts_not_updates():
    assert newer_first([3, 4], TEXTS, TS, sims({(3, 4): 0.9})) == [3, 4]


@pytest.fixture
def mem(cave_home, tmp_path):
    m = Memory(str(cave_home / "mem.db"), cwd=str(tmp_path), scorers=["embed"])
    m.remember("we use PostgreSQL 16 in production", project="p")
    m.remember("the magic links in login emails expire after 15 minutes", project="p")
    m.remember(TEXTS[1], project="p", at="2026-01-01")
    m.remember(TEXTS[2], project="p", at="2026-02-01")
    m.remember(TEXTS[3], project="p", at="2026-01-01")
    m.remember(TEXTS[4], project="p", at="2026-02-01")
    yield m
    m.close()


def texts(res) -> list[str]:
    return [h["text"] for h in res["hits"]]


def test_paraphrase_is_found_and_off_topic_is_refused(mem):
    # no shared word; "run" also matches "runs" in the worker note, which may come first
    assert "we use PostgreSQL 16 in production" in texts(mem.recall("which database do we run", project="p"))[:2]
    assert mem.recall("what coffee do I drink", project="p")["hits"] == []
    assert mem.recall("how do I implement a linked list", project="p")["hits"] == []


def test_recall_serves_the_implicit_update_first_and_keeps_the_old_version(mem):
    got = texts(mem.recall("where does the celery worker run", project="p"))
    assert got[0] == TEXTS[2] and TEXTS[1] in got
    got = texts(mem.recall("what is the production api host", project="p"))
    assert got[0] == TEXTS[3]


def test_lexical_only_recall_keeps_the_lexical_gate(cave_home, tmp_path):
    m = Memory(str(cave_home / "lex.db"), cwd=str(tmp_path), scorers=())
    m.remember("we use PostgreSQL 16 in production", project="p")
    assert texts(m.recall("postgres version in production", project="p")) == ["we use PostgreSQL 16 in production"]
    assert m.recall("what coffee do I drink", project="p")["hits"] == []
    m.close()


def test_a_stem_alone_does_not_clear_the_lexical_gate(cave_home, tmp_path):
    m = Memory(str(cave_home / "stem.db"), cwd=str(tmp_path), scorers=())
    m.remember("the magic links in login emails expire after 15 minutes", project="p")
    m.remember("Caroline adopted a puppy from the shelter", project="p")
    assert m.recall("linked list", project="p")["hits"] == []  # shares the stem "link", not the word
    assert texts(m.recall("login links", project="p")) == ["the magic links in login emails expire after 15 minutes"]
    assert texts(m.recall("magic link expiry", project="p"))[0].startswith("the magic links")
    assert texts(m.recall("puppy adoption", project="p")) == ["Caroline adopted a puppy from the shelter"]
    m.close()
