"""Detection of the corpus's fourth batch (issue 9): server configuration in directive languages
and pip's verbose logs, on real samples from its *tune* split (``tests/data/detect/batch4``;
sources in ``corpus/manifest.json``), each class with the near misses that must not move."""

from __future__ import annotations

from pathlib import Path

import pytest

from cavemem.engine.detect import detect

DATA = Path(__file__).parent / "data" / "detect" / "batch4"

CASES = [
    ("nginx_fastcgi.conf", "config"),  # ``fastcgi_param NAME $value;``: was code (``;`` line ends)
    ("apache_http2.conf", "config"),  # one ``Protocols h2 h2c http/1.1`` under 29 comment lines
    ("proftpd_anonymous.conf", "config"),  # ``<Directory>`` tags, ``Allow from all``, ``IgnoreHidden on``
    ("keepalived.conf.sample", "config"),  # brace blocks, ``!`` comments, bare values in a block
    ("dovecot_10-director.conf", "config"),  # ``service x {`` blocks, mostly empty: was code
    ("rsyslog.conf", "config"),  # ``$FileOwner root``, ``kern.* -/var/log/kern.log``, two ``module(...)``
    ("snmpd.conf", "config"),  # one setting is a sentence, ``[::1]`` is an address, not an operator
    ("pulseaudio.desktop", "config"),  # ``Name[de]=...``: keys with a locale
    ("pip_dry_run_numpy.log", "log"),  # ``Link requires a different Python``, a rich progress bar
    ("ltree--1.1--1.2.sql", "code"),  # SQL clause lines (``RETURNS``, ``LANGUAGE C``) are statements
    ("help_sqlite3.txt", "text"),  # ``sqlite3 -help``: an option list aligned like a table
]


@pytest.mark.parametrize("name,kind", CASES)
def test_batch4_sample(name, kind):
    assert detect((DATA / name).read_bytes()) == kind


def test_directive_arguments_are_values_not_prose():
    lines = [b"%s the %d argument of this list\n" % (w, i) for i, w in enumerate(b"alpha beta gamma delta epsilon zeta eta theta iota kappa".split())]
    assert detect(b"".join(lines)) != "config"
    words = b"alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi".split()
    settings = [b"%s_timeout %d\n" % (w, i * 10) for i, w in enumerate(words)]
    assert detect(b"# shipped defaults\n" + b"".join(settings)) == "config"


def test_an_aligned_table_is_no_directive_file():
    rows = b"".join(b"user%-8d x  %-5d %-5d /home/user%-4d /bin/sh\n" % (i, 1000 + i, 1000 + i, i) for i in range(14))
    assert detect(rows) != "config"


def test_aligned_rows_stay_tabular_when_they_do_not_open_on_flags():
    rows = b"".join(b"pkg-%-10d %-8s %6d  -%d.5\n" % (i, b"1.%d" % i, 100 * i, i) for i in range(12))
    assert detect(b"Name           Version   Size  Delta\n" + rows) == "tabular"
    options = b"".join(b"   -opt%-12d set the option number %d\n" % (i, i) for i in range(12))
    assert detect(b"Usage: tool [OPTIONS]\n" + options) != "tabular"


def test_a_shell_script_of_directive_look_stays_out():
    script = b"".join(b"export VAR_%d=/opt/tool/%d\nif [ -d /opt/tool/%d ]; then\n  echo found %d\nfi\n" % (i, i, i, i) for i in range(4))
    assert detect(script) != "config"


def test_pip_progress_bar_is_a_log_line_and_prose_bars_are_not():
    bar = "\u2501" * 40
    log = "".join(f"Downloading pkg{i}-1.0-py3-none-any.whl (12 kB)\n   {bar} 12.{i}/12.{i} kB 1.0 MB/s eta 0:00:00\n" for i in range(4))
    assert detect(log.encode()) == "log"
    prose = "".join(f"{bar}\nChapter {i}: a long story about the sea and the wind that shaped it.\n" for i in range(6))
    assert detect(prose.encode()) != "log"


@pytest.mark.parametrize("name", ["nginx_fastcgi.conf", "proftpd_anonymous.conf", "pulseaudio.desktop",
                                  "../batch5/corosync.conf", "../batch5/nagios4_templates.cfg", "../batch5/memcached.conf.default"])
def test_cli_compresses_them_as_config_and_gives_them_back(run_cli, name):
    data = (DATA / name).read_bytes()
    got = run_cli("cavemem", "compress", input=data)
    assert got.rc == 0 and got.report["content_type"] == "config"
    if got.report.get("recovery_handle"):
        back = run_cli("cavemem", "retrieve", got.report["recovery_handle"])
        assert back.rc == 0 and back.stdout == data
