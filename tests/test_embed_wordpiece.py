"""The pure-Python WordPiece (cavemem/embed/wordpiece.py) gives the Rust tokenizer's ids, so
vectors are what the model was trained on and the Rust ``tokenizers`` wheel is not needed."""

from __future__ import annotations

import json
from pathlib import Path

import tokenizers  # a [dev] dependency: the reference implementation

from cavemem.embed.wordpiece import TOKENIZER_PATH, WordPiece, basic_words

DEVSET = Path(__file__).parent / "data" / "memory_devset"
EDGES = [
    "", "   ", "naïve café — x_y.z/foo-bar 東京 (v2.3.1)", "ΣΑΣ final sigma", "soft\u00adhyphen zero\u200bwidth",
    "tab\tnew\nline\rcr\x0bvt\x0cff", "\x00nul \ufffd replacement", "İstanbul ﬁ ligature Ⅻ", "emoji 🚀 rocket",
    "a" * 101 + " long word", "ALLCAPS CamelCase snake_case kebab-case 3.14159 1e-9", "private \ue000 use",
]


def reference():
    ref = tokenizers.Tokenizer.from_file(str(TOKENIZER_PATH))
    ref.no_padding()
    ref.enable_truncation(max_length=256)
    return ref


def realistic_texts() -> list[str]:
    texts = [json.loads(line)["text"] for line in (DEVSET / "memories.jsonl").read_text().splitlines()]
    texts += [json.loads(line)["q"] for line in (DEVSET / "questions.jsonl").read_text().splitlines()]
    return texts


def test_ids_equal_the_rust_tokenizer_on_the_dev_set_and_edge_cases():
    ref, mine = reference(), WordPiece()
    texts = realistic_texts() + EDGES
    assert len(texts) > 800
    mismatched = [t for t in texts if mine.encode(t, 256) != ref.encode(t).ids]
    assert mismatched == []


def test_truncation_keeps_cls_and_sep():
    ids = WordPiece().encode(" ".join(f"word{i}" for i in range(400)), 256)
    assert len(ids) == 256 and ids[0] == 101 and ids[-1] == 102
    assert reference().encode(" ".join(f"word{i}" for i in range(400))).ids == ids


def test_basic_words_split_like_bert():
    assert basic_words("We run PostgreSQL-16, don't we?") == ["we", "run", "postgresql", "-", "16", ",", "don", "'", "t", "we", "?"]
    assert basic_words("Café 東京") == ["cafe", "東", "京"]


def test_shipped_vocab_is_the_tokenizer_json_vocabulary():
    import hashlib

    import cavemem.embed as embed
    from cavemem.embed.wordpiece import VOCAB_PATH, vocab_from_tokenizer_json

    assert VOCAB_PATH.read_text(encoding="utf-8") == vocab_from_tokenizer_json()
    assert hashlib.sha256(VOCAB_PATH.read_bytes()).hexdigest() == embed.VOCAB_SHA256
    assert embed.VOCAB_SHA256 in (VOCAB_PATH.parent / "NOTICE.txt").read_text()


def test_shipped_sorted_vocab_is_derived_from_vocab_txt():
    import hashlib

    import cavemem.embed as embed
    from cavemem.embed.wordpiece import SORTED_PATH, VOCAB_PATH, sorted_from_vocab

    assert SORTED_PATH.read_bytes() == sorted_from_vocab(VOCAB_PATH.read_text(encoding="utf-8"))
    assert hashlib.sha256(SORTED_PATH.read_bytes()).hexdigest() == embed.VOCAB_SORTED_SHA256
    assert embed.VOCAB_SORTED_SHA256 in (VOCAB_PATH.parent / "NOTICE.txt").read_text()


def test_sorted_lookup_gives_every_id_of_the_vocabulary_dict(monkeypatch):
    """The binary search a cold recall uses finds every token at its id, misses what is absent,
    and the switch to the dict after DICT_AFTER lookups changes no id."""
    import cavemem.embed.wordpiece as wp

    tokens = wp.VOCAB_PATH.read_text(encoding="utf-8").split("\n")
    monkeypatch.setattr(wp, "DICT_AFTER", len(tokens) + 100)
    vocab = WordPiece().vocab
    assert [vocab.get(t) for t in tokens] == list(range(len(tokens)))
    for absent in ("", "postgresqlzz", "\uffff", "a\tb", "zzzzzzzzzz", "!" * 3, "\x00"):
        assert vocab.get(absent) is None and vocab.get(absent, -1) == -1
    assert vocab._dict is None  # nothing was parsed
    monkeypatch.setattr(wp, "DICT_AFTER", 3)
    text = "Configure the PgBouncer connection pool for PostgreSQL 16 (staging, café, 東京)"
    lazy, full = WordPiece(), WordPiece()
    full.vocab.as_dict()
    assert lazy.encode(text, 256) == full.encode(text, 256) == reference().encode(text).ids
    assert lazy.vocab._dict is not None  # past DICT_AFTER lookups: the dict took over
