"""Start-up (issue 12): what the hook path no longer imports, and the deadline worker's answer
channel (marshal for plain answers, pickle only for the rest) still carrying every outcome."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys

from cavemem.hooks.deadline import run_with_deadline


def test_user_prompt_hook_imports_neither_pickle_nor_calendar_and_still_answers(tmp_path):
    env = dict(os.environ, CAVEMAN_HOME=str(tmp_path), CAVEMAN_EMBED="0", CAVEMAN_HOOK_DEADLINE_MS="30000")
    subprocess.run([sys.executable, "-m", "cavemem", "remember", "--global", "we run PostgreSQL 16 in production"], env=env,
                   check=True, capture_output=True)
    event = json.dumps({"session_id": "s1", "prompt": "which PostgreSQL version do we run in production?", "cwd": str(tmp_path)})
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "cavemem", "hook", "claude-code", "user-prompt"],
                          input=event.encode(), env=env, capture_output=True, timeout=120)
    assert proc.returncode == 0
    out = json.loads(proc.stdout)  # the worker's answer crossed the pipe intact
    assert "PostgreSQL 16" in json.dumps(out)
    imported = {line.split("|")[-1].strip() for line in proc.stderr.decode().splitlines() if line.startswith("import time:")}
    assert "cavemem.memory.when" in imported  # the recall path really ran in the worker (its imports are listed too)
    assert not imported & {"pickle", "calendar"}, imported & {"pickle", "calendar"}


def test_deadline_answers_round_trip_whether_marshalled_or_pickled():
    plain = {"hookSpecificOutput": {"additionalContext": "é\ud800x", "n": [1, 2.5, True, None], "t": (1, "a")}}
    assert run_with_deadline(lambda: plain, 5) == (plain, None)
    when = dt.datetime(2026, 12, 2, 3, 4, 5, tzinfo=dt.timezone.utc)  # marshal refuses it: pickled instead
    assert run_with_deadline(lambda: {"at": when}, 5) == ({"at": when}, None)

    def boom():
        raise KeyError("missing")

    out, exc = run_with_deadline(boom, 5)
    assert out is None and type(exc) is KeyError and exc.args == ("missing",)
