"""Detection of the shapes the corpus's second batch brought (issue 9), on real samples taken
from its *tune* split (``tests/data/detect/batch2``; sources in ``corpus/manifest.json``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cavemem.engine.detect import detect

DATA = Path(__file__).parent / "data" / "detect" / "batch2"

CASES = [
    ("git_grep_heading.txt", "search-result"),  # git grep -n --heading --break
    ("csh_ftplugin.vim", "code"),  # Vim script: no C keywords, statement lines
    ("ttk_progress.tcl", "code"),  # Tcl: proc / namespace eval / set
    ("pod_file_find.txt", "text"),  # pod2text: prose at the body indent, code deeper
    ("npm_verbose.log", "log"),  # npm verbose / http / info lines
    ("perl_confess.log", "log"),  # Perl frames: "called at -e line 1"
    ("vmstat.txt", "tabular"),  # two header lines, aligned columns
    ("column_t_group.txt", "tabular"),  # column -t: no header at all
    ("btree_gist_upgrade.sql", "code"),  # CREATE FUNCTION over RETURNS / AS / LANGUAGE clause lines
    ("xmlsec_examples.Makefile", "code"),  # make rules with tab-indented recipes
]


@pytest.mark.parametrize("name,kind", CASES)
def test_batch2_sample(name, kind):
    assert detect((DATA / name).read_bytes()) == kind


def test_heading_search_needs_hits_under_paths():
    listing = b"".join(b"src/mod%d.py\n" % i for i in range(10))  # a bare path list is no search output
    assert detect(listing) != "search-result"
    grouped = b"".join(b"src/mod%d.py\n%d:def f%d():\n%d:    return %d\n\n" % (i, i, i, i + 1, i) for i in range(4))
    assert detect(grouped) == "search-result"


def test_sentences_at_the_body_indent_are_text_even_with_code_blocks():
    para = b"    This function walks the tree and calls the handler for every file it finds there.\n"
    code = b"        use File::Find;\n        find(\\&wanted, @dirs);\n        sub wanted { print $_; }\n"
    assert detect((para * 3 + b"\n" + code + b"\n") * 4) == "text"


def test_pipe_rows_without_a_header_rule_are_tabular():
    rows = b"".join(b"pkg%d|1.%d.0|%d|admin|optional\n" % (i, i, 100 + i) for i in range(12))
    assert detect(rows) == "tabular"
    assert detect(b"".join(b"a %d | b\n" % i if i % 2 else b"just prose here %d\n" % i for i in range(12))) == "text"


def test_prose_opening_on_clause_words_is_not_sql():
    prose = b"".join(b"As noted above, the value %d is read from the file.\nFrom then on it stays put;\n" % i for i in range(8))
    assert detect(prose) != "code"
