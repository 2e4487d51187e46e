"""Start-up (issue 12): what the hook path no longer imports, while it still answers."""

from __future__ import annotations

import json
import os
import subprocess
import sys


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
