"""Index terms (analyzer, Porter stemmer), query date windows, ids and times, project resolution."""

from __future__ import annotations

import time
from datetime import datetime, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cavemem.errors import CaveError
from cavemem.memory import ids, project
from cavemem.memory.analyze import analyze, query_terms
from cavemem.memory.stem import stem
from cavemem.memory.when import find_windows, strip_spans

# The published Porter examples (vocabulary / output pairs).
PORTER = """caresses caress|ponies poni|ties ti|caress caress|cats cat|feed feed|agreed agre|plastered plaster
bled bled|motoring motor|sing sing|conflated conflat|troubled troubl|sized size|hopping hop|tanned tan
falling fall|hissing hiss|fizzed fizz|failing fail|filing file|happy happi|sky sky|relational relat
conditional condit|rational ration|valenci valenc|hesitanci hesit|digitizer digit|conformabli conform
radicalli radic|differentli differ|vileli vile|analogousli analog|vietnamization vietnam|predication predic
operator oper|feudalism feudal|decisiveness decis|hopefulness hope|callousness callous|formaliti formal
sensitiviti sensit|sensibiliti sensibl|triplicate triplic|formative form|formalize formal|electriciti electr
electrical electr|hopeful hope|goodness good|revival reviv|allowance allow|inference infer|airliner airlin
gyroscopic gyroscop|adjustable adjust|defensible defens|irritant irrit|replacement replac|adjustment adjust
dependent depend|adoption adopt|homologous homolog|communism commun|activate activ|angulariti angular
effective effect|bowdlerize bowdler|probate probat|rate rate|cease ceas|controll control|roll roll"""


@pytest.mark.parametrize("word,want", [p.split() for line in PORTER.splitlines() for p in line.split("|")])
def test_porter_stemmer(word, want):
    assert stem(word) == want


def test_stemmer_leaves_other_words_alone():
    for w in ("ab", "Caps", "naïve", "abc123", "数据", ""):
        assert stem(w) == w


def test_analyzer_terms():
    assert analyze("Caroline went to the LGBTQ support groups!") == ["carolin", "went", "lgbtq", "support", "group"]
    assert analyze("connectionPool on python3.11") == ["connectionpool", "connect", "pool", "python3", "python", "3", "11"]
    assert analyze("snake_case and kebab-case") == ["snake", "case", "kebab", "case"]
    assert analyze("Café crème, ＡＢＣ") == ["cafe", "creme", "abc"]
    assert analyze("数据库迁移") == ["数据", "据库", "库迁", "迁移"]
    assert analyze("猫 and 犬") == ["猫", "犬"]
    assert analyze("用PostgreSQL数据库") == ["用", "postgresql", "postgr", "sql", "数据", "据库"]
    assert analyze("the of and is a") == []
    assert analyze("!!! ??? ...") == []


def test_query_terms_keep_surface_forms_for_substring_search():
    got = query_terms("Postgres groups groups")
    assert [(q.term, q.raw) for q in got] == [("postgr", "postgres"), ("group", "groups")]


@pytest.mark.parametrize("text", ["a" * 1_000_000, "aB" * 300_000, "数" * 500_000, "x1 " * 300_000, "\x00\ud800" * 1000, ""])
def test_analyzer_survives_big_and_odd_input(text):
    t0 = time.perf_counter()
    analyze(text)
    assert time.perf_counter() - t0 < 10


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_analyzer_terms_are_single_ascii_tokenizer_words(text):
    for term in analyze(text):
        assert term and " " not in term
        assert all(c.isalnum() or ord(c) > 127 for c in term)


# -- dates in queries -----------------------------------------------------------------------------

NOW = datetime(2023, 8, 20, tzinfo=timezone.utc)


@pytest.mark.parametrize("query,start,end", [
    ("what did we paint in July 2023?", "2023-07-01", "2023-08-01"),
    ("what did Gina find on 1 February, 2023?", "2023-02-01", "2023-02-02"),
    ("on May 23, 2023 the release", "2023-05-23", "2023-05-24"),
    ("trip in summer 2021", "2021-06-01", "2021-09-01"),
    ("deploy on 2023-06-03", "2023-06-03", "2023-06-04"),
    ("what did we decide last week", "2023-08-06", "2023-08-20"),
    ("notes from 3 days ago", "2023-08-16", "2023-08-18"),
    ("in March we moved", "2023-03-01", "2023-04-01"),
    ("the incident on 14 October", "2022-10-14", "2022-10-15"),
    ("anything from 2022", "2022-01-01", "2023-01-01"),
])
def test_query_date_windows(query, start, end):
    windows, spans = find_windows(query, NOW)
    assert len(windows) == 1
    assert windows[0].start.date().isoformat() == start and windows[0].end.date().isoformat() == end
    assert strip_spans(query, spans) != query


@pytest.mark.parametrize("query", ["the march was long", "we may go", "port 8080", "version 1999x", "call me at 10:30"])
def test_no_false_dates(query):
    assert find_windows(query, NOW)[0] == []


# -- ids and times --------------------------------------------------------------------------------


def test_ids():
    assert ids.memory_id("the deploy key lives in vault under ops/deploy") == "mem_a66a8a47cc0663ca"
    assert ids.memory_id("x", "proj") != ids.memory_id("x") and ids.looks_like_id(ids.memory_id("x", "proj"))


@pytest.mark.parametrize("dt,want", [
    (datetime(2026, 7, 4, 12, 0, 0, 123456, tzinfo=timezone.utc), "2026-07-04T12:00:00.123456Z"),
    (datetime(2026, 7, 4, 12, 0, 0, 500000, tzinfo=timezone.utc), "2026-07-04T12:00:00.5Z"),
    (datetime(2026, 7, 4, 12, 0, 0, tzinfo=timezone.utc), "2026-07-04T12:00:00Z"),
])
def test_go_style_times(dt, want):
    assert ids.format_time(dt) == want


def test_parse_timestamps_and_user_dates():
    assert ids.stored_time_micros("2026-07-04T12:00:00.123456789Z") == ids.to_micros(
        datetime(2026, 7, 4, 12, 0, 0, 123456, tzinfo=timezone.utc))
    assert ids.parse_when("2026-07-04T14:00:00+02:00") == datetime(2026, 7, 4, 12, tzinfo=timezone.utc)
    assert ids.parse_when("2026-07-04", end_of_day=True).hour == 23
    assert ids.parse_when("7d", now=NOW) == datetime(2023, 8, 13, tzinfo=timezone.utc)
    assert ids.parse_when("now", now=NOW) == NOW
    for bad in ("yesterday-ish", "2026-13-45", "", None, 42):
        with pytest.raises(CaveError):
            ids.parse_when(bad)


# -- project resolution ---------------------------------------------------------------------------


def test_project_of_git_root_worktree_and_outside(tmp_path):
    main = tmp_path / "shop"
    (main / ".git" / "worktrees" / "feature").mkdir(parents=True)
    deep = main / "a" / "b"
    deep.mkdir(parents=True)
    assert project.project_of_dir(str(deep)) == "shop"
    wt = tmp_path / "shop-feature"
    wt.mkdir()
    (wt / ".git").write_text(f"gitdir: {main}/.git/worktrees/feature\n")
    assert project.project_of_dir(str(wt)) == "shop"  # worktrees share the main repo's memory
    sub = main / "vendor" / "lib"
    sub.mkdir(parents=True)
    (sub / ".git").write_text("gitdir: ../../.git/modules/lib\n")
    assert project.project_of_dir(str(sub)) == "lib"  # a submodule is its own project
    outside = tmp_path / "loose"
    outside.mkdir()
    assert project.project_of_dir(str(outside)) == ""
    assert project.read_scope(None, str(deep)) == ("shop", "")
    assert project.read_scope("*", str(deep)) is None
    assert project.read_scope(None, str(outside)) == ("",)
    assert project.resolve_project("  other  ", str(deep)) == "other"
    with pytest.raises(CaveError):
        project.resolve_project("*")
