"""retrieve(compress(x)) == x for arbitrary bytes, JSON and logs; and 8 concurrent writers."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cavemem.engine.core import Engine
from cavemem.store.ccr import open_ccr

_ENGINE: Engine | None = None


def _engine(tmp_path_factory=None) -> Engine:
    global _ENGINE
    if _ENGINE is None:
        import tempfile

        d = tempfile.mkdtemp(prefix="cavemem-prop-")
        os.chmod(d, 0o700)
        _ENGINE = Engine(store=open_ccr(os.path.join(d, "ccr.db")))
    return _ENGINE


def _assert_round_trip(data: bytes, **kw) -> None:
    eng = _engine()
    res = eng.compress(data, **kw)
    if res.recovery_handle:
        assert eng.retrieve(res.recovery_handle) == data
        assert res.tokens_after < res.tokens_before and 0 < res.ratio < 1
    else:
        assert res.output == data and res.ratio == 0 and res.tokens_after == res.tokens_before


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=12) | st.dictionaries(st.text(max_size=8), children, max_size=6),
    max_leaves=60,
)

records = st.lists(
    st.fixed_dictionaries(
        {"id": st.integers(0, 10**6), "status": st.sampled_from(["ok", "ok", "ok", "error", "timeout"]), "msg": st.text(max_size=30)}
    ),
    min_size=0,
    max_size=60,
)

log_lines = st.lists(
    st.tuples(
        st.sampled_from(["INFO", "INFO", "DEBUG", "WARN", "ERROR"]),
        st.integers(0, 59),
        st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n"), max_size=40),
    ),
    max_size=80,
)


@SETTINGS
@given(st.binary(max_size=4000))
def test_round_trip_arbitrary_bytes(data):
    _assert_round_trip(data)


@SETTINGS
@given(json_values, st.sampled_from([None, 2]))
def test_round_trip_json(value, indent):
    _assert_round_trip(json.dumps(value, indent=indent).encode())


@SETTINGS
@given(records, st.sampled_from(["", "error timeout"]))
def test_round_trip_json_records(rows, query):
    _assert_round_trip(json.dumps({"results": rows, "count": len(rows)}, indent=2).encode(), query=query)


@SETTINGS
@given(log_lines, st.sampled_from(["\n", "\r\n"]))
def test_round_trip_logs(lines, eol):
    text = eol.join(f"2026-06-16T09:00:{s:02d}Z [{lvl}] {msg}" for lvl, s, msg in lines)
    _assert_round_trip(text.encode("utf-8", "surrogatepass"))


@SETTINGS
@given(st.binary(max_size=2000), st.sampled_from(["json", "log", "text", "code", "diff", "tabular", "config", "html", "terminal", "toon", "repetition", "a11y", "toolschema", "search-result"]))
def test_round_trip_forced_types(data, ctype):
    _assert_round_trip(data, type=ctype)


WORKER = r"""
import json, sys
from cavemem.engine.core import Engine
worker = int(sys.argv[1])
eng = Engine()
out = []
for i in range(200):
    rows = [{"id": j, "worker": worker, "seq": i, "status": "ok" if j % 9 else "error", "note": "payload %d-%d-%d" % (worker, i, j)} for j in range(40)]
    data = json.dumps({"results": rows}, indent=2).encode()
    res = eng.compress(data)
    out.append([res.recovery_handle, res.error, data.decode()])
json.dump(out, sys.stdout)
"""


def test_eight_processes_two_hundred_payloads_each(cave_home):
    procs = [
        subprocess.Popen([sys.executable, "-c", WORKER, str(w)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ))
        for w in range(8)
    ]
    results = []
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err.decode()[-2000:]
        results.extend(json.loads(out))
    assert len(results) == 1600
    assert all(not error for _, error, _ in results)
    handles = {h for h, _, _ in results}
    assert "" not in handles and len(handles) == 1600
    store = open_ccr()
    for h, _, original in results:
        assert store.get(h) == original.encode()
    totals = store.summary()["totals"]
    assert totals["count"] == 1600
    assert 0 < totals["tokens_after"] < totals["tokens_before"]
