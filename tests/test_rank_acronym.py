"""Initialisms in recall (cavemem/memory/acronym.py): a question that spells a phrase out finds the
memory that stores its abbreviation, and a guessed initialism the store lacks changes nothing."""

from __future__ import annotations

from cavemem import Memory
from cavemem.memory.acronym import initialisms
from cavemem.memory.rank import RankConfig

FACTS = [
    "The headline metric is WAPE per store-week; MAPE was dropped because it explodes on low-volume items.",
    "Mean daily sales are used as the baseline forecast for new items.",
    "Absolute paths are required in the pipeline config files.",
    "The percentage of stockouts is reported every Monday.",
    "Error budgets for the scoring API are reviewed each quarter.",
    "Game state uses bevy_ecs standalone, not the full Bevy engine.",
    "Every entity gets a component for its position.",
    "The build system is cargo with workspaces.",
]


def recall_texts(tmp_path, query: str, **cfg) -> list[str]:
    m = Memory(str(tmp_path / "mem.db"), cwd=str(tmp_path), rank_config=RankConfig(**cfg))
    if not m.store.read("SELECT count(*) FROM memories")[0][0]:
        for text in FACTS:
            m.remember(text, project="p")
    out = [h["text"] for h in m.recall(query, project="p")["hits"]]
    m.close()
    return out


def listed(texts: list[str], prefix: str) -> bool:
    return any(t.startswith(prefix) for t in texts)


def test_spelled_out_phrase_finds_its_abbreviation(tmp_path):
    query = "why not mean absolute percentage error"
    assert listed(recall_texts(tmp_path, query), "The headline metric is WAPE")
    # without initialisms no word of the question is in the memory that answers it
    assert not listed(recall_texts(tmp_path, query, initialisms=0), "The headline metric is WAPE")


def test_abbreviation_inside_an_identifier(tmp_path):
    query = "which entity component system do we run"
    assert listed(recall_texts(tmp_path, query), "Game state uses bevy_ecs")
    assert not listed(recall_texts(tmp_path, query, initialisms=0), "Game state uses bevy_ecs")


def test_unknown_initialism_changes_nothing(tmp_path):
    query = "where are absolute paths configured for stockouts"
    assert recall_texts(tmp_path, query) == recall_texts(tmp_path, query, initialisms=0)


def test_only_whole_runs_and_long_hyphenated_words_are_spelled():
    assert list(initialisms("why not mean absolute percentage error")) == ["mape"]
    assert "ota" in initialisms("how do we keep over-the-air updates compatible")
    assert not initialisms("what is the mean")  # a run of one content word
    assert not initialisms("mean absolute percentage error rate limits")  # a run of six words
