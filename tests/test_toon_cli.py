"""``caveman-engine toon`` (the reference contract, engine-core §7) and ``cavemem toon`` (the
cavemem contract): stdout bytes, stderr, exit codes, and when stdin is (not) read."""

from __future__ import annotations

import json

import pytest

ENCODE_FAIL = b"toon encode: not losslessly TOON-encodable (invalid JSON, or nested/non-uniform shape); keep JSON\n"
DECODE_FAIL = b"toon decode: not valid TOON\n"
USAGE = b"usage: caveman-engine toon encode|decode\n"
HIKES = b'{"hikes":[{"id":1,"name":"Blue Lake","distanceKm":7.5,"sunny":true},{"id":2,"name":"Ridge","distanceKm":9.2,"sunny":false}],"friends":["ana","luis"],"meta":{"season":"spring_2025"}}'
HIKES_TOON = (
    b"friends[2]: ana,luis\nhikes[2]{id,name,distanceKm,sunny}:\n  1,Blue Lake,7.5,true\n  2,Ridge,9.2,false\n"
    b"meta:\n  season: spring_2025"
)
OVERSIZE = b"x" * (64 * 1024 * 1024 + 1)


# -- caveman-engine toon -----------------------------------------------------------------------


def test_engine_encode_writes_toon_without_newline(run_cli):
    r = run_cli("caveman-engine", "toon", "encode", input=HIKES)
    assert (r.rc, r.stdout, r.stderr) == (0, HIKES_TOON, b"")


def test_engine_decode_writes_compact_sorted_json(run_cli):
    r = run_cli("caveman-engine", "toon", "decode", input=b"b: <1>\na[2]: 7.50,x")
    assert (r.rc, r.stdout, r.stderr) == (0, b'{"a":[7.50,"x"],"b":"\\u003c1\\u003e"}', b"")


def test_engine_round_trip_pipeline(run_cli):
    toon = run_cli("caveman-engine", "toon", "encode", input=HIKES).stdout
    back = run_cli("caveman-engine", "toon", "decode", input=toon)
    assert back.rc == 0 and json.loads(back.stdout) == json.loads(HIKES)
    assert back.stdout == json.dumps(json.loads(HIKES), sort_keys=True, separators=(",", ":")).encode()


@pytest.mark.parametrize("bad", [b'{"rows":[{"id":1,"meta":{"x":1}}]}', b"{not json", b"", b'{"a":1,"a":2}', b"\xff"])
def test_engine_encode_failure_is_the_reference_sentence(run_cli, bad):
    r = run_cli("caveman-engine", "toon", "encode", input=bad)
    assert (r.rc, r.stdout, r.stderr) == (1, b"", ENCODE_FAIL)


@pytest.mark.parametrize("bad", [b"", b"a: 1\n\nb: 2", b"rows[1000000000]{id}:\n  1", b"name: a\nname: b", b"a: 1\r\n"])
def test_engine_decode_failure_is_the_reference_sentence(run_cli, bad):
    r = run_cli("caveman-engine", "toon", "decode", input=bad)
    assert (r.rc, r.stdout, r.stderr) == (1, b"", DECODE_FAIL)


def test_engine_missing_verb_is_usage_before_stdin_is_read(run_cli):
    r = run_cli("caveman-engine", "toon", input=OVERSIZE)
    assert (r.rc, r.stdout, r.stderr) == (1, b"", USAGE)


def test_engine_unknown_verb_is_usage_after_stdin_is_read(run_cli):
    r = run_cli("caveman-engine", "toon", "bogus", input=b"a: 1")
    assert (r.rc, r.stdout, r.stderr) == (1, b"", USAGE)
    r = run_cli("caveman-engine", "toon", "bogus", input=OVERSIZE)
    assert (r.rc, r.stdout) == (1, b"")
    assert r.stderr == b"read stdin: cave_input_too_large: stdin exceeds 67108864 bytes\n"


def test_engine_help_lists_toon(run_cli):
    r = run_cli("caveman-engine", "--help")
    assert r.rc == 0 and b"toon encode|decode" in r.stderr


# -- cavemem toon ----------------------------------------------------------------------------------


HIKES_STANDARD = (
    b"hikes[2]{id,name,distanceKm,sunny}:\n  1,Blue Lake,7.5,true\n  2,Ridge,9.2,false\nfriends[2]: ana,luis\n"
    b"meta:\n  season: spring_2025"
)


def test_cavemem_default_is_standard_toon_in_key_order(run_cli):
    r = run_cli("cavemem", "toon", "encode", input=HIKES)
    assert (r.rc, r.stdout, r.stderr) == (0, HIKES_STANDARD, b"")
    r = run_cli("cavemem", "toon", "decode", input=HIKES_STANDARD)
    assert (r.rc, r.stdout, r.stderr) == (0, HIKES, b"")  # document key order, compact


def test_cavemem_caveman_dialect_encode_and_decode(run_cli):
    r = run_cli("cavemem", "toon", "encode", "--dialect", "caveman", input=HIKES)
    assert (r.rc, r.stdout, r.stderr) == (0, HIKES_TOON, b"")
    r = run_cli("cavemem", "toon", "decode", "--dialect", "caveman", input=HIKES_TOON)
    assert r.rc == 0 and r.stderr == b"" and json.loads(r.stdout) == json.loads(HIKES)


def test_cavemem_not_encodable_is_one_json_line_with_the_reason(run_cli):
    r = run_cli("cavemem", "toon", "encode", "--dialect", "caveman", input=b'{"rows":[{"id":1,"name":"a"},{"id":2,"label":"b"}]}')
    assert r.rc == 1 and r.stdout == b""
    assert r.stderr.count(b"\n") == 1
    err = r.report
    assert err["error"] == "cave_not_toon_encodable"
    assert err["message"].startswith("not losslessly TOON-encodable (") and "keys differ" in err["message"]
    assert err["message"].endswith("keep JSON")


def test_cavemem_invalid_toon_names_the_line(run_cli):
    r = run_cli("cavemem", "toon", "decode", "--dialect", "caveman", input=b"a: 1\nb:  2")
    assert r.rc == 1 and r.stdout == b""
    assert r.report == {"error": "cave_invalid_toon", "message": r.report["message"]}
    assert r.report["message"].startswith("not valid TOON: line 2")
    r = run_cli("cavemem", "toon", "decode", input=b"a: 1\n   b: 2")  # standard, strict indentation
    assert r.rc == 1 and r.stdout == b"" and r.report["error"] == "cave_invalid_toon"
    assert r.report["message"].startswith("not valid TOON: ")


@pytest.mark.parametrize(
    "args, needle",
    [((), "missing verb"), (("bogus",), "unknown verb"), (("encode", "--nope"), "unknown option"), (("encode", "--dialect", "caveman", "--delimiter", "tab"), "standard TOON only"), (("decode", "--dialect", "caveman", "--lenient"), "standard TOON only"), (("encode", "--standard", "--dialect", "caveman"), "conflict"), (("encode", "--dialect", "yaml"), "must be one of"), (("encode", "--delimiter", "semicolon"), "must be one of")],
)
def test_cavemem_bad_arguments_exit_2_before_reading_stdin(run_cli, args, needle):
    r = run_cli("cavemem", "toon", *args, input=OVERSIZE)
    assert r.rc == 2 and r.stdout == b""
    assert r.report["error"] == "cave_invalid_arguments" and needle in r.report["message"]


def test_cavemem_input_too_large(run_cli):
    r = run_cli("cavemem", "toon", "decode", input=OVERSIZE)
    assert r.rc == 1 and r.report["error"] == "cave_input_too_large"


@pytest.mark.parametrize("args", [("--help",), ("-h",), ("help",), ("encode", "--help"), ("decode", "-h")])
def test_cavemem_help_at_both_levels(run_cli, args):
    r = run_cli("cavemem", "toon", *args)
    assert r.rc == 0 and r.stderr == b""
    assert r.stdout.startswith(b"usage: cavemem toon")


def test_cavemem_top_level_help_lists_toon(run_cli):
    r = run_cli("cavemem", "--help")
    assert r.rc == 0 and b"toon" in r.stdout


def test_cavemem_standard_toon(run_cli):
    raw = b'{"b":[{"x":1,"y":[1,2]}],"a":"p|q"}'
    r = run_cli("cavemem", "toon", "encode", "--delimiter", "pipe", input=raw)
    assert (r.rc, r.stdout) == (0, b'b[1|]:\n  - x: 1\n    y[2|]: 1|2\na: "p|q"')
    assert run_cli("cavemem", "toon", "encode", "--standard", "--delimiter", "pipe", input=raw).stdout == r.stdout
    back = run_cli("cavemem", "toon", "decode", input=r.stdout)
    assert (back.rc, back.stdout) == (0, raw)
    # the caveman form refuses the nested row; standard TOON has list items for it
    assert run_cli("cavemem", "toon", "encode", "--dialect", "caveman", input=raw).report["error"] == "cave_not_toon_encodable"


def test_cavemem_standard_refuses_numbers_a_double_cannot_carry(run_cli):
    r = run_cli("cavemem", "toon", "encode", input=b'{"n":0.1000000000000000000001}')
    assert r.rc == 1 and r.report["error"] == "cave_not_toon_encodable"
    r = run_cli("cavemem", "toon", "encode", "--dialect", "caveman", input=b'{"n":0.1000000000000000000001}')
    assert (r.rc, r.stdout) == (0, b"n: 0.1000000000000000000001")


def test_cavemem_decode_blank_input(run_cli):
    # standard TOON: an empty document is the empty object (spec root form); the caveman form refuses it
    r = run_cli("cavemem", "toon", "decode", input=b"")
    assert (r.rc, r.stdout, r.stderr) == (0, b"{}", b"")
    r = run_cli("cavemem", "toon", "decode", "--dialect", "caveman", input=b"  \n")
    assert r.rc == 1 and r.report["error"] == "cave_invalid_toon"


def test_cavemem_lenient_and_indent_reach_the_reader(run_cli):
    four = b"a:\n    b: 1"
    assert run_cli("cavemem", "toon", "decode", input=four).report["error"] == "cave_invalid_toon"
    assert run_cli("cavemem", "toon", "decode", "--indent", "4", input=four).stdout == b'{"a":{"b":1}}'
    short = b"a[3]: 1,2"
    r = run_cli("cavemem", "toon", "decode", input=short)
    assert r.rc == 1 and "expected 3 values, found 2" in r.report["message"]
    assert run_cli("cavemem", "toon", "decode", "--lenient", input=short).stdout == b'{"a":[1,2]}'
