"""The [embed] embedder: shipped tokenizer, pipeline properties, bad input, clear errors when the
extra is missing or the model file is wrong, and the stdlib-only availability checks."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import cavemem.embed as embed
from cavemem.embed.embedder import MAX_TOKENS, TOKENIZER_PATH, Embedder, shared_embedder


@pytest.fixture(scope="module")
def model() -> Embedder:
    return Embedder().load()


def test_shipped_tokenizer_is_the_pinned_file_with_its_licence():
    data = TOKENIZER_PATH.read_bytes()
    assert len(data) == 466_247
    assert hashlib.sha256(data).hexdigest() == embed.TOKENIZER_SHA256
    folder = TOKENIZER_PATH.parent
    assert "Apache License" in (folder / "LICENSE-Apache-2.0.txt").read_text()
    notice = (folder / "NOTICE.txt").read_text()
    assert embed.TOKENIZER_SHA256 in notice and "Apache" in notice


def test_vectors_are_unit_float32_and_deterministic(model):
    v = model.embed(["the deploy key lives in vault", "the deploy key lives in vault", "kafka consumer lag"])
    assert v.shape == (3, embed.DIM) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(v[0], v[1])
    assert float(v[0] @ v[2]) < 0.5


def test_batching_and_padding_do_not_change_vectors(model):
    texts = ["short", "a somewhat longer sentence about database migrations and indexes", "medium length text here"]
    together = model.embed(texts)
    alone = np.vstack([model.embed([t])[0] for t in texts])
    assert np.allclose(together, alone, atol=1e-4)


def test_questions_take_the_int8_graph_close_to_the_float_vectors(model):
    """A question is embedded by the dynamic-int8 query graph (quantize.py): not the float vector
    bit for bit, but within a hair of it, unit length, and it still finds its paraphrase first."""
    from cavemem.embed import graph_cache

    memories = ["we run PostgreSQL 16 in production", "the deploy key lives in vault under ops/deploy",
                "Caroline adopted a puppy from the shelter", "kafka consumer lag spiked after the upgrade"]
    questions = ["which database do we use in prod?", "where is the deployment key stored?",
                 "who got a young dog from an animal rescue?", "why did the consumers fall behind?"]
    asked = np.vstack([model.embed_one(q) for q in questions])
    floats = model.embed(questions)
    assert model._query not in (None, False)  # the query session answered
    assert graph_cache.cached_graph(embed.MODEL_SHA256, model._ort.__version__, graph_cache.QUERY_RECIPE) is not None
    assert np.allclose(np.linalg.norm(asked, axis=1), 1.0, atol=1e-5)
    cos = (asked * floats).sum(axis=1)
    assert cos.min() > 0.98 and not np.array_equal(asked, floats)
    assert list(np.argmax(asked @ model.embed(memories).T, axis=1)) == [0, 1, 2, 3]


def test_paraphrases_are_nearest(model):
    pairs = [
        ("The deploy key lives in vault under ops/deploy", "Where is the deployment key stored? In Vault at ops/deploy"),
        ("I love hiking in the mountains on weekends", "On Saturdays I usually go trekking up hills"),
        ("the database migration failed because of a missing index", "schema upgrade broke since an index was not found"),
        ("Caroline adopted a puppy from the shelter", "She got a young dog from an animal rescue"),
        ("We switched the CI from Jenkins to GitHub Actions", "Our continuous integration moved off Jenkins onto Actions"),
    ]
    left = model.embed([a for a, _ in pairs])
    right = model.embed([b for _, b in pairs])
    sims = left @ right.T
    assert list(np.argmax(sims, axis=1)) == list(range(len(pairs)))
    diag = np.diag(sims).mean()
    off = (sims.sum() - np.trace(sims)) / (len(pairs) ** 2 - len(pairs))
    assert diag > 0.5 and off < 0.25


def test_truncation_at_256_tokens(model):
    head = " ".join(f"word{i}" for i in range(400))  # far more than 256 wordpieces
    a = model.embed_one(head + " completely different ending about volcanoes")
    b = model.embed_one(head + " another tail on the subject of pastry")
    assert np.allclose(a, b, atol=1e-6)  # both tails fall beyond the window
    enc = model._tokenizer.encode(head, MAX_TOKENS)
    assert len(enc) == MAX_TOKENS and enc[0] == 101 and enc[-1] == 102  # [CLS] … [SEP]


def test_bad_input_never_crashes(model):
    started = time.perf_counter()
    v = model.embed(["", "   ", "\ud800 lone surrogate", "x" * 1_000_000, "日本語のテキスト", "\x00\x01\x02"])
    assert v.shape == (6, embed.DIM)
    assert np.all(np.isfinite(v))
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)  # [CLS]/[SEP] always give a vector
    assert model.embed([]).shape == (0, embed.DIM)
    assert model.embed([b"bytes \xff are decoded"]).shape == (1, embed.DIM)
    assert time.perf_counter() - started < 20


def test_shared_embedder_is_one_instance():
    assert shared_embedder() is shared_embedder()


def test_wrong_model_file_is_a_clear_error(tmp_path, monkeypatch):
    bogus = tmp_path / "model.onnx"
    bogus.write_bytes(b"not a model")
    monkeypatch.setenv(embed.ENV_MODEL, str(tmp_path))  # a directory holding model.onnx
    with pytest.raises(embed.EmbedUnavailable) as err:
        Embedder().load()
    assert err.value.code == "cave_embed_unavailable"
    assert "expected 22928619" in err.value.message
    monkeypatch.setenv(embed.ENV_MODEL, str(tmp_path / "absent.onnx"))
    with pytest.raises(embed.EmbedUnavailable, match="not readable"):
        Embedder().load()


def test_missing_extra_is_reported_with_the_install_hint(monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "onnxruntime" else real(name, *a))
    assert embed.missing_modules() == ["onnxruntime"]
    assert not embed.installed()
    with pytest.raises(embed.EmbedUnavailable) as err:
        Embedder().load()
    assert "onnxruntime" in err.value.message and "pip install --force-reinstall cavemem" in err.value.message
    rep = embed.status(None)
    assert rep["installed"] is False and rep["missing"] == ["onnxruntime"] and rep["install"] == embed.INSTALL_HINT


def test_switches(tmp_path, monkeypatch):
    db = str(tmp_path / "mem.db")
    monkeypatch.delenv(embed.ENV_SWITCH, raising=False)
    assert embed.switched_on(db) and embed.enabled_for(db)  # on by default, before any sidecar exists
    assert not embed.switched_on(":memory:") and not embed.switched_on(None)
    embed.set_disabled(db, True)
    assert not embed.switched_on(db) and embed.status(db)["enabled"] is False
    embed.set_disabled(db, False)
    assert embed.switched_on(db) and not Path(embed.disabled_marker(db)).exists()
    monkeypatch.setenv(embed.ENV_SWITCH, "0")
    assert not embed.enabled_for(db)
    monkeypatch.setenv(embed.ENV_SWITCH, "1")
    assert embed.enabled_for(str(tmp_path / "other.db"))
    assert embed.status(db)["enabled"] is True


def test_checking_availability_imports_nothing_heavy():
    code = (
        "import sys, cavemem.embed as e, cavemem.embed.embedder\n"
        "e.installed(); e.enabled_for('/nonexistent/mem.db')\n"
        "heavy = [m for m in ('numpy', 'onnxruntime', 'tokenizers', 'mcp') if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""


def test_model_verification_is_remembered_but_rechecked_when_the_file_changes(tmp_path, monkeypatch):
    from cavemem.embed.embedder import _stamp_file, model_file, verify_file

    real = model_file()
    copy = tmp_path / "model.onnx"
    copy.write_bytes(real.read_bytes())
    verify_file(copy, embed.MODEL_SIZE, embed.MODEL_SHA256, "model", remember=True)
    assert _stamp_file().read_text().startswith(str(copy.resolve()))
    data = bytearray(copy.read_bytes())
    data[1000] ^= 0xFF  # same size, new content and mtime: must be hashed again
    copy.write_bytes(bytes(data))
    os.utime(copy, ns=(1, 1))
    with pytest.raises(embed.EmbedUnavailable, match="sha256"):
        verify_file(copy, embed.MODEL_SIZE, embed.MODEL_SHA256, "model", remember=True)
