"""The MCP tools beyond remember/recall: list, show, export, stats — through the same Tools object
the stdio server calls, on a real store."""

from __future__ import annotations

import json

import pytest

from cavemem.errors import EXIT_CODES
from cavemem.mcp.tools import SPECS, Tools

# every test runs on SQLite and on PostgreSQL (conftest.db_backend)
pytestmark = pytest.mark.usefixtures("db_backend")


@pytest.fixture
def tools(tmp_path):
    from cavemem import Memory

    t = Tools(memory=Memory(str(tmp_path / "mem.db"), cwd=str(tmp_path)))
    yield t
    t.close()


def _ok(tools, name, args):
    is_error, text = tools.call(name, args)
    assert not is_error, text
    return json.loads(text)


def test_list_show_export_stats(tools):
    a = _ok(tools, "cavemem_remember", {"text": "deploys go out on Tuesdays", "project": "web", "kind": "decision"})["id"]
    _ok(tools, "cavemem_remember", {"text": "the API listens on port 8443", "project": "web", "tags": ["net"]})
    listed = _ok(tools, "cavemem_list", {"project": "web"})["memories"]
    assert [m["text"] for m in listed] == ["the API listens on port 8443", "deploys go out on Tuesdays"]
    assert [m["text"] for m in _ok(tools, "cavemem_list", {"project": "web", "tag": "net"})["memories"]] == ["the API listens on port 8443"]
    assert [m["id"] for m in _ok(tools, "cavemem_list", {"project": "web", "kind": "decision"})["memories"]] == [a]
    assert _ok(tools, "cavemem_show", {"id": a})["memory"]["text"] == "deploys go out on Tuesdays"
    lines = _ok(tools, "cavemem_export", {"project": "web"})["lines"]
    assert sorted(json.loads(line)["text"] for line in lines) == ["deploys go out on Tuesdays", "the API listens on port 8443"]
    stats = _ok(tools, "cavemem_stats", {})
    assert stats["memory"]["memories"] == 2 and "recovery_store" in stats


def test_show_of_an_unknown_id_is_a_stable_failure(tools):
    is_error, text = tools.call("cavemem_show", {"id": "mem_0000000000000000"})
    payload = json.loads(text)
    assert is_error and payload["error"] == "cave_show_failed" and payload["error"] in EXIT_CODES


def test_recall_description_says_the_ranking_is_fused():
    spec = {s.name: s for s in SPECS}["cavemem_recall"]
    assert "fused" in spec.description.lower() and "ranked by BM25" not in spec.description


def test_every_tool_failure_code_is_a_known_code():
    for s in SPECS:
        assert f"cave_{s.name.removeprefix('cavemem_')}_failed" in EXIT_CODES
