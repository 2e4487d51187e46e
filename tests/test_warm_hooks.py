"""Semantic recall in the Claude Code hooks through the warm recall process: session-start starts
one, user-prompt asks it and prints what the in-process semantic hook prints, and without one the
hook answers lexically as before and starts one for the next prompt."""

from __future__ import annotations

import json
import subprocess
import time

from conftest import cli_argv

from cavemem import warm
from test_warm import _env, _held_locks, server, status, wait_for_server, warm_home  # noqa: F401 - fixtures

PROMPTS = [
    "which database do we run",  # no word in common with the memory: only semantic recall finds it
    "why were customers billed twice?",
    "how do we lint python here",
    "what is the recipe for banana bread",  # off-topic: nothing either way
]


def hook(project, name: str, prompt: str = "", **env) -> tuple[int, bytes, bytes]:
    event = {"session_id": "4f7c2a9e-0d1b-4c55-9a63-2b8e1f0c7d21", "hook_event_name": name,
             "cwd": str(project), "transcript_path": str(project / "none.jsonl")}
    if prompt:
        event["prompt"] = prompt
    p = subprocess.run([*cli_argv(), "hook", "claude-code", name], input=json.dumps(event).encode(),
                       capture_output=True, env=_env(**env), cwd=project, timeout=120)
    return p.returncode, p.stdout, p.stderr


def in_process_semantic(project, prompt: str) -> tuple[int, bytes, bytes]:
    return hook(project, "user-prompt", prompt, CAVEMAN_WARM="0", CAVEMAN_HOOK_EMBED="1",
                CAVEMAN_HOOK_DEADLINE_MS="60000")


def test_session_start_starts_a_warm_process_and_prompts_are_recalled_semantically(warm_home):
    rc, out, err = hook(warm_home, "session-start")
    assert rc == 0 and err == b"" and b"SessionStart" in out
    wait_for_server()
    before = status()["served"]
    for prompt in PROMPTS:
        assert hook(warm_home, "user-prompt", prompt) == in_process_semantic(warm_home, prompt), prompt
    assert status()["served"] == before + len(PROMPTS)
    found = hook(warm_home, "user-prompt", PROMPTS[0])[1]
    assert b"PostgreSQL 16" in found
    assert b"PostgreSQL 16" not in hook(warm_home, "user-prompt", PROMPTS[0], CAVEMAN_HOOK_EMBED="0")[1]
    assert hook(warm_home, "user-prompt", PROMPTS[-1]) == (0, b"", b"")


def test_without_a_server_the_prompt_is_recalled_lexically_and_one_starts(warm_home):
    lexical = hook(warm_home, "user-prompt", PROMPTS[1], CAVEMAN_HOOK_EMBED="0")
    assert lexical[0] == 0 and b"charged twice" in lexical[1]
    assert hook(warm_home, "user-prompt", PROMPTS[1]) == lexical  # absent: in process, lexical
    wait_for_server()
    assert hook(warm_home, "user-prompt", PROMPTS[0]) == in_process_semantic(warm_home, PROMPTS[0])


def test_lexical_hooks_and_the_off_switch_start_nothing(warm_home):
    for env in ({"CAVEMAN_HOOK_EMBED": "0"}, {"CAVEMAN_WARM": "0"}, {"CAVEMAN_EMBED": "0"}):
        assert hook(warm_home, "session-start", **env)[0] == 0
        assert hook(warm_home, "user-prompt", PROMPTS[1], **env)[0] == 0
    time.sleep(1.0)
    assert warm.servers() == [] and _held_locks() == []


def test_a_served_hook_fails_open_like_the_in_process_one(server):
    bad = {"session_id": "s", "hook_event_name": "UserPromptSubmit", "prompt": 42}  # not a string: no recall
    p = subprocess.run([*cli_argv(), "hook", "claude-code", "user-prompt"], input=json.dumps(bad).encode(),
                       capture_output=True, env=_env(), cwd=server, timeout=120)
    assert (p.returncode, p.stdout) == (0, b"")
    p = subprocess.run([*cli_argv(), "hook", "claude-code", "user-prompt"], input=b"\xff not json",
                       capture_output=True, env=_env(), cwd=server, timeout=120)
    assert (p.returncode, p.stdout) == (0, b"") and b"cave_" in p.stderr
