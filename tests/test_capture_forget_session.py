"""``cavemem sessions forget``: an archived transcript can be deleted, leaving no text on disk."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from test_capture_cli import DATA, _capture, cli


def _project(tmp_path) -> Path:
    root = tmp_path / "acme-api"
    (root / ".git").mkdir(parents=True)
    shutil.copy(DATA / "acme-api-01-setup.jsonl", root / "acme-api-01-setup.jsonl")
    return root


def _disk_bytes(home: Path) -> bytes:
    return b"".join(p.read_bytes() for p in home.rglob("*.db*") if p.is_file())


def test_sessions_forget_dry_run_then_delete_leaves_no_transcript_text(tmp_path, cave_home):
    project = _project(tmp_path)
    _capture(project, "acme-api-01-setup.jsonl")
    rc, out, _ = cli("sessions", "list", "--json", cwd=project)
    [sess] = json.loads(out)["sessions"]
    needle = b"RQ on the existing Redis"
    assert needle in _disk_bytes(cave_home)

    rc, out, err = cli("sessions", "forget", sess["session"][:8], "--dry-run", "--json", cwd=project)
    report = json.loads(out)
    assert rc == 0 and err == b"" and report["dry_run"] is True and report["messages"] == 21
    assert cli("sessions", "show", sess["session"], "--raw", cwd=project)[0] == 0

    rc, out, err = cli("sessions", "forget", sess["session"], "--json", cwd=project)
    report = json.loads(out)
    assert rc == 0 and report["chunks_deleted"] == report["chunks"] >= 1
    rc, out, err = cli("sessions", "show", sess["session"], cwd=project)
    assert rc != 0 and json.loads(err)["error"] == "cave_memory_not_found"
    assert json.loads(cli("sessions", "list", "--json", cwd=project)[1])["sessions"] == []
    # the transcript's own lines are gone from every database file and WAL (captured memories may
    # still quote the decision: they are memories, forgotten on their own)
    raw_line = (project / "acme-api-01-setup.jsonl").read_bytes().splitlines()[3]
    assert raw_line not in _disk_bytes(cave_home)
