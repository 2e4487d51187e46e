"""Detection of the corpus's seventh batch (issue 9): debug and verbose logs whose lines carry a
process id or a located diagnostic (``LD_DEBUG``, Python warnings), the Python importer's and
the compiler driver's verbose traces, pytest-xdist progress, TAP with YAML diagnostics, a short
Kubernetes manifest holding one long value, an AppArmor profile. Real samples from the *tune*
split (``tests/data/detect/batch7``; sources in ``corpus/manifest.json``; the larger ones are
their files' first lines), and the near misses that must not move."""

from __future__ import annotations

from pathlib import Path

import pytest

from cavemem.engine.detect import detect
from cavemem.formats.logtags import tagged_log

DATA = Path(__file__).parent / "data" / "detect" / "batch7"

CASES = [
    ("ld_debug_scopes_perl.log", "log"),  # LD_DEBUG=scopes perl: ``  26802:\tobject=...``; was tabular
    ("ld_debug_bindings_sqlite3.log", "log"),  # LD_DEBUG=bindings (first 40 lines); was tabular
    ("python_v_import_sqlite3.log", "log"),  # python3.11 -v: ``import 'x' # <...Loader ...>`` (first 60 lines); was code
    ("gcc_v_compress_easy.log", "log"),  # gcc -v -O2 -c: specs, search paths, cc1/as command lines; was text
    ("python_warnings_user.log", "log"),  # ``<string>:3: UserWarning: value 0 clipped to range``; was tabular
    ("pytest_xdist_json_strings.log", "log"),  # pytest -v under xdist: node ids between ``[gw0] [ 25%] PASSED``; was text
    ("node_test_describe_tap.log", "log"),  # node --test TAP (first 120 lines): YAML diagnostics between marks; was config
    ("pytest_tb_long_l.log", "log"),  # pytest --tb=long -l: whole functions quoted between the banners; was code
    ("python_warnings_tempfile.log", "log"),  # ResourceWarning, each with its ``Enable tracemalloc`` line; was text
    ("irssi.conf", "config"),  # ``name = { key = "value"; };`` statements, a command inside one value; was code
    ("unbound.conf", "config"),  # ``server:`` over tab-indented commented-out settings (not make rules); was code
    ("kubectl_secret_bundle.yaml", "config"),  # 7 lines, one a 15 KB base64 value; was text
    ("apparmor_usr.sbin.unbound", "config"),  # AppArmor: ``/etc/unbound/** r,`` rules in a ``profile {``; was code
]


@pytest.mark.parametrize("name,kind", CASES)
def test_batch7_sample(name, kind):
    assert detect((DATA / name).read_bytes()) == kind


def test_a_numbered_table_is_not_a_process_tagged_log():
    rows = b"".join(b"  %d:\tentry-%d value %d\n" % (i, i, i * 7) for i in range(1, 40))
    assert not tagged_log(rows)
    tagged = b"".join(b"  4242:\tentry-%d value %d\n" % (i, i * 7) for i in range(1, 40))
    assert tagged_log(tagged) and detect(tagged) == "log"


def test_grep_hits_are_not_diagnostics():
    hits = b"".join(b"src/mod%d.py:%d:    raise ValueError(x)\n" % (i, i * 3) for i in range(20))
    assert not tagged_log(hits)
    assert detect(hits) == "search-result"


def test_short_messages_and_lists_stay_text():
    mail = b"From: a@example.com\nTo: b@example.com\nSubject: report\nDate: Fri, 4 Dec 2026\nX-Mailer: mutt\nMessage-ID: <1@x>\n"
    assert detect(mail) == "text"
    notes = b"Plan:\n  first: read the logs\n  then: fix the parser\nOwner: the build team\nStatus: open\nDue: soon\n"
    assert detect(notes + b"We will look at it again next week, once the release is out.\n") == "text"


def test_a_makefile_rule_still_needs_a_recipe_line():
    make = b"".join(b"build%d: src%d.c\n\t$(CC) -o $@ $<\n\n" % (i, i) for i in range(4))
    assert detect(make) == "code"


def test_a_pytest_banner_quoted_without_its_tally_is_no_report():
    doc = b"Run the suite:\n\n=================== test session starts ===================\n\n" + b"".join(
        b"Then read section %d of the guide, which explains what the runner prints and why it does so.\n" % i for i in range(12))
    assert detect(doc) == "text"
