"""Hit-rate feedback: the user-prompt hook notes what it injected, the next Stop counts which of
those the reply used; stats shows never-used memories; forget --unused-for finds old unused ones."""

from __future__ import annotations

import json
import time
from pathlib import Path

from conftest import cli_in_process

from cavemem.memory.capture.feedback import was_used


def run(args, cwd, stdin=b""):
    p = cli_in_process(args, input=stdin, cwd=cwd, timeout=120)
    return p.returncode, p.stdout, p.stderr


def test_was_used_needs_shared_wording_or_a_distinctive_token():
    assert was_used("The API server now runs on port 8081.", "Start it with uvicorn --port 8081.")
    assert was_used("Money values are always Decimal, never float.", "I kept the money values as Decimal, not float.")
    assert not was_used("Please always run ruff format before committing.", "I fixed the typo in the README.")
    assert not was_used("The API server now runs on port 8081.", "")


def test_injected_then_used_or_not_is_counted_and_reported(cave_home, tmp_path):
    proj = tmp_path / "acme"
    (proj / ".git").mkdir(parents=True)
    for text in ("the api server listens on port 8081", "deploys go out through the argo pipeline on fridays"):
        assert run(["remember", text, "--at", "2026-06-01"], proj)[0] == 0
    sess = {"session_id": "sess-fb", "cwd": str(proj), "hook_event_name": "UserPromptSubmit"}
    rc, out, _ = run(["hook", "claude-code", "user-prompt"], proj, json.dumps(dict(sess, prompt="which port does the api server listen on?")).encode())
    assert rc == 0 and b"8081" in out
    rc, out, _ = run(["hook", "claude-code", "user-prompt"], proj, json.dumps(dict(sess, prompt="how do deploys go out, which pipeline?")).encode())
    assert rc == 0 and b"argo" in out
    stop = dict(sess, hook_event_name="Stop", last_assistant_message="Run it with `uvicorn app:main --port 8081`.")
    assert run(["hook", "claude-code", "stop"], proj, json.dumps(stop).encode())[:2] == (0, b"")

    def usage():
        rc, out, _ = run(["stats", "--memory", "--json"], proj)
        return json.loads(out).get("usage") if rc == 0 else None

    end = time.monotonic() + 60
    while time.monotonic() < end and not usage():
        time.sleep(0.2)
    use = usage()
    assert use and use["injections"] == 2 and use["uses"] == 1
    assert [n["text"] for n in use["never_used"]] == ["deploys go out through the argo pipeline on fridays"]
    rc, out, _ = run(["stats", "--memory"], proj)
    assert b"never used (1):" in out
    rc, out, _ = run(["forget", "--unused-for", "90d", "--dry-run", "--json"], proj)
    assert rc == 0 and json.loads(out)["would_forget"] == 1


def test_session_start_briefing_puts_confirmed_memories_first_and_marks_captures(cave_home, tmp_path):
    from cavemem import Memory
    from cavemem.hooks.claude_code import briefing
    from cavemem.memory.capture import extract
    from cavemem.memory.capture.pipeline import store_candidate

    proj = tmp_path / "acme"
    (proj / ".git").mkdir(parents=True)
    m = Memory(cwd=str(proj), scorers=[])
    cand = extract.Candidate("Let's go with Celery for the email queue.", "decision", "decision", 0.8, "u1", "decision:email queue")
    captured = store_candidate(m, cand, "acme", "s1")["id"]
    m.remember("deploys go out through the argo pipeline", kind="note", at="2026-01-01")
    lines = [line for line in briefing(m).splitlines() if line.startswith("- [")]
    m.close()
    assert "argo" in lines[0] and "Celery" in lines[1]
    assert "unconfirmed" in lines[1] and captured in lines[1] and "unconfirmed" not in lines[0]


def _captured_and_confirmed(proj: Path) -> str:
    from cavemem import Memory
    from cavemem.memory.capture import extract
    from cavemem.memory.capture.pipeline import store_candidate

    m = Memory(cwd=str(proj), scorers=[])
    cand = extract.Candidate("The staging api listens on port 8081.", "fact", "fact", 0.7, "u1", "port:staging api")
    captured = store_candidate(m, cand, "acme", "s1")["id"]
    m.remember("The production api listens on port 443 behind the load balancer.", kind="fact")
    m.close()
    return captured


def test_context_block_and_prompt_hook_mark_unconfirmed_captures(cave_home, tmp_path):
    proj = tmp_path / "acme"
    (proj / ".git").mkdir(parents=True)
    captured = _captured_and_confirmed(proj)
    rc, out, _ = run(["recall", "which port does the api listen on", "--format", "context"], proj)
    lines = out.decode().splitlines()
    assert rc == 0 and lines[1].endswith(" · basis inferred · unconfirmed = captured from a session, not yet reviewed]")
    marked = [line for line in lines if "unconfirmed ·" in line]
    assert len(marked) == 1 and f"· fact · unconfirmed · {captured}] The staging api listens on port 8081." in marked[0]
    assert any("port 443" in line and "unconfirmed" not in line for line in lines)
    event = {"session_id": "s-ctx", "cwd": str(proj), "hook_event_name": "UserPromptSubmit", "prompt": "which port does the api listen on?"}
    rc, out, _ = run(["hook", "claude-code", "user-prompt"], proj, json.dumps(event).encode())
    ctx = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert rc == 0 and f"unconfirmed · {captured}] The staging api listens on port 8081." in ctx


def test_briefing_under_a_tight_budget_keeps_confirmed_memories_and_drops_captures(cave_home, tmp_path):
    from cavemem import Memory
    from cavemem.hooks.claude_code import briefing
    from cavemem.memory.capture import extract
    from cavemem.memory.capture.pipeline import store_candidate

    proj = tmp_path / "acme"
    (proj / ".git").mkdir(parents=True)
    m = Memory(cwd=str(proj), scorers=[])
    for i in range(3):
        m.remember(f"confirmed rule {i}: deploys go through the argo pipeline stage {i}", kind="preference", at="2026-01-0%d" % (i + 1))
    for i in range(40):  # newer, and many more of them
        cand = extract.Candidate(f"Worker {i} reads from queue{i}.billing.internal.", "fact", "fact", 0.7, f"u{i}", f"host:worker {i}")
        store_candidate(m, cand, "acme", "s1")
    lines = [line for line in briefing(m, budget=400).splitlines() if line.startswith("- [")]
    m.close()
    assert [("confirmed rule" in line) for line in lines[:3]] == [True, True, True]
    assert 3 < len(lines) < 43 and all("unconfirmed" in line for line in lines[3:])


def test_used_boost_is_off_and_when_set_lifts_a_used_memory_over_its_twin(cave_home, tmp_path, monkeypatch):
    from cavemem import Memory
    from cavemem.memory.capture import feedback, review

    m = Memory(str(tmp_path / "m.db"), scorers=[])
    a = m.remember("the nightly export job writes parquet files to the lake", project="p", at="2026-01-01")
    b = m.remember("the weekly billing report job writes csv files for finance", project="p", at="2026-01-01")
    feedback.record(m, [{"id": b.id, "text": b.text}], "the billing report is csv, for finance")

    def top():
        return [h["id"] for h in m.recall("which job writes files", project="p")["hits"]]

    assert review.USED_BOOST == 0.0 and set(top()) == {a.id, b.id}
    unboosted = top()
    monkeypatch.setattr(review, "USED_BOOST", 0.5)
    assert unboosted == [a.id, b.id] and top() == [b.id, a.id]
    m.close()
