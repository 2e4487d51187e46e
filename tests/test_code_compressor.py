"""The ``code`` compressor (spec engine-compressors §3.3a/§3.3c, cases §7.3, fixtures §8)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cavemem.compressors.code import CodeCompressor, CodeOptions, sniff_languages
from cavemem.compressors.code.sniff import reference_language
from cavemem.compressors.code import languages as code_languages
from cavemem.compressors.code.elide import elide
from cavemem.compressors.code.parse_errors import error_spans
from cavemem.engine.core import Engine
from cavemem.store.ccr import open_ccr

from conftest import CAVEMAN_EVALS, eval_fixture

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

ELIDED = b"{ /* caveman: body elided */ }"

GO_DEMO = (
    b'package demo\n\nimport "fmt"\n\n// Add sums two ints.\nfunc Add(a, b int) int {\n\ttotal := a + b\n'
    b"\tfmt.Println(total)\n\treturn total\n}\n\nfunc Mul(a, b int) int {\n\treturn a * b\n}\n"
)
PY_SOURCE = (
    b"import os\n\ndef add(a, b):\n    total = a + b\n    return total\n\nclass Calc:\n"
    b"    def mul(self, a, b):\n        return a * b\n"
)
TS_SOURCE = b"""interface Point {
  x: number;
  y: number;
}

export function add(a: number, b: number): number {
  const total = a + b;
  console.log(total);
  return total;
}
"""
RUST_SOURCE = b"""use std::collections::HashMap;

/// Process counts distinct items.
pub fn process(items: Vec<String>) -> usize {
    let mut seen = HashMap::new();
    for item in items.iter() {
        *seen.entry(item.clone()).or_insert(0) += 1;
    }
    seen.len()
}
"""
JAVA_SOURCE = b"""import java.util.List;

public class Processor {
    private int count;

    public Processor() {
        this.count = 0;
    }

    public int process(List<String> items) {
        int n = 0;
        for (String s : items) {
            n += s.length();
        }
        return n;
    }
}
"""
C_SOURCE = b"""#include <stdio.h>

int process(int n) {
    int total = 0;
    for (int i = 0; i < n; i++) {
        total += i;
    }
    printf("%d\\n", total);
    return total;
}
"""
CPP_SOURCE = b"""#include <string>
#include <vector>

namespace demo {
int Process(const std::vector<std::string>& items) {
    int total = 0;
    for (const auto& s : items) {
        total += static_cast<int>(s.size());
    }
    return total;
}
}  // namespace demo
"""


@pytest.fixture
def code() -> CodeCompressor:
    return CodeCompressor()


# -- spec §7.3 ------------------------------------------------------------------------------------


def test_go_demo_exact_output(code):
    out = code.compress(GO_DEMO)
    assert out == (
        b'package demo\n\nimport "fmt"\n\n// Add sums two ints.\nfunc Add(a, b int) int { /* caveman: body elided */ }\n'
        b"\nfunc Mul(a, b int) int { /* caveman: body elided */ }\n"
    )
    assert b"total := a + b" not in out
    # idempotence: a second pass finds nothing to replace
    assert code.compress(out) is None


def test_python_exact_output(code):
    out = code.compress(PY_SOURCE)
    assert out == b"import os\n\ndef add(a, b):\n    ...\n\nclass Calc:\n    def mul(self, a, b):\n        ...\n"
    assert code.compress(out) is None


def test_typescript_keeps_signatures_and_interfaces(code):
    out = code.compress(TS_SOURCE)
    assert b"export function add(a: number, b: number): number { /* caveman: body elided */ }" in out
    assert b"interface Point" in out and b"x: number" in out
    assert b"console.log(total)" not in out


@pytest.mark.parametrize(
    "source, signature",
    [
        (RUST_SOURCE, b"pub fn process(items: Vec<String>) -> usize"),
        (JAVA_SOURCE, b"public int process(List<String> items)"),
        (C_SOURCE, b"int process(int n)"),
        (CPP_SOURCE, b"int Process(const std::vector<std::string>& items)"),
    ],
)
def test_brace_languages_elide_and_shrink(code, source, signature):
    out = code.compress(source)
    assert b"caveman: body elided" in out
    assert signature + b" " + ELIDED in out
    assert len(out) < len(source)


def test_java_constructor_body_is_elided(code):
    out = code.compress(JAVA_SOURCE)
    assert b"public Processor() " + ELIDED in out
    assert b"private int count;" in out


def test_arrow_expression_bodies_kept_and_no_size_check(code):
    # spec §3.3a step 8: the derived 3-line example grows from 90 to 120 bytes and is still ok
    src = b"const f = (x) => x * 2;\nconst g = (x) => { return x * 2; };\nclass A { m() { return 1; } }\n"
    assert len(src) == 90
    out = code.compress(src)
    assert out == (
        b"const f = (x) => x * 2;\nconst g = (x) => " + ELIDED + b";\nclass A { m() " + ELIDED + b" }\n"
    )
    assert len(out) == 120


def test_nested_functions_are_covered_by_the_outer_replacement_which_names_them(code):
    # one replacement for the outer body; the nested definition's head stays readable on it
    src = b"function outer(a) {\n  function inner(b) {\n    return b + 1;\n  }\n  return inner(a) + inner(a * 2) + 7;\n}\n"
    out = code.compress(src)
    assert out == b"function outer(a) { /* caveman: body elided; defines: function inner(b) */ }\n"
    assert code.compress(out) is None  # a second pass finds nothing left to elide


def test_nested_python_definitions_are_listed_after_the_ellipsis(code):
    src = (
        b"def outer(items):\n"
        b"    class Box(object):\n        size = 3\n"
        b"    def helper(x, y=2):\n        return [x * y for _ in range(10)]\n"
        b"    return [helper(i) for i in items if i % 3 == 0 and i > 10]\n"
    )
    out = code.compress(src)
    assert out == b"def outer(items):\n    ...  # caveman: body elided; defines: class Box(object); def helper(x, y=2)\n"
    assert code.compress(out) is None


def test_anonymous_class_is_named_by_its_binding(code):
    src = b"var m = function () {\n  var Gt = class extends Base { run() { return this.x + this.y + 1; } };\n  return Gt;\n};\n"
    out = code.compress(src)
    assert out == b"var m = function () { /* caveman: body elided; defines: Gt = class extends Base */ };\n"


def test_body_kept_when_listing_its_definitions_costs_as_much(code):
    # the body is nothing but two tiny nested functions: naming them is no shorter than showing them
    src = b"function outer() {\n  function a() {}\n  function b() {}\n}\n"
    assert code.compress(src) is None


def test_function_in_default_parameter_is_not_descended_into(code):
    # the walk never enters a claimed function, so a closure in its parameters stays verbatim
    src = b"function f(cb = function () { return 1; }) {\n  return cb();\n}\n"
    assert code.compress(src) == b"function f(cb = function () { return 1; }) " + ELIDED + b"\n"


def test_already_elided_body_is_left_alone(code):
    src = b"function a() { /* caveman: body elided */ }\nfunction b() {\n  return 2;\n}\n"
    assert code.compress(src) == b"function a() { /* caveman: body elided */ }\nfunction b() " + ELIDED + b"\n"


def test_malformed_input_fails_closed(code):
    assert code.compress(b"this is not source code at all, just words") is None
    assert code.compress(b"package x\nfunc broken( {\n") is None
    assert code.compress(b"def broken(:\n    pass\n") is None  # a MISSING ")" in the head: not a trustworthy body


# -- the "no new errors" gate for input that never parses cleanly ------------------------------

# zlib style: ``local`` and ``OF`` are macros tree-sitter cannot expand, so every definition's head
# holds an ERROR node (``local int f()`` parses ``local`` as the type and ``int`` as an error).
MACRO_C = b"""#include <stdio.h>
#include "zlib.h"

#define local static

local int ZEXPORT helper OF((int x));

/* Add one to a, the slow way. */
local int add_one(int a)
{
    int b = a;
    b += 1;
    return b;
}

local void ZEXPORT report(const char *msg)
{
    fprintf(stderr, "%s\n", msg);
}

int main(void)
{
    report("hello");
    return add_one(41) == 42 ? 0 : 1;
}
"""


def test_macro_heavy_c_is_elided_around_signature_errors(code):
    assert _error_texts("c", MACRO_C)  # the premise: tree-sitter reports errors here
    out = code.compress(MACRO_C)
    assert out == (
        MACRO_C.split(b"local int add_one")[0]
        + b"local int add_one(int a)\n" + ELIDED + b"\n\n"
        + b"local void ZEXPORT report(const char *msg)\n" + ELIDED + b"\n\n"
        + b"int main(void)\n" + ELIDED + b"\n"
    )
    assert _error_texts("c", out) == _error_texts("c", MACRO_C)  # the same errors, nothing new
    assert code.compress(out) is None  # idempotent: nothing left to elide


KR_C = b"""#include <stdio.h>

#define local static

local int add(a, b)
    int a;
    int b;
{
    return a + b;
}

local char *copy(dst, src)
    char *dst;
    const char *src;
{
    char *d = dst;
    while ((*d++ = *src++) != 0)
        ;
    return dst;
}
"""


def test_kr_definitions_keep_their_parameter_declarations(code):
    out = code.compress(KR_C)
    assert out == (
        b"#include <stdio.h>\n\n#define local static\n\n"
        b"local int add(a, b)\n    int a;\n    int b;\n" + ELIDED + b"\n\n"
        b"local char *copy(dst, src)\n    char *dst;\n    const char *src;\n" + ELIDED + b"\n"
    )


BROKEN_BODY_C = b"""#include <stdio.h>

static int first(int a) {
    return a + 1;
}

static int middle(int a) {
    int x = a +* / ;;; @@@ ];
    return x;
}

static int last(int c) {
    return c * 2;
}
"""

MISSING_BRACE_C = b"""#include <stdio.h>

static int first(int a) {
    return a + 1;
}

static int broken(int b) {
    if (b > 2) {
        return b;
    /* the if's closing brace is missing: tree-sitter closes it at the end of the file */
    return 0;
}

static int last(int c) {
    return c * 2;
}
"""


def test_body_holding_garbage_is_kept_verbatim(code):
    out = code.compress(BROKEN_BODY_C)
    assert b"static int first(int a) " + ELIDED in out
    assert b"static int last(int c) " + ELIDED in out
    assert b"static int middle(int a) {\n    int x = a +* / ;;; @@@ ];\n    return x;\n}\n" in out


def test_unbalanced_braces_keep_everything_after_the_break(code):
    # ``broken``'s body runs to the end of the file and holds the MISSING "}": it and the
    # function tree-sitter nests inside it stay verbatim
    out = code.compress(MISSING_BRACE_C)
    assert out == MISSING_BRACE_C.replace(b"{\n    return a + 1;\n}", ELIDED)


def test_garbage_between_functions_fails_closed(code):
    garbage = b"@@@ this is not C $$$ %%% ]]] <<< >>> ((( !!! ??? ### ~~~ ^^^ &&& |||\n"
    src = BROKEN_BODY_C.replace(b"static int middle", garbage * 3 + b"static int middle")
    assert code.compress(src) is None  # errors are a large share of the input: not source we trust
    py = b"import os\n\ndef good(a):\n    return a + 1\n\ndef bad(a:\n    return a\n\ndef also_good(b):\n    return b * 2\n"
    assert code.compress(py) is None


def test_error_touching_a_body_blocks_it(code):
    # an error right against the closing brace (only blanks between) keeps the body
    src = MACRO_C + b"\nint tail(void)\n{\n    return 0;\n}\n@@@\n"
    out = code.compress(src)
    assert out is not None and out.endswith(b"int tail(void)\n{\n    return 0;\n}\n@@@\n")


def test_gate_rejects_output_with_new_errors(monkeypatch, code):
    # an elision text that cannot stand in a compound statement's place makes a new error
    monkeypatch.setitem(
        code_languages.LANGUAGES, "c",
        code_languages.LanguageSpec("c", "tree_sitter_c", "language", ("function_definition",), ("compound_statement",), b"{ @@@ "),
    )
    assert code.compress(MACRO_C) is None


def test_zlib_gzlog_fixture_is_compressed():
    data = (FIXTURES / "code" / "zlib-gzlog.c").read_bytes()
    out = CodeCompressor().compress(data)
    assert out is not None and len(out) < 0.7 * len(data)
    for signature in (b"gzlog *gzlog_open(char *path)", b"int gzlog_write(gzlog *logd, void *data, size_t len)", b"int gzlog_close(gzlog *logd)"):
        assert signature + b"\n" + ELIDED in out
    assert _error_texts("c", out) == _error_texts("c", data)


def test_nothing_to_elide_fails_closed(code):
    assert code.compress(b"const a = 1;\nlet b = a + 2;\n") is None
    assert code.compress(b"package x\n\nfunc f() {\n\t/* caveman: body elided */\n}\n") is not None
    assert code.compress(b"") is None


def test_crlf_and_surrounding_bytes_untouched(code):
    src = b"package demo\r\n\r\n// Add adds.\r\nfunc Add(a, b int) int {\r\n\treturn a + b\r\n}\r\n"
    assert code.compress(src) == b"package demo\r\n\r\n// Add adds.\r\nfunc Add(a, b int) int " + ELIDED + b"\r\n"


# -- options §3.3c ----------------------------------------------------------------------------------

GO_WITH_DIRECTIVES = b"""//go:build linux
// +build linux,amd64

// PackageDoc describes the package.
package demo

import _ "embed"

//go:embed banner.txt
var banner string

//go:generate stringer -type=Kind

// Add adds.
func Add(a, b int) int {
\treturn a + b // sum
}
"""


def test_comment_removal_keeps_directives():
    out = CodeCompressor(CodeOptions(remove_comments=True)).compress(GO_WITH_DIRECTIVES)
    for kept in (b"//go:build linux", b"// +build linux,amd64", b"//go:embed banner.txt", b"//go:generate"):
        assert kept in out
    assert b"PackageDoc" not in out and b"// Add adds." not in out
    assert b"func Add(a, b int) int " + ELIDED in out


def test_default_keeps_comments(code):
    out = code.compress(GO_WITH_DIRECTIVES)
    assert b"// PackageDoc describes the package." in out and b"// Add adds." in out


def test_docstring_removal():
    src = b'"""Module docstring."""\n\nimport os\n\n\nclass Calc:\n    """Class docstring."""\n\n    def mul(self, a, b):\n        """Method docstring."""\n        return a * b\n'
    out = CodeCompressor(CodeOptions(remove_docstrings=True)).compress(src)
    assert b"docstring" not in out
    assert out == b"\n\nimport os\n\n\nclass Calc:\n    \n\n    def mul(self, a, b):\n        ...\n"
    # an f-string first statement is not a docstring
    fsrc = b'f"""not a docstring {x}"""\nimport os\ndef g():\n    return 1\n'
    assert CodeCompressor(CodeOptions(remove_docstrings=True)).compress(fsrc).startswith(b'f"""not a docstring {x}"""\n')
    # a module whose only statement is a docstring stays unchanged
    assert CodeCompressor(CodeOptions(remove_docstrings=True)).compress(b'"""only a docstring"""\n') is None


# -- sniffing and grammar fallbacks ----------------------------------------------------------------


@pytest.mark.parametrize(
    "source, first",
    [
        (GO_DEMO, "go"),
        (PY_SOURCE, "python"),
        (RUST_SOURCE, "rust"),
        (JAVA_SOURCE, "java"),
        (C_SOURCE, "c"),
        (CPP_SOURCE, "cpp"),
        (TS_SOURCE, "typescript"),
    ],
)
def test_sniff_follows_the_reference_order(source, first):
    assert reference_language(source) == first
    assert sniff_languages(source)[0] == first


def test_sniff_unknown_content():
    assert sniff_languages(b"just some words here") == ()
    assert reference_language(b"just some words here") is None


def test_c_with_ifdef_is_missniffed_by_the_reference_but_still_compressed(code):
    # "#ifdef DEBUG" contains "def " and the format string a colon: the reference says python
    src = b'#include <stdio.h>\n#ifdef DEBUG\n#define LOG(x) puts(x)\n#endif\n\nint main(void) {\n    printf("n: %d\\n", 1);\n    return 0;\n}\n'
    assert reference_language(src) == "python"
    assert sniff_languages(src) == ("python", "c", "cpp")
    assert code.compress(src).endswith(b"int main(void) " + ELIDED + b"\n")


def test_js_missniffed_as_rust_is_still_compressed(code):
    src = b"// fn -> arrow\nfunction add(a, b) {\n  const fn = (x) => x;\n  return fn(a) + b;\n}\n"
    assert sniff_languages(src)[:2] == ("rust", "typescript")
    assert code.compress(src) == b"// fn -> arrow\nfunction add(a, b) " + ELIDED + b"\n"


def test_jsx_falls_back_to_tsx(code):
    src = b'import React from "react";\n\nexport function Greeting({ name }) {\n  const upper = name.toUpperCase();\n  return <div className="greeting">Hello, {upper}!</div>;\n}\n'
    assert sniff_languages(src)[:2] == ("typescript", "tsx")
    assert code.compress(src) == b'import React from "react";\n\nexport function Greeting({ name }) ' + ELIDED + b"\n"


def test_c_sniff_falls_back_to_cpp(code):
    # a C++ reference parameter is a syntax error for the C grammar
    src = b"#include <stdio.h>\nint add(int& a) {\n    a += 1;\n    return a;\n}\n"
    assert sniff_languages(src)[:2] == ("c", "cpp")
    assert elide("c", src, CodeOptions(), code_languages.Deadline()) == (False, None)
    assert code.compress(src) == b"#include <stdio.h>\nint add(int& a) " + ELIDED + b"\n"


def test_ruby_methods_elided_with_a_comment(code):
    src = b"""class Greeter
  # Says hello.
  def greet(name)
    msg = "hello #{name}"
    puts msg
  rescue StandardError => e
    warn e.message
  end

  def self.build; new; end
  def answer = 42
end
"""
    assert sniff_languages(src)[-1] == "ruby"
    out = code.compress(src)
    assert out == b"""class Greeter
  # Says hello.
  def greet(name)
    # caveman: body elided
  end

  def self.build; new; end
  def answer = 42
end
"""


def test_unavailable_grammar_fails_closed(monkeypatch, code):
    broken = code_languages.LanguageSpec("go", "no_such_grammar_module", "language", ("function_declaration",), ("block",), ELIDED)
    monkeypatch.setitem(code_languages.LANGUAGES, "go", broken)
    monkeypatch.setattr(code_languages, "_cache", {})
    assert code.compress(GO_DEMO) is None


def test_spent_parse_budget_fails_closed():
    spent = code_languages.Deadline(0.0)
    end = time.thread_time() + 0.002
    while time.thread_time() <= end:  # the budget is CPU time: spend some
        pass
    assert elide("go", GO_DEMO, CodeOptions(), spent) == (False, None)


def test_tree_sitter_is_imported_lazily():
    probe = "import sys, cavemem.compressors.code, cavemem.engine.registry; print('tree_sitter' in sys.modules)"
    got = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert got.stdout.strip() == "False"


# -- bad input --------------------------------------------------------------------------------------


def _timed(code, data):
    """CPU seconds, not wall: these guard against a runaway parse, and a loaded machine must not fail them."""
    start = time.process_time()
    out = code.compress(data)
    return out, time.process_time() - start


def test_minified_single_line_js_is_fast(code):
    parts = []
    i = 0
    while sum(map(len, parts)) < 1 << 20:
        parts.append(
            b"function a%d(x){var t=x+%d;for(var k=0;k<t;k++){t^=k<<1}return t};var b%d=function(y){return y?[1,2].map(function(z){return z*%d}):null};"
            % (i, i, i, i)
        )
        i += 1
    js = b"".join(parts)
    out, took = _timed(code, js)
    assert took < 5
    assert out is not None and b"\n" not in out and len(out) < len(js)
    assert out.startswith(b"function a0(x)" + ELIDED + b";var b0=function(y)" + ELIDED + b";")


def test_hundred_thousand_lines(code):
    src = b"".join(b"def fn_%d(a, b):\n    x = a + b * %d\n    if x > 3:\n        return x\n    return -x\n" % (j, j) for j in range(20000))
    assert src.count(b"\n") == 100000
    out, took = _timed(code, src)
    assert took < 5
    assert out.count(b"\n") == 40000 and out.startswith(b"def fn_0(a, b):\n    ...\n")


def test_binary_fails_closed_fast(code):
    rnd = os.urandom(1 << 20)
    assert _timed(code, rnd)[0] is None  # NUL bytes: binary
    no_nul = rnd.replace(b"\x00", b"\x01")
    out, took = _timed(code, b"function f() {" + no_nul + b"}")
    assert out is None and took < 5
    out, took = _timed(code, no_nul)
    assert out is None and took < 5


def test_mixed_encodings_are_spliced_byte_exactly(code):
    # a Latin-1 byte in one comment, UTF-8 in a string, an invalid sequence in another string
    src = b'package demo\n\n// caf\xe9 latin-1\nfunc A() string {\n\treturn "h\xc3\xa9llo \xff\xfe"\n}\n\nvar s = "\xe2\x82\xac"\n'
    out = code.compress(src)
    assert out == b'package demo\n\n// caf\xe9 latin-1\nfunc A() string ' + ELIDED + b'\n\nvar s = "\xe2\x82\xac"\n'


def test_multibyte_text_across_read_chunks(code):
    # the chunked reader must never split a UTF-8 sequence: same result as a plain parse
    body = "    s = '" + "é漢😀" * 30000 + "'\n    return s\n"
    src = ("def f():\n" + body + "\ndef g():\n    return 1\n").encode()
    assert code.compress(src) == b"def f():\n    ...\n\ndef g():\n    ...\n"


_CODEISH = st.text(alphabet=st.sampled_from(list("deffuncpackage class(){}:;=>\n\t #include<>\"'-x1")), max_size=300)


@settings(max_examples=150, deadline=None)
@given(st.one_of(_CODEISH, st.binary(max_size=300).map(lambda b: b.decode("latin-1"))))
def test_arbitrary_input_never_raises_and_output_reparses(text):
    data = text.encode("utf-8", "surrogateescape")
    out = CodeCompressor().compress(data)
    if out is None:
        return
    assert out != data
    assert b"caveman: body elided" in out or b"..." in out
    # the re-parse gate: some sniffed grammar finds in the output exactly the errors (kind and
    # text) it finds in the input — none at all when the input parsed cleanly
    assert any(_error_texts(lang, out) == _error_texts(lang, data) is not None for lang in sniff_languages(data))


def _error_texts(lang: str, data: bytes):
    tree = code_languages.parse(lang, data, code_languages.Deadline(), allow_errors=True)
    if tree is None:
        return None
    return [(kind, data[s:e]) for s, e, kind in error_spans(tree.root_node)]


_GO_KEYWORDS = set(
    "break case chan const continue default defer else fallthrough for func go goto if import interface map "
    "package range return select struct switch type var".split()
)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.from_regex(r"[A-Z][a-z]{0,8}", fullmatch=True), st.lists(st.from_regex(r"[a-z]{1,6}", fullmatch=True).filter(lambda v: v not in _GO_KEYWORDS), min_size=1, max_size=4)),
        min_size=1,
        max_size=6,
        unique_by=lambda t: t[0],
    )
)
def test_go_signatures_survive_and_bodies_go(funcs):
    src = b"package p\n\n" + b"".join(
        b"func %s(a int) int {\n%s\treturn a\n}\n\n" % (name.encode(), b"".join(b"\t%s := a + 1\n\t_ = %s\n" % (v.encode(), v.encode()) for v in dict.fromkeys(body)))
        for name, body in funcs
    )
    out = CodeCompressor().compress(src)
    for name, body in funcs:
        assert b"func %s(a int) int " % name.encode() + ELIDED in out
        for v in body:
            assert b"%s := a + 1" % v.encode() not in out


# -- through the engine: eval fixtures and numbered listings ----------------------------------------


@pytest.fixture
def engine():
    e = Engine(store=open_ccr(":memory:"))
    yield e
    e.close()


@pytest.mark.skipif(not CAVEMAN_EVALS.exists(), reason="caveman eval corpus not present")
@pytest.mark.parametrize(
    "name, lo, hi, needle",
    [
        ("sample.go", 0.40, 0.75, b"func Summarize"),
        ("sample.py", 0.40, 0.80, b"def summarize"),
        ("sample.ts", 0.40, 0.80, b"export function summarize"),
    ],
)
def test_eval_fixtures_through_engine(engine, name, lo, hi, needle):
    data = eval_fixture(name)
    res = engine.compress(data)
    assert res.content_type == "code"
    assert lo <= res.ratio <= hi
    assert needle in res.output
    assert b"caveman: body elided" in res.output or b"    ...\n" in res.output
    assert engine.retrieve(res.recovery_handle) == data


@pytest.mark.skipif(not CAVEMAN_EVALS.exists(), reason="caveman eval corpus not present")
def test_eval_fixture_through_cli(run_cli):
    data = eval_fixture("sample.py")
    got = run_cli("cavemem", "compress", input=data)
    assert got.rc == 0
    assert got.report["content_type"] == "code"
    assert 0.40 <= got.report["ratio"] <= 0.80
    assert b"def summarize(items: List[Item]) -> Rollup:\n    ...\n" in got.stdout
    back = run_cli("cavemem", "retrieve", got.report["recovery_handle"])
    assert back.rc == 0 and back.stdout == data


def _numbered(source: bytes, sep: bytes = b"\t") -> bytes:
    lines = source.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    return b"".join(b"%6d%s%s\n" % (i + 1, sep, line) for i, line in enumerate(lines))


GO_LISTING_SOURCE = b"""package demo

import "fmt"

// Add sums two ints.
func Add(a, b int) int {
\ttotal := a + b
\tfmt.Println("adding", a, b)
\tfmt.Println("total", total)
\treturn total
}

// Mul multiplies two ints.
func Mul(a, b int) int {
\tproduct := a * b
\tfmt.Println("multiplying", a, b)
\tfmt.Println("product", product)
\treturn product
}
"""


def test_numbered_go_listing_through_engine(engine):
    listing = _numbered(GO_LISTING_SOURCE)
    res = engine.compress(listing)
    assert res.content_type == "code"
    # spec §2.6: changed lines and blank lines take the number at the cursor, so the gutter has gaps
    assert res.output == (
        b"1\tpackage demo\n2\t\n3\timport \"fmt\"\n4\t\n5\t// Add sums two ints.\n"
        b"6\tfunc Add(a, b int) int { /* caveman: body elided */ }\n6\t\n"
        b"13\t// Mul multiplies two ints.\n14\tfunc Mul(a, b int) int { /* caveman: body elided */ }\n"
    )
    assert engine.retrieve(res.recovery_handle) == listing


def test_numbered_python_listing_through_engine(engine):
    source = (
        b"import os\n\n\ndef load(path):\n    with open(path) as fh:\n        data = fh.read()\n"
        b"    return data.splitlines()\n\n\ndef save(path, rows):\n    with open(path, 'w') as fh:\n"
        b"        for row in rows:\n            fh.write(row + os.linesep)\n    return len(rows)\n"
    )
    listing = _numbered(source, b": ")
    res = engine.compress(listing)
    assert res.content_type == "code"
    out_lines = res.output.split(b"\n")
    assert b"4\tdef load(path):" in out_lines and b"10\tdef save(path, rows):" in out_lines
    assert b"with open" not in res.output
    assert all(line.split(b"\t", 1)[0].isdigit() for line in out_lines if line)
    assert engine.retrieve(res.recovery_handle) == listing


def test_long_module_level_literals_become_excerpts_that_still_parse(code):
    import ast

    long_text = " ".join(f"word{i}" for i in range(120))
    src = (
        '"""Module docstring that is long enough to be cut if docstrings were cut: ' + "x " * 250 + '"""\n'
        "TOPICS = {'assert': 'The \"assert\" statement\\n'\n"
        f"           '{long_text}\\n'\n"
        f"           '{long_text}',\n"
        f" 'raw': b'{long_text}',\n"
        f" 'fmt': f'{{x}} {long_text}'}}\n"
        "\n\nimport sys\n\n\ndef lookup(name):\n    return TOPICS[name]\n"
    ).encode()
    out = code.compress(src)
    ast.parse(out)  # still Python
    text = out.decode()
    assert "'assert': 'The \"assert\" ... 1740 chars elided (caveman) ...'," in text
    assert f"b'{long_text}'" not in text and "'raw': b'word0 word1" in text
    assert f"f'{{x}} {long_text}'" in text  # an f-string holds code: never cut
    assert src.split(b"\n")[0] in out  # docstrings stay
    assert code.compress(out) is None  # a second pass cuts nothing more


def test_excerpt_never_ends_inside_an_escape():
    from cavemem.compressors.code.strings import _excerpt

    assert _excerpt(b"abc\\x4") == b"abc"
    assert _excerpt(b"ab\\x41cd \\u00e9 and more words here") == b"ab\\x41cd \\u00e9 and more words"
    assert _excerpt("caf\u00e9".encode() * 30).decode()  # a UTF-8 character is never split


def test_c_preprocessor_text_skips_the_javascript_family_clean_parses():
    from cavemem.compressors.code.tolerant import clean_order

    langs = ("python", "c", "cpp", "typescript", "tsx", "javascript")
    assert clean_order(langs, b"#ifndef GLEXT_H\n#define GLEXT_H 1\nint f(void);\n") == ("python", "c", "cpp")
    assert clean_order(langs, b"const a = 1;\nfunction f() { return a; }\n") == langs
    assert clean_order(("typescript", "javascript"), b"#define X 1\n") == ("typescript", "javascript")


def test_run_returns_source_with_nothing_to_elide_unchanged(code):
    header = b"#ifndef API_H\n#define API_H 1\n#include <stddef.h>\n\ntypedef struct api { size_t len; } api_t;\n" + b"".join(b"int api_call_%d(int fd, const char *name);\n" % i for i in range(40)) + b"#endif\n"
    assert code.compress(header) is None  # nothing elided ...
    out, _ = code.run(header, "")
    assert out == header  # ... but it is source: unchanged, so the engine passes it through as code
    assert code.run(b"just some words, not a program at all", "") is None


def test_parse_budget_spent_passes_source_through_as_code(code, monkeypatch):
    # on a busy machine the parses of a large header can outlast the budget: the input is then
    # handed back unchanged (code, nothing saved), never declined into the prose route
    from cavemem.compressors.code import languages

    monkeypatch.setattr(languages.Deadline, "expired", lambda self: True)
    header = b"#define A 1\n" + b"".join(b"int call_%d(int fd);\n" % i for i in range(40))
    monkeypatch.setattr("cavemem.compressors.code.sniff_languages", lambda data: ("c", "cpp"))
    out, _ = code.run(header, "")
    assert out == header


ATTRIBUTE_MACRO_C = b"""#include <stdint.h>
#define __ai static __inline__ __attribute__((__always_inline__, __nodebug__))
#ifdef __LITTLE_ENDIAN__
__ai uint8_t vabd_u8(uint8_t __p0, uint8_t __p1) {
  uint8_t __ret;
  __ret = (uint8_t) __builtin_neon_vabd_v(__p0, __p1, 16);
  return __ret;
}
#else
__ai uint8_t vabd_u8(uint8_t __p0, uint8_t __p1) {
  uint8_t __rev0;  __rev0 = __builtin_shufflevector(__p0, __p0, 7, 6, 5, 4, 3, 2, 1, 0);
  uint8_t __ret;
  __ret = (uint8_t) __builtin_neon_vabd_v(__rev0, __p1, 16);
  return __ret;
}
#endif
__ai uint16_t vabd_u16(uint16_t __p0, uint16_t __p1) {
  uint16_t __ret;
  __ret = (uint16_t) __builtin_neon_vabd_v(__p0, __p1, 17);
  return __ret;
}
"""


def test_attribute_macro_heads_parse_and_their_bodies_are_elided(code):
    # tree-sitter takes `__ai` for a type and errs on every head; the parse view blanks it
    # (same length), the output is spliced from the original bytes: heads stay verbatim.
    from cavemem.compressors.code.macros import parse_view

    view = parse_view(ATTRIBUTE_MACRO_C)
    assert len(view) == len(ATTRIBUTE_MACRO_C) and b"#define __ai static" in view and b"\n__ai " not in view
    out = code.compress(ATTRIBUTE_MACRO_C)
    assert out is not None and b"__builtin_neon_vabd_v" not in out
    for head in (b"__ai uint8_t vabd_u8(uint8_t __p0, uint8_t __p1) {", b"__ai uint16_t vabd_u16(uint16_t __p0, uint16_t __p1) {"):
        assert head in out
    assert out.startswith(ATTRIBUTE_MACRO_C[: ATTRIBUTE_MACRO_C.index(b"#ifdef")])


def test_parse_view_leaves_sources_without_attribute_macros_alone():
    from cavemem.compressors.code.macros import parse_view

    assert parse_view(b"#define N 4\nint f(void) { return N; }\n") is None
    assert parse_view(b"#define local static\n") is None  # defined, never used
