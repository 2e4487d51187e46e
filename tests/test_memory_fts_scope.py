"""FTS candidates of a big project filter it in a join instead of the MATCH expression (bm25()
would count the project token's whole doclist per query): same rows, same scores, same recall."""

from __future__ import annotations

import random

import pytest

from cavemem.memory import analyze, fts
from cavemem.memory import store as store_mod
from cavemem.memory.api import Memory
from cavemem.memory.model import Filter

WORDS = ("deploy queue worker billing invoice refund webhook postgres index migration cache redis timeout "
         "retry token session cookie nginx kafka consumer lag schema backup restore replica shard").split()


def _store_with_projects(tmp_path):
    rng = random.Random(11)
    m = Memory(str(tmp_path / "mem.db"), scorers=())
    for i in range(260):
        project = "big" if i < 220 else "small"
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 12))) + f" note {i}"
        m.remember(text, project=project)
    for rec in m.store.read("SELECT id FROM memories WHERE project = 'big' ORDER BY seq LIMIT 15"):
        m.supersede(rec[0], f"superseded version of {rec[0]} about the deploy queue")
    return m


@pytest.mark.parametrize("current_only", [True, False])
def test_join_and_match_scoping_give_the_same_rows_and_scores(tmp_path, current_only):
    m = _store_with_projects(tmp_path)
    for words in ("deploy", "queue worker refund", "kafka lag missing", "replica shard backup"):
        terms = analyze.analyze(words)  # the indexed forms (stemmed)
        for projects in (("big",), ("small",), ("big", "small"), None):
            where = Filter(projects=projects, current_only=current_only)
            for k in (5, 50, 500):
                inside = m.store.read(*store_mod.fts_query(terms, where, k))
                joined = m.store.read(*store_mod.fts_query(terms, where, k, scope_join=True))
                assert joined == inside
                assert inside or projects == ("small",)
            for nth in (1, 7):
                assert m.store.read(*store_mod.fts_query(terms, where, 0, nth_newest=nth, scope_join=True)) == \
                    m.store.read(*store_mod.fts_query(terms, where, 0, nth_newest=nth))
    m.close()


def test_recall_is_the_same_whichever_way_a_project_is_scoped(tmp_path, monkeypatch):
    m = _store_with_projects(tmp_path)
    asks = ["which deploy queue worker", "refund webhook", "postgres index migration timeout", "kafka consumer"]
    monkeypatch.setattr(fts, "LARGE_SCOPE", 10**9)  # every project small: scoped inside MATCH
    m.store._scopes.clear()
    inside = [m.recall(q, project=p, now="2027-01-01T00:00:00Z")["hits"] for q in asks for p in ("big", "small")]
    assert not m.store._large_scope(("big",))
    monkeypatch.setattr(fts, "LARGE_SCOPE", 100)  # "big" (220 rows) now scoped in the join
    m.store._scopes.clear()
    assert m.store._large_scope(("big",)) and not m.store._large_scope(("small",))
    joined = [m.recall(q, project=p, now="2027-01-01T00:00:00Z")["hits"] for q in asks for p in ("big", "small")]
    assert joined == inside and any(inside)
    assert store_mod.large_scope(m.store.read, ("big", "small")) and not store_mod.large_scope(m.store.read, None)
    m.close()
