"""Claude Code hooks: the stdout each event prints, the 1,500-token cap, on-topic-only prompt
recall, explicit-only capture at stop, fail-open behaviour (missing / corrupt / locked store,
bad input, deadline), timing, hot-path imports, and ``hook install`` merging."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cavemem.hooks import claude_code, install

from conftest import cli_argv

WALL_BOUND_S = 1.5  # generous: the 250 ms target is measured by scripts/bench_hooks.py
LOCK_BOUND_S = 4.0  # far below SQLite's 5 s busy timeout: a locked store is not waited for


def _cmd(*args: str) -> list[str]:
    return cli_argv() + list(args)


def hook(event: str, payload, *, env: dict | None = None, timeout: float = 60):
    """Run ``cavemem hook claude-code <event>``; returns (rc, stdout, stderr lines, wall seconds)."""
    full = dict(os.environ)
    full.setdefault("CAVEMAN_HOOK_DEADLINE_MS", "20000")  # functional tests: never cut short
    full.update(env or {})
    raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    t0 = time.monotonic()
    proc = subprocess.run(_cmd("hook", "claude-code", event), input=raw, capture_output=True, env=full, timeout=timeout)
    wall = time.monotonic() - t0
    lines = [json.loads(x) for x in proc.stderr.decode().splitlines() if x.strip()]
    return proc.returncode, proc.stdout, lines, wall


@pytest.fixture(scope="module", autouse=True)
def warm_token_cache(token_cache_dir):
    """Build the shared token-rank cache once, so timings measure hooks, not the first-run cache."""
    env = dict(os.environ, CAVEMAN_CACHE_DIR=str(token_cache_dir))
    subprocess.run(_cmd("hook", "warm"), env=env, check=True, timeout=120)


def best_wall(event: str, payload, runs: int = 3) -> float:
    """The best of a few runs: a loaded machine's spikes are not the hook's cost."""
    walls = []
    for _ in range(runs):
        rc, _, _, wall = hook(event, payload, env={"CAVEMAN_HOOK_DEADLINE_MS": "1000"})
        assert rc == 0
        walls.append(wall)
    return min(walls)


@pytest.fixture
def project(tmp_path) -> Path:
    root = tmp_path / "shop"
    (root / ".git").mkdir(parents=True)
    (root / "src").mkdir()
    return root


@pytest.fixture
def memory(cave_home, project):
    from cavemem import Memory

    m = Memory(cwd=str(project))
    yield m
    m.close()


def context_of(stdout: bytes, event_name: str) -> str:
    out = json.loads(stdout)
    assert set(out) == {"hookSpecificOutput"}
    spec = out["hookSpecificOutput"]
    assert spec["hookEventName"] == event_name
    return spec["additionalContext"]


# -- session start ---------------------------------------------------------------------------------


def test_session_start_briefing_orders_by_kind(memory, project):
    memory.remember("the checkout service talks to stripe through a queue", kind="fact")
    memory.remember("always run the linters before committing", kind="preference")
    memory.remember("we picked postgres over mysql for the orders database", kind="decision")
    memory.remember("a global note outside any project", project="")
    memory.remember("another project's secret sauce recipe", project="other")
    rc, out, err, wall = hook("session-start", {"session_id": "s", "cwd": str(project / "src"), "source": "startup"})
    assert rc == 0 and err == []
    ctx = context_of(out, "SessionStart")
    assert ctx.startswith("<cavemem-context>\n[cavemem · project shop · 4 of 4 memories")
    assert ctx.rstrip().endswith("</cavemem-context>")
    order = [ctx.index(s) for s in ("linters", "postgres over mysql", "stripe")]
    assert order == sorted(order)  # preference, decision, fact
    assert "a global note" in ctx and "secret sauce" not in ctx
    assert best_wall("session-start", {"cwd": str(project)}) < WALL_BOUND_S


def test_session_start_is_capped_at_1500_tokens(memory, project):
    from cavemem.tokens import count_tokens

    for i in range(120):
        memory.remember(f"memory number {i}: " + " ".join(f"word{i}x{j}" for j in range(60)), merge=False)
    rc, out, err, _ = hook("session-start", {"cwd": str(project)})
    assert rc == 0 and err == []
    ctx = context_of(out, "SessionStart")
    assert count_tokens(ctx) <= claude_code.SESSION_START_TOKENS
    assert count_tokens(ctx) > 1000  # the budget is used, not wasted
    shown = ctx.count("\n- [")
    assert 0 < shown < 120 and f"{shown} of 120 memories" in ctx


def test_session_start_with_no_memories_prints_nothing(memory, project):
    rc, out, err, _ = hook("session-start", {"cwd": str(project)})
    assert (rc, out, err) == (0, b"", [])


def test_missing_store_prints_nothing_and_creates_nothing(cave_home, project):
    for event, payload in (("session-start", {"cwd": str(project)}), ("user-prompt", {"cwd": str(project), "prompt": "deploy key?"})):
        rc, out, err, wall = hook(event, payload)
        assert (rc, out, err) == (0, b"", [])
        assert wall < WALL_BOUND_S
    assert not (cave_home / "mem.db").exists()


# -- user prompt -----------------------------------------------------------------------------------


def test_prompt_recall_only_when_on_topic(memory, project):
    memory.remember("the deploy key lives in vault under ops/deploy")
    memory.remember("staging database listens on port 5433")
    rc, out, err, wall = hook("user-prompt", {"cwd": str(project), "prompt": "where is the deploy key kept?"})
    assert rc == 0 and err == []
    ctx = context_of(out, "UserPromptSubmit")
    assert "ops/deploy" in ctx and "5433" not in ctx
    assert ctx.startswith("<cavemem-context>\n[cavemem recall · 1 memory")
    assert best_wall("user-prompt", {"cwd": str(project), "prompt": "where is the deploy key kept?"}) < WALL_BOUND_S
    for prompt in ("what is the boiling point of ethanol?", "/compact", "   ", "<private>deploy key</private>", 42):
        rc, out, err, _ = hook("user-prompt", {"cwd": str(project), "prompt": prompt})
        assert (rc, out, err) == (0, b"", []), prompt


def test_prompt_context_respects_its_budget(memory, project):
    from cavemem.tokens import count_tokens

    for i in range(8):
        memory.remember(f"kafka consumer lag note {i}: " + "the consumer group rebalances when partitions move " * 30, merge=False)
    rc, out, _, _ = hook("user-prompt", {"cwd": str(project), "prompt": "kafka consumer lag"})
    assert rc == 0
    ctx = context_of(out, "UserPromptSubmit")
    assert ctx.count("\n- [") <= claude_code.PROMPT_LIMIT
    body = json.loads(out)
    assert count_tokens(ctx) <= claude_code.PROMPT_TOKENS + 120  # hits ≤ budget; header/tags on top
    assert body["hookSpecificOutput"]["additionalContext"] == ctx


def test_huge_prompt_is_fine(memory, project):
    memory.remember("the deploy key lives in vault under ops/deploy")
    prompt = "deploy key " + "lorem ipsum dolor " * 100_000
    rc, out, err, wall = hook("user-prompt", {"cwd": str(project), "prompt": prompt})
    assert rc == 0 and err == []
    assert out == b"" or context_of(out, "UserPromptSubmit")  # the filler makes it off-topic: either is fine
    assert wall < 10


# -- bad input and a broken store ------------------------------------------------------------------


@pytest.mark.parametrize("raw", [b"", b"not json", b"[1, 2]", b"\xff\xfe\x00", b'{"prompt": ' * 10000])
@pytest.mark.parametrize("event", ["session-start", "user-prompt", "stop"])
def test_bad_input_fails_open(memory, event, raw):
    memory.remember("something to find")
    rc, out, err, wall = hook(event, raw)
    assert rc == 0 and out == b""
    assert len(err) == 1 and err[0]["hook"] == event and err[0]["error"].startswith("cave_")
    assert wall < WALL_BOUND_S


def test_corrupt_store_fails_open(cave_home, project):
    (cave_home / "mem.db").write_bytes(b"this is not a sqlite database" * 100)
    for event in ("session-start", "user-prompt"):
        rc, out, err, wall = hook(event, {"cwd": str(project), "prompt": "deploy key"})
        assert rc == 0 and out == b""
        assert len(err) == 1 and err[0]["error"].startswith("cave_"), err
        assert wall < WALL_BOUND_S


def _hold_locks(paths: list[Path]) -> subprocess.Popen:
    """Another process holding the write lock of each database until told to stop."""
    code = (
        "import sqlite3, sys, time\n"
        "conns = []\n"
        "for p in sys.argv[1:]:\n"
        "    c = sqlite3.connect(p, isolation_level=None)\n"
        "    c.execute('BEGIN EXCLUSIVE')\n"
        "    conns.append(c)\n"
        "print('locked', flush=True)\n"
        "sys.stdin.read()\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code, *map(str, paths)], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdout.readline().strip() == b"locked"
    return proc


def test_locked_store_never_blocks(memory, project, cave_home):
    memory.remember("the deploy key lives in vault under ops/deploy")
    memory.recall("deploy key")  # creates the recovery store too
    locker = _hold_locks([cave_home / "mem.db", cave_home / "ccr.db"])
    try:
        for event, payload in (
            ("session-start", {"cwd": str(project)}),
            ("user-prompt", {"cwd": str(project), "prompt": "where is the deploy key?"}),
            ("stop", {"cwd": str(project), "session_id": "s9", "last_assistant_message": "<remember>locks are survivable</remember>"}),
        ):
            rc, out, err, wall = hook(event, payload, env={"CAVEMAN_HOOK_DEADLINE_MS": "1000"})
            assert rc == 0, event
            assert wall < LOCK_BOUND_S, (event, wall)
            if out:
                json.loads(out)  # whatever was printed is one valid JSON object
    finally:
        locker.stdin.close()
        locker.wait(timeout=30)
    # the stop hook's memory was spooled, not lost: it lands once the lock is gone
    subprocess.run(_cmd("hook", "drain"), check=True, timeout=60)
    assert _wait_for(lambda: memory.recall("locks survivable")["hits"])


def test_deadline_with_stdin_left_open(memory):
    full = dict(os.environ, CAVEMAN_HOOK_DEADLINE_MS="200")
    proc = subprocess.Popen(_cmd("hook", "claude-code", "session-start"), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=full)
    t0 = time.monotonic()
    rc = proc.wait(timeout=30)  # the agent never closes stdin: the hook must still leave
    wall = time.monotonic() - t0
    out, err = proc.stdout.read(), proc.stderr.read()
    proc.stdin.close()
    assert rc == 0 and out == b""
    assert json.loads(err.decode().strip())["error"] == "cave_hook_deadline"
    assert wall < WALL_BOUND_S


def test_unknown_invocations_exit_zero():
    for args in (["claude-code", "pre-tool"], ["nonsense"], ["claude-code"]):
        proc = subprocess.run(_cmd("hook", *args), input=b"{}", capture_output=True, timeout=60)
        assert proc.returncode == 0 and proc.stdout == b""
        assert json.loads(proc.stderr)["error"] == "cave_invalid_arguments"
    proc = subprocess.run(_cmd("hook", "--help"), capture_output=True, timeout=60)
    assert proc.returncode == 0 and b"session-start" in proc.stdout


# -- stop -------------------------------------------------------------------------------------------


def _wait_for(check, timeout: float = 60.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    return check()


def _transcript(path: Path, entries: list[dict]) -> str:
    with path.open("w") as fh:
        fh.write("garbage line that is not json\n")
        for e in entries:
            fh.write(json.dumps(e) + "\n")
    return str(path)


def test_stop_records_only_explicit_requests(memory, project, tmp_path, cave_home):
    transcript = _transcript(tmp_path / "t.jsonl", [
        {"type": "user", "message": {"role": "user", "content": "an older prompt: remember: not this one"}},
        {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": "ok"}]}},
        {"type": "user", "message": {"role": "user", "content": "Remember that the staging DB listens on port 5433"}},
        {"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": "x", "name": "Bash", "input": {}}]}},
        {"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "x", "content": "done"}]}},
        {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": "Noted."}]}},
    ])
    reply = (
        'Done. <remember kind="decision" topic="tooling">We install Python deps with uv, never pip.</remember>\n'
        "Example of the syntax:\n```\n<remember>this is inside a code fence</remember>\n```\n"
        "<remember>API tokens: sk-ant-api03-" + "a" * 95 + "AA</remember>"
    )
    payload = {"session_id": "sess-42", "cwd": str(project), "transcript_path": transcript,
               "hook_event_name": "Stop", "stop_hook_active": False, "last_assistant_message": reply}
    rc, out, err, wall = hook("stop", payload)
    assert (rc, out, err) == (0, b"", [])
    assert best_wall("stop", {"cwd": str(project)}) < WALL_BOUND_S

    def stored():
        texts = {r.text: r for r in memory.list(limit=50)}
        return texts if len(texts) >= 3 else None

    texts = _wait_for(stored)
    assert texts, "the detached writer stored nothing"
    decision = texts["We install Python deps with uv, never pip."]
    assert decision.kind == "decision" and decision.topic == "tooling" and decision.session == "sess-42"
    assert decision.project == "shop" and "claude-code" in decision.tags
    assert "the staging DB listens on port 5433" in texts
    assert not any("code fence" in t or "not this one" in t for t in texts)
    secret = [t for t in texts if t.startswith("API tokens")][0]
    assert "sk-ant" not in secret and "[REDACTED:" in secret  # stored through Memory's redaction
    assert _wait_for(lambda: not list((cave_home / "spool").glob("*.json")))


def test_stop_with_nothing_to_remember_touches_nothing(cave_home, project, tmp_path):
    transcript = _transcript(tmp_path / "t.jsonl", [
        {"type": "user", "message": {"role": "user", "content": "fix the failing test please"}},
        {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": "Fixed it."}]}},
    ])
    for payload in ({"cwd": str(project), "transcript_path": transcript},
                    {"cwd": str(project), "transcript_path": str(tmp_path / "missing.jsonl")},
                    {"cwd": str(project), "transcript_path": 7, "last_assistant_message": ["not", "text"]}):
        rc, out, err, _ = hook("stop", payload, env={"CAVEMAN_CAPTURE": "0"})  # capture on archives every Stop
        assert (rc, out, err) == (0, b"", [])
    assert not (cave_home / "mem.db").exists() and not (cave_home / "spool").exists()


def test_remember_requests_parsing(tmp_path):
    cases = {
        "remember: the build cache lives in /var/cache/b": ["the build cache lives in /var/cache/b"],
        "please remember that tests need docker": ["tests need docker"],
        "Note to self: rotate keys monthly": ["rotate keys monthly"],
        "do you remember the port?": [],
        "I remember nothing": [],
        "remember": [],
    }
    for prompt, expected in cases.items():
        t = _transcript(tmp_path / "x.jsonl", [{"type": "user", "message": {"role": "user", "content": prompt}}])
        assert [i["text"] for i in claude_code.remember_requests({"transcript_path": t})] == expected, prompt
    many = "".join(f"<remember>fact {i}</remember>" for i in range(30))
    got = claude_code.remember_requests({"last_assistant_message": many + "<remember>" + "x" * 20000 + "</remember>"})
    assert len(got) == claude_code.MAX_REMEMBER and all(len(i["text"]) < 100 for i in got)
    odd = claude_code.remember_requests({"last_assistant_message": '<remember kind="weird">k</remember><REMEMBER>up</REMEMBER>'})
    assert [(i["text"], i["kind"]) for i in odd] == [("k", "note"), ("up", "note")]
    # a pathological reply is handled quickly
    t0 = time.monotonic()
    claude_code.remember_requests({"last_assistant_message": "<remember " + 'a="b" ' * 50000 + "```" * 10000})
    assert time.monotonic() - t0 < 5


def test_spool_drain_keeps_what_cannot_be_stored_yet(cave_home, project):
    from cavemem.errors import CaveError
    from cavemem.hooks import spool

    spool.write({"cwd": str(project), "session": "s", "memories": [{"text": "kept for later", "kind": "note"},
                                                                    {"text": "   ", "kind": "note"}]})

    class Locked:
        def remember(self, *a, **kw):
            raise CaveError("cave_store_locked", "database is locked")

        def close(self):
            pass

    assert spool.drain(lambda cwd: Locked()) == {"stored": 0, "dropped": 0, "kept": 1}
    assert len(spool.pending()) == 1
    counts = spool.drain()
    assert counts == {"stored": 1, "dropped": 1, "kept": 0}  # the blank one can never be stored
    assert spool.pending() == []
    (Path(spool.spool_dir()) / "00-bad.json").write_text("{broken")
    assert spool.drain()["dropped"] == 1 and spool.pending() == []
    log = (Path(spool.spool_dir()) / "drain.log").read_text().splitlines()
    assert any("cave_memory_empty" in line for line in log)


# -- timing and imports ------------------------------------------------------------------------------


def test_hook_hot_path_imports_nothing_heavy(memory, project):
    memory.remember("the deploy key lives in vault under ops/deploy")
    for event, payload in (("user-prompt", {"cwd": str(project), "prompt": "deploy key"}), ("session-start", {"cwd": str(project)}),
                           ("stop", {"cwd": str(project)})):
        full = dict(os.environ, CAVEMAN_HOOK_DEADLINE_MS="20000", PYTHONPROFILEIMPORTTIME="1")
        proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "cavemem", "hook", "claude-code", event],
                              input=json.dumps(payload).encode(), capture_output=True, env=full, timeout=60)
        assert proc.returncode == 0
        imported = {line.split("|")[-1].strip() for line in proc.stderr.decode().splitlines() if line.startswith("import time:")}
        heavy = {m for m in imported if m.split(".")[0] in ("numpy", "onnxruntime", "tokenizers", "mcp", "pydantic", "rich", "typer")}
        assert heavy == set(), (event, sorted(heavy))


def test_hooks_with_embeddings_enabled(memory, project, cave_home, semantic_default):
    """Semantic recall in a hook with CAVEMAN_HOOK_EMBED=1 on a store that has it switched on;
    by default hooks stay lexical (no model load, no numpy) even there."""
    from cavemem.embed.scorer import SemanticScorer

    memory.remember("Caroline adopted a puppy from the animal shelter last week")
    memory.remember("the deploy key lives in vault under ops/deploy")
    scorer = SemanticScorer(memory.store, required=True)
    scorer.index.create()
    scorer.sync()
    prompt = {"cwd": str(project), "prompt": "who recently got a rescue dog?"}  # no word in common
    rc, out, err, _ = hook("user-prompt", prompt)
    assert (rc, out, err) == (0, b"", [])  # hooks stay lexical by default: refused
    rc, out, err, wall = hook("user-prompt", prompt, env={"CAVEMAN_HOOK_EMBED": "1"})
    assert rc == 0 and err == [], err
    assert "puppy" in context_of(out, "UserPromptSubmit")  # found by meaning
    assert wall < 20
    full = dict(os.environ, CAVEMAN_HOOK_DEADLINE_MS="20000")
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "cavemem", "hook", "claude-code", "user-prompt"],
                          input=json.dumps({"cwd": str(project), "prompt": "deploy key vault"}).encode(),
                          capture_output=True, env=full, timeout=60)
    assert proc.returncode == 0 and b"ops/deploy" in proc.stdout
    assert b"| numpy" not in proc.stderr and b"onnxruntime" not in proc.stderr


# -- install -------------------------------------------------------------------------------------------


def run_install(*args: str, cwd: Path | None = None):
    return subprocess.run(_cmd("hook", "install", *args), capture_output=True, timeout=60, cwd=cwd)


def test_install_prints_the_configuration():
    proc = run_install("--command", "cavemem")
    assert proc.returncode == 0
    config = json.loads(proc.stdout)
    hooks = config["hooks"]
    assert list(hooks) == ["SessionStart", "UserPromptSubmit", "Stop", "SessionEnd", "PreCompact"]
    assert hooks["SessionStart"] == [{"matcher": "startup|clear|compact", "hooks": [
        {"type": "command", "command": "cavemem hook claude-code session-start", "timeout": 5}]}]
    assert hooks["Stop"][0]["hooks"][0]["command"] == "cavemem hook claude-code stop"


def test_install_write_creates_merges_and_is_idempotent(project):
    settings = project / ".claude" / "settings.json"
    proc = run_install("--write", "--command", "cavemem", cwd=project / "src")  # finds the project root
    assert proc.returncode == 0, proc.stderr
    assert settings.exists()
    first = settings.read_bytes()
    assert json.loads(first) == install.hook_config("cavemem")

    existing = {
        "permissions": {"allow": ["Bash(ls:*)"]},
        "hooks": {
            "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
            "PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "ruff format"}]}],
            "SessionStart": [{"matcher": "startup", "hooks": [
                {"type": "command", "command": "/old/venv/bin/cavemem hook claude-code session-start", "timeout": 60}]}],
        },
        "model": "opus",
    }
    settings.write_text(json.dumps(existing, indent=4))
    proc = run_install("--write", "--command", "cavemem", "--json", cwd=project)
    assert proc.returncode == 0
    report = json.loads(proc.stdout)
    assert report["changed"] is True and report["created"] is False
    merged = json.loads(settings.read_text())
    assert list(merged) == ["permissions", "hooks", "model"] and merged["permissions"] == existing["permissions"]
    assert merged["hooks"]["PostToolUse"] == existing["hooks"]["PostToolUse"]
    assert merged["hooks"]["Stop"][0] == existing["hooks"]["Stop"][0]
    assert merged["hooks"]["Stop"][1]["hooks"][0]["command"] == "cavemem hook claude-code stop"
    start = merged["hooks"]["SessionStart"]
    assert len(start) == 1 and start[0]["matcher"] == "startup|clear|compact"
    assert start[0]["hooks"] == [{"type": "command", "command": "cavemem hook claude-code session-start", "timeout": 5}]
    before = settings.read_bytes()
    proc = run_install("--write", "--command", "cavemem", "--json", cwd=project)
    assert json.loads(proc.stdout)["changed"] is False
    assert settings.read_bytes() == before


@pytest.mark.parametrize("content", [b"{not json", b"[1, 2]", b'"text"', b'{"hooks": []}', b'{"hooks": {"Stop": {}}}'])
def test_install_refuses_to_overwrite_a_bad_settings_file(project, content):
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(content)
    proc = run_install("--write", "--settings", str(settings))
    assert proc.returncode == 1
    err = json.loads(proc.stderr)
    assert err["error"] == "cave_invalid_config"
    assert settings.read_bytes() == content


def test_install_merge_keeps_unrelated_empty_groups():
    settings = {"hooks": {"Stop": [{"matcher": "x", "hooks": []}]}}
    merged, changed = install.merge(settings, install.hook_config("cavemem"))
    assert changed and merged["hooks"]["Stop"][0] == {"matcher": "x", "hooks": []}
    again, changed_again = install.merge(merged, install.hook_config("cavemem"))
    assert again == merged and not changed_again


def test_default_command_is_runnable():
    cmd = install.default_command()
    proc = subprocess.run(cmd + " hook --help", shell=True, capture_output=True, timeout=60)
    assert proc.returncode == 0 and b"session-start" in proc.stdout


def test_parse_event_helpers():
    assert claude_code.parse_event(b'{"a": 1}') == {"a": 1}
    for raw in (b"", b"  ", b"nope", b"[]", b"3"):
        with pytest.raises(claude_code.HookInputError):
            claude_code.parse_event(raw)
    assert claude_code.prompt_query("/help") is None
    assert claude_code.prompt_query("x" * 5000) == "x" * claude_code.MAX_QUERY_CHARS
    assert claude_code.prompt_query("<cavemem-context>old</cavemem-context> new question") == "new question"
    assert claude_code.hook_output("SessionStart", "c") == {
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "c"}}
