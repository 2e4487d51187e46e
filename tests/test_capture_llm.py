"""LLM extraction against a local server speaking the OpenAI chat-completions API: validated
JSON is stored with its source, bad answers and outages fall back to the rules, the daily token
budget stops requests."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from cavemem import Memory
from cavemem.memory.capture import capture_transcript, llm
from cavemem.store.ccr import open_ccr


class Server:
    def __init__(self):
        self.requests: list[dict] = []
        self.answer = None  # function(request body) -> content string, or None for HTTP 500
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - http.server API
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
                if outer.answer is None:
                    self.send_response(500)
                    self.end_headers()
                    return
                data = json.dumps({"id": "chatcmpl-1", "object": "chat.completion", "model": body["model"],
                                   "choices": [{"index": 0, "finish_reason": "stop",
                                                "message": {"role": "assistant", "content": outer.answer(body)}}],
                                   "usage": {"prompt_tokens": 900, "completion_tokens": 100, "total_tokens": 1000}}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *a):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def close(self):
        self.httpd.shutdown()


@pytest.fixture
def server(cave_home, monkeypatch):
    s = Server()
    monkeypatch.setenv("CAVEMAN_LLM_URL", s.url)
    monkeypatch.setenv("CAVEMAN_LLM_MODEL", "qwen2.5:3b")
    monkeypatch.setenv("CAVEMAN_LLM_API_KEY", "local-key")
    yield s
    s.close()


def _transcript(tmp_path):
    lines = [
        {"type": "user", "uuid": "u1", "sessionId": "s1", "cwd": "/x", "timestamp": "2026-10-01T10:00:00Z",
         "message": {"role": "user", "content": "Tests must run against the real Postgres in docker, not SQLite."}},
        {"type": "assistant", "uuid": "a1", "sessionId": "s1", "cwd": "/x", "timestamp": "2026-10-01T10:00:05Z",
         "message": {"role": "assistant", "content": [{"type": "text", "text": "Understood."}]}},
    ]
    p = tmp_path / "t.jsonl"
    p.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return str(p)


def _run(tmp_path):
    mem = Memory(str(tmp_path / "mem.db"), scorers=[])
    ccr = open_ccr(str(tmp_path / "ccr.db"))
    try:
        rep = capture_transcript(mem, _transcript(tmp_path), ccr=ccr, project="x")
        return rep, [mem.show(s["id"]).text for s in rep.stored]
    finally:
        mem.close()
        ccr.close()


def test_validated_answer_is_stored_and_unsourced_items_are_not(server, tmp_path):
    server.answer = lambda body: json.dumps({"memories": [
        {"kind": "preference", "text": "Tests run against the real Postgres in docker, never SQLite.", "source_message": "u1", "confidence": 0.9},
        {"kind": "fact", "text": "The user likes long walks on the beach.", "source_message": "made-up"},
        {"kind": "greeting", "text": "Hello there, nice to meet you.", "source_message": "a1"},
    ]})
    rep, texts = _run(tmp_path)
    assert rep.extractor == "llm" and texts == ["Tests run against the real Postgres in docker, never SQLite."]
    req = server.requests[0]
    assert req["path"] == "/v1/chat/completions" and req["auth"] == "Bearer local-key"
    assert req["body"]["model"] == "qwen2.5:3b" and "[u1] user: Tests must run" in req["body"]["messages"][1]["content"]
    assert llm.status()["ok"] is True and llm.tokens_used_today() == 1000


@pytest.mark.parametrize("answer", [None, lambda b: "sure! here are the memories", lambda b: json.dumps({"items": []})])
def test_failures_fall_back_to_the_rules_and_are_recorded(server, tmp_path, answer):
    server.answer = answer
    rep, texts = _run(tmp_path)
    assert rep.extractor.startswith("rules (llm failed")
    assert llm.status()["ok"] is False and llm.status()["failures"] == 1 and llm.status()["error"]
    assert all("Postgres" not in t or "SQLite" in t for t in texts)  # whatever the rules found, nothing invented


def test_daily_budget_stops_requests(server, tmp_path, monkeypatch):
    monkeypatch.setenv("CAVEMAN_LLM_DAILY_TOKENS", "100")
    server.answer = lambda body: json.dumps({"memories": []})
    rep, _ = _run(tmp_path)
    assert server.requests == [] and "budget" in rep.extractor and "budget" in llm.status()["error"]
