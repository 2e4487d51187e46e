"""The Typer app and the fast path are one CLI: same declarations, same accept/reject decisions,
plus what only the Typer side adds (rich help, completion, ``help CMD``, did-you-mean)."""

from __future__ import annotations

import os

import pytest
import typer

from cavemem.cli import main
from cavemem.cli.app import click_command, load
from cavemem.errors import CaveError

GROUP = click_command()


def _specs():
    for name in main.COMMANDS:
        try:
            run = load(name)
        except ImportError:
            continue
        if hasattr(run, "COMMAND"):
            yield name, run.COMMAND


SPECS = dict(_specs())


def _sample_value(opt) -> str:
    if opt.choices:
        return opt.choices[-1]
    return "3" if opt.type is not str else "some value"


def _argv_cases(spec) -> list[list[str]]:
    """Valid and invalid argument lists derived from the declaration (every option, both spellings)."""
    required = ["x"] * sum(1 for a in spec.args if not (a.optional or a.many))
    cases = [list(required), required + ["--no-such-option"], required + ["extra"] * (len(spec.args) + 1)]
    for opt in spec.options:
        for flag in filter(None, (opt.name, opt.short)):
            if opt.is_flag:
                cases += [required + [flag], required + [f"{opt.name}=1"]]
            else:
                cases += [required + [flag, _sample_value(opt)], required + [flag], required + [f"{opt.name}={_sample_value(opt)}"]]
                if opt.choices:
                    cases.append(required + [flag, "not-a-choice"])
                if opt.type is not str:
                    cases.append(required + [flag, "nope"])
    if required:
        cases.append([])
    return cases


def _fast_accepts(spec, argv) -> bool:
    try:
        spec.parse(argv)
        return True
    except CaveError as err:
        assert err.code == "cave_invalid_arguments"
        return False


def _typer_accepts(name, argv) -> bool:
    cmd = GROUP.commands[name]
    try:
        cmd.make_context(name, list(argv))
        return True
    except typer.TyperException as err:
        assert err.exit_code == 2, err
        return False


@pytest.mark.parametrize("name", sorted(SPECS))
def test_fast_path_and_typer_accept_and_reject_the_same_argument_lists(name):
    spec = SPECS[name]
    for argv in _argv_cases(spec):
        assert _fast_accepts(spec, argv) == _typer_accepts(name, argv), (name, argv)


def test_every_declared_command_is_in_the_typer_app():
    assert set(SPECS) <= set(GROUP.commands)
    assert set(GROUP.commands) <= set(main.COMMANDS)


def test_help_cmd_prints_that_commands_help(run_cli):
    out = run_cli("cavemem", "help", "compress")
    assert out.rc == 0
    assert b"cavemem compress" in out.stdout and b"--query" in out.stdout


def test_unknown_command_suggests_the_near_one(run_cli):
    out = run_cli("cavemem", "comprss", input=b"x")
    assert out.rc == 2 and out.stdout == b""
    assert out.report["error"] == "cave_unknown_command"
    assert "did you mean 'compress'" in out.report["message"]


def test_unknown_option_suggests_the_near_one(run_cli):
    out = run_cli("cavemem", "compress", "--qurey", "x", input=b"x")
    assert out.rc == 2
    assert out.report["error"] == "cave_invalid_arguments"
    assert "did you mean --query" in out.report["message"]


def test_type_is_checked_against_the_registry(run_cli):
    out = run_cli("cavemem", "compress", "--type", "nope", input=b"{}")
    assert out.rc == 2 and out.stdout == b""
    assert out.report["error"] == "cave_invalid_arguments"
    assert "json" in out.report["message"] and "toon" in out.report["message"]


def test_version_and_completion_script(run_cli):
    assert run_cli("cavemem", "--version").stdout.startswith(b"cavemem ")
    out = run_cli("cavemem", "--show-completion", "bash")
    assert out.rc == 0 and b"_cavemem_completion" in out.stdout


def test_closed_stdout_exits_quietly(tmp_path):
    import os
    import subprocess

    from conftest import cli_argv

    env = dict(os.environ, CAVEMAN_HOME=str(tmp_path / "home"))
    p = subprocess.run(cli_argv("cavemem") + ["compress"], input=b"x" * 100, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       env=env, close_fds=True, preexec_fn=lambda: os.close(1))
    assert b"Traceback" not in p.stderr
    assert p.returncode in (0, 1)


def test_typer_usage_error_is_one_json_line(capsys):
    from cavemem.cli.app import run_app

    rc = run_app(["recall", "--limit", "nope", "q"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and '"cave_invalid_arguments"' in err[0]


def test_input_too_large_names_the_limit_it_was_read_under(monkeypatch):
    import io as stdio
    import sys

    from cavemem.cli import io

    monkeypatch.setattr(sys, "stdin", stdio.TextIOWrapper(stdio.BytesIO(b"x" * 11)))
    with pytest.raises(io.InputTooLarge) as err:
        io.read_stdin(10)
    assert err.value.message == "stdin exceeds 10 bytes" and err.value.exit_code == 1


HOT = [("detect", (), b"2026-06-16T09:00:00Z [INFO] compiling module pkg/mod001 ... ok\n" * 20),
       ("compress", (), b"2026-06-16T09:00:00Z [INFO] compiling module pkg/mod001 ... ok (407 ms)\n" * 40),
       ("remember", ("--global", "we deploy on Tuesdays"), b""),
       ("recall", ("--all", "when do we deploy"), b""),
       ("hook", ("claude-code", "user-prompt"), b'{"session_id": "s1", "prompt": "when do we deploy", "cwd": "/"}')]
HEAVY = {"inspect", "ast", "regex", "typing", "_hashlib", "pickle"}  # typing: 12M instructions; _hashlib: OpenSSL


@pytest.mark.parametrize("verb,args,stdin", HOT)
def test_hot_commands_never_run_inspect_regex_typing_or_openssl(verb, args, stdin, tmp_path):
    # start-up (issue 12): dataclasses' inspect import is deferred (cli.main.defer_inspect), short
    # ASCII token counts need neither tiktoken nor the regex package, protocols are for type
    # checkers only and short inputs are hashed without OpenSSL (cavemem.digest)
    import subprocess
    import sys

    env = dict(os.environ, CAVEMAN_HOME=str(tmp_path), CAVEMAN_EMBED="0")
    # a home's first token count builds the rank cache (and checks the bundled ranks' sha256 with
    # hashlib): that happens once per home, not on the hot path measured here
    subprocess.run([sys.executable, "-m", "cavemem", "compress"], input=b"warm the rank cache", env=env, check=True, capture_output=True)
    if verb in ("recall", "hook"):
        subprocess.run([sys.executable, "-m", "cavemem", "remember", "--global", "we deploy on Tuesdays"], env=env, check=True,
                       capture_output=True)
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "cavemem", verb, *args], input=stdin, env=env,
                          capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-500:]
    imported = {line.split("|")[-1].strip() for line in proc.stderr.decode().splitlines() if line.startswith("import time:")}
    assert not imported & HEAVY, imported & HEAVY
    if verb == "hook":
        assert b"Tuesdays" in proc.stdout and "cavemem.memory.rank" in imported  # it really recalled


def test_deferred_inspect_loads_on_first_use():
    import subprocess
    import sys

    code = ("import sys\nfrom cavemem.cli.main import defer_inspect\ndefer_inspect()\nimport dataclasses, inspect\n"
            "assert 'ast' not in sys.modules\n"
            "@dataclasses.dataclass\nclass P:\n    x: int\n"
            "assert P.__doc__ == 'P(x: int)' and inspect.isfunction(defer_inspect) and 'ast' in sys.modules\nprint('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr


def test_deferred_copy_and_c_datetime_behave_as_the_stdlib():
    import subprocess
    import sys

    code = ("import sys\nfrom cavemem.cli.main import datetime_from_c, defer_inspect\ndefer_inspect()\ndatetime_from_c()\n"
            "import dataclasses, pickle, sqlite3\nimport datetime as dt\n"
            "@dataclasses.dataclass\nclass P:\n    '''P.'''\n    x: list\n"
            "assert 'weakref' not in sys.modules  # copy (which imports it) is deferred\n"
            "p = P([1, [2]])\nq = dataclasses.asdict(p)\nq['x'][1].append(3)\n"  # asdict deep-copies: loads the real copy
            "assert p.x == [1, [2]] and q == {'x': [1, [2, 3]]}\n"
            "t = dt.datetime(2026, 12, 2, 6, 7, 8, 9, tzinfo=dt.timezone.utc)\n"
            "assert pickle.loads(pickle.dumps(t)) == t and t.isoformat() == '2026-12-02T06:07:08.000009+00:00'\n"
            "assert dt.datetime.strptime('2026-12-02', '%Y-%m-%d').date() == dt.date(2026, 12, 2) and dt.UTC is dt.timezone.utc\n"
            "db = sqlite3.connect(':memory:')\n"
            "assert db.execute('select ?', (dt.date(2026, 12, 2),)).fetchone() == ('2026-12-02',)\n"  # sqlite3's adapters
            "print(dt.__name__ if sys.version_info[:2] == (3, 11) else '_datetime')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "_datetime", out.stderr
