"""``cavemem mcp`` over real stdio with the official MCP SDK client: handshake, tool list and
schemas, every tool, error payloads; plus the tool layer directly (no SDK) for edge cases."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cavemem.mcp.tools import SPECS, Tools

from conftest import cli_argv

EXPECTED_TOOLS = [
    "cavemem_remember", "cavemem_recall", "cavemem_supersede", "cavemem_history", "cavemem_forget",
    "cavemem_compress", "cavemem_retrieve", "cavemem_list", "cavemem_show", "cavemem_export", "cavemem_stats",
]


def _server_params(home: Path):
    from mcp import StdioServerParameters

    command, *args = cli_argv() + ["mcp"]
    env = {"CAVEMAN_HOME": str(home), "CAVEMAN_CACHE_DIR": os.environ.get("CAVEMAN_CACHE_DIR", ""),
           "PATH": os.environ.get("PATH", "")}
    return StdioServerParameters(command=command, args=args, env=env, cwd=str(home))


def _payload(result) -> dict:
    assert len(result.content) == 1 and result.content[0].type == "text"
    return json.loads(result.content[0].text)


def _session_run(home: Path, body):
    """Run ``body(session)`` against a freshly spawned ``cavemem mcp``."""
    from mcp import ClientSession, stdio_client

    async def main():
        with open(os.devnull, "w") as errlog:
            async with stdio_client(_server_params(home), errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    init = await session.initialize()
                    return await body(session, init)

    return asyncio.run(asyncio.wait_for(main(), timeout=120))


def test_stdio_server_end_to_end(cave_home):
    big_log = "".join(
        f"2026-01-01T00:00:{i % 60:02d}Z INFO worker-{i % 7} processed batch {i} in {i % 13} ms\n" for i in range(400)
    ) + "2026-01-01T00:07:00Z ERROR worker-3 failed: connection reset by peer\n"

    async def body(session, init):
        out = {"init": init}
        out["tools"] = (await session.list_tools()).tools
        call = session.call_tool
        out["remember"] = await call("cavemem_remember", {"text": "the deploy key lives in vault under ops/deploy", "kind": "fact"})
        out["remember_again"] = await call("cavemem_remember", {"text": "the deploy key lives in vault under ops/deploy"})
        out["recall"] = await call("cavemem_recall", {"query": "where is the deploy key?"})
        out["offtopic"] = await call("cavemem_recall", {"query": "boiling point of ethanol"})
        mem_id = _payload(out["remember"])["id"]
        out["supersede"] = await call("cavemem_supersede", {"id": mem_id, "text": "the deploy key moved to vault under ops/keys"})
        new_id = _payload(out["supersede"])["id"]
        out["history"] = await call("cavemem_history", {"id": new_id})
        out["recall_after"] = await call("cavemem_recall", {"query": "deploy key vault", "token_budget": 0})
        out["compress"] = await call("cavemem_compress", {"data": big_log})
        handle = _payload(out["compress"]).get("recovery_handle", "")
        out["retrieve"] = await call("cavemem_retrieve", {"handle": handle})
        out["retrieve_uri"] = await call("cavemem_retrieve", {"handle": "ccr://" + handle})
        out["retrieve_marker"] = await call("cavemem_retrieve", {"handle": f"<<ccr:{handle}>>"})
        hit = _payload(out["recall_after"])["hits"][0]
        out["retrieve_hit"] = await call("cavemem_retrieve", {"handle": hit["recovery_handle"]})
        out["forget"] = await call("cavemem_forget", {"id": new_id})
        out["forget_again"] = await call("cavemem_forget", {"id": new_id})
        # error paths
        out["err_missing_query"] = await call("cavemem_recall", {})
        out["err_budget"] = await call("cavemem_recall", {"query": "x", "token_budget": -1})
        out["err_unknown_tool"] = await call("cavemem_nope", {})
        out["err_supersede"] = await call("cavemem_supersede", {"id": "mem_0000000000000000", "text": "t"})
        out["err_history"] = await call("cavemem_history", {"id": "mem_0000000000000000"})
        out["err_too_large"] = await call("cavemem_remember", {"text": "x" * (256 * 1024 + 1)})
        out["err_handle"] = await call("cavemem_retrieve", {"handle": "ccr_00000000000000000000000000000000"})
        out["err_remember_type"] = await call("cavemem_remember", {"text": 42})
        out["after_errors"] = await call("cavemem_recall", {"query": "deploy key"})  # still serving
        return out

    r = _session_run(cave_home, body)

    assert r["init"].server_info.name == "cavemem"
    tools = {t.name: t for t in r["tools"]}
    assert [t.name for t in r["tools"]] == EXPECTED_TOOLS
    recall_schema = tools["cavemem_recall"].input_schema
    assert recall_schema["type"] == "object" and recall_schema["required"] == ["query"]
    assert recall_schema["properties"]["token_budget"] == {
        "type": "integer", "minimum": 0, "default": 2000,
        "description": "Aggregate inferred-token cap (default 2000; explicit 0 disables the cap).",
    }
    assert tools["cavemem_remember"].input_schema["properties"]["text"] == {"type": "string", "description": "The memory to store."}
    assert tools["cavemem_supersede"].input_schema["required"] == ["id", "text"]
    assert tools["cavemem_forget"].annotations.destructive_hint is True
    assert all(t.annotations.open_world_hint is False for t in r["tools"])
    assert tools["cavemem_remember"].description.startswith("Store a durable memory for recall in a later session.")

    rem = _payload(r["remember"])
    assert not r["remember"].is_error and rem["id"] == "mem_a66a8a47cc0663ca" and rem["basis"] == "inferred"
    assert _payload(r["remember_again"])["id"] == rem["id"]
    hits = _payload(r["recall"])["hits"]
    assert hits and hits[0]["id"] == rem["id"] and hits[0]["recovery_handle"].startswith("ccr_")
    assert _payload(r["offtopic"])["hits"] == []
    sup = _payload(r["supersede"])
    assert sup["supersedes"] == rem["id"] and sup["id"] != rem["id"]
    hist = _payload(r["history"])["history"]
    assert [h["id"] for h in hist] == [rem["id"], sup["id"]]
    after = _payload(r["recall_after"])["hits"]
    assert [h["id"] for h in after] == [sup["id"]]  # the superseded fact is not recalled
    comp = _payload(r["compress"])
    assert comp["tokens_after"] < comp["tokens_before"] and comp["recovery_handle"].startswith("ccr_")
    assert "connection reset by peer" in comp["output"]
    for key in ("retrieve", "retrieve_uri", "retrieve_marker"):
        assert _payload(r[key])["original"] == big_log, key
    assert _payload(r["retrieve_hit"])["original"] == "the deploy key moved to vault under ops/keys"
    assert _payload(r["forget"])["forgotten"] is True
    assert _payload(r["forget_again"])["forgotten"] is False

    def err(key):
        assert r[key].is_error, key
        return _payload(r[key])

    assert err("err_missing_query") == {"error": "cave_invalid_arguments", "message": "recall: missing query"}
    assert err("err_budget") == {"error": "cave_invalid_arguments", "message": "token_budget must be a non-negative integer"}
    assert err("err_unknown_tool") == {"error": "cave_unknown_tool", "message": "unknown tool: cavemem_nope"}
    assert err("err_supersede")["error"] == "cave_supersede_failed"
    assert "is not current" in err("err_supersede")["message"]
    assert err("err_history")["error"] == "cave_history_failed"
    assert err("err_too_large")["error"] == "cave_memory_too_large"
    assert err("err_handle")["error"] == "cave_unknown_handle"
    assert err("err_remember_type") == {"error": "cave_invalid_arguments", "message": "remember: invalid arguments"}
    assert not r["after_errors"].is_error


def test_stdout_is_only_json_rpc(cave_home):
    """Raw stdio: every stdout line is one JSON-RPC message; notifications get no reply."""
    cmd = cli_argv() + ["mcp"]
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "cavemem_remember", "arguments": {"text": "café ≠ tea 記憶"}}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "cavemem_recall", "arguments": {"query": "café tea"}}},
    ]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    replies = []
    try:
        for msg in lines:
            proc.stdin.write((json.dumps(msg) + "\n").encode())
            proc.stdin.flush()
            if "id" in msg:  # a request: exactly one line comes back, and it is JSON-RPC
                replies.append(json.loads(proc.stdout.readline()))
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0
        assert proc.stdout.read() == b""  # nothing else was ever written to stdout
    finally:
        if proc.poll() is None:
            proc.kill()
    assert [m["id"] for m in replies] == [1, 2, 3]
    assert all(m["jsonrpc"] == "2.0" and "result" in m for m in replies)
    recalled = json.loads(replies[2]["result"]["content"][0]["text"])
    assert recalled["hits"][0]["text"] == "café ≠ tea 記憶"


# -- the tool layer without the SDK ---------------------------------------------------------------


@pytest.fixture
def tools(tmp_path):
    from cavemem.engine.core import Engine
    from cavemem import Memory
    from cavemem.store.ccr import open_ccr

    t = Tools(memory=Memory(str(tmp_path / "mem.db"), cwd=str(tmp_path)), engine=Engine(store=open_ccr(str(tmp_path / "ccr.db"))))
    yield t
    t.close()


def call(tools, name, args):
    is_error, text = tools.call(name, args)
    return is_error, json.loads(text)


def test_specs_are_small_and_well_formed():
    assert [s.name for s in SPECS] == EXPECTED_TOOLS
    for s in SPECS:
        schema = s.input_schema
        assert schema["type"] == "object" and set(schema["required"]) <= set(schema["properties"])
        for prop in schema["properties"].values():
            assert prop.get("description")
    total = len(json.dumps([{"name": s.name, "description": s.description, "inputSchema": s.input_schema} for s in SPECS]))
    assert total < 8000  # a few hundred tokens per tool at most


def test_bad_arguments_are_invalid_arguments_not_crashes(tools):
    for name, args in [
        ("cavemem_remember", {}), ("cavemem_remember", {"text": None}), ("cavemem_remember", {"text": "x", "tags": "a"}),
        ("cavemem_remember", {"text": "x", "tags": [1]}), ("cavemem_recall", {"query": "   "}),
        ("cavemem_recall", {"query": "q", "limit": "five"}), ("cavemem_recall", {"query": "q", "limit": 1.5}),
        ("cavemem_recall", {"query": "q", "token_budget": True}), ("cavemem_supersede", {"id": "x"}),
        ("cavemem_history", {"id": ""}), ("cavemem_forget", {}), ("cavemem_compress", {"data": 5}),
        ("cavemem_retrieve", {"handle": " "}), ("cavemem_recall", "not a dict"),
    ]:
        is_error, payload = call(tools, name, args)
        if name == "cavemem_remember" and args.get("tags") == "a":
            assert not is_error  # a single tag string is accepted as one tag
            continue
        assert is_error and payload["error"] == "cave_invalid_arguments", (name, args, payload)


def test_json_looking_text_is_stored_verbatim(tools):
    for text in ('{"a": 1}', "[1, 2]", "null", "true", "42"):
        is_error, payload = call(tools, "cavemem_remember", {"text": text + " is a literal"})
        assert not is_error
        assert tools.memory().show(payload["id"]).text == text + " is a literal"


def test_empty_text_is_remember_failed(tools):
    is_error, payload = call(tools, "cavemem_remember", {"text": "   "})
    assert is_error and payload["error"] == "cave_remember_failed" and payload["cause"] == "cave_memory_empty"


def test_history_and_forget_need_an_id_and_report_store_errors_by_verb(tools):
    for verb in ("history", "forget"):
        for args in ({}, {"id": ""}, {"id": 7}):
            assert call(tools, f"cavemem_{verb}", args) == (True, {"error": "cave_invalid_arguments", "message": f"{verb}: missing id"})
    is_error, payload = call(tools, "cavemem_history", {"id": "mem_0000000000000000"})
    assert is_error and payload["error"] == "cave_history_failed" and payload["cause"] == "cave_memory_not_found"


def test_compress_passthrough_and_binary_retrieve(tools):
    is_error, payload = call(tools, "cavemem_compress", {"data": "short text"})
    assert not is_error and payload["output"] == "short text" and "recovery_handle" not in payload
    handle = tools.engine().store().put(b"\xff\xfe binary", content_type="text", compressor="t", tokens_before=1, tokens_after=1)
    is_error, payload = call(tools, "cavemem_retrieve", {"handle": handle})
    assert not is_error and payload["encoding"] == "base64"
    import base64

    assert base64.b64decode(payload["original"]) == b"\xff\xfe binary"


def test_retrieve_with_query_narrows(tools):
    rows = "".join(f'{{"id": {i}, "name": "user{i}", "status": "{"error" if i == 77 else "ok"}"}}\n' for i in range(300))
    data = "[" + ",".join(x for x in rows.splitlines()) + "]"
    is_error, payload = call(tools, "cavemem_compress", {"data": data})
    assert not is_error and payload.get("recovery_handle")
    _, full = call(tools, "cavemem_retrieve", {"handle": payload["recovery_handle"]})
    _, narrow = call(tools, "cavemem_retrieve", {"handle": payload["recovery_handle"], "query": "user77"})
    assert full["original"] == data
    assert "user77" in narrow["original"] and len(narrow["original"]) < len(data)


def test_a_tool_bug_becomes_a_tool_error(tools, monkeypatch):
    monkeypatch.setattr(tools, "_history", lambda args: 1 / 0)
    is_error, payload = call(tools, "cavemem_history", {"id": "mem_x"})
    assert is_error and payload["error"] == "cave_tool_panicked" and "ZeroDivisionError" in payload["message"]


def test_other_cli_paths_never_import_mcp(cave_home):
    code = (
        "import sys\n"
        "from cavemem.cli.main import run\n"
        "run(['remember', 'hot path check'])\n"
        "run(['recall', 'hot path check', '--json'])\n"
        "print('HEAVY:' + ','.join(m for m in ('mcp', 'numpy', 'onnxruntime', 'pydantic') if m in sys.modules), file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "HEAVY:\n" in proc.stderr


def test_missing_sdk_is_a_clear_error(monkeypatch):
    import builtins

    from cavemem.errors import CaveError
    from cavemem.mcp import server

    real_import = builtins.__import__

    def blocked(name, *a, **kw):
        if name == "mcp" or name.startswith("mcp."):
            raise ImportError("No module named 'mcp'")
        return real_import(name, *a, **kw)

    monkeypatch.setattr(builtins, "__import__", blocked)
    with pytest.raises(CaveError) as err:
        server.build_server(Tools())
    assert err.value.code == "cave_mcp_unavailable" and "cavemem[mcp]" in err.value.message
