"""text compressor: prose / Markdown / fallback (spec engine-compressors §3.6, cases §7.7, §8)."""

from __future__ import annotations

import re
import time
from pathlib import Path

from conftest import CAVEMAN_EVALS, eval_fixture
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
    data = eval_fixture("passthrough.txt")
    res = Engine().compress(data)
    assert res.content_type == "text" and res.output == data and res.ratio == 0
    r = run_cli("cavemem", "compress", input=data)
    assert r.rc == 0 and r.stdout == data and r.report["ratio"] == 0


def test_query_via_cli(run_cli):
    secs = incident(decision=False)
    secs[10] = "Websocket reconnect ownership moved to the edge team; backoff is exponential with jitter after three failures."
    r = run_cli("cavemem", "compress", "--query", "websocket reconnect backoff", input="\n\n".join(secs).encode())
    assert r.rc == 0 and r.report["content_type"] == "text" and b"Websocket reconnect ownership" in r.stdout


# -- prose stage (cavemem addition: condense long distinct prose sentence by sentence) ---------

from cavemem.compressors import prose  # noqa: E402

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

CLAUSES = [
    ("Scope", "This agreement covers the {w} services that the provider operates for the customer. "
     "It explains in some detail how the {w} obligations are split between both parties over time. "
     "Nothing in this part changes what the other parts say about payment or about liability. "
     "Both parties read this part together with the annex that lists every {w} service by name."),
    ("Duties", "The provider keeps the {w} systems running during the agreed service window every week. "
     "Planned maintenance of the {w} systems is announced to the customer well ahead of time. "
     "Unplanned outages are reported to the customer as soon as the provider becomes aware of them. "
     "The customer helps the provider by giving timely access to the {w} premises when needed."),
]
WORDS = ["hosting", "backup", "network", "storage", "database", "mail", "billing", "identity"]
# words that make every paragraph's vocabulary distinct (so the reference stage keeps them all)
FLAVOUR = ["amber river", "basalt orchard", "cobalt harbor", "dune lantern", "ember quarry", "fjord meadow",
           "granite willow", "heron canyon"]


def long_prose_document() -> str:
    secs = ["Master Services Agreement", "Version 3.2 of the agreement between the provider and the customer."]
    for i, w in enumerate(WORDS):
        title, body = CLAUSES[i % 2]
        secs.append(f"{i + 1}. {title} of {w}")
        secs.append(body.format(w=w).replace(" services", f" {FLAVOUR[i]} services").replace(" systems", f" {FLAVOUR[i]} systems")
                    .replace(" premises", f" {FLAVOUR[i]} premises").replace(" obligations", f" {FLAVOUR[i]} obligations"))
    secs[5] += " Support requests go to https://support.example.invalid/tickets within 24 hours."
    secs += ["Signatures follow on the next page.", "End of agreement."]
    return "\n\n".join(secs) + "\n"


def test_long_distinct_prose_is_condensed_to_leads_and_facts():
    doc = long_prose_document()
    assert C.compress(doc.encode()) is not None
    out = C.compress(doc.encode()).decode()
    assert len(out) < 0.6 * len(doc)
    parts = out.split("\n\n")
    assert parts[:2] == doc.split("\n\n")[:2] and parts[-2:] == ["Signatures follow on the next page.", "End of agreement."]
    for i, w in enumerate(WORDS):  # every heading and every paragraph's lead sentence
        assert f"{i + 1}. {CLAUSES[i % 2][0]} of {w}" in parts
        assert doc.split("\n\n")[3 + 2 * i].split(". ")[0] + "." in out
    assert "Support requests go to https://support.example.invalid/tickets within 24 hours." in out  # a fact
    assert out.count("sentences elided (caveman)") >= len(WORDS)
    assert "Nothing in this part changes" not in out
    assert C.compress(out.encode()) is None  # idempotent


def test_prose_stage_keeps_query_matches():
    doc = long_prose_document()
    out = C.compress_query(doc.encode(), "unplanned outages reported").decode()
    assert out.count("Unplanned outages are reported to the customer") == len(WORDS) // 2
    assert "Nothing in this part changes" not in out


def test_long_lead_sentence_is_cut_at_a_clause_unless_its_tail_holds_a_fact():
    lead = ("The customer may terminate the agreement at any time, for any reason or for no reason at all, "
            "by giving written notice to the provider, and the provider shall then stop all work that is still "
            "open under the agreement, without any further obligation on either side.")
    doc = long_prose_document()
    doc = doc.replace(doc.split("\n\n")[7].split(". ")[0] + ".", lead)
    out = C.compress(doc.encode()).decode()
    assert "The customer may terminate the agreement at any time, for any reason or for no reason at all," in out
    assert "without any further obligation" not in out
    assert re.search(r"… \d+ words, \d+ sentences elided \(caveman\) …", out)
    with_fact = doc.replace("without any further obligation on either side.", "within 30 days of the notice.")
    assert "within 30 days of the notice." in C.compress(with_fact.encode()).decode()


def test_prose_stage_never_cuts_fences_code_tables_or_short_documents():
    fence = "```python\n" + "\n".join(f"value_{i} = compute(i)  # Step {i}. Then the next one. And more." for i in range(12)) + "\n```"
    table = "\n".join(f"| row {i} | This cell holds a sentence. Another sentence follows here. |" for i in range(6))
    config = "\n".join(f"key_{i} = This value reads like a sentence. It has a second one too." for i in range(6))
    doc = long_prose_document().replace("\n\n3. ", f"\n\n{fence}\n\n{table}\n\n{config}\n\n3. ")
    out = C._sections(doc, "").decode()  # the reference and prose stages (the outline stage is tested apart)
    for block in (fence, table, config):
        assert block in out
    small = "\n\n".join(long_prose_document().split("\n\n")[:8])[:1590]
    assert len(small.strip()) < 1600 and C.compress(small.encode()) is None  # under the floor: untouched


def test_prose_stage_only_runs_when_the_reference_stage_saves_little():
    # the §7.7 incident report: the reference stage already drops 17 sections, its output is verified
    doc = "\n\n".join(incident()) + "\n"
    out = C.compress(doc.encode()).decode()
    assert "sentences elided" not in out and "words elided" not in out


def test_sentence_spans_respect_enumerators_abbreviations_and_decimals():
    text = "3. Grant of Patent License. Subject to e.g. the U.S. rules in version 2.0 of it. Done! Next? Yes."
    got = [text[a:b] for a, b in prose.sentence_spans(text)]
    assert got == ["3. Grant of Patent License.", "Subject to e.g. the U.S. rules in version 2.0 of it.", "Done!", "Next?", "Yes."]


def test_bullet_items_are_units():
    text = "- first item explains the thing.\n  It wraps here.\n- second item\n* third item"
    assert [text[a:b] for a, b in prose.item_spans(text)] == [
        "- first item explains the thing.\n  It wraps here.", "- second item", "* third item"]
    assert prose.item_spans("plain line\n- not a list start") is None


def test_real_licence_and_readme_fixtures():
    apache = (FIXTURES / "text" / "apache-2.0.txt").read_bytes()
    res = Engine().compress(apache, query="patent license")
    assert res.content_type == "text" and res.ratio >= 0.25
    for fact in (b"Apache License", b"Version 2.0, January 2004", b"TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION",
                 b"Grant of Patent License", b"http://www.apache.org/licenses/LICENSE-2.0", b"patent litigation"):
        assert fact in res.output
    assert Engine().retrieve(res.recovery_handle) == apache
    mpl = (FIXTURES / "text" / "mpl-2.0.txt").read_bytes()
    out = C.compress(mpl)
    assert b"Mozilla Public License Version 2.0" in out and b"Exhibit A - Source Code Form License Notice" in out
    assert len(out) < 0.8 * len(mpl)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([
    "Plain sentence here.", "Another one, with a clause, follows.", "See https://x.invalid/a.", "e.g. this.",
    "3. Title.", "- item", "```", "", "", "Version 1.2 ships.", "A very long sentence " + "with many words " * 12 + "ends.",
]), min_size=0, max_size=80))
def test_prose_stage_output_is_text_and_stable(lines):
    text = "\n".join(lines) * 3
    out = C.compress(text.encode())
    if out is not None:
        again = C.compress(out)
        assert again is None or len(again) <= len(out)
