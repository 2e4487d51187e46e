"""Semantic recall end to end: the scorer inside Memory's ranking, the sidecar kept in step with
the store (new, forgotten, imported memories), failure modes, the ``cavemem embed`` command, and
the hot-path rule (nothing heavy is imported unless embeddings are on for the store)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import cavemem.embed as embed
from cavemem.embed.scorer import SemanticConfig, SemanticScorer, config_from_env, store_fingerprint
from cavemem import Memory

FACTS = [
    "Caroline adopted a puppy from the animal shelter last week",
    "the deploy key lives in vault under ops/deploy",
    "we chose postgres 15 for the billing service",
    "Melanie paints sunrises over the lake on weekends",
    "the CI pipeline runs on GitHub Actions with a nightly matrix",
]


@pytest.fixture(autouse=True)
def _plain_install(semantic_default):
    """These tests run as a plain install does: CAVEMAN_EMBED unset."""


@pytest.fixture
def mem(cave_home, tmp_path):
    m = Memory(str(cave_home / "mem.db"), cwd=str(tmp_path), scorers=())
    for text in FACTS:
        m.remember(text)
    yield m
    m.close()


def enabled(mem) -> Memory:
    """Switch embeddings on for the store the way ``cavemem embed enable`` does; a fresh Memory
    over it picks the scorer up by default."""
    s = SemanticScorer(mem.store, required=True)
    s.index.create()
    s.sync()
    return Memory(mem.store.path, cwd=mem.cwd)


def test_default_memory_uses_the_scorer_unless_switched_off(mem, monkeypatch):
    assert [s.name for s in Memory(mem.store.path, cwd=mem.cwd).scorers] == ["semantic"]
    embed.set_disabled(mem.store.path, True)  # what `cavemem embed disable` does
    assert Memory(mem.store.path, cwd=mem.cwd).scorers == []
    embed.set_disabled(mem.store.path, False)
    assert [s.name for s in Memory(mem.store.path, cwd=mem.cwd).scorers] == ["semantic"]
    monkeypatch.setenv(embed.ENV_SWITCH, "0")
    assert Memory(mem.store.path, cwd=mem.cwd).scorers == []
    assert Memory(":memory:").scorers == []  # a throwaway store has no sidecar


def test_meaning_finds_what_words_miss(mem):
    on = enabled(mem)
    query = "who recently got a rescue dog?"  # no word in common with the memory
    assert mem.recall(query)["hits"] == []  # lexically off-topic: refused
    hits = on.recall(query)["hits"]
    assert hits and hits[0]["text"] == FACTS[0]
    assert on.recall("what is the boiling point of ethanol?")["hits"] == []  # still refuses off-topic


def test_semantic_signal_reranks_lexical_candidates(mem):
    on = enabled(mem)
    res = on.recall("where is the deployment credential kept?", limit=3)
    assert res["hits"][0]["text"] == FACTS[1]


def test_index_follows_the_store(mem):
    on = enabled(mem)
    scorer = on.scorers[0]
    assert len(scorer.index) == len(FACTS)
    new = on.remember("the staging cluster autoscales between 3 and 12 nodes")
    assert new.id not in scorer.index  # remember never loads the model…
    on.recall("how many nodes does staging scale to?")
    assert new.id in scorer.index  # …the next recall catches the index up
    victim = on.recall("puppy shelter")["hits"][0]["id"]
    result = on.forget(victim)
    assert result["forgotten"] and result["vectors_deleted"] == 1
    assert victim not in scorer.index
    assert scorer.index.manifest["rows"] == len(FACTS)


def test_backfill_is_bounded_per_recall_and_sync_finishes(mem):
    s = SemanticScorer(mem.store, config=SemanticConfig(backfill=2), required=True)
    s.index.create()
    assert s.sync(2) == {"removed": 0, "added": 2, "pending": 3}
    assert s.index.manifest["fingerprint"] is None  # not caught up: keeps syncing
    assert s.sync(None) == {"removed": 0, "added": 3, "pending": 0}
    assert s.index.manifest["fingerprint"] == store_fingerprint(mem.store)
    assert s.sync(None) == {"removed": 0, "added": 0, "pending": 0}  # cheap when nothing moved


def test_imported_memories_are_embedded(mem, tmp_path):
    on = enabled(mem)
    lines = [json.dumps({"text": "the on-call rotation changes every Monday at 9am", "project": ""})]
    on.import_lines(lines)
    hits = on.recall("when does the on call schedule switch over?")["hits"]
    assert hits and "Monday" in hits[0]["text"]


def test_corrupt_sidecar_is_rebuilt(mem):
    on = enabled(mem)
    with open(os.path.join(embed.sidecar_dir(mem.store.path), "manifest.json"), "w") as fh:
        fh.write("garbage")
    res = Memory(mem.store.path, cwd=mem.cwd).recall("who recently got a rescue dog?")
    assert res["hits"] and res["hits"][0]["text"] == FACTS[0]
    assert "warnings" not in res
    del on


def test_broken_model_ranks_lexically_with_a_warning(mem, monkeypatch, tmp_path):
    enabled(mem)
    import cavemem.embed.embedder as embedder

    monkeypatch.setattr(embedder, "_SHARED", None)
    bogus = tmp_path / "model.onnx"
    bogus.write_bytes(b"nope")
    monkeypatch.setenv(embed.ENV_MODEL, str(bogus))
    res = Memory(mem.store.path, cwd=mem.cwd).recall("deploy key vault")
    assert res["hits"][0]["text"] == FACTS[1]  # lexical recall still answers
    assert any(w.startswith("semantic: ") and "expected 22928619" in w for w in res["warnings"])
    monkeypatch.setattr(embedder, "_SHARED", None)


def test_forced_on_without_the_extra_is_a_clear_error(mem, monkeypatch):
    monkeypatch.setenv(embed.ENV_SWITCH, "1")
    monkeypatch.setattr(embed, "missing_modules", lambda: ["onnxruntime"])
    m = Memory(mem.store.path, cwd=mem.cwd)  # remembering still works…
    m.remember("a memory stored while the extra is missing")
    with pytest.raises(embed.EmbedUnavailable) as err:  # …but a recall that was asked to use meaning says why not
        m.recall("deploy key")
    assert "pip install --force-reinstall cavemem" in err.value.message


def test_sidecar_without_the_extra_falls_back_to_lexical(mem, monkeypatch):
    enabled(mem)
    monkeypatch.setattr(embed, "missing_modules", lambda: ["numpy"])
    m = Memory(mem.store.path, cwd=mem.cwd)
    assert m.scorers == []
    assert m.recall("deploy key vault")["hits"][0]["text"] == FACTS[1]
    # forgetting drops the (now unusable) derived index rather than leaving vectors behind
    victim = m.recall("deploy key vault")["hits"][0]["id"]
    assert "semantic index dropped" in m.forget(victim)["vectors_deleted"]
    assert os.listdir(embed.sidecar_dir(mem.store.path)) == []


def test_tuning_from_the_environment(monkeypatch):
    monkeypatch.setenv("CAVEMAN_EMBED_TUNING", "floor=0.3,top_k=10")
    cfg = config_from_env()
    assert cfg.floor == 0.3 and cfg.top_k == 10 and cfg.weight == SemanticConfig().weight
    from cavemem.errors import CaveError

    for bad in ("nope=1", "floor=abc", "floor"):
        monkeypatch.setenv("CAVEMAN_EMBED_TUNING", bad)
        with pytest.raises(CaveError):
            config_from_env()


def test_fusion_weight_is_configurable(mem, monkeypatch):
    enabled(mem)
    monkeypatch.setenv("CAVEMAN_MEM_FUSION", "extra.semantic=0")
    m = Memory(mem.store.path, cwd=mem.cwd)
    res = m.recall("where is the deployment credential kept?")
    assert all("semantic" not in h.get("signals", {}) for h in res["hits"])


# -- CLI ------------------------------------------------------------------------------------------


def test_embed_command(run_cli, cave_home):
    assert run_cli("cavemem", "remember", FACTS[0]).rc == 0
    status = json.loads(run_cli("cavemem", "embed", "status", "--json").stdout)
    assert status["installed"] and status["enabled"] and status["memories"] == 1 and status["vectors"] == 0
    assert "vectors: 0 of 1 memory versions (the rest are embedded by the next recall" in run_cli("cavemem", "embed").stdout.decode()
    r = run_cli("cavemem", "embed", "sync", "--json")
    assert r.rc == 0, r.stderr
    assert json.loads(r.stdout)["vectors"] == 1
    assert run_cli("cavemem", "remember", FACTS[1]).rc == 0
    synced = json.loads(run_cli("cavemem", "embed", "sync", "--json").stdout)
    assert synced["added"] == 1 and synced["vectors"] == 2
    hits = json.loads(run_cli("cavemem", "recall", "who recently got a rescue dog?", "--json").stdout)["hits"]
    assert hits and hits[0]["text"] == FACTS[0]
    human = run_cli("cavemem", "embed").stdout.decode()
    assert "semantic recall: ON" in human and "vectors: 2 of 2 memory versions\n" in human
    off = run_cli("cavemem", "embed", "disable")
    assert off.rc == 0 and os.listdir(str(cave_home / "mem.db.vectors")) == ["disabled"]
    assert "semantic recall: off" in run_cli("cavemem", "embed").stdout.decode()
    assert json.loads(run_cli("cavemem", "recall", "who recently got a rescue dog?", "--json").stdout)["hits"] == []
    on = json.loads(run_cli("cavemem", "embed", "enable", "--json").stdout)
    assert on["enabled"] and on["added"] == 2 and on["vectors"] == 2
    assert json.loads(run_cli("cavemem", "embed", "status", "--json").stdout)["enabled"]
    bad = run_cli("cavemem", "embed", "explode")
    assert bad.rc == 2 and bad.report["error"] == "cave_invalid_arguments"


def test_embed_command_without_the_extra_says_how_to_install(run_cli, tmp_path):
    shim = tmp_path / "shim"
    shim.mkdir()
    (shim / "onnxruntime.py").write_text("raise ImportError('simulated: not installed')\n")
    # a sitecustomize that hides onnxruntime from find_spec
    (shim / "sitecustomize.py").write_text(
        "import importlib.util as u\n_real = u.find_spec\n"
        "def _fs(name, *a, **k):\n    return None if name == 'onnxruntime' else _real(name, *a, **k)\n"
        "u.find_spec = _fs\n"
    )
    env = {"PYTHONPATH": str(shim)}
    r = run_cli("cavemem", "embed", "enable", env=env)
    assert r.rc == 1
    assert r.report["error"] == "cave_embed_unavailable" and "pip install --force-reinstall cavemem" in r.report["message"]
    status = run_cli("cavemem", "embed", "status", env=env).stdout.decode()
    assert "missing onnxruntime" in status


def test_remember_stays_light_and_recall_loads_the_model_unless_switched_off(mem, cave_home):
    code = (
        "import sys\n"
        "from cavemem.cli.main import run\n"
        "run(['remember', 'hot path memory'])\n"
        "print('HEAVY:' + ','.join(m for m in ('numpy', 'onnxruntime', 'tokenizers', 'mcp') if m in sys.modules), file=sys.stderr)\n"
        "run(['recall', 'deploy key', '--json'])\n"
        "print('HEAVY:' + ','.join(m for m in ('numpy', 'onnxruntime', 'tokenizers', 'mcp') if m in sys.modules), file=sys.stderr)\n"
    )
    env = dict(os.environ, CAVEMAN_HOME=str(cave_home))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    after_remember, after_recall = [line for line in proc.stderr.splitlines() if line.startswith("HEAVY:")]
    assert after_remember == "HEAVY:", proc.stderr  # remember never loads the model, though semantic recall is on
    assert after_recall == "HEAVY:numpy,onnxruntime", proc.stderr  # recall does (no Rust tokenizer)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(env, CAVEMAN_EMBED="0"),
                          timeout=120)
    assert [line for line in proc.stderr.splitlines() if line.startswith("HEAVY:")] == ["HEAVY:", "HEAVY:"], proc.stderr


def test_scores_are_normalised_per_query_with_an_absolute_height(mem):
    s = SemanticScorer(mem.store, config=SemanticConfig(floor=0.2), required=True)
    out = s._per_query({1: 0.8, 2: 0.5, 3: 0.3, 4: 0.1}, reference=0.3)
    # the best memory gets the query's height (its cosine through the floor), the reference and
    # anything below it nothing, the rest in between linearly
    assert out[1] == pytest.approx((0.8 - 0.2) / 0.8) and 3 not in out and 4 not in out
    assert out[2] == pytest.approx(out[1] * (0.5 - 0.3) / (0.8 - 0.3))
    # the vouch threshold is compared with the best score: it still means "best cosine ≥ vouch"
    assert max(out.values()) >= s._normalise(s.config.vouch) and s.threshold == pytest.approx(s._normalise(s.config.vouch))
    # a query whose best cosine is under the floor adds nothing; a flat neighbourhood keeps the best
    assert s._per_query({1: 0.15, 2: 0.1}, reference=0.05) == {}
    assert s._per_query({1: 0.6, 2: 0.6, 3: 0.4}, reference=0.6) == {1: pytest.approx(0.5), 2: pytest.approx(0.5)}
    assert s._per_query({}, reference=0.0) == {}


def _stored(scorer, memory_id):
    import numpy as np

    index = scorer.index
    index.refresh()
    return np.array(index._matrix[index.row_of()[memory_id]])


def _expected(scorer, own_text, window_text):
    vectors = scorer.embedder.embed([own_text, window_text])
    return (vectors[0] + vectors[1]) / 2


def test_vectors_carry_the_session_window_and_follow_it(cave_home, tmp_path):
    import numpy as np
    from datetime import datetime, timedelta, timezone

    m = Memory(str(cave_home / "mem.db"), cwd=str(tmp_path), scorers=(), merge=False)
    t0 = datetime(2024, 5, 1, tzinfo=timezone.utc)
    q = m.remember("Ann: which colour did you pick for the bike?", session="s1", at=t0)
    a = m.remember("Bo: the blue one", session="s1", at=t0 + timedelta(minutes=1))
    lone = m.remember("a note without a session")
    s = SemanticScorer(m.store, required=True)
    s.index.create()
    s.sync()
    assert np.allclose(_stored(s, a.id), _expected(s, a.text, q.text + "\n" + a.text), atol=1e-5)
    assert np.allclose(_stored(s, lone.id), s.embedder.embed([lone.text])[0], atol=1e-5)  # its own window
    # a new turn joins the answer's window: the answer is embedded again with it
    c = m.remember("Ann: nice, blue suits you", session="s1", at=t0 + timedelta(minutes=2))
    assert s.sync() == {"removed": 0, "added": 1, "pending": 0}
    assert np.allclose(_stored(s, a.id), _expected(s, a.text, "\n".join([q.text, a.text, c.text])), atol=1e-5)
    # forgetting the question drops it from its neighbour's window too, not just its own vector
    on = Memory(m.store.path, cwd=m.cwd, merge=False)
    assert on.forget(q.id)["vectors_deleted"] == 1
    assert a.id not in s.index
    s.sync()
    assert np.allclose(_stored(s, a.id), _expected(s, a.text, a.text + "\n" + c.text), atol=1e-5)
    assert len(s.index) == 3
    m.close()


def test_an_index_of_another_recipe_is_rebuilt(mem):
    from cavemem.embed import MODEL_ID
    from cavemem.embed.vectors import VectorIndex

    old = VectorIndex(embed.sidecar_dir(mem.store.path), model=MODEL_ID)  # turn-only vectors of an older cavemem
    old.add([r[0] for r in mem.store.read("SELECT id FROM memories")], [[0.1] * embed.DIM] * len(FACTS))
    on = Memory(mem.store.path, cwd=mem.cwd)
    assert [s.name for s in on.scorers] == ["semantic"]  # the old sidecar still switches embeddings on
    assert on.recall("who recently got a rescue dog?")["hits"][0]["text"] == FACTS[0]
    assert on.scorers[0].index.manifest["model"] == embed.INDEX_MODEL and len(on.scorers[0].index) == len(FACTS)


def test_feedback_moves_the_question_toward_its_best_hits_but_keeps_its_height(mem):
    import numpy as np

    s = SemanticScorer(mem.store, config=SemanticConfig(feedback=0.5, feedback_docs=1), required=True)
    s.index.create()
    s.sync()
    q = s.embedder.embed_one("who recently got a rescue dog?")
    hit = s.index.ids()[0]
    v = s.index.vectors([hit])[0]
    moved = s._with_feedback(q, [(0, hit)])
    assert float(np.linalg.norm(moved)) == pytest.approx(1.0, abs=1e-5)
    assert float(moved @ v) > float(np.asarray(q) @ v)
    assert s._with_feedback(q, [(0, "mem_unknown")]) is q  # nothing to learn from: unchanged
    assert len(s.index.vectors(["mem_unknown", hit])) == 1
    # the vouch height is the question's own best cosine, not the moved query's
    out = s._per_query({1: 0.9, 2: 0.6}, reference=0.3, asked_best=0.5)
    assert out[1] == pytest.approx(s._normalise(0.5))
    # an off-topic question stays refused with feedback on
    on = enabled(mem)
    assert on.scorers[0].config.feedback > 0
    assert on.recall("what is the boiling point of ethanol?")["hits"] == []
