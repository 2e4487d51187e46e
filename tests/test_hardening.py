"""Issue 15: regression tests for the adversarial audit (store side; hook, MCP and import in
tests/test_hardening_inputs.py). Each test is named after the issue item it pins."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
from pathlib import Path

import pytest
from conftest import cli_argv, cli_in_process

from cavemem.errors import StoreUnavailable
from cavemem.store.ccr import OWNER_COMPRESS, OWNER_MEMORY, handle_for, open_ccr

ROWS = json.dumps([{"id": i, "name": f"user{i}", "email": f"u{i}@example.com", "active": True} for i in range(60)]).encode()


def _run(*args: str, input: bytes = b"", env: dict | None = None, cwd=None, timeout: float = 60, pre: list | None = None):
    full = dict(os.environ)
    full.update(env or {})
    if not pre:
        return cli_in_process(args, input=input, env=full, cwd=cwd, timeout=timeout)
    return subprocess.run(pre + cli_argv() + list(args), input=input, capture_output=True, env=full,
                          timeout=timeout, cwd=cwd)


def _err(proc) -> dict:
    return json.loads(proc.stderr.decode().strip().splitlines()[-1])


def _remember(text: bytes, tmp_path) -> str:
    r = _run("remember", "--global", "--stdin", input=text, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    return r.stdout.decode().split()[1]


def test_01_forget_keeps_record_owned_by_compress(tmp_path):
    c = _run("compress", input=ROWS, cwd=tmp_path)
    assert c.returncode == 0
    handle = json.loads(c.stderr)["recovery_handle"]
    mem_id = _remember(ROWS, tmp_path)
    assert _run("recall", "--all", "user0 example", cwd=tmp_path).returncode == 0  # the memory stores its copy too
    f = _run("forget", mem_id, cwd=tmp_path)
    assert f.returncode == 0, f.stderr
    r = _run("retrieve", handle, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == ROWS


def test_01_forget_deletes_record_only_the_memory_owned(tmp_path):
    text = b"the deploy key rotates every ninety days " * 30
    mem_id = _remember(text, tmp_path)
    rec = _run("recall", "--all", "--json", "deploy key rotates", cwd=tmp_path)
    assert rec.returncode == 0, rec.stderr
    handle = handle_for(text)
    assert _run("retrieve", handle, cwd=tmp_path).stdout == text
    assert _run("forget", mem_id, cwd=tmp_path).returncode == 0
    gone = _run("retrieve", handle, cwd=tmp_path)
    assert gone.returncode == 1 and _err(gone)["error"] == "cave_unknown_handle"


def test_01_owners_are_counted_per_owner(tmp_path):
    store = open_ccr(str(tmp_path / "c.db"))
    h = store.put(b"shared", content_type="text", compressor="text", tokens_before=5, tokens_after=1)
    store.put(b"shared", content_type="text", compressor="text", tokens_before=5, tokens_after=1, owner=OWNER_MEMORY)
    assert store.owners(h) == [OWNER_COMPRESS, OWNER_MEMORY]
    assert store.release([h], OWNER_MEMORY) == 0 and store.get(h) == b"shared"
    assert store.release([h], OWNER_COMPRESS) == 1 and not store.contains(h)


def test_01_migration_gives_existing_records_an_owner(tmp_path):
    path = tmp_path / "old.db"
    con = sqlite3.connect(path)
    from cavemem.store.ccr import MIGRATIONS

    for sql in MIGRATIONS[0]:
        con.execute(sql)
    for original, comp in ((b"from compress", "json"), (b"from memory", "memory")):
        con.execute("INSERT INTO recoveries VALUES (?, '2026-01-01T00:00:00Z', 'text', ?, 1, 1, ?, NULL)",
                    (handle_for(original), comp, original))
    con.execute("PRAGMA user_version = 1")
    con.commit()
    con.close()
    os.chmod(path, 0o600)
    store = open_ccr(str(path))
    assert store.owners(handle_for(b"from compress")) == [OWNER_COMPRESS]
    assert store.owners(handle_for(b"from memory")) == [OWNER_MEMORY]


@pytest.mark.parametrize("first", [["compress"], ["stats"], ["hook", "session-start"], ["remember", "--global", "x y z"]])
def test_04_home_and_parents_created_0700_by_any_command(tmp_path, first):
    home = tmp_path / "a" / "b" / "home"
    r = _run(*first, input=b'{"a": 1}' if first[0] != "hook" else b"{}", env={"CAVEMAN_HOME": str(home)}, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert home.is_dir() or first[0] == "hook"  # a hook with nothing to do may create nothing
    for d in (tmp_path / "a", tmp_path / "a" / "b", home):
        if first[0] == "hook" and not d.exists():
            continue
        assert stat.S_IMODE(d.stat().st_mode) == 0o700, (d, oct(d.stat().st_mode))


def test_05_non_database_file_is_refused_untouched(tmp_path):
    victim = tmp_path / "passwd"
    victim.write_bytes(b"root:x:0:0:root:/root:/bin/bash\n")
    os.chmod(victim, 0o644)
    for args in (["compress"], ["stats"], ["retrieve", "ccr_00000000000000000000000000000000"]):
        r = _run(*args, input=ROWS, env={"CAVEMAN_CCR_DB": str(victim)}, cwd=tmp_path)
        if args == ["compress"]:
            assert r.returncode == 0 and r.stdout == ROWS  # passes through
        else:
            assert r.returncode == 1 and _err(r)["error"] == "cave_ccr_unavailable", r.stderr
    assert stat.S_IMODE(victim.stat().st_mode) == 0o644
    assert victim.read_bytes() == b"root:x:0:0:root:/root:/bin/bash\n"


def test_05_hard_linked_store_is_refused_untouched(tmp_path):
    db = tmp_path / "real.db"
    open_ccr(str(db)).close()
    os.chmod(db, 0o640)
    os.link(db, tmp_path / "link.db")
    with pytest.raises(StoreUnavailable, match="hard links"):
        open_ccr(str(tmp_path / "link.db"))
    assert stat.S_IMODE(db.stat().st_mode) == 0o640


def _raw(home: Path) -> bytes:
    return b"".join(p.read_bytes() for p in home.iterdir() if p.name.startswith(("mem.db", "ccr.db")))


def test_06_forget_leaves_no_plaintext_on_disk(tmp_path, cave_home):
    secret = b"Zanzibar-quokka-7731 launch code is tangerine"
    text = secret + b" " + b"padding words for a longer memory " * 20
    mem_id = _remember(text, tmp_path)
    assert _run("recall", "--all", "launch code tangerine", cwd=tmp_path).returncode == 0
    assert secret in _raw(cave_home)
    assert _run("forget", mem_id, cwd=tmp_path).returncode == 0
    assert secret not in _raw(cave_home)
    for _ in range(3):  # later commands must not resurrect it either
        _run("remember", "--global", "another unrelated fact", cwd=tmp_path)
    assert secret not in _raw(cave_home)


def _ro(cmd: list[str], home: Path) -> list[str]:
    """Run ``cmd`` with ``home`` bind-mounted read-only (a private mount namespace)."""
    script = f'mount --bind "{home}" "{home}" && mount -o remount,ro,bind "{home}" && exec "$@"'
    return ["unshare", "-m", "sh", "-c", script, "sh", *cmd]


def _can_mount_ro(tmp_path) -> bool:
    d = tmp_path / "probe"
    d.mkdir()
    r = subprocess.run(_ro(["touch", str(d / "x")], d), capture_output=True)
    return r.returncode != 0 and b"Read-only" in r.stderr


def test_11_read_only_store_can_still_be_read(tmp_path, cave_home):
    if not _can_mount_ro(tmp_path):
        pytest.fail("this test needs a private mount namespace (unshare -m) to make a read-only mount")
    c = _run("compress", input=ROWS, cwd=tmp_path)
    handle = json.loads(c.stderr)["recovery_handle"]
    _remember(b"the read only store still answers", tmp_path)
    for args, want in ((["retrieve", handle], ROWS), (["stats"], None), (["list", "--all"], b"read only store"),
                       (["recall", "--all", "read only store"], b"read only store"), (["export"], b"read only")):
        r = subprocess.run(_ro(cli_argv() + args, cave_home), capture_output=True, env=dict(os.environ), cwd=tmp_path, timeout=60)
        assert r.returncode == 0, (args, r.stderr)
        if want is not None:
            assert want in r.stdout, (args, r.stdout)
    w = subprocess.run(_ro(cli_argv() + ["remember", "--global", "new fact"], cave_home), capture_output=True,
                       env=dict(os.environ), cwd=tmp_path, timeout=60)
    assert w.returncode == 1 and _err(w)["error"] == "cave_store_unavailable", w.stderr
    p = subprocess.run(_ro(cli_argv() + ["compress"], cave_home), input=ROWS + b" ", capture_output=True,
                       env=dict(os.environ), cwd=tmp_path, timeout=60)
    assert p.returncode == 0 and p.stdout == ROWS + b" "  # cannot store: passes through


def test_13_budget_below_stored_still_reads_and_says_budget_exceeded(tmp_path):
    c = _run("compress", input=ROWS, cwd=tmp_path)
    handle = json.loads(c.stderr)["recovery_handle"]
    env = {"CAVEMAN_CCR_MAX_BYTES": "1000"}
    r = _run("retrieve", handle, env=env, cwd=tmp_path)
    assert r.returncode == 0 and r.stdout == ROWS, r.stderr
    other = ROWS.replace(b"user", b"person")
    p = _run("compress", input=other, env=env, cwd=tmp_path)
    assert p.returncode == 0 and p.stdout == other
    assert json.loads(p.stderr)["error"] == "cave_ccr_budget_exceeded"
    assert _run("stats", env=env, cwd=tmp_path).returncode == 0


def test_13_memory_commands_say_store_unavailable_when_home_cannot_be_created(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    r = _run("remember", "--global", "x", env={"CAVEMAN_HOME": str(blocker / "home")}, cwd=tmp_path)
    assert r.returncode == 1 and _err(r)["error"] == "cave_store_unavailable", r.stderr
    c = _run("retrieve", "ccr_00000000000000000000000000000000", env={"CAVEMAN_HOME": str(blocker / "home")}, cwd=tmp_path)
    assert c.returncode == 1 and _err(c)["error"] == "cave_ccr_unavailable", c.stderr


MANIFEST = "fixtures:\n  - name: one\n    file: {file}\n    type: text\n"


def _evals(root, tmp_path, timeout=20):
    return _run("evals", "run", "--fixtures", str(root), cwd=tmp_path, timeout=timeout)


def test_07_evals_symlinked_manifest_out_of_dir_is_refused_unread(tmp_path):
    root = tmp_path / "fx"
    root.mkdir()
    (tmp_path / "secret.yaml").write_text("top-secret-line: 42\nanother: line\n")
    os.symlink(tmp_path / "secret.yaml", root / "manifest.yaml")
    r = _evals(root, tmp_path)
    assert r.returncode != 0
    assert b"top-secret" not in r.stdout + r.stderr
    assert b"symlink out of the fixture directory" in r.stderr


def test_07_evals_fifo_fixture_does_not_block(tmp_path):
    from cavemem.evals.runner import EvalError, load_dir

    root = tmp_path / "fx"
    root.mkdir()
    (root / "manifest.yaml").write_text(MANIFEST.format(file="pipe.txt"))
    os.mkfifo(root / "pipe.txt")
    with pytest.raises(EvalError, match="not a regular file"):
        load_dir(root)
    os.unlink(root / "manifest.yaml")
    os.mkfifo(root / "manifest.yaml")
    with pytest.raises(EvalError, match="not a regular file"):
        load_dir(root)


LONE = b'[{"a":"x\\ud800y","b":1},{"a":"z","b":2},{"a":"w","b":3}]'


def test_12_lone_surrogate_is_not_called_lossless(tmp_path):
    for dialect in ([], ["--dialect", "caveman"]):
        r = _run("toon", "encode", *dialect, input=LONE, cwd=tmp_path)
        assert r.returncode == 1 and _err(r)["error"] == "cave_not_toon_encodable", r.stderr
        assert r.stdout == b""
    c = _run("compress", "--type", "toon", input=LONE, cwd=tmp_path)
    report = json.loads(c.stderr)
    assert c.returncode == 0
    if report.get("lossless_to_model"):
        back = _run("retrieve", report["recovery_handle"], cwd=tmp_path)
        assert back.stdout == LONE
        assert b"\xef\xbf\xbd" not in c.stdout  # a lossless claim never carries U+FFFD for the escape
    else:
        assert c.stdout == LONE
    bad_utf8 = b'[{"a":"x\xffy","b":1},{"a":"z","b":2}]'
    r = _run("toon", "encode", input=bad_utf8, cwd=tmp_path)
    assert r.returncode == 1 and _err(r)["error"] == "cave_not_toon_encodable"
    ok = _run("toon", "encode", input=b'{"a":"caf\\u00e9 \\ud83d\\ude00"}', cwd=tmp_path)
    assert ok.returncode == 0 and "café 😀".encode() in ok.stdout


@pytest.mark.parametrize("args", [
    ["remember", "--global", b"bad \xff text"],
    ["remember", "--global", "--tag", b"\xff", "fine text"],
    ["list", "--all", "--tag", b"\xff"],
    ["show", b"mem_\xff"],
    ["forget", b"mem_\xff"],
])
def test_10_non_utf8_argv_is_a_clear_error_not_a_traceback(tmp_path, args):
    r = subprocess.run(cli_argv() + args, capture_output=True, cwd=tmp_path, timeout=60)
    assert b"Traceback" not in r.stderr
    err = _err(r)
    assert r.returncode == 65 and err["error"] == "cave_invalid_input" and "\\xff" in err["message"], r.stderr


def test_10_non_utf8_handle_is_unknown(tmp_path):
    r = subprocess.run(cli_argv() + ["retrieve", b"ccr_\xff"], capture_output=True, cwd=tmp_path, timeout=60)
    assert r.returncode == 1 and _err(r)["error"] == "cave_unknown_handle", r.stderr


def test_10_compress_with_closed_stdout_has_no_traceback(tmp_path):
    r = subprocess.run(cli_argv() + ["compress"], input=ROWS, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       cwd=tmp_path, timeout=60, preexec_fn=lambda: os.close(1))
    assert b"Traceback" not in r.stderr
    assert r.returncode != 0


def _as_nobody_python() -> list[str]:
    """An interpreter uid 65534 can run with this checkout and venv on its path."""
    import sys
    import sysconfig

    for exe in (sys.executable, "/usr/bin/python3"):
        probe = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", exe, "-c",
                                "import sys; print(sys.version_info[:2])"], capture_output=True)
        if probe.returncode == 0 and probe.stdout.strip() == str(sys.version_info[:2]).encode():
            return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", exe, "-m", "cavemem"]
    pytest.fail("needs setpriv and a Python that uid 65534 can run (" + sysconfig.get_paths()["purelib"] + ")")


def test_10_store_owned_by_another_user_is_a_clear_error(tmp_path):
    import shutil
    import sysconfig
    import tempfile

    if os.geteuid() != 0:
        pytest.fail("needs root to create a store another user cannot open")
    cmd = _as_nobody_python()
    base = tempfile.mkdtemp(prefix="cave-perm-", dir="/tmp")
    try:
        os.chmod(base, 0o755)
        home = Path(base) / "home"
        env = {"CAVEMAN_HOME": str(home), "CAVEMAN_CACHE_DIR": str(Path(base) / "cache")}
        _run("compress", input=ROWS, env=env, cwd=tmp_path)
        _run("remember", "--global", "a root-owned fact", env=env, cwd=tmp_path)
        os.chown(home, 65534, 65534)  # the user's own home, holding files root created
        root_dir = str(Path(__file__).resolve().parents[1])
        full = dict(os.environ, **env, HOME=base, PYTHONPATH=root_dir + os.pathsep + sysconfig.get_paths()["purelib"])
        for args, code in ((["retrieve", handle_for(ROWS)], "cave_ccr_unavailable"), (["stats"], "cave_ccr_unavailable"),
                           (["remember", "--global", "x"], "cave_store_unavailable"), (["list", "--all"], "cave_store_unavailable")):
            r = subprocess.run(cmd + args, capture_output=True, env=full, cwd=base, timeout=60)
            assert b"Traceback" not in r.stderr, r.stderr
            assert r.returncode == 1 and _err(r)["error"] == code and "Permission denied" in _err(r)["message"], (args, r.stderr)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_08_remember_of_9357_private_key_headers_is_not_a_redos(tmp_path):
    """Item 8: 9,357 repeated BEGIN lines took 14 s in `remember` (the redaction regex backtracked).
    Through the real CLI now; the bound is far below the old time and far above a linear pass."""
    import time

    text = b"-----BEGIN PRIVATE KEY-----\n" * 9357
    started = time.perf_counter()
    proc = _run("remember", "--stdin", "--project", "p", "--json", input=text, cwd=tmp_path)
    elapsed = time.perf_counter() - started
    assert proc.returncode == 0, proc.stderr
    assert elapsed < 7, f"remember took {elapsed:.1f} s"
    assert json.loads(proc.stdout)["id"].startswith("mem_")
