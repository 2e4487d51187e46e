"""Detection of the shapes the corpus's third batch brought (issue 9), on real samples taken
from its *tune* split (``tests/data/detect/batch3``; sources in ``corpus/manifest.json``): the
classes of mistakes it showed, each with the near miss that must not move."""

from __future__ import annotations

from pathlib import Path

import pytest

from cavemem.engine.detect import detect

DATA = Path(__file__).parent / "data" / "detect" / "batch3"

CASES = [
    ("capability.conf", "config"),  # /etc/security: 55 comment lines around one rule
    ("createcluster.conf", "config"),  # postgresql-common: settings on and commented out, one directive
    ("idna_pyproject.toml", "config"),  # quoted keys, inline tables, arrays over several lines
    ("markdown_it_port.yaml", "config"),  # a list of records with block scalars
    ("example_tmux.conf", "config"),  # tmux: ``set -g`` / ``bind`` directives
    ("pydoc_json.txt", "text"),  # pydoc draws class bodies with a bare ``|`` gutter
    ("pod_usage.txt", "text"),  # pod2text quoting Perl calls with ``=>``
    ("libc6_README.Debian", "text"),  # ``Q1: ...`` over a tab-indented line is no make rule
    ("rustc_errors.log", "log"),  # a compiler's gutters still vote (numbered ones nearby)
]


@pytest.mark.parametrize("name,kind", CASES)
def test_batch3_sample(name, kind):
    assert detect((DATA / name).read_bytes()) == kind


def test_a_bare_gutter_is_a_log_line_only_beside_numbered_source_lines():
    frame = b"error[E0308]: mismatched types\n --> src/main.rs:%d:5\n  |\n%d |     let x: u8 = s;\n  |             ^ expected u8\n"
    diag = b"".join(frame % (i, i) for i in range(1, 5))
    assert detect(diag) == "log"
    body = b"".join(b"     |  method_%d(self, arg)\n     |      Return the value of the call number %d.\n" % (i, i) for i in range(12))
    assert detect(b"class Demo(builtins.object)\n" + body) == "text"


def test_toml_needs_the_parser_to_agree():
    toml = (DATA / "idna_pyproject.toml").read_bytes()
    notes = b"".join(b"This paragraph explains why the release %d was delayed by a week.\n" % i for i in range(12))
    assert detect(toml) == "config" and detect(toml.replace(b"[project.urls]\n", notes + b"[project.urls]\n")) != "config"


def test_directives_need_a_small_repeated_vocabulary():
    tmux = (DATA / "example_tmux.conf").read_bytes()
    assert detect(tmux) == "config"
    words = b"alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi".split()
    varied = b"".join(b"%s the %d argument\n" % (w, i) for i, w in enumerate(words))  # every line a new word
    assert detect(varied) != "config"


@pytest.mark.parametrize("name", ["idna_pyproject.toml", "createcluster.conf"])
def test_cli_compresses_them_as_config_and_gives_them_back(run_cli, name):
    data = (DATA / name).read_bytes()
    got = run_cli("cavemem", "compress", input=data)
    assert got.rc == 0 and got.report["content_type"] == "config"
    if got.report.get("recovery_handle"):
        assert run_cli("cavemem", "retrieve", got.report["recovery_handle"]).stdout == data
