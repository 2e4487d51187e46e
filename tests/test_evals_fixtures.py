"""The two eval sets pass end to end through the CLI: the 17 reference fixtures of the caveman
engine, and cavemem's own real-world set in ``fixtures/`` (the default of ``evals run``)."""

from __future__ import annotations

import json

import pytest
from conftest import CAVEMAN_EVALS, REPO

from cavemem.evals.manifest import parse_manifest

FIXTURES = REPO / "fixtures"
AUTO_TYPES = ["json", "terminal", "diff", "html", "tabular", "code", "log", "search-result", "config", "text"]
MAX_FIXTURE_BYTES = 50 * 1024


def _failures(report: dict) -> dict:
    return {f["name"]: f.get("failures") for f in report["fixtures"] if not f["passed"]}


@pytest.mark.skipif(not CAVEMAN_EVALS.is_dir(), reason=f"reference fixtures not present at {CAVEMAN_EVALS}")
def test_reference_fixtures_all_pass(run_cli):
    r = run_cli("cavemem", "evals", "run", "--fixtures", str(CAVEMAN_EVALS), "--json", timeout=300)
    report = json.loads(r.stdout)
    assert _failures(report) == {}
    assert len(report["fixtures"]) == 17
    assert all(f["basis"] == "inferred" and f["byte_recoverable"] for f in report["fixtures"])
    assert report["probes"]["lost"] == 0
    assert r.rc == 0, r.stderr


@pytest.fixture(scope="module")
def own_report(tmp_path_factory):
    """``cavemem evals run --json`` with no --fixtures: the bundled set."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    home = tmp_path_factory.mktemp("home")
    home.chmod(0o700)
    env = dict(os.environ, CAVEMAN_HOME=str(home))
    exe = Path(sys.executable).parent / "cavemem"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "cavemem"]
    proc = subprocess.run(cmd + ["evals", "run", "--json"], capture_output=True, env=env, timeout=600)
    return proc, json.loads(proc.stdout)


def test_own_fixtures_all_pass(own_report):
    proc, report = own_report
    assert _failures(report) == {}
    assert proc.returncode == 0, proc.stderr
    assert all(f["byte_recoverable"] for f in report["fixtures"])
    assert report["probes"]["lost"] == 0


def test_own_fixtures_are_auto_detected_as_named(own_report):
    _, report = own_report
    manifest = parse_manifest((FIXTURES / "manifest.yaml").read_bytes())
    forced = {f.name for f in manifest.fixtures if f.type}
    for f in report["fixtures"]:
        if f["name"] not in forced:
            assert f["content_type"] == f["name"].split("/", 1)[0], f["name"]


def test_own_fixture_set_shape():
    manifest = parse_manifest((FIXTURES / "manifest.yaml").read_bytes())
    files = {f.file for f in manifest.fixtures}
    on_disk = {str(p.relative_to(FIXTURES)) for p in FIXTURES.glob("*/*") if p.is_file()}
    assert files == on_disk  # every file graded, every graded file shipped
    for t in AUTO_TYPES:
        assert sum(1 for f in manifest.fixtures if f.name.startswith(t + "/") and not f.type) >= 3, t
    for f in manifest.fixtures:
        assert f.graders, f.name
        assert (FIXTURES / f.file).stat().st_size <= MAX_FIXTURE_BYTES, f.name
    readme = (FIXTURES / "README.md").read_text()
    for name in files:
        assert f"`{name}`" in readme, name  # source and licence recorded


def test_bundled_set_is_the_repo_fixtures():
    from cavemem.evals.runner import bundled_fixtures_dir

    assert bundled_fixtures_dir().resolve() == FIXTURES.resolve()
