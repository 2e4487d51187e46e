"""The refusal gate's store-relative bar (cavemem/memory/gate.py): off-topic probes asked of the
same store set how high a query must reach, so a store full of everyday chat raises the bar that a
small coding store keeps at the scorer's vouch."""

from __future__ import annotations

import json
import os

import pytest

from cavemem import Memory
from cavemem.embed.scorer import SemanticScorer
from cavemem.memory import gate

CODING = [
    "we run PostgreSQL 16 in production behind pgbouncer",
    "the deploy key lives in vault under ops/deploy",
    "CI runs on GitHub Actions with a nightly matrix of Python versions",
]
CHAT = [
    "I cooked a mushroom risotto for dinner and it needed more salt",
    "my puppy finally learned to sit after two weeks of treats",
    "we booked a hotel by the lake for the summer holiday",
    "the pharmacy on the corner closes at seven on weekdays",
    "I water the succulents on the windowsill every other Sunday",
    "my sister bought me a guitar and I practise chords every evening",
    "the pancakes came out fluffy with buttermilk and a pinch of sugar",
    "we played old jazz records at the party until midnight",
    "I started running three times a week with a beginner plan",
    "my friend recommended a history podcast about ancient Rome",
    "the cast iron pan needs oiling after every wash",
    "we watched the full moon from the balcony last night",
    "I ironed my shirts for the wedding and wrote the speech",
    "the cat sleeps on the radiator all winter",
    "we planted tulips and daffodils that bloom in early spring",
    "I had the flu last week with a fever and a sore throat",
]


@pytest.fixture(autouse=True)
def _plain_install(semantic_default):
    """Semantic recall on, as in a plain install."""


def store(cave_home, tmp_path, name: str, texts) -> Memory:
    m = Memory(str(cave_home / f"{name}.db"), cwd=str(tmp_path))
    for text in texts:
        m.remember(text)
    SemanticScorer(m.store, required=True).sync()
    return Memory(m.store.path, cwd=str(tmp_path))


def scorer(m: Memory) -> SemanticScorer:
    return next(s for s in m.scorers if s.name == "semantic")


def recall_counting_embeddings(m: Memory, tmp_path, monkeypatch) -> tuple[SemanticScorer, list[int]]:
    """Reopen ``m``'s store and recall once, recording the batch size of every embedding call."""
    again = Memory(m.store.path, cwd=str(tmp_path))
    s = scorer(again)
    embedded: list[int] = []
    real = s.embedder.embed
    monkeypatch.setattr(s.embedder, "embed", lambda texts: embedded.append(len(texts)) or real(texts))
    again.recall("which database do we run")
    return s, embedded


def test_null_threshold_is_the_probes_median_plus_a_margin_never_below_the_vouch():
    assert gate.null_threshold([0.1, 0.3, 0.2], floor=0.05) == pytest.approx(0.2 + gate.NULL_MARGIN)
    assert gate.null_threshold([0.1, 0.2, 0.3, 0.4], floor=0.05) == pytest.approx(0.25 + gate.NULL_MARGIN)
    assert gate.null_threshold([0.0, 0.01], floor=0.15) == 0.15
    assert gate.null_threshold([], floor=0.15) == 0.15
    assert not gate.stale(1000, 1049) and gate.stale(1000, 1051) and gate.stale(1000, 949)


def test_a_chatty_store_raises_the_bar_a_coding_store_keeps_at_the_vouch(cave_home, tmp_path):
    small = store(cave_home, tmp_path, "coding", CODING)
    hits = small.recall("which database do we run")["hits"]
    assert hits and hits[0]["text"].startswith("we run PostgreSQL 16")
    s = scorer(small)
    assert s.gate_threshold == pytest.approx(s.threshold)

    chatty = store(cave_home, tmp_path, "chatty", CODING + CHAT)
    hits = chatty.recall("which database do we run")["hits"]
    assert hits and hits[0]["text"].startswith("we run PostgreSQL 16")
    s = scorer(chatty)
    assert s.gate_threshold > s.threshold + 0.02  # the probes find their subjects here


def test_the_null_is_cached_in_the_sidecar_and_reused(cave_home, tmp_path, monkeypatch):
    m = store(cave_home, tmp_path, "cached", CODING + CHAT)
    m.recall("which database do we run")
    first = scorer(m).gate_threshold
    path = os.path.join(scorer(m).index.dir, "null.json")
    data = json.load(open(path, encoding="utf-8"))
    assert data["model"] == scorer(m).index.model and data["nulls"]

    s, embedded = recall_counting_embeddings(m, tmp_path, monkeypatch)
    assert s.gate_threshold == pytest.approx(first)
    # the question at most (a long-lived process keeps its recent query vectors): never the probes
    assert sum(embedded) <= 1



def test_a_stale_null_is_recomputed_without_embedding_the_probes_again(cave_home, tmp_path, monkeypatch):
    """The probes are fixed strings: their vectors are kept in the cache dir, so a store that grew
    past the 5% refresh share recomputes its bar from matrix products alone."""
    m = store(cave_home, tmp_path, "grows", CODING)
    m.recall("which database do we run")
    before = scorer(m).gate_threshold
    for text in CHAT:
        m.remember(text)
    s, embedded = recall_counting_embeddings(m, tmp_path, monkeypatch)
    assert len(gate.PROBES) not in embedded  # question and pending memories only, never the 40 probes
    assert s.gate_threshold > before  # the chat raised the bar: the null really was recomputed


LEDGER = [
    "billing/proration.py previews proration amounts before a plan change.",
    "billing/services/refund.py validates and issues partial refunds.",
    "We run PostgreSQL 15 on RDS for the ledger service, with pgbouncer in front of it.",
]


def test_a_query_whose_words_barely_match_is_led_by_meaning(cave_home, tmp_path):
    """'billing' is the only word of the question any memory has: BM25 normalised by its best
    match would give the billing files a full lexical score; scaled by how little of the query they
    cover, the database memory (no shared word) leads."""
    from cavemem.memory.rank import RankConfig

    m = store(cave_home, tmp_path, "ledger", LEDGER)
    question = "which database engine does billing use"
    assert m.recall(question)["hits"][0]["text"].startswith("We run PostgreSQL 15")
    # (location_note=0: the file notes would otherwise go behind the database fact on their own)
    words_at_full_weight = Memory(m.store.path, cwd=str(tmp_path), rank_config=RankConfig(lexical_confidence=0, location_note=0))
    assert words_at_full_weight.recall(question)["hits"][0]["text"].startswith("billing/")


def test_probe_vectors_of_another_width_in_the_cache_are_embedded_again(cave_home, tmp_path):
    """The static table (256-d) and MiniLM (384-d) share the cache dir: a cached probe file that does
    not fit this index is ignored (it once crashed the next MiniLM recall with a matmul error)."""
    import numpy as np

    m = store(cave_home, tmp_path, "widths", CODING)
    s = scorer(m)
    m.recall("which database do we run")
    good = s._probe_vectors(gate.PROBES)
    assert good.shape == (len(gate.PROBES), s.index.dim)
    cached = [p for p in os.listdir(os.environ["CAVEMAN_CACHE_DIR"]) if p.startswith("gate-probes-")]
    for name in cached:
        np.save(os.path.join(os.environ["CAVEMAN_CACHE_DIR"], name), np.ones((len(gate.PROBES), 256), np.float32))
    assert s._probe_vectors(gate.PROBES).shape == good.shape
    hits = Memory(m.store.path, cwd=str(tmp_path)).recall("which database do we run")["hits"]
    assert hits and "PostgreSQL" in hits[0]["text"]


FITNESS_APP = [
    "The app is React Native with Expo SDK 51; bare workflow was tried and dropped.",
    "Workout sessions sync to the backend every 5 minutes through a background fetch task.",
    "Push notifications go through OneSignal; the backend stores one token per device.",
    "The camera screen uses react-native-vision-camera v4 with a frame processor for rep counting.",
    "Heart-rate data comes from HealthKit on iOS and Health Connect on Android.",
    "Store releases go out every second Thursday; the build number is the CI run number.",
]


def test_a_question_that_reads_like_everyday_life_is_refused_where_its_words_match(cave_home, tmp_path, monkeypatch):
    """A fitness app's store (workout sessions, heart rate, reps) and a question about warming up
    for a run: words and meaning alone clear the bar, but the question sits near several off-topic
    probes, and that likeness (subtracted by the joint gate) refuses it. Questions about the app sit
    near none of them."""
    m = store(cave_home, tmp_path, "fitness", FITNESS_APP)
    asked = "how do I warm up my legs before a long run"
    assert m.recall(asked)["hits"] == []
    assert scorer(m).probe_affinity > 0.1
    for question, answer in (("how do we count reps", "The camera screen"),
                             ("where does heart rate come from on android", "Heart-rate data"),
                             ("how often do we release to the stores", "Store releases")):
        hits = m.recall(question)["hits"]
        assert hits and hits[0]["text"].startswith(answer), question
        assert scorer(m).probe_affinity < 0.1
    monkeypatch.setenv("CAVEMAN_EMBED_TUNING", "probe_weight=0")
    without = Memory(m.store.path, cwd=str(tmp_path))
    assert without.recall(asked)["hits"]  # the words and the vouch alone admit it
    assert scorer(without).probe_affinity == 0.0
