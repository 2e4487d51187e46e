"""The grouped search-result view (``search_fold``) and the indexed redundancy scan it relies on."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cavemem.compressors import redundancy
from cavemem.compressors.search_result import SearchResultCompressor

from conftest import lines_doc


def test_small_grep_output_folds_losslessly():
    lines = [f"src/cavemem/engine/registry.py:{n}:    Entry(\"{name}\", \"cavemem.compressors.{name}\")," for n, name in
             ((41, "json"), (42, "log"), (43, "diff"), (44, "text"))]
    lines.append("README.md:12:the registry maps each content type to one compressor")
    out = SearchResultCompressor().compress(lines_doc(lines))
    assert out == (
        b"src/cavemem/engine/registry.py\n"
        b"41:    Entry(\"json\", \"cavemem.compressors.json\"),\n"
        b"42:    Entry(\"log\", \"cavemem.compressors.log\"),\n"
        b"43:    Entry(\"diff\", \"cavemem.compressors.diff\"),\n"
        b"44:    Entry(\"text\", \"cavemem.compressors.text\"),\n"
        b"README.md:12:the registry maps each content type to one compressor\n"
    )


def test_look_alike_hits_keep_their_line_numbers():
    lines = [f"docs/guide.md:{10 + k}:see the configuration section for option {k}" for k in range(40)]
    out = SearchResultCompressor().compress(lines_doc(lines)).decode()
    body = out.split("\n")
    assert body[0] == "docs/guide.md"
    assert body[1:9] == [f"{10 + k}:see the configuration section for option {k}" for k in range(8)]
    assert body[9:37] == [f"{10 + k}: …" for k in range(8, 36)]
    assert body[37:41] == [f"{10 + k}:see the configuration section for option {k}" for k in range(36, 40)]
    assert body[41] == "… caveman: elided the text of 28 hits shown as `N: …`; caveman_retrieve gives it back …"


def test_a_line_that_would_read_as_a_hit_blocks_grouping():
    lines = [f"lib/a.py:{k}:value = {k}" for k in range(1, 6)] + ["12:not a hit of lib/a.py"] + ["lib/a.py:9:x"] * 2
    assert SearchResultCompressor().compress(lines_doc(lines)) is None


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.sampled_from("abcdefghij"), min_size=1, max_size=12), min_size=70, max_size=140), st.booleans())
def test_indexed_cover_check_gives_the_scan_verdict(vocabularies, similar_size):
    scan, indexed = redundancy._ClassIndex(similar_size), redundancy._ClassIndex(similar_size)
    for words in vocabularies:
        v = redundancy.Vocabulary(frozenset(words), True)
        need = int(redundancy.COVERAGE * len(v.tokens) + 0.999999)
        limit = redundancy.SIMILAR_SIZE_RATIO * len(v.tokens) if similar_size else None
        truth = v in scan.represented or any(
            len(v.tokens & c) >= need and (limit is None or len(c) < limit) for c in scan.by_kind[True]
        )
        got = indexed.covers(v) if len(indexed.by_kind[True]) > redundancy.INDEXED_SCAN_MIN_CLASSES else truth
        assert got == truth
        scan.add(v)
        indexed.add(v)


def test_crlf_hits_keep_their_endings_and_headers_follow_the_majority():
    lines = [f"docs/guide.md:{10 + k}:see the configuration section for option {k}" for k in range(40)]
    data = lines_doc(lines, "\r\n")
    out = SearchResultCompressor().compress(data).decode()
    assert out.startswith("docs/guide.md\r\n10:see the configuration section for option 0\r\n")
    assert "\r\n18: …\r\n" in out and "\n" not in out.replace("\r\n", "")


def test_cli_round_trip_of_a_folded_grep(run_cli):
    lines = [f"pkg/mod_{k // 12}.py:{k * 3 + 1}:    logger.info(\"handled request %s\", request_id)" for k in range(60)]
    data = lines_doc(lines)
    got = run_cli("cavemem", "compress", input=data)
    assert got.rc == 0 and got.report["content_type"] == "search-result"
    assert got.stdout.startswith(b"pkg/mod_0.py\n1:    logger.info(")
    assert got.report["tokens_after"] < got.report["tokens_before"] // 2
    assert run_cli("cavemem", "retrieve", got.report["recovery_handle"]).stdout == data
