"""One sentence changing two values stated apart supersedes both memories (capture/split.py): each
clause becomes its own memory in its own history; a sentence changing one memory stays whole."""

from __future__ import annotations

import pytest

from cavemem.memory.capture import capture_transcript
from test_capture import stores  # noqa: F401 - the same memory + recovery store fixture
from test_capture_slots import _current, _session

pytestmark = pytest.mark.usefixtures("db_backend")


def test_two_values_in_one_sentence_supersede_two_memories(tmp_path, stores):  # noqa: F811
    mem, ccr = stores
    first = capture_transcript(mem, _session(tmp_path / "a.jsonl", "s1", "The site is built with Hugo 0.125 on our runner.",
                                             "Search is Pagefind 1.1 for the docs."), ccr=ccr, project="p").stored
    later = capture_transcript(mem, _session(tmp_path / "b.jsonl", "s2", "We upgraded hugo to 0.134 and pagefind to 1.3 this week."),
                               ccr=ccr, project="p").stored
    assert sorted(g["supersedes"] for g in later) == sorted(g["id"] for g in first)
    assert _current(mem) == ["We upgraded hugo to 0.134.", "We upgraded pagefind to 1.3 this week."]
    for g in later:
        assert [r.current for r in mem.history(g["id"])] == [False, True]


def test_a_sentence_changing_one_memory_stays_whole(tmp_path, stores):  # noqa: F811
    mem, ccr = stores
    capture_transcript(mem, _session(tmp_path / "a.jsonl", "s1", "The API runs on Node 20 with Fastify 4.26."), ccr=ccr, project="p")
    later = capture_transcript(mem, _session(tmp_path / "b.jsonl", "s2", "We moved the API to Node 22 and Fastify 5.0 in one go."),
                               ccr=ccr, project="p").stored
    assert [g["status"] for g in later] == ["superseded"]
    assert _current(mem) == ["We moved the API to Node 22 and Fastify 5.0 in one go."]
