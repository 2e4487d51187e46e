"""Settings files of unknown dialects (issue 9, ``cavemem/formats/settings.py``): the class of
config the strict readers never saw, told from prose by line shapes (setting lines ≥ 75 %,
sentences ≤ 20 % outside comments) and from code by the absence of calls. Real samples from
the corpus's *tune* split (``tests/data/detect/settings``), with the near misses that must not
move: an RFC 822 record stays text, a module of constants stays code, prose stays text."""

from __future__ import annotations

from pathlib import Path

import pytest

from cavemem.engine.detect import detect
from cavemem.formats.configs import classify, classify_strict
from cavemem.formats.settings import line_shape, looks_settings, settings_not_code

DATA = Path(__file__).parent / "data" / "detect" / "settings"

CASES = [
    ("icinga2_plugins_contrib_systemd.conf", "config"),  # ``"--unit" = {`` / ``value = "$x$"``; was text
    ("spamassassin_60_awl.cf", "config"),  # ``header AWL  eval:...``, ``ifplugin``/``endif``; was text
    ("freeradius_sites_vmps", "config"),  # ``update reply {``, ``if (&A == B) {``: braces, no calls; was code
    ("icinga2_services.conf", "config"),  # ``apply Service "ping4" {`` / ``import "generic-service"``; was code
    ("spamassassin_v401.pre", "config"),  # 48 comment lines, its ``loadplugin`` lines all commented out; was text
    ("apt_cache_show_git.txt", "text"),  # ``Field: value`` lines, no comment: a record, not settings
    ("resource_printer_types.py", "code"),  # ``CSV = 'csv'`` under ``from __future__ import``: code
]


@pytest.mark.parametrize("name,kind", CASES)
def test_settings_sample(name, kind):
    assert detect((DATA / name).read_bytes()) == kind


def test_the_config_compressor_accepts_what_detection_routed():
    data = (DATA / "spamassassin_60_awl.cf").read_bytes()
    assert classify_strict(data) is None and classify(data) is not None


@pytest.mark.parametrize("name", ["spamassassin_60_awl.cf", "freeradius_sites_vmps"])
def test_cli_compresses_them_as_config_and_gives_them_back(run_cli, name):
    data = (DATA / name).read_bytes()
    got = run_cli("cavemem", "compress", input=data)
    assert got.rc == 0 and got.report["content_type"] == "config"
    assert got.report["tokens_after"] < got.report["tokens_before"]
    if got.report.get("recovery_handle"):
        back = run_cli("cavemem", "retrieve", got.report["recovery_handle"])
        assert back.rc == 0 and back.stdout == data


def test_line_shapes():
    assert line_shape('value = "$systemd_unit$"') == "setting"
    assert line_shape("priority AWL 1000") == "setting"
    assert line_shape("}") == "setting" and line_shape('object CheckCommand "systemd" {') == "setting"
    assert line_shape("In other words, you lose all connectivity with the LAN.") == "prose"
    assert line_shape("This is the value of the setting for all of the hosts") == "prose"


def test_wrapped_prose_with_few_sentences_stays_text():
    # a man page's option list: short lines, but periods and stop words on most of them
    lines = b"".join(b"  -%c, --opt-%d\n         use the %d-th mode for the output.\n" % (97 + i, i, i) for i in range(10))
    assert not looks_settings(lines)
    assert detect(lines) != "config"


def test_calls_keep_a_brace_file_code():
    js = b"".join(b"const v%d = {\n  key: load%d(x),\n  other: call%d(y),\n}\n" % (i, i, i) for i in range(5))
    assert not settings_not_code(js)
    assert detect(js) != "config"


def test_a_commented_out_default_is_config_and_a_commented_essay_is_not():
    settings = b"".join(b"# The option %d sets the mode of the server.\n#\n# option_%d = %d\n" % (i, i, i) for i in range(5))
    assert detect(b"# Shipped defaults.\n" + settings) == "config"
    essay = b"".join(b"# Part %d of the story, told as it was told to us.\n#\n" % i for i in range(8))
    assert detect(essay) != "config"
