"""``hook install`` on a fresh machine: it warns when the command it writes would not survive a
venv move, warms the token-rank cache, and a cold cache gets a longer hook deadline."""

from __future__ import annotations

import json
import os
import subprocess

from conftest import cli_argv

from cavemem import tokens
from cavemem.cli.commands import hook


def _install(tmp_path, *args, path_env: str | None = None):
    env = dict(os.environ, CAVEMAN_CACHE_DIR=str(tmp_path / "fresh-cache"))
    if path_env is not None:
        env["PATH"] = path_env
    (tmp_path / "proj" / ".git").mkdir(parents=True, exist_ok=True)
    return subprocess.run(cli_argv() + ["hook", "install", *args], capture_output=True, env=env, cwd=tmp_path / "proj", timeout=120)


def test_install_write_warms_the_token_cache(tmp_path):
    proc = _install(tmp_path, "--write", "--command", "cavemem", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["token_cache_warm"] is True
    assert (tmp_path / "fresh-cache" / tokens._CACHE_FILE).exists()


def test_install_warns_when_cavemem_is_not_on_path(tmp_path):
    proc = _install(tmp_path, path_env="/usr/bin:/bin")
    assert proc.returncode == 0
    warning = json.loads(proc.stderr.decode().strip().splitlines()[-1])
    assert warning["warning"] == "cave_hook_command_not_on_path" and "--command" in warning["message"]
    command = json.loads(proc.stdout)["hooks"]["Stop"][0]["hooks"][0]["command"]
    assert command.endswith("hook claude-code stop") and command != "cavemem hook claude-code stop"


def test_an_explicit_command_gets_no_warning(tmp_path):
    proc = _install(tmp_path, "--command", "cavemem", path_env="/usr/bin:/bin")
    assert proc.returncode == 0 and proc.stderr == b""


def test_a_cold_cache_gets_the_longer_deadline(tmp_path, monkeypatch):
    monkeypatch.delenv("CAVEMAN_HOOK_DEADLINE_MS", raising=False)
    monkeypatch.setenv("CAVEMAN_CACHE_DIR", str(tmp_path / "cold"))
    assert hook.deadline_ms() == hook.COLD_DEADLINE_MS
    assert tokens.warm_cache() is True
    assert hook.deadline_ms() == hook.DEFAULT_DEADLINE_MS
    monkeypatch.setenv("CAVEMAN_HOOK_DEADLINE_MS", "250")
    assert hook.deadline_ms() == 250
