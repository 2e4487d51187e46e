"""The two-candidate trial (engine/trial.py): who is contested, who wins, what the report says."""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
import textwrap

import pytest

from cavemem.engine import trial
from cavemem.engine.core import Engine
from cavemem.store.ccr import open_ccr

SOURCE = inspect.getsource(textwrap).encode()  # real code with long docstrings: code and text both read it


@pytest.fixture
def engine():
    eng = Engine(store=open_ccr(":memory:"))
    yield eng
    eng.close()


@pytest.fixture
def trial_on(monkeypatch):
    monkeypatch.setattr(trial, "MARGIN", 5.0)
    monkeypatch.setattr(trial, "MIN_RUNNER", 0.0)


def test_off_by_default_no_runner_up(engine):
    assert trial.MARGIN is None
    assert trial.contender(SOURCE, "code") is None
    res = engine.compress(SOURCE)
    assert res.runner_up == "" and "runner_up" not in json.loads(res.to_json())


def test_structural_kinds_are_never_contested():
    assert trial.contender(b'{"a": [1, 2, 3]}\n' * 20, "json", margin=100.0) is None
    assert trial.scores(b"one\ntwo\n") == {}  # too few lines to judge


def test_each_line_votes_once_for_its_most_specific_shape():
    grep = b"".join(b"src/app/mod%d.py:%d: ERROR raised here\n" % (i, i + 3) for i in range(20))
    got = trial.scores(grep)
    assert got["search-result"] > 1.0 and got["log"] == 0.0


def test_contested_input_keeps_the_smaller_valid_result(engine, trial_on):
    runner = trial.contender(SOURCE, "code")
    assert runner is not None and runner != "code"
    res = engine.compress(SOURCE)
    forced = {k: engine.compress(SOURCE, type=k) for k in ("code", runner)}
    ok = {k: r for k, r in forced.items() if not r.passed_through and trial.valid((r,))}
    best = min(ok, key=lambda k: (ok[k].tokens_after, k != "code"))
    assert res.content_type == best  # the kind actually used
    assert res.tokens_after == ok[best].tokens_after
    assert res.runner_up == ({"code", runner} - {best}).pop()
    assert engine.retrieve(res.recovery_handle) == SOURCE
    assert json.loads(res.to_json())["runner_up"] == res.runner_up
    sim = engine.simulate(SOURCE)
    assert sim.content_type == res.content_type and json.loads(sim.to_json())["runner_up"] == res.runner_up


def test_forced_type_never_runs_a_trial(engine, trial_on):
    res = engine.compress(SOURCE, type="code")
    assert res.content_type == "code" and res.runner_up == ""


def test_pick_rules():
    class R:
        def __init__(self, after, lossless=False, out=b"x [caveman: 3 lines elided] y"):
            self.tokens_after, self.lossless_to_model, self.output = after, lossless, out

    small, big = (R(5),), (R(9),)
    assert trial.pick(big, small) is small
    assert trial.pick(small, (R(5),)) is small  # tie: the detected kind stays
    assert trial.pick(None, big) is big  # a declined compressor loses
    assert trial.pick(None, False) is None  # neither: the engine's own fallback rules apply
    unmarked = (R(1, out=b"silently shorter"),)
    assert trial.pick(big, unmarked) is big  # lossy output that does not say so is not valid
    assert trial.pick(big, (R(1, lossless=True, out=b"short"),))[0].tokens_after == 1


def test_cli_report_default_has_no_runner_up(tmp_path):
    env = dict(os.environ, CAVEMAN_HOME=str(tmp_path))
    p = subprocess.run([sys.executable, "-m", "cavemem", "compress"], input=SOURCE, capture_output=True, env=env)
    assert p.returncode == 0
    rep = json.loads(p.stderr.decode().strip().splitlines()[-1])
    assert rep["content_type"] == "code" and "runner_up" not in rep
