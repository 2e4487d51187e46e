"""The CLI contract of ``caveman-engine`` and ``cavemem`` (spec engine-core §7; DESIGN.md)."""

from __future__ import annotations

import json
import sqlite3
import threading
import time

import pytest

from conftest import CAVEMAN_EVALS

pytestmark = pytest.mark.cli_process  # the process contract itself: every call is a real process

LIMIT = 64 * 1024 * 1024
JSON_PAYLOAD = json.dumps(
    {
        "results": [
            {"id": i, "name": f"item-{i}", "status": "ok", "score": i * 1.5, "tags": ["alpha", "beta"], "owner": "team-a"}
            for i in range(60)
        ],
        "count": 60,
    },
    indent=2,
).encode()
EMPTY_STATS = (
    '{\n  "totals": {\n    "count": 0,\n    "tokens_before": 0,\n    "tokens_after": 0,\n    "ratio": 0\n  },\n'
    '  "by_content_type": {},\n  "basis": "inferred",\n  "max_storage_bytes": 536870912\n}\n'
)


# -- caveman-engine: exact reference contract ------------------------------------------------


def test_engine_usage_and_unknown(run_cli):
    for args in ((), ("help",), ("--help",), ("-h",)):
        r = run_cli("caveman-engine", *args)
        assert r.rc == 0 and r.stdout == b""
        assert r.stderr.decode().startswith("caveman-engine compress | detect | retrieve <handle>")
    r = run_cli("caveman-engine", "frobnicate")
    assert r.rc == 2 and r.stderr == b"unknown caveman-engine subcommand: frobnicate\n"


@pytest.mark.parametrize(
    "args,message",
    [
        (("--bogus",), "unknown compress flag: --bogus"),
        (("--type=json",), "unknown compress flag: --type=json"),
        (("--type",), "usage: caveman-engine compress [--type <content-type>]"),
    ],
)
def test_engine_compress_flag_errors(run_cli, args, message):
    r = run_cli("caveman-engine", "compress", *args, input=b"x")
    assert r.rc == 1 and r.stdout == b"" and r.stderr == (message + "\n").encode()


def test_engine_compress_passthrough_report(run_cli):
    r = run_cli("caveman-engine", "compress", input=b"just an ordinary sentence with nothing to compress")
    assert r.rc == 0 and r.stdout == b"just an ordinary sentence with nothing to compress"
    assert r.stderr.decode() == (
        '{"content_type":"text","tokens_before":8,"tokens_after":8,'
        '"token_count_basis":"o200k_base","ratio":0,"basis":"inferred"}\n'
    )


def test_engine_compress_and_retrieve_round_trip(run_cli):
    r = run_cli("caveman-engine", "compress", "--type", "auto", input=JSON_PAYLOAD)
    assert r.rc == 0
    rep = r.report
    assert rep["content_type"] == "json" and rep["method"] == "elision" and rep["lossless_to_model"] is False
    assert 0 < rep["ratio"] < 1 and len(r.stdout) < len(JSON_PAYLOAD)
    back = run_cli("caveman-engine", "retrieve", rep["recovery_handle"])
    assert back.rc == 0 and back.stdout == JSON_PAYLOAD
    again = run_cli("caveman-engine", "compress", input=r.stdout)
    assert again.stdout == r.stdout  # compressing compressed output changes nothing


def test_engine_retrieve_errors(run_cli):
    r = run_cli("caveman-engine", "retrieve")
    assert r.rc == 1 and r.stderr == b"usage: caveman-engine retrieve <handle> [query]\n"
    r = run_cli("caveman-engine", "retrieve", "ccr_00000000000000000000000000000000")
    assert r.rc == 1 and r.stdout == b"" and r.stderr == b"retrieve: ccr: recovery handle not found\n"


def test_engine_stats_fresh_db_is_exact(run_cli):
    r = run_cli("caveman-engine", "stats")
    assert r.rc == 0 and r.stdout.decode() == EMPTY_STATS


def test_engine_detect(run_cli):
    r = run_cli("caveman-engine", "detect", "ignored-extra-arg", input=b'{"a": [1, 2]}')
    assert r.rc == 0 and r.stdout == b"json\n"


def test_registry_manifest_shape(run_cli):
    r = run_cli("caveman-engine", "registry")
    assert r.rc == 0 and r.stdout.endswith(b"\n")
    m = json.loads(r.stdout)
    assert m["schema_version"] == 1
    ids = [c["transform_id"] for c in m["capabilities"]]
    assert ids == sorted(ids) and "caveman.engine.toolschema-annotations.v1" not in ids
    for c in m["capabilities"]:
        assert c["recovery"] == "exact_ccr" and c["not_smaller_fallback"] == "original"
        assert c["provenance"] == {"kind": "native", "source_manifest_sha256": None}
    import hashlib

    caps = json.dumps(m["capabilities"], separators=(",", ":")).encode()
    assert m["registry_sha256"] == hashlib.sha256(caps).hexdigest()
    assert run_cli("cavemem", "registry", "--json").stdout == r.stdout


# -- stdin cap -------------------------------------------------------------------------------


@pytest.mark.parametrize("prog,cmd", [("caveman-engine", "compress"), ("caveman-engine", "detect"), ("cavemem", "compress"), ("cavemem", "detect")])
def test_stdin_cap(run_cli, prog, cmd):
    over = run_cli(prog, cmd, input=b"a" * (LIMIT + 1), timeout=120)
    assert over.rc == 1 and over.stdout == b""
    assert b"cave_input_too_large" in over.stderr
    if prog == "caveman-engine":
        assert over.stderr == b"read stdin: cave_input_too_large: stdin exceeds 67108864 bytes\n"
    else:
        assert json.loads(over.stderr)["error"] == "cave_input_too_large"


def test_exactly_64_mib_is_accepted(run_cli):
    data = b"a" * LIMIT
    r = run_cli("cavemem", "detect", input=data, timeout=120)
    assert r.rc == 0 and r.stdout == b"text\n"
    r = run_cli("caveman-engine", "compress", input=data, timeout=300)
    assert r.rc == 0 and r.stdout == data


# -- bad input is passed through byte for byte -----------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\n",
        b"\x00\x01\x02\x00binary\x00",
        b"\xff\xfe\xfd invalid utf-8 \xc3\x28",
        bytes(range(256)) * 40,
        b"[" * 100_000 + b"]" * 100_000,
        b'{"a": ' + b"9" * 1_000_000 + b"}",
        b'{"a": 1, "a": 2, "a": [' + b",".join(b'{"k":%d}' % i for i in range(50)) + b"]}",
    ],
)
def test_bad_input_never_crashes_or_alters_bytes(run_cli, data):
    r = run_cli("cavemem", "compress", input=data)
    assert r.rc == 0
    rep = r.report
    if rep.get("recovery_handle"):
        assert run_cli("cavemem", "retrieve", rep["recovery_handle"]).stdout == data
    else:
        assert r.stdout == data and rep["ratio"] == 0


# -- store failures --------------------------------------------------------------------------


def test_unusable_store_passes_through_with_error(run_cli, tmp_path):
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("x")
    for env in ({"CAVEMAN_CCR_DB": str(not_a_dir / "ccr.db")}, {"CAVEMAN_HOME": str(not_a_dir / "home")}):
        r = run_cli("cavemem", "compress", input=JSON_PAYLOAD, env=env)
        assert r.rc == 0 and r.stdout == JSON_PAYLOAD
        assert r.report["error"] == "cave_ccr_unavailable" and r.report["ratio"] == 0
        assert "recovery_handle" not in r.report


def test_group_writable_store_dir_is_refused(run_cli, tmp_path):
    loose = tmp_path / "loose"
    loose.mkdir()
    loose.chmod(0o775)
    r = run_cli("caveman-engine", "compress", input=JSON_PAYLOAD, env={"CAVEMAN_CCR_DB": str(loose / "ccr.db")})
    assert r.rc == 0 and r.stdout == JSON_PAYLOAD and r.report["error"] == "cave_ccr_unavailable"


def test_corrupt_db(run_cli, cave_home):
    db = cave_home / "ccr.db"
    db.write_bytes(b"garbage, not sqlite" * 200)
    r = run_cli("cavemem", "compress", input=JSON_PAYLOAD)
    assert r.rc == 0 and r.stdout == JSON_PAYLOAD and r.report["error"] == "cave_ccr_unavailable"
    r = run_cli("cavemem", "retrieve", "ccr_00000000000000000000000000000000")
    assert r.rc == 1 and json.loads(r.stderr)["error"] == "cave_ccr_unavailable"
    r = run_cli("caveman-engine", "stats")
    assert r.rc == 1 and r.stderr.startswith(b"cannot open recovery store:")
    assert db.read_bytes() == b"garbage, not sqlite" * 200


def test_locked_db_times_out_to_passthrough(run_cli, cave_home):
    run_cli("cavemem", "stats")  # create the database
    conn = sqlite3.connect(str(cave_home / "ccr.db"), isolation_level=None)
    conn.execute("BEGIN EXCLUSIVE")
    try:
        t0 = time.monotonic()
        r = run_cli("cavemem", "compress", input=JSON_PAYLOAD, timeout=60)
        assert time.monotonic() - t0 >= 4.5  # waited the busy timeout, then gave up
    finally:
        conn.execute("ROLLBACK")
        conn.close()
    assert r.rc == 0 and r.stdout == JSON_PAYLOAD and r.report["error"] == "cave_ccr_unavailable"


def test_budget_full_passes_through(run_cli):
    env = {"CAVEMAN_CCR_MAX_BYTES": "70000"}
    filler = [json.dumps({"rows": [{"id": i, "v": f"{k}-{i}" * 20} for i in range(300)]}, indent=1).encode() for k in range(4)]
    codes = [run_cli("cavemem", "compress", input=f, env=env).report.get("error") for f in filler]
    assert "cave_ccr_budget_exceeded" in codes
    refused = filler[codes.index("cave_ccr_budget_exceeded")]
    full = run_cli("caveman-engine", "compress", input=refused, env=env)
    assert full.rc == 0 and full.stdout == refused
    assert full.report["error"] == "cave_ccr_budget_exceeded" and full.report["ratio"] == 0
    assert "recovery_handle" not in full.report and "method" not in full.report
    stored = [run_cli("cavemem", "compress", input=f, env=env).report for f in filler[: codes.index("cave_ccr_budget_exceeded")]]
    assert all(r.get("recovery_handle") and not r.get("error") for r in stored)  # re-puts succeed at the cap


@pytest.mark.parametrize("value", ["abc", "0", "-5"])
def test_invalid_budget_refuses_to_start(run_cli, value):
    env = {"CAVEMAN_CCR_MAX_BYTES": value}
    r = run_cli("caveman-engine", "compress", input=b"x", env=env)
    assert r.rc == 1 and r.stdout == b""
    assert r.stderr == b"cannot open recovery store: CAVEMAN_CCR_MAX_BYTES must be a positive integer\n"
    r = run_cli("cavemem", "compress", input=b"x", env=env)
    assert r.rc == 1 and r.stdout == b""
    assert json.loads(r.stderr) == {"error": "cave_invalid_config", "message": "CAVEMAN_CCR_MAX_BYTES must be a positive integer"}


# -- cavemem friendly surface ------------------------------------------------------------------


def test_cavemem_help_and_errors(run_cli):
    r = run_cli("cavemem", "--help")
    assert r.rc == 0 and b"compress" in r.stdout and b"recall" in r.stdout and r.stderr == b""
    r = run_cli("cavemem", "compress", "--help")
    assert r.rc == 0 and r.stdout.startswith(b"usage: cavemem compress")
    r = run_cli("cavemem", "frobnicate")
    assert r.rc == 2 and json.loads(r.stderr)["error"] == "cave_unknown_command"
    r = run_cli("cavemem", "compress", "--bogus", input=b"x")
    assert r.rc == 2 and r.stdout == b"" and json.loads(r.stderr)["error"] == "cave_invalid_arguments"
    r = run_cli("cavemem", "retrieve")
    assert r.rc == 2 and json.loads(r.stderr)["error"] == "cave_invalid_arguments"
    r = run_cli("cavemem", "retrieve", "ccr_00000000000000000000000000000000")
    assert r.rc == 1 and r.stdout == b""
    assert json.loads(r.stderr) == {"error": "cave_unknown_handle", "message": "ccr: recovery handle not found"}


def test_cavemem_detect_json_and_stats(run_cli):
    r = run_cli("cavemem", "detect", "--json", input=b"[1,2,3]")
    assert r.stdout == b'{"content_type":"json"}\n'
    r = run_cli("cavemem", "stats", "--json")
    assert r.rc == 0 and r.stdout.decode() == EMPTY_STATS
    r = run_cli("cavemem", "stats")
    assert r.rc == 0 and b"total" in r.stdout and b"inferred" in r.stdout


def test_cavemem_compress_query_and_retrieve_query(run_cli):
    r = run_cli("cavemem", "compress", "--query", "item-42", input=JSON_PAYLOAD)
    assert r.rc == 0 and b"item-42" in r.stdout
    h = r.report["recovery_handle"]
    narrowed = run_cli("cavemem", "retrieve", h, "--query", "item-42")
    assert narrowed.rc == 0 and b"item-42" in narrowed.stdout and len(narrowed.stdout) < len(JSON_PAYLOAD)
    assert run_cli("cavemem", "retrieve", f"ccr://{h}").stdout == JSON_PAYLOAD


def test_simulate_stores_nothing(run_cli):
    r = run_cli("cavemem", "simulate", input=JSON_PAYLOAD)
    sim = json.loads(r.stdout)
    assert sim["compressor"] == "json" and sim["tokens_saved"] > 0 and sim["recoverable"] is True
    assert json.loads(run_cli("cavemem", "stats", "--json").stdout)["totals"]["count"] == 0


def test_shared_fixtures_round_trip(run_cli):
    if not CAVEMAN_EVALS.is_dir():
        pytest.skip("shared caveman fixtures not present")
    for path in sorted(CAVEMAN_EVALS.iterdir()):
        if path.name == "manifest.yaml":
            continue
        data = path.read_bytes()
        r = run_cli("cavemem", "compress", input=data)
        assert r.rc == 0, path.name
        h = r.report.get("recovery_handle")
        if h:
            assert run_cli("cavemem", "retrieve", h).stdout == data, path.name
        else:
            assert r.stdout == data, path.name


def test_concurrent_readers_while_writing(run_cli):
    """A retrieve that races a compress of other data still returns exact bytes."""
    first = run_cli("cavemem", "compress", input=JSON_PAYLOAD).report["recovery_handle"]
    errors = []

    def writer():
        for k in range(3):
            data = JSON_PAYLOAD.replace(b"team-a", b"team-%d" % k)
            if run_cli("cavemem", "compress", input=data).rc != 0:
                errors.append(k)

    t = threading.Thread(target=writer)
    t.start()
    for _ in range(3):
        assert run_cli("cavemem", "retrieve", first).stdout == JSON_PAYLOAD
    t.join()
    assert not errors
