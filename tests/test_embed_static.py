"""The static table scorer (cavemem/embed/static.py): tokenises like the shipped WordPiece
tokenizer, finds meaning the words miss, and its sidecar follows forget."""

from __future__ import annotations

import pytest

from cavemem import Memory
from cavemem.embed.static import StaticEmbedder
from cavemem.embed.static_plugin import sidecar

TEXTS = [
    "We run PostgreSQL 16 in production!",
    "naïve café — x_y.z/foo-bar 東京 (v2.3.1)",
    "Root cause: the Stripe webhook handler wasn't idempotent; retried invoice.paid events doubled charges.",
    "GOMEMLIMIT=90% via the downward API; see deploy/charts/enricher/values.yaml",
]


def test_token_ids_match_the_rust_wordpiece_tokenizer():
    tokenizers = pytest.importorskip("tokenizers")
    from cavemem.embed.embedder import TOKENIZER_PATH

    reference = tokenizers.Tokenizer.from_file(str(TOKENIZER_PATH))
    reference.no_padding()
    mine = StaticEmbedder().load()
    for text in TEXTS:
        assert mine.token_ids(text) == reference.encode(text, add_special_tokens=False).ids, text


def test_vectors_are_unit_length_and_closer_for_related_text():
    e = StaticEmbedder()
    v = e.embed(["the database is PostgreSQL", "which DB engine do we use", "what coffee do I drink", ""])
    assert abs(float(v[0] @ v[0]) - 1.0) < 1e-5
    assert float(v[3] @ v[3]) == 0.0  # no tokens, no direction
    assert float(v[0] @ v[1]) > float(v[0] @ v[2])


def test_static_recall_indexes_and_forget_drops_vectors(tmp_path):
    from cavemem.embed.distill import DIM
    from cavemem.embed.static import INDEX_MODEL
    from cavemem.embed.vectors import VectorIndex

    db = str(tmp_path / "mem.db")
    m = Memory(db, cwd=str(tmp_path), scorers=["static"])
    keep = m.remember("Celery uses Redis 7 as the message broker", project="p")
    gone = m.remember("Invoices are rendered to PDF with WeasyPrint", project="p")
    hits = m.recall("celery broker", project="p")["hits"]  # any recall brings the sidecar up to date
    assert [h["id"] for h in hits][:1] == [keep.id]
    index = VectorIndex(sidecar(db), dim=DIM, model=INDEX_MODEL)
    assert {keep.id, gone.id} <= set(index.ids())
    m.forget(gone.id)
    index.refresh()
    assert gone.id not in set(index.ids())
    assert keep.id in set(index.ids())
