"""Capture through the real hooks: Stop archives and extracts in the detached writer, concurrent
sessions lose nothing, and a writer killed mid-drain neither loses nor duplicates an entry."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

from cavemem import Memory
from cavemem.memory.capture import capture_transcript
from cavemem.store.ccr import open_ccr
from conftest import cli_argv

DATA = Path(__file__).parent / "data" / "transcripts"
_HELD_OUT = {n for n, g in json.loads((DATA / "gold.json").read_text()).items() if g.get("split") in ("fresh6", "fresh7", "fresh8")}
NAMES = sorted(p.name for p in DATA.glob("*.jsonl") if p.name not in _HELD_OUT)[:8]  # the held-out set stays unread


def _hook(event: str, payload: dict, **popen):
    return subprocess.Popen(cli_argv() + ["hook", "claude-code", event], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=dict(os.environ, CAVEMAN_HOOK_DEADLINE_MS="20000"), **popen)


def _projects(tmp_path: Path) -> dict[str, Path]:
    out = {}
    for i, name in enumerate(NAMES):
        root = tmp_path / f"proj{i}"
        (root / ".git").mkdir(parents=True)
        shutil.copy(DATA / name, root / name)
        out[name] = root
    return out


def _captured(db_path: str) -> set[tuple[str, str, bool]]:
    m = Memory(db_path, scorers=[])
    try:
        rows = m.store.read("SELECT m.project, m.text, m.valid_until IS NULL FROM memories m JOIN mem_capture c ON c.id = m.id")
        return {(p, t, bool(c)) for p, t, c in rows}
    finally:
        m.close()


def _reference(tmp_path: Path, roots: dict[str, Path]) -> set:
    ref = str(tmp_path / "ref.db")
    m = Memory(ref, scorers=[])
    ccr = open_ccr(str(tmp_path / "ref-ccr.db"))
    for name, root in roots.items():
        capture_transcript(m, str(root / name), cwd=str(root), ccr=ccr)
    m.close()
    ccr.close()
    return _captured(ref)


def _wait(pred, timeout=60.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.1)
    return False


def _spool_empty(home: Path) -> bool:
    return not list((home / "spool").glob("*.json"))


def test_stop_hooks_of_8_concurrent_sessions_capture_everything_once(cave_home, tmp_path):
    roots = _projects(tmp_path)
    procs = []
    for name, root in roots.items():
        payload = {"session_id": json.loads((root / name).read_text().splitlines()[1])["sessionId"], "cwd": str(root),
                   "transcript_path": str(root / name), "hook_event_name": "Stop"}
        p = _hook("stop", payload)
        procs.append((p, json.dumps(payload).encode()))
    outs = [p.communicate(raw, timeout=60) + (p.returncode,) for p, raw in procs]
    assert all(o == (b"", b"", 0) for o in outs), outs
    assert _wait(lambda: _spool_empty(cave_home)) and _wait(lambda: (cave_home / "mem.db").exists())
    expected = _reference(tmp_path, roots)
    assert _wait(lambda: _captured(str(cave_home / "mem.db")) == expected), "capture differs from a single clean pass"
    m = Memory(str(cave_home / "mem.db"), scorers=[])
    sessions = m.store.read("SELECT count(*), sum(messages) FROM cap_sessions")[0]
    m.close()
    assert sessions[0] == 8 and sessions[1] > 100
    # a second Stop with nothing new archives and stores nothing more
    p = _hook("session-end", {"cwd": str(roots[NAMES[0]]), "transcript_path": str(roots[NAMES[0]] / NAMES[0])})
    assert p.communicate(json.dumps({"cwd": str(roots[NAMES[0]]), "transcript_path": str(roots[NAMES[0]] / NAMES[0]),
                                     "hook_event_name": "SessionEnd"}).encode(), timeout=60) == (b"", b"")
    assert _wait(lambda: _spool_empty(cave_home))
    assert _captured(str(cave_home / "mem.db")) == expected


def test_writer_killed_mid_drain_loses_and_duplicates_nothing(cave_home, tmp_path):
    from cavemem.hooks import spool

    roots = _projects(tmp_path)
    for name, root in roots.items():
        spool.write({"cwd": str(root), "session": None, "memories": [],
                     "capture": {"transcript_path": str(root / name), "session": None, "cwd": str(root)}})
    proc = subprocess.Popen(cli_argv() + ["hook", "drain"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    time.sleep(0.6)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    left = len(spool.pending())
    spool.drain()
    assert spool.pending() == []
    assert _captured(str(cave_home / "mem.db")) == _reference(tmp_path, roots), f"{left} spool files were left by the killed writer"


def test_injected_note_is_named_by_a_plain_session_id_and_hashed_otherwise(cave_home):
    from cavemem.hooks import claude_code, spool

    hits = [{"id": "m1", "text": "the api listens on 8081"}]
    for sid in ("5f0c2a7e-1b3d-4e8a-9c41-0a6e2f9d7b11", "../../etc/passwd x", "é" * 80):
        claude_code.note_injected({"session_id": sid}, hits)
        path = Path(claude_code._injected_path(sid))
        assert path.parent == Path(spool.spool_dir()) / "injected" and path.exists()
        assert claude_code.take_injected({"session_id": sid}) == hits and not path.exists()
    assert claude_code._injected_path("abc-1").endswith(os.sep + "s-abc-1.json")


def test_detached_writer_runs_at_lower_priority():
    import sys

    code = "import os; from cavemem.hooks import spool; a = os.nice(0); spool.lower_priority(); print(os.nice(0) - a)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60).stdout
    assert int(out) == min(spool_nice(), 19 - os.nice(0))


def spool_nice() -> int:
    from cavemem.hooks import spool

    return spool.DRAIN_NICE
