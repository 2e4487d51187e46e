"""The outline stage of ``text`` (``text_outline``): long documents shown by their own structure."""

from __future__ import annotations

import hashlib

from cavemem import Engine
from cavemem.compressors.text import TextCompressor
from cavemem.compressors.text_outline import outline

C = TextCompressor()


def words(seed: str, n: int) -> str:
    """``n`` made-up words unique to ``seed``: distinct prose the redundancy gate cannot drop."""
    digest = hashlib.sha256(seed.encode()).hexdigest()
    return " ".join("".join("etaoinshrdlu"[int(c, 16) % 12] for c in digest[i * 5 : i * 5 + 5]) for i in range(n))


def changelog(entries: int) -> str:
    out = []
    for k in range(entries):
        out.append(f"tool ({entries - k}.0-1) unstable; urgency=medium\n")
        out.append("  [ Dana Maintainer ]")
        out += [f"  * Fix issue number {k * 10 + j}: {words(f'{k}.{j}', 9)}." for j in range(6)]
        out.append(f"\n -- Dana Maintainer <dana@example.org>  Mon, {k + 1:02d} Jan 2024 10:00:00 +0000\n")
    return "\n".join(out) + "\n"


def man_page(options: int) -> str:
    out = ["TOOL(1)                 User Commands                 TOOL(1)", "", "NAME", "       tool - does things", "",
           "DESCRIPTION"]
    for k in range(options):
        out += ["", f"       --option-{k}", f"              sets value {k} for {words(str(k), 6)}.",
                f"              {words(f'{k}+', 8)}."]
    return "\n".join(out + ["", "SEE ALSO", "       other(1)"]) + "\n"


def test_a_long_changelog_keeps_every_entry_header():
    doc = changelog(300)
    out = C.compress(doc.encode()).decode()
    assert len(out) < len(doc) // 8  # over the budget even at the coarsest level, which keeps every header
    for k in range(300):
        assert f"tool ({300 - k}.0-1) unstable; urgency=medium\n" in out
    assert "Fix issue number 5:" not in out and "lines elided (caveman)" in out


def test_a_man_page_keeps_sections_and_every_option():
    doc = man_page(200)
    out = C.compress(doc.encode()).decode()
    for line in ("NAME", "DESCRIPTION", "SEE ALSO", "       --option-0", "       --option-199"):
        assert line + "\n" in out
    assert len(out) < len(doc) // 2


def test_a_man_page_quoting_an_html_body_is_still_outlined():
    doc = man_page(200).replace("       --option-7\n", "       --option-7\n              -F '= <body>HTML message</body>'\n")
    out = C.compress(doc.encode()).decode()
    assert "       --option-199\n" in out and "       --option-7\n" in out
    assert len(out) < len(doc) // 2


def test_the_finest_level_that_fits_is_used():
    doc = man_page(40)
    roomy = outline(doc, len(doc))
    assert "sets value 7 for" in roomy and "       tool - does things\n" in roomy  # level 1
    tight = outline(doc, 10)
    assert "sets value 7 for" not in tight and "       --option-7\n" in tight  # level 3


def test_a_query_keeps_the_lines_it_matches():
    doc = changelog(300).replace("number 1234:", "number 1234: the websocket reconnect loop")
    out = C.compress_query(doc.encode(), "websocket reconnect").decode()
    assert "Fix issue number 1234: the websocket reconnect loop" in out


def test_tables_and_listings_are_not_outlined():
    rows = "\n".join(f"{k}\tcountry {k}\tregion {k % 7}" for k in range(2000)) + "\n"
    assert outline(rows, 100) is None
    assert outline("\n\n".join(["a paragraph"] * 3) + "\n" + "x\n" * 50, 10) is None  # one block holds most lines


def test_crlf_lines_keep_their_endings_and_retrieve_is_exact():
    doc = changelog(200).replace("\n", "\r\n").encode()
    res = Engine().compress(doc)
    assert res.content_type == "text" and res.ratio > 0.8
    text = res.output.decode()
    assert "\r\n" in text and "\n" not in text.replace("\r\n", "")
    assert Engine().retrieve(res.recovery_handle) == doc
