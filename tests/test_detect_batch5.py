"""Detection of the corpus's fifth batch (issue 9): the config families the check split missed
(brace blocks of ``key: value``, settings with a comment after them, Perl module names as
arguments, option-per-line files, a commented table of services) and program tables under a
title or of ``ls -l`` rows. Real samples from the *tune* split (``tests/data/detect/batch5``;
sources in ``corpus/manifest.json``, ``ls_l_usr_bin.txt`` is the first 40 lines of its file),
each class with the near misses that must not move (the CLI round trip of three of them is
in ``test_detect_batch4.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cavemem.engine.detect import detect

DATA = Path(__file__).parent / "data" / "detect" / "batch5"

CASES = [
    ("corosync.conf", "config"),  # /etc/corosync/corosync.conf: ``totem {`` blocks of ``version: 2``; was text
    ("nagios4_templates.cfg", "config"),  # ``define host {``, ``name  generic-host  ; The name of ...``; was text
    ("spamassassin_local.cf", "config"),  # 84 comment lines, ``ifplugin Mail::SpamAssassin::Plugin::Shortcircuit``
    ("spamassassin_60_txrep.cf", "config"),  # six rules, one ``describe`` a sentence; was text
    ("memcached.conf.default", "config"),  # ``-m 64``, ``-p 11211``: one option a line; was text
    ("postfix_master.cf.dist", "config"),  # aligned service rows under 99 comment lines; was text
    ("keepalived.conf.vrrp.lvs_syncd", "config"),  # (sixth batch) ``virtual_ipaddress {`` lists bare addresses; was code
    ("Muttrc", "config"),  # (sixth batch) ``hdr_order date from to cc``, ``-A text/x-vcard``: header names, a flag; was text
    ("exim4_acl_check_rcpt", "config"),  # (sixth batch) ``message = restricted characters in address``; was text
    ("readelf_s_libz.txt", "tabular"),  # ``Symbol table '.dynsym' contains ...`` over the header; was log
    ("ls_l_usr_bin.txt", "tabular"),  # ``-rwxr-xr-x`` opens each row: a mode, not a flag; was text
]


@pytest.mark.parametrize("name,kind", CASES)
def test_batch5_sample(name, kind):
    assert detect((DATA / name).read_bytes()) == kind


def test_key_colon_value_is_a_setting_only_inside_braces():
    blocks = b"".join(b"service%d {\n\tport: %d\n\tuser: svc%d\n}\n" % (i, 8000 + i, i) for i in range(4))
    assert detect(b"# cluster defaults\n" + blocks) == "config"
    prose = b"".join(b"Note %d: the service on port %d is for the team of %d people.\n" % (i, 8000 + i, i) for i in range(12))
    assert detect(prose) != "config"


def test_a_comment_after_a_setting_is_not_its_argument_and_prose_stays_prose():
    rows = b"".join(b"    setting_%d    %d    ; the value of this setting for the host\n" % (i, i) for i in range(10))
    assert detect(b"define host {\n" + rows + b"}\n") == "config"
    sentences = b"".join(b"Setting %d is the value that the host uses for all of its work ; it is %d.\n" % (i, i) for i in range(12))
    assert detect(sentences) != "config"


def test_perl_module_names_are_arguments_but_cpp_scopes_stay_operators():
    plugins = b"".join(b"loadplugin Mail::SpamAssassin::Plugin::P%d\n" % i for i in range(12))
    assert detect(b"# plugins\n" + plugins) == "config"
    cpp = b"".join(b"using std::vector%d;\nstatic int f%d(std::string s);\n" % (i, i) for i in range(6))
    assert detect(cpp) != "config"


def test_bare_values_are_list_items_only_inside_a_block():
    block = b"virtual_ipaddress {\n" + b"".join(b"    192.168.200.%d\n" % i for i in range(8)) + b"}\n"
    head = b"! keepalived\nvrrp_instance VI_1 {\n    state MASTER\n    interface eth0\n    virtual_router_id 51\n    priority 150\n"
    assert detect(head + b"    advert_int 1\n    auth_type PASS\n" + block + b"}\n") == "config"
    numbers = b"".join(b"192.168.200.%d\n" % i for i in range(14))
    assert detect(b"# addresses\n" + numbers) != "config"


def test_function_words_are_whole_words():
    rows = b"".join(b"attachments -A text/x-vcard%d\nmailto_allow%d = cc in-reply-to\nset opt%d=yes\n" % (i, i, i) for i in range(4))
    assert detect(b"# mutt\n" + rows) == "config"  # ``-A`` is no article, ``in-reply-to`` no ``in``
    prose = b"".join(b"keyword%d is the value of this line and the next\n" % i for i in range(12))
    assert detect(prose) != "config"


def test_a_settings_value_may_be_a_message_but_prose_arguments_stay_prose():
    acl = b"".join(b"  deny\n    domains = +local_domains\n    hosts = : +relay_from_hosts\n    message = in blacklist %d\n"
                   b"    log_message = sender %d of the list\n" % (i, i) for i in range(4))
    assert detect(b"# exim acl\nacl_check_rcpt:\n" + acl + b"  accept\n") == "config"
    prose = b"".join(b"deny %d is the word for a refusal in the list of all words\n" % i for i in range(12))
    assert detect(prose) != "config"


def test_option_lines_are_settings_but_a_help_text_is_not():
    opts = b"-d\n-m 64\n-p 11211\n-u memcache\n-l 127.0.0.1\n-c 1024\n-t 4\n-P /run/memcached.pid\n"
    assert detect(b"# memcached default config\n" * 12 + opts) == "config"
    help_text = b"".join(b"  -%c    set the %s of the server to the given value\n" % (c, w) for c, w in zip(b"abcdefghij", [b"name"] * 10))
    assert detect(b"Usage: server [OPTIONS]\n" + help_text) != "config"


def test_an_aligned_table_with_few_comments_is_no_directive_file():
    rows = b"".join(b"svc%-6d unix  -   -   y   %-4d 1  svc%d\n" % (i, i * 10, i) for i in range(14))
    assert detect(b"# service table\n" + rows) != "config"  # a printed table, one comment over it
    assert detect(b"# a comment line of the shipped default\n" * 16 + rows) == "config"


def test_help_options_stay_out_of_tables_and_ls_rows_go_in():
    rows = b"".join(b"-rw-r--r-- 1 root root %8d 2024-01-%02d 10:00 file%d.txt\n" % (100 * i, i + 1, i) for i in range(12))
    assert detect(b"total 48\n" + rows) == "tabular"
    options = b"".join(b"   -opt%-12d set the option number %d\n" % (i, i) for i in range(12))
    assert detect(b"Usage: tool [OPTIONS]\n" + options) != "tabular"
