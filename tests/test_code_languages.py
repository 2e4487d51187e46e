"""The code compressor's PHP, Perl, shell and make grammars, and the line-shape outline of Tcl,
CMake, Vim script and SQL scripts (issue 9: detection named them code, the compressor declined
them and the CLI routed them to text)."""

from __future__ import annotations

import pytest

from cavemem.compressors.code import CodeCompressor, sniff_languages
from cavemem.compressors.code.languages import parse, Deadline
from cavemem.compressors.code.outline import outline, sniff_outline
from cavemem.engine.core import Engine
from cavemem.store.ccr import open_ccr

PHP = b"""<?php
namespace App;

class Greeter {
    public function greet($name) {
        $msg = "Hello, " . $name;
        return $msg;
    }
}

function helper($x) {
    $y = $x * 2 + 1;
    return $y;
}

function id($x) { return $x; }
"""
PHP_OUT = b"""<?php
namespace App;

class Greeter {
    public function greet($name) { /* caveman: body elided */ }
}

function helper($x) { /* caveman: body elided */ }

function id($x) { return $x; }
"""

PERL = b"""package Demo::Util;
use strict;
use warnings;

sub new {
    my ($class, %args) = @_;
    return bless {%args}, $class;
}

sub x { 1 }
1;
"""
PERL_OUT = b"""package Demo::Util;
use strict;
use warnings;

sub new { ... } # caveman: body elided

sub x { 1 }
1;
"""

SHELL = b"""#!/usr/bin/env bash
set -e

usage() {
  echo "usage: tool <cmd>" >&2
  exit 1
}

[ $# -gt 0 ] || usage
"""
SHELL_OUT = b"""#!/usr/bin/env bash
set -e

usage() { : caveman: body elided; }

[ $# -gt 0 ] || usage
"""

MAKE = b"""CC = gcc
CFLAGS = -O2 -Wall

all: app

app: main.o util.o
\t$(CC) $(CFLAGS) -o app main.o util.o
\tstrip app
\t@echo built app

clean:
\trm -f app
"""
MAKE_OUT = b"""CC = gcc
CFLAGS = -O2 -Wall

all: app

app: main.o util.o
\t# caveman: recipe elided

clean:
\trm -f app
"""


@pytest.mark.parametrize(
    "source, language, expected",
    [(PHP, "php", PHP_OUT), (PERL, "perl", PERL_OUT), (SHELL, "bash", SHELL_OUT), (MAKE, "make", MAKE_OUT)],
)
def test_grammar_languages_elide_bodies(source, language, expected):
    assert language in sniff_languages(source)
    out = CodeCompressor().compress(source)
    assert out == expected
    tree = parse(language, out, Deadline())
    assert tree is not None and not tree.root_node.has_error  # the output is still valid source


def test_new_marks_leave_other_languages_alone():
    # no shebang, no <?php, no package/use strict, no tab recipe: nothing new is sniffed
    assert sniff_languages(b"import os\n\ndef f(x):\n    return x\n") == ("python",)
    assert "make" not in sniff_languages(b"#!/bin/sh\nall: x\n\techo hi\nX = 1\n")
    assert "bash" not in sniff_languages(b"#!/usr/bin/env python3\nprint(1)\n")


TCL = b"""# util.tcl --
#
#   Helpers for the demo.
#   They are small.
#   Nothing else.
#   Really.
#   Truly.
#   The end.

package require Tcl 8.6

proc ::demo::sum {a b} {
    set total 0
    incr total $a
    incr total $b
    puts "sum $total"
    lappend ::demo::log $total
    return $total
}

proc ::demo::id {x} {
    return $x
}
"""
TCL_OUT = b"""# util.tcl --
#   Helpers for the demo.
# caveman: 6 lines elided

package require Tcl 8.6

proc ::demo::sum {a b} {
    # caveman: 6 lines elided
}

proc ::demo::id {x} {
    return $x
}
"""

CMAKE = b"""cmake_minimum_required(VERSION 3.16)
project(demo C)

function(demo_add name)
  set(src ${name}.c)
  add_executable(${name} ${src})
  target_link_libraries(${name} m)
  install(TARGETS ${name})
  message(STATUS "demo ${name}")
  set_property(TARGET ${name} PROPERTY C_STANDARD 11)
endfunction()

demo_add(app)
"""
CMAKE_OUT = b"""cmake_minimum_required(VERSION 3.16)
project(demo C)

function(demo_add name)
  # caveman: 6 lines elided
endfunction()

demo_add(app)
"""

VIM = b"""" Vim filetype plugin
if exists("b:did_ftplugin")
  finish
endif
let b:did_ftplugin = 1
setlocal shiftwidth=2

fun! s:Toggle()
  if &l:list
    setlocal nolist
  else
    setlocal list
  endif
"  call Decho("toggled")
  echo "toggled"
endfun
"""
VIM_OUT = b"""" Vim filetype plugin
if exists("b:did_ftplugin")
  finish
endif
let b:did_ftplugin = 1
setlocal shiftwidth=2

fun! s:Toggle()
  " caveman: 7 lines elided
endfun
"""

SQL = b"""\\echo Use "CREATE EXTENSION demo" to load this file. \\quit

CREATE TABLE t (
    id integer,
    name text,
    a int,
    b int,
    c int,
    d int
);

CREATE FUNCTION f(internal, internal, internal)
RETURNS internal
AS 'MODULE_PATHNAME'
LANGUAGE C
IMMUTABLE
STRICT
PARALLEL SAFE;

ALTER TYPE t SET (RECEIVE = f);
"""
SQL_OUT = SQL.replace(  # the table's columns stay; the function's six clause lines go
    b"RETURNS internal\nAS 'MODULE_PATHNAME'\nLANGUAGE C\nIMMUTABLE\nSTRICT\nPARALLEL SAFE;\n", b"-- caveman: 6 lines elided\n"
)


@pytest.mark.parametrize(
    "source, language, expected",
    [(TCL, "tcl", TCL_OUT), (CMAKE, "cmake", CMAKE_OUT), (VIM, "vim", VIM_OUT), (SQL, "sql", SQL_OUT)],
)
def test_outline_languages(source, language, expected):
    assert sniff_outline(source) == language
    assert outline(source, language) == expected
    assert CodeCompressor().compress(source) == expected


def test_outline_keeps_nested_definition_heads():
    src = b"namespace eval ::demo {\n" + b"".join(
        b"    proc p%d {} {\n        set a 1\n        set b 2\n        set c 3\n        set d 4\n"
        b"        set e 5\n        set f 6\n    }\n" % i for i in range(2)
    ) + b"}\n"
    out = outline(src, "tcl")
    assert out == (
        b"namespace eval ::demo {\n"
        b"    proc p0 {} {\n        # caveman: 6 lines elided\n    }\n"
        b"    proc p1 {} {\n        # caveman: 6 lines elided\n    }\n}\n"
    )


def test_prose_is_not_outlined():
    prose = b"The procedure is simple.\nSet the value, then finish.\n" * 20
    assert sniff_outline(prose) is None
    assert CodeCompressor().compress(prose) is None


def test_small_outline_source_passes_through_as_code():
    # recognised as Vim script, nothing long enough to elide: the engine keeps it as code
    src = b'" tiny\nif exists("b:x")\n  finish\nendif\nlet b:x = 1\nsetlocal sw=2\n'
    assert CodeCompressor().run(src, "")[0] == src
    res = Engine(store=open_ccr(":memory:")).compress(src)
    assert res.content_type == "code" and res.output == src


@pytest.mark.parametrize("source", [PHP, PERL, SHELL, MAKE, TCL, CMAKE, VIM])
def test_routed_as_code_and_recovered_exactly(run_cli, source):
    got = run_cli("cavemem", "compress", input=source)
    assert got.rc == 0
    assert got.report["content_type"] == "code"
    assert got.stdout == CodeCompressor().compress(source)
    back = run_cli("cavemem", "retrieve", got.report["recovery_handle"])
    assert back.rc == 0 and back.stdout == source
