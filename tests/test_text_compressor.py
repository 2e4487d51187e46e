"""text compressor: prose / Markdown / fallback (spec engine-compressors §3.6, cases §7.7, §8)."""

from __future__ import annotations

import time

from conftest import CAVEMAN_EVALS
from hypothesis import given, settings
from hypothesis import strategies as st

from cavemem.compressors.text import TextCompressor, is_heading, split_sections, strip_html_noise
from cavemem.engine.core import Engine

C = TextCompressor()
MARK = "\u2026 {} sections elided (caveman) \u2026"

BACKGROUND = (
    "Background paragraph {:02d} covers the routine context of the platform migration, the owners involved "
    "and the rollout timeline that was agreed last quarter. "
)


def incident(decision: bool = True) -> list[str]:
    secs = ["# Incident Report", "Summary: the ledger service degraded for 14 minutes after a config push."]
    secs += [(BACKGROUND.format(i) * 8).strip() for i in range(18)]
    if decision:
        secs += [
            "Decision: roll back the config push and freeze deploys until the fix lands.",
            "Appendix: dashboards that were looked at, in no particular order, listed for completeness only, nothing more",
        ]
    secs += ["Conclusion: no data was lost; follow-up tickets are filed."]
    return secs


def test_incident_report_keeps_signal_and_one_background():
    doc = "\n\n".join(incident()) + "\n"
    out = C.compress(doc.encode()).decode()
    parts = out.split("\n\n")
    assert parts[:4] == ["# Incident Report", incident()[1], incident()[2], MARK.format(17)]
    for needle in ("# Incident Report", "Decision: roll back", "Conclusion:", "sections elided"):
        assert needle in out
    assert len(out) < len(doc) / 4


def test_one_representative_per_class():
    out = C.compress("\n\n".join(incident(decision=False)).encode()).decode()
    assert sum("Background paragraph" in p for p in out.split("\n\n")) == 1


def test_bibliography_is_not_elided():
    entries = [
        ("knuth1984", "Knuth, Donald", "Literate Programming", "The Computer Journal", 1984),
        ("dijkstra1968", "Dijkstra, Edsger", "Go To Statement Considered Harmful", "Communications of the ACM", 1968),
        ("lamport1978", "Lamport, Leslie", "Time, Clocks, and the Ordering of Events", "Communications of the ACM", 1978),
        ("hoare1969", "Hoare, Tony", "An Axiomatic Basis for Computer Programming", "CACM", 1969),
        ("codd1970", "Codd, Edgar", "A Relational Model of Data for Large Shared Data Banks", "CACM", 1970),
        ("liskov1994", "Liskov, Barbara", "A Behavioral Notion of Subtyping", "TOPLAS", 1994),
        ("shannon1948", "Shannon, Claude", "A Mathematical Theory of Communication", "Bell System Technical Journal", 1948),
        ("turing1936", "Turing, Alan", "On Computable Numbers", "Proceedings of the London Mathematical Society", 1936),
        ("backus1978", "Backus, John", "Can Programming Be Liberated from the von Neumann Style", "CACM", 1978),
        ("ritchie1974", "Ritchie, Dennis and Thompson, Ken", "The UNIX Time-Sharing System", "CACM", 1974),
    ]
    doc = "\n\n".join(
        f"@article{{{key},\n  author = {{{a}}},\n  title = {{{t}}},\n  journal = {{{j}}},\n  year = {{{y}}},\n  doi = {{10.1000/{key}}}\n}}"
        for key, a, t, j, y in entries
    )
    assert len(doc) >= 1600
    out = C.compress(doc.encode())
    assert out is None or "sections elided" not in out.decode()


def test_query_keeps_matching_middle_section():
    secs = incident(decision=False)
    secs[10] = "Websocket reconnect ownership moved to the edge team; backoff is exponential with jitter after three failures."
    out = C.compress_query("\n\n".join(secs).encode(), "websocket reconnect backoff").decode()
    assert "Websocket reconnect ownership" in out
    res = Engine().compress("\n\n".join(secs).encode(), query="websocket reconnect backoff")
    assert res.content_type == "text" and b"Websocket reconnect ownership" in res.output


def test_fenced_block_with_blank_line_is_one_section():
    fence = "```python\ndef handle(event):\n    payload = parse(event)\n\n    return respond(payload)\n```"
    secs = incident(decision=False)
    secs.insert(5, fence)
    sections = split_sections("\n\n".join(secs))
    assert fence in sections
    out = C.compress("\n\n".join(secs).encode()).decode()
    assert "    payload = parse(event)" in out and "return respond(payload)" in out


def test_rejects_short_and_invalid_utf8():
    assert C.compress(b"short prose") is None
    assert C.compress(b"\xff\xfe\xfd") is None
    assert C.compress(("x" * 1599).encode()) is None


def test_few_sections_or_nothing_dropped():
    assert C.compress(("word " * 400 + "\n\n" + "other " * 100).encode()) is None  # 2 sections
    distinct = "\n\n".join(f"Section {i} talks about {w} in depth and nothing else, truly {w} only." for i, w in enumerate(
        ["apples", "rivers", "engines", "violins", "glaciers", "compilers", "tulips", "satellites", "harbors", "quartz"] * 3
    ))
    assert C.compress(distinct.encode()) is None or b"sections elided" in C.compress(distinct.encode())


def test_idempotent():
    out = C.compress("\n\n".join(incident()).encode())
    assert C.compress(out) is None


def test_crlf_and_single_line_documents():
    crlf = "\r\n\r\n".join(incident()).encode()
    out = C.compress(crlf)
    assert out is not None and b"\r\n\r\n" not in out  # separators become LF (spec §9 item 7)
    # no blank line: every line is a section (sentences, so not headings), re-joined double-spaced
    lines = "\n".join(f"Log-ish line number {i} has the same shape as all the others." for i in range(60))
    out = C.compress(lines.encode()).decode()
    assert out.split("\n\n")[:3] == ["Log-ish line number 0 has the same shape as all the others.",
                                      "Log-ish line number 1 has the same shape as all the others.", MARK.format(56)]
    short = "\n".join(f"line {i} of a file" for i in range(60))  # ≤ 8 words, no .!? : all headings
    assert C.compress(short.encode()) is None


def test_headings():
    assert is_heading("# Title") and is_heading("Release notes for March")
    assert not is_heading("A sentence.") and not is_heading("one two three four five six seven eight nine")


def test_html_noise_pre_pass():
    page = "<!doctype html><html><head><script>var a = 1;</script><style>p{}</style></head><body><!-- c --><svg><path/></svg><p>x</p></body></html>"
    assert strip_html_noise(page) == (
        "<!doctype html><html><head>" + MARK.format(1) + MARK.format(1) + "</head><body>" + MARK.format(1) + "<p>x</p></body></html>"
    )
    # unterminated blocks stay; a pathological run of openers is handled in linear time
    t = time.perf_counter()
    assert strip_html_noise("<html><script>" * 100_000) == "<html><script>" * 100_000
    assert strip_html_noise("<!--" * 200_000) == "<!--" * 200_000
    assert time.perf_counter() - t < 5


def test_html_page_through_text_compressor():
    body = "\n\n".join(f"<p>Paragraph {i} repeats the same filler words about the product page layout.</p>" for i in range(40))
    page = f"<html><body><script>{'x' * 500}</script>\n\n{body}\n\n<p>Decision: ship it.</p></body></html>"
    out = C.compress(page.encode()).decode()
    assert "sections elided" in out and "Decision: ship it." in out and "xxxxx" not in out


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["# Head", "alpha beta gamma delta.", "Note: keep.", "```", "~~~~", "", "  ", "x y z 1.", "\u00e9t\u00e9 2."]), min_size=0, max_size=60))
def test_sections_are_trimmed_and_nonempty(lines):
    text = "\n".join(lines)
    for s in split_sections(text):
        assert s and s == s.strip()
    out = C.compress(text.encode() * 20)
    if out is not None:
        out.decode()


def test_bad_inputs_are_fast():
    t = time.perf_counter()
    assert C.compress(b"x" * 1_000_000) is None  # one section
    assert C.compress(b"a\x00b " * 1000) is None  # one section with NULs
    big = "\n".join(f"This is line {i} of a long plain file." for i in range(100_000)).encode()
    out = C.compress(big)
    assert out is not None and len(out) < len(big)
    assert C.compress(b"```\n" + b"code line\n" * 10_000) is None  # an unterminated fence is one section
    assert C.compress(b"") is None and C.compress(b"\n") is None
    assert time.perf_counter() - t < 30


def test_passthrough_fixture_byte_identical(run_cli):
    data = (CAVEMAN_EVALS / "passthrough.txt").read_bytes()
    res = Engine().compress(data)
    assert res.content_type == "text" and res.output == data and res.ratio == 0
    r = run_cli("cavemem", "compress", input=data)
    assert r.rc == 0 and r.stdout == data and r.report["ratio"] == 0


def test_query_via_cli(run_cli):
    secs = incident(decision=False)
    secs[10] = "Websocket reconnect ownership moved to the edge team; backoff is exponential with jitter after three failures."
    r = run_cli("cavemem", "compress", "--query", "websocket reconnect backoff", input="\n\n".join(secs).encode())
    assert r.rc == 0 and r.report["content_type"] == "text" and b"Websocket reconnect ownership" in r.stdout
