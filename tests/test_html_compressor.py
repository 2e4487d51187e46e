"""html compressor: readability-style extraction (spec engine-compressors §3.7, §7.8)."""

from __future__ import annotations

import time

import pytest

from cavemem.compressors.html import HTMLCompressor
from cavemem.engine.core import Engine
from cavemem.store.ccr import open_ccr

from conftest import CAVEMAN_EVALS, eval_fixture

P1 = (
    "This is the first substantial paragraph, and it carries enough words, clauses and commas to be "
    "scored well above the threshold the extractor uses."
)
P2 = (
    "Here is a second paragraph that keeps the argument going, with more prose, more commas, and enough "
    "length to add to the container's content score."
)
P3 = "A third paragraph rounds the story off with the kind of text, sentences and clauses that readers consume."

ARTICLE_HTML = f"""<!doctype html>
<html><head><title>Site</title><style>.x{{color:red}}</style></head>
<body>
  <nav class="site-nav"><a href="/">Home</a> <a href="/a">About</a> <a href="/s">Sign up</a></nav>
  <header class="banner"><a href="/promo">Sign up today</a></header>
  <article class="post-content">
    <h1>The Title Of The Article</h1>
    <p>{P1}</p>
    <p>{P2}</p>
    <p>{P3}</p>
  </article>
  <aside class="sidebar"><a href="/r1">Related one</a><a href="/r2">Related two</a></aside>
  <footer class="site-footer"><a href="/privacy">Privacy</a> <span>All rights reserved forever</span></footer>
  <script>var tracking = "tracking pixel"; document.body.style = "color:red";</script>
</body></html>
"""

c = HTMLCompressor()


def test_article_extraction_exact():
    out = c.compress(ARTICLE_HTML.encode())
    # the page's <title> leads (it is not in <body>); the article's own heading is not repeated
    assert out == f"Site\nThe Title Of The Article\n\n{P1}\n\n{P2}\n\n{P3}".encode()
    for noise in (b"tracking pixel", b"color:red", b"Sign up", b"Privacy"):
        assert noise not in out


def test_title_and_headings_outside_the_article_stay_in_order():
    """A sidebar's and a table of contents' headings name what was left out: they stay, text runs untouched."""
    page = f"""<html><head><title>fs | Node.js  v20\n Docs</title></head><body>
    <div class="sidebar"><h2><a href="/">core</a><span class="v">1.97.0</span></h2><a href="/x">x</a></div>
    <article class="post-content"><h1>Article &amp; head</h1><p>{P1}</p><p>{P2}</p></article>
    <div class="toc"><h3>Table of <em>contents</em></h3><a href="/y">y</a></div>
    <footer class="site-footer"><a href="/p">Privacy</a></footer></body></html>"""
    out = c.compress(page.encode()).decode()
    assert out == f"fs | Node.js v20 Docs\ncore1.97.0\nArticle & head\n\n{P1}\n\n{P2}\nTable of contents"
    assert out.count("Article & head") == 1 and "Privacy" not in out


def test_link_farm_passes_through():
    farm = "<html><body><div>" + "<p><a href='/x'>A link with a little text</a></p>" * 40 + "</div></body></html>"
    assert c.compress(farm.encode()) is None


def test_inline_tags_keep_the_text_run_exact():
    """Phrasing tags add no characters: a browser shows ``fiftydollars`` and so do we."""
    body = (
        "<html><body><div class='content'><p>It cost <b>fifty</b><i>dollars</i> in the end, and we paid it, "
        "gladly, because the alternative was worse.</p><p>Go <a href='/d'>read the docs</a>here before you "
        "ask, they explain the whole pipeline, step by step, including every corner case we know.</p>"
        "</div></body></html>"
    )
    out = c.compress(body.encode())
    assert out is not None
    assert b"fiftydollars" in out and b"fifty dollars" not in out
    assert b"read the docshere" in out


def test_real_release_notes_keep_code_runs_exact():
    """A slice of Debian's gcc-12 NEWS.html (tests/data/detect/README.md): ``<code>a</code>/<code>b</code>``
    renders as the page's own ``a/b`` and a block boundary still separates list items."""
    from conftest import REPO

    out = c.compress((REPO / "tests" / "data" / "detect" / "gcc12_news.html").read_bytes())
    assert out is not None
    assert b"Support for the type __int128_t/integer(kind=16)\nwas added." in out
    assert b"memcpy,memmove and" in out
    assert b"Debug experience with ROCGDB has been improved.\n\nSupport for the type" in out


def test_multi_section_main_keeps_every_section():
    filler = "This sentence pads the section so that it scores, with commas, clauses, and plain words. "
    page = (
        "<html><body><nav><a href='/'>Home</a></nav><main>"
        f"<section><h2>INTRO_HEADLINE</h2><p>{filler * 2}</p></section>"
        f"<section><p>The middle section explains things. {filler * 2}</p></section>"
        f"<section><p>{filler * 2} UNIQUE_OUTRO_MARKER</p></section>"
        "</main><footer>foot</footer></body></html>"
    )
    out = c.compress(page.encode())
    assert out is not None
    for needle in (b"INTRO_HEADLINE", b"middle section", b"UNIQUE_OUTRO_MARKER"):
        assert needle in out


def test_pre_keeps_indentation():
    prose = "The example below shows the retry loop, with its guard, its call, and its exit, in full detail."
    page = (
        "<html><body><div class='post'><p>" + prose + "</p><p>" + prose + "</p>"
        "<pre>\nfunc main() {\n    if x == 1 {\n        run()\n    }\n}\n</pre></div>"
        "<div class='footer'>" + "<a href='/x'>x</a>" * 30 + "</div></body></html>"
    )
    out = c.compress(page.encode())
    assert out is not None
    assert b"    if x == 1 {" in out
    assert out.endswith(b"\n\nfunc main() {\n    if x == 1 {\n        run()\n    }\n}")


def test_tiny_fragment_fails_and_output_is_deterministic():
    assert c.compress(b"just a tiny <b>fragment</b>") is None
    assert c.compress(b"   \n\t ") is None
    assert c.compress(ARTICLE_HTML.encode()) == c.compress(ARTICLE_HTML.encode())


def test_crlf_input_gives_lf_output():
    out = c.compress(ARTICLE_HTML.replace("\n", "\r\n").encode())
    assert out is not None and b"\r" not in out
    assert out == c.compress(ARTICLE_HTML.encode())


def test_content_directly_in_body_falls_back_to_body():
    # release-notes style pages keep their text straight in <body>; the reference finds no
    # container and passes through, we render the body (documented deviation)
    para = "<p>Release note entry with enough text to be substantial, listing fixes, changes, and caveats.</p>\n"
    page = "<html><head><script>track()</script></head><body><h1>Release notes</h1>\n" + para * 10 + "</body></html>"
    out = c.compress(page.encode())
    assert out is not None
    assert out.startswith(b"Release notes\n\nRelease note entry")
    assert b"track()" not in out and b"<p>" not in out


@pytest.mark.skipif(not CAVEMAN_EVALS.is_dir(), reason="the reference eval fixtures (../shared, not redistributable) are absent")
def test_caveman_eval_fixture_through_engine():
    data = eval_fixture("article.html")
    eng = Engine(store=open_ccr(":memory:"))
    res = eng.compress(data)
    assert res.content_type == "html"
    assert res.recovery_handle
    assert 0.30 <= res.ratio <= 0.95
    assert b"How Byte-Safe Compression Earns Trust" in res.output
    assert b"tracking pixel" not in res.output
    assert b"copyright boilerplate" not in res.output
    # the reference's 1636 -> 665 bytes, plus the page's title line (34 bytes): issue 9's probes
    assert len(res.output) == 665 + 34
    assert res.output.startswith("Caveman Cloud \u2014 Article Fixture\nHow Byte-Safe".encode())
    assert eng.retrieve(res.recovery_handle) == data


@pytest.mark.skipif(not CAVEMAN_EVALS.is_dir(), reason="the reference eval fixtures (../shared, not redistributable) are absent")
def test_cli_compress_html(run_cli):
    data = eval_fixture("article.html")
    r = run_cli("cavemem", "compress", input=data)
    assert r.rc == 0
    assert r.stdout.startswith("Caveman Cloud \u2014 Article Fixture\nHow Byte-Safe Compression Earns Trust\n\n".encode())
    assert r.report["content_type"] == "html"


@pytest.mark.parametrize(
    "payload",
    [
        b"<html><body>" + b"<div>" * 100_000 + b"deep text, deep text, deep text, deep text" + b"</div>" * 100_000,
        b"<div class='content'><p>" + b"x" * 1_000_000 + b"</p></div>",
        b"<" * 1_000_000,
        b"<a " + b'href="' * 200_000,
        b"<html><body>\n" + b"<p>line with, some, commas and text enough to score</p>\n" * 100_000 + b"</body></html>",
        b"<html><body><div><p>caf\xe9 latin-1 text, with commas, and \xff\xfe odd bytes \xc3\xa9 mixed in</p>" * 20 + b"</div>",
        b"<![if !supportLists]><p>word html</p><![endif]>" * 50,
        b"<html><frameset><frame src='a'></frameset></html>",
        b"<table><tr><td><table><tr><td>" * 2000 + b"cell text, cell text, cell text, cell text",
        b"\x00\x01\x02<p>\x00binary\x00</p>" * 5000,
    ],
)
def test_bad_input_never_crashes_or_hangs(payload):
    start = time.monotonic()
    out = c.compress(payload)
    assert time.monotonic() - start < 10
    assert out is None or (200 <= len(out) < len(payload))


def test_invalid_utf8_bytes_survive_in_output():
    para = b"<p>Caf\xe9 au lait, served warm, with a croissant, every morning, without fail, for years.</p>"
    page = b"<html><body><div class='article'>" + para * 5 + b"</div></body></html>"
    out = c.compress(page)
    assert out is not None
    assert b"Caf\xe9 au lait" in out


def test_word_html_marked_sections_are_tolerated():
    para = "<p>Minutes of the meeting, with decisions, owners, and dates, recorded for the whole team.</p>"
    page = "<html><body><div class='WordSection1'><![if !supportLists]>" + para * 5 + "<![endif]></div></body></html>"
    out = c.compress(page.encode())
    assert out is not None
    assert out.count(b"Minutes of the meeting") == 5
    assert b"supportLists" not in out


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_fragment = st.sampled_from(
    ["<div class='content'>", "</div>", "<p>", "</p>", "<li>", "<table><tr><td>", "</td>", "<pre>", "</pre>", "<a href=x>",
     "</a>", "<br>", "<script>x=1</script>", "<!-- c -->", "&amp;", "&#0;", "<![CDATA[x]]>", "<", ">", "\r\n",
     "Some words, with commas, and enough length to be scored as content here. ", "\x00", "\udc80"]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_fragment, max_size=120))
def test_arbitrary_markup_never_raises(parts):
    data = "".join(parts).encode("utf-8", "surrogateescape")
    out = c.compress(data)
    assert out is None or (200 <= len(out) < len(data))
