"""Offline o200k_base counting (spec engine-core §4)."""

from __future__ import annotations

import os
import stat

from hypothesis import given, settings
from hypothesis import strategies as st

from cavemem import tokens
from cavemem.tokens import O200kCounter, approx_count


_FULL: O200kCounter | None = None


def _full_count(text: str) -> int:
    """Reference: one counter forced onto the full 200k-rank encoder."""
    global _FULL
    if _FULL is None:
        _FULL = O200kCounter()
        assert _FULL.warm_full()
    return _FULL.count(text)


def _full_core():
    """The full encoder itself (its encode_ordinary is the reference for chunked counting)."""
    _full_count("x")
    return _FULL._full()


def test_known_counts():
    c = O200kCounter()
    assert c.name == "o200k_base"
    assert c.count(b"hello world") == 2
    assert c.count(b"") == 0
    first = c.count(b"the quick brown fox jumps over the lazy dog")
    assert first > 0 and c.count(b"the quick brown fox jumps over the lazy dog") == first
    assert c.count(b"x" * 1000 + b" hello " * 50) > c.count(b"hello")


def test_special_tokens_count_as_plain_text():
    c = O200kCounter()
    assert c.count("<|endoftext|>") > 1
    assert c.count("<|endoftext|>") == _full_count("<|endoftext|>")


def test_invalid_utf8_each_bad_byte_is_one_replacement_char():
    c = O200kCounter()
    # Go turns every invalid byte into U+FFFD; a truncated 3-byte sequence is two bad bytes.
    assert c.count(b"ab\xe4\xb8cd") == c.count("ab\ufffd\ufffdcd")
    assert c.count(b"\xff") == c.count("\ufffd")


def test_approx_fallback_figures():
    assert approx_count("abcdefgh") == 2
    assert approx_count("x") == 1
    assert approx_count("") == 0


SAMPLES = [
    "def f(x):\n    return x ** 2  # square\n",
    "2026-06-16T09:00:01Z [INFO] compiling module pkg/mod001 ... ok\n" * 20,
    '{"id": 1, "name": "ana", "tags": ["a", "b"], "score": 0.75}\n',
    "迁移数据库 — 日本語のテキスト、한국어 텍스트 and emoji 😀🎉 mixed in.",
    "   \t\n\n\r\n   lots   of    whitespace\t\t\t\n" + " " * 300 + "x",
    "Don't can't won't we'll they're I'm you've HELLO'S",
    "1234567890123456789 3.14159 -42 0x1F",
    "\u0301\u0302 combining marks café naïve",
]


def test_subset_encoder_matches_full_encoder_on_samples():
    for s in SAMPLES:
        assert O200kCounter().count(s) == _full_count(s), s


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_subset_encoder_matches_full_encoder_property(text):
    # one fresh counter per example so the subset is built from this text alone
    assert O200kCounter().count(text) == _full_count(text)


def test_shared_counter_accumulates_subset_correctly():
    c = O200kCounter()
    for s in SAMPLES * 2:
        assert c.count(s) == _full_count(s)


def test_cache_file_is_private(token_cache_dir):
    O200kCounter().count("warm the cache")
    files = [f for f in os.listdir(token_cache_dir) if f.endswith(".table")]
    assert files
    mode = stat.S_IMODE(os.stat(os.path.join(token_cache_dir, files[0])).st_mode)
    assert mode == 0o600


def test_corrupt_cache_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("CAVEMAN_CACHE_DIR", str(tmp_path))
    path = tmp_path / tokens._CACHE_FILE
    path.write_bytes(b"garbage")
    assert O200kCounter().count(b"hello world") == 2
    assert path.read_bytes().startswith(tokens._CACHE_MAGIC)


def test_missing_rank_file_falls_back_to_approx(tmp_path, monkeypatch):
    monkeypatch.setenv("CAVEMAN_CACHE_DIR", str(tmp_path / "empty"))

    def boom():
        raise tokens.VocabError("no ranks here")

    monkeypatch.setattr(tokens, "_bundled_ranks_path", boom)
    c = O200kCounter()
    assert c.name == "approx-chars/4"
    assert c.count(b"abcdefgh") == 2


def test_rank_file_checksum_is_enforced(tmp_path, monkeypatch):
    import gzip

    bad = tmp_path / "o200k_base.tiktoken.gz"
    bad.write_bytes(gzip.compress(b"aGVsbG8= 0\n"))
    monkeypatch.setattr(tokens, "_bundled_ranks_path", lambda: str(bad))
    monkeypatch.setenv("CAVEMAN_CACHE_DIR", str(tmp_path / "cache"))
    c = O200kCounter()
    assert c.name == "approx-chars/4"


ASCII_TRICKY = st.text(alphabet=st.sampled_from(list("aZ zA09'sStTdDlLmMrReEvV\t\n\r\x0b\x0c\x1c\x1f\x00/.-_=+!?\"#{}()<>~")), max_size=200)
WITH_PUNCTUATION = st.text(alphabet=st.sampled_from(list("aZ 09'sS\n\r/.#") + list(tokens.PUNCTUATION)), max_size=200)


@settings(max_examples=300, deadline=None)
@given(st.one_of(ASCII_TRICKY, WITH_PUNCTUATION, st.text(alphabet=st.characters(max_codepoint=127), max_size=300)))
def test_python_path_matches_full_encoder_property(text):
    # ASCII (plus PUNCTUATION) below PY_BPE_MAX_CHARS is split by the stdlib pattern, merged in Python
    assert tokens._python_pieces(text) is not None
    assert O200kCounter().count(text) == _full_count(text)


def test_python_path_punctuation_is_neither_letter_number_nor_space():
    import regex

    assert all(regex.fullmatch(r"[^\s\p{L}\p{N}'/]", ch) for ch in tokens.PUNCTUATION)
    assert tokens._python_pieces("a\u00e9b") is None  # a letter outside the set: the Rust path


def test_python_ascii_path_on_long_pieces_and_sizes():
    c = O200kCounter()
    for text in ("a" * 127, "a" * 128, "a" * 129 + " tail", "=" * 300, " " * 5000 + "x", "ab" * 40000,
                 "2026-06-16T09:00:01Z [INFO] compiling module pkg/mod001 ... ok\n" * 2000, "x'S 'LL 'Re"):
        assert c.count(text) == _full_count(text), text[:40]


def test_cold_ascii_count_needs_neither_tiktoken_nor_regex():
    import subprocess
    import sys

    code = ("import sys; from cavemem.tokens import O200kCounter; c = O200kCounter(); "
            "assert c.count('hello world, short ASCII') == 5; "
            "print(sorted(m for m in ('regex', 'tiktoken._tiktoken') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(alphabet=st.characters(codec="utf-8"), max_size=40), max_size=60),
       st.integers(min_value=1, max_value=64))
def test_chunked_count_equals_whole_count(lines, chunk):
    """Big inputs are counted in chunks cut after a newline a letter follows; the sum must be exact."""
    text = "\n".join(lines) + "\nend.\n/usr/bin\n12:30\n.\n\n  word\n\tx\n;\n/\nA"
    core = _full_core()
    assert tokens._encoded_length(core, text, chunk=chunk) == len(core.encode_ordinary(text))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(st.text(alphabet=st.characters(codec="utf-8"), max_size=40).map(str.encode),
                          st.binary(max_size=12)), max_size=60),
       st.integers(min_value=1, max_value=64))
def test_byte_chunked_count_equals_whole_count(parts, chunk):
    """Big byte inputs are decoded and counted a chunk at a time (no decoded copy of the whole
    input); invalid UTF-8 included, the sum must equal the count of the whole decoded text."""
    from cavemem.gocompat import go_text

    data = b"\n".join(parts) + b"\nend.\n/usr/bin\n12:30\n\xe2\x82\n\xc3\n\n  word\n\tx\n;\n/\nA"
    core = _full_core()
    assert tokens._encoded_length_bytes(core, data, chunk=chunk) == len(core.encode_ordinary(go_text(data)))


_PIECES = ["a", "Zed", "x1", "42", "1234567", " ", "  ", "\t", "\n", "\r\n", "'s", "'T", "'", '"', ",", ":", "{", "}", "[", "]",
           "-", "/", "//", ".", "...", "_", "#", "\u00e9", "\u00c9t\u00e9", "\u0301", "\u4e2d\u6587", "\u00a0", "\u3000", "\u2026",
           "\U0001f600", "\xff", "\xc3"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=80), st.integers(min_value=1, max_value=16))
def test_byte_cut_points_are_piece_boundaries(parts, chunk):
    """One-line inputs (minified JSON) are cut before a space after a non-space, and between an
    ASCII letter or digit and punctuation: the chunk counts must add up to the whole count."""
    from cavemem.gocompat import go_text

    data = "".join(p for p in parts if p not in ("\xff", "\xc3")).encode()
    data += b"".join(b"\xff" if p == "\xff" else b"\xc3" for p in parts if p in ("\xff", "\xc3"))
    core = _full_core()
    assert tokens._encoded_length_bytes(core, data, chunk=chunk) == len(core.encode_ordinary(go_text(data)))


def test_one_line_json_is_counted_in_chunks(monkeypatch):
    """A big one-line JSON document has no newline: it is still cut, and the count is exact."""
    import json as _json

    doc = _json.dumps({"results": [{"id": i, "name": f"item-{i}", "tags": ["alpha", "beta"], "ok": i % 3 == 0}
                                   for i in range(40000)]}).encode()
    assert b"\n" not in doc and len(doc) > tokens.CHUNK_CHARS
    pieces = []
    from cavemem import token_chunks

    real = token_chunks.go_text  # each chunk is decoded on its own
    monkeypatch.setattr(token_chunks, "go_text", lambda b: pieces.append(len(b)) or real(b))
    assert O200kCounter().count(doc) == len(_full_core().encode_ordinary(doc.decode()))
    assert len(pieces) >= 2 and max(pieces) < 2 * tokens.CHUNK_CHARS


def test_counting_big_bytes_does_not_decode_the_whole_input(monkeypatch):
    """A multi-MiB input is counted through the byte-chunk path, and gives the whole count."""
    line = "2026-06-16T09:00:01Z [INFO] compiling module pkg/mod001 ... ok (12 ms) caf\u00e9\n"
    data = (line * 40000).encode() + b"\xff tail\n"
    assert len(data) > tokens.CHUNK_CHARS
    calls = []
    real = tokens._encoded_length_bytes
    monkeypatch.setattr(tokens, "_encoded_length_bytes", lambda core, d: calls.append(len(d)) or real(core, d))
    from cavemem.gocompat import go_text

    assert O200kCounter().count(data) == len(_full_core().encode_ordinary(go_text(data)))
    assert calls == [len(data)]


def test_short_ascii_counts_never_load_tiktokens_extension():
    counter = O200kCounter()
    assert counter.count("deploys go out on Tuesdays") == len(_full_core().encode_ordinary("deploys go out on Tuesdays"))
    assert counter._core_cls is None  # start-up: the Rust extension's relocations are ~100 page faults
    text = "déploiements le mardi, naïvement"
    assert counter.count(text) == len(_full_core().encode_ordinary(text))
    assert counter._core_cls is not None
