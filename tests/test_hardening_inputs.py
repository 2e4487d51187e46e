"""Issue 15: hostile inputs — hooks (deadline, linear parsers), MCP requests and import lines.
The audit's classes are kept as bounded property tests (hypothesis) beside one regression per
item."""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import time

import pytest
from conftest import cli_argv, cli_in_process
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cavemem.hooks import claude_code
from cavemem.mcp.server import defuse_line
from cavemem.mcp.tools import INVALID_MARK, Tools


def _run(*args: str, input: bytes = b"", env: dict | None = None, cwd=None, timeout: float = 60):
    full = dict(os.environ)
    full.update(env or {})
    t0 = time.monotonic()
    proc = cli_in_process(args, input=input, env=full, timeout=timeout, cwd=cwd)
    return proc, time.monotonic() - t0


# -- item 2: import --------------------------------------------------------------------------------


def test_02_import_bad_line_keeps_the_rest_of_its_batch(tmp_path):
    lines = [json.dumps({"text": f"good memory number {i}"}) for i in range(5)]
    lines.insert(2, '{"text": "bad \\ud800 surrogate"}')
    lines.insert(4, '{"text": "huge count", "seen_count": ' + "9" * 40 + "}")
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(lines) + "\n")
    r, _ = _run("import", str(src), cwd=tmp_path)
    assert r.returncode == 65, r.stderr
    assert r.stdout.decode().startswith("imported 5 of 7 lines (0 already present, 2 bad)")
    errs = [json.loads(x) for x in r.stderr.decode().splitlines()]
    assert [(e["line"], e["error"]) for e in errs] == [(3, "cave_invalid_input"), (5, "cave_invalid_input")]
    listed, _ = _run("list", "--all", cwd=tmp_path)
    assert all(f"good memory number {i}".encode() in listed.stdout for i in range(5))


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(st.characters(codec=None), max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
_line = st.one_of(
    st.dictionaries(st.sampled_from(["text", "project", "tags", "kind", "seen_count", "created_at", "id", "files", "topic"]),
                    _json_values, max_size=6).map(lambda d: json.dumps(d)),
    st.text(max_size=40),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(_line, min_size=1, max_size=6))
def test_02_property_import_reports_every_bad_line_and_keeps_the_good(tmp_path, lines):
    from cavemem import Memory
    from cavemem.memory.store import Filter

    good = "a good line that must survive"
    all_lines = lines + [json.dumps({"text": good})]
    mem = Memory(":memory:", cwd=str(tmp_path))
    try:
        report = mem.import_lines(all_lines).to_dict()
        counted = sum(1 for x in all_lines if x.strip())
        assert report["lines"] == counted
        assert report["imported"] + report["duplicates"] + report["bad_lines"] == counted
        assert any(r.text == good for r in mem.store.select(Filter(projects=None, current_only=False)))
    finally:
        mem.close()


# -- item 3: hooks --------------------------------------------------------------------------------


def _startup() -> float:
    best = 10.0
    for _ in range(2):
        _, t = _run("hook", "--help")
        best = min(best, t)
    return best


SLOW_INPUTS = {
    "remember_x5000": {"last_assistant_message": "<remember>" * 5000},
    "remember_open_close": {"last_assistant_message": "</remember>" * 5000 + "<remember>" * 50000},
    "fences": {"last_assistant_message": "```\n" * 200000},
    "attrs": {"last_assistant_message": "<remember " + 'a="b" ' * 200000},
    "prompt": {"prompt": "remember " * 200000},
}


@pytest.mark.parametrize("case", sorted(SLOW_INPUTS))
@pytest.mark.parametrize("event", ["stop", "user-prompt"])
def test_03_stop_hook_returns_within_deadline_on_slow_input(case, event, tmp_path):
    deadline_ms = 1000
    startup = _startup()
    payload = dict(SLOW_INPUTS[case], cwd=str(tmp_path), session_id="s")
    r, wall = _run("hook", "claude-code", event, input=json.dumps(payload).encode(),
                   env={"CAVEMAN_HOOK_DEADLINE_MS": str(deadline_ms), "CAVEMAN_CAPTURE": "0"})
    assert r.returncode == 0
    assert wall <= startup + deadline_ms / 1000 + 0.1, (wall, startup)
    if r.stdout:
        json.loads(r.stdout)  # whole JSON or nothing


def test_03_hook_at_its_cap_returns_within_deadline(tmp_path):
    deadline_ms = 600
    startup = _startup()
    blob = json.dumps({"last_assistant_message": "<remember>x" * (16 * 1024 * 1024 // 12)})[: 16 * 1024 * 1024 - 2] + '"}'
    r, wall = _run("hook", "claude-code", "stop", input=blob.encode(), env={"CAVEMAN_HOOK_DEADLINE_MS": str(deadline_ms)})
    assert r.returncode == 0 and r.stdout == b""
    assert wall <= startup + deadline_ms / 1000 + 0.1 + 0.1, (wall, startup)  # + reading 16 MiB of stdin


def test_13_hook_cap_message_says_16_mib():
    r, _ = _run("hook", "claude-code", "stop", input=b" " * (16 * 1024 * 1024 + 1), env={"CAVEMAN_HOOK_DEADLINE_MS": "20000"})
    assert r.returncode == 0 and r.stdout == b""
    err = json.loads(r.stderr.decode().splitlines()[-1])
    assert err["error"] == "cave_input_too_large" and "16777216" in err["message"] and "64" not in err["message"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["<remember>", "</remember>", "<REMEMBER kind=\"fact\">", "```", "~~~", "\n", "x",
                                 " ", "</remember ", ">", '"', "<remember topic=\"t\">"]), max_size=60))
def test_03_property_remember_parser_matches_the_reference_regex(parts):
    body = "".join(parts).replace("```", "").replace("~~~", "")  # fences: CommonMark rules, tested below
    ref = re.compile(r"<remember((?:\s+[a-z]+\s*=\s*\"[^\"\n]{0,200}\")*)\s*>(.*?)</remember\s*>", re.I | re.S)
    want = [(m.group(1) or "", m.group(2)) for m in ref.finditer(body)][: claude_code.MAX_REMEMBER * 4]
    assert claude_code.remember_blocks(body) == want


def test_03_fences_hide_remember_blocks():
    body = "a\n```py\n<remember>inside</remember>\n```\n<remember>outside</remember>\n~~~~\n<remember>open</remember>"
    assert [t for _, t in claude_code.remember_blocks(claude_code.strip_fences(body))] == ["outside"]


# -- item 9: MCP ----------------------------------------------------------------------------------


@pytest.fixture
def tools(tmp_path):
    from cavemem import Memory
    from cavemem.engine.core import Engine
    from cavemem.store.ccr import open_ccr

    t = Tools(memory=Memory(str(tmp_path / "mem.db"), cwd=str(tmp_path)), engine=Engine(store=open_ccr(str(tmp_path / "ccr.db"))))
    yield t
    t.close()


def _mcp_session():
    proc = subprocess.Popen(cli_argv() + ["mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    init = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    proc.stdin.write((json.dumps(init) + "\n").encode() + b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    proc.stdin.flush()
    assert _reply(proc) is not None
    return proc


def _reply(proc, timeout: float = 20):
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    return json.loads(proc.stdout.readline()) if ready else None


def test_09_mcp_every_request_gets_a_response():
    raw = {
        "surrogate_text": '{"name":"cavemem_remember","arguments":{"text":"bad \\ud800 x"}}',
        "surrogate_query": '{"name":"cavemem_recall","arguments":{"query":"\\udcff"}}',
        "surrogate_compress": '{"name":"cavemem_compress","arguments":{"data":"\\ud800 plain"}}',
        "huge_limit": '{"name":"cavemem_recall","arguments":{"query":"x","limit":' + "9" * 5000 + "}}",
        "nan_limit": '{"name":"cavemem_recall","arguments":{"query":"x","limit":NaN}}',
        "inf_limit": '{"name":"cavemem_list","arguments":{"limit":Infinity}}',
        "neg_inf": '{"name":"cavemem_recall","arguments":{"query":"x","token_budget":-Infinity}}',
    }
    proc = _mcp_session()
    try:
        for i, (case, params) in enumerate(raw.items(), 1):
            proc.stdin.write(f'{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{params}}}\n'.encode())
            proc.stdin.flush()
            reply = _reply(proc)
            assert reply is not None and reply["id"] == i, case
            body = json.loads(reply["result"]["content"][0]["text"])
            assert reply["result"]["isError"] and body["error"] == "cave_invalid_arguments", (case, body)
        proc.stdin.write(b'{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"cavemem_recall","arguments":{"query":"x"}}}\n')
        proc.stdin.flush()
        assert not _reply(proc)["result"]["isError"]  # the server is still fine
    finally:
        proc.kill()
        proc.wait()


def test_09_tool_layer_rejects_non_finite_and_huge_numbers(tools):
    for args in ({"query": "x", "limit": float("nan")}, {"query": "x", "limit": float("inf")}, {"query": "x", "limit": 10**5000},
                 {"query": "x", "limit": 1e300}, {"query": "\ud800"}):
        is_error, text = tools.call("cavemem_recall", args)
        assert is_error and json.loads(text)["error"] == "cave_invalid_arguments", args


def test_09_defuse_leaves_good_lines_alone():
    good = '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"cavemem_recall","arguments":{"query":"café"}}}'
    assert defuse_line(good) is good
    bad = json.loads(defuse_line(good.replace("café", "\\ud800")))
    assert bad["id"] == 3 and INVALID_MARK in bad["params"]["arguments"]


_hostile = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(10**40), max_value=10**40) | st.floats()
    | st.text(st.characters(codec=None), max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=10,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["cavemem_remember", "cavemem_recall", "cavemem_compress", "cavemem_retrieve", "cavemem_list",
                        "cavemem_forget", "cavemem_history", "cavemem_show", "cavemem_supersede"]),
       st.dictionaries(st.sampled_from(["text", "query", "limit", "data", "handle", "id", "tags", "project", "token_budget", "type"]),
                       _hostile, max_size=4))
def test_09_property_tool_calls_answer_with_valid_utf8_and_never_panic(tools, name, args):
    is_error, text = tools.call(name, args)
    text.encode("utf-8")  # the wire needs valid UTF-8
    body = json.loads(text)
    if is_error:
        assert body["error"] != "cave_tool_panicked", (name, args, body)


_event_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(st.characters(codec=None), max_size=40)
    | st.sampled_from(["<remember>", "</remember>", "```\n", "remember: ", "<private>", "/tmp/nope.jsonl"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=16,
)
_events = st.one_of(
    st.binary(max_size=200),
    st.fixed_dictionaries({}, optional={k: _event_values for k in (
        "prompt", "last_assistant_message", "cwd", "session_id", "transcript_path", "hook_event_name")}).map(
        lambda d: json.dumps(d).encode("utf-8", "surrogatepass")),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["session-start", "user-prompt", "stop", "session-end", "pre-compact"]), _events)
def test_03_property_hostile_hook_events_answer_fast_and_fail_open(monkeypatch, name, raw):
    from cavemem.cli.commands.hook import handle

    monkeypatch.setenv("CAVEMAN_CAPTURE", "0")
    out, exc, started = None, None, time.process_time()
    try:
        out = handle(name, raw)
    except Exception as caught:  # noqa: BLE001 - run_hook logs these and prints nothing
        exc = caught
    assert time.process_time() - started < 5  # fast: the deadline (cli/watchdog.py) is a backstop, not the plan
    if exc is not None:  # never a crash of the runner: only the errors the hook reports
        assert type(exc).__name__ in ("HookInputError", "CaveError", "RuntimeError"), repr(exc)
    elif out is not None:
        json.dumps(out).encode("utf-8")
