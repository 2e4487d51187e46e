"""The CLI's disk cache of compiled regexes and dataclass methods (start-up, issue 12): a second
process reads what the first compiled, the objects are the ones ``re`` / ``dataclasses`` build
themselves, and a damaged or disabled cache changes nothing a user sees."""

from __future__ import annotations

import glob
import os
import subprocess
import sys

LOG = b"".join(b"2026-06-16T09:00:%02dZ [INFO] compiling module pkg/mod%03d ... ok (12 ms)\n" % (i % 60, i) for i in range(40))
LOG += b"2026-06-16T09:01:00Z [ERROR] failed to link target pkg/mod007: undefined symbol caveman_3\n"


def _cavemem(args, stdin, cache_dir, **env):
    full = dict(os.environ, CAVEMAN_CACHE_DIR=str(cache_dir), **env)
    return subprocess.run([sys.executable, "-m", "cavemem", *args], input=stdin, capture_output=True, env=full, timeout=120)


def _cache_file(cache_dir, command: str = "compress") -> str:
    files = glob.glob(os.path.join(str(cache_dir), f"re-*-main-{command}.marshal"))  # one file per command
    assert len(files) == 1, os.listdir(cache_dir)
    return files[0]


def test_compress_output_is_the_same_with_a_cold_warm_damaged_or_disabled_cache(tmp_path):
    cache = tmp_path / "cache"
    cold = _cavemem(["compress"], LOG, cache)
    assert cold.returncode == 0, cold.stderr
    path = _cache_file(cache)
    assert oct(os.stat(path).st_mode & 0o777) == "0o600"
    warm = _cavemem(["compress"], LOG, cache)
    off = _cavemem(["compress"], LOG, tmp_path / "other", CAVEMAN_RE_CACHE="0")
    assert not (tmp_path / "other").exists() or not glob.glob(str(tmp_path / "other" / "re-*"))
    with open(path, "wb") as fh:
        fh.write(b"\x00not marshal")
    damaged = _cavemem(["compress"], LOG, cache)
    for run in (warm, off, damaged):
        assert run.returncode == 0, run.stderr
        assert (run.stdout, run.stderr) == (cold.stdout, cold.stderr)
    assert os.path.getsize(path) > 1000  # the damaged file was replaced by a good one


def test_cached_patterns_and_dataclass_methods_equal_what_python_builds(tmp_path):
    """Every pattern the hot commands compiled, rebuilt from the cache, equals a fresh ``re``
    compile (pattern equality compares the compiled code); dataclass methods keep their
    annotations as objects, not strings (the cache module itself has ``from __future__``)."""
    cache = tmp_path / "cache"
    for args, stdin in ((["compress"], LOG), (["detect"], LOG), (["remember", "--global", "we deploy on Tuesdays"], b""),
                        (["recall", "--all", "when do we deploy"], b"")):
        done = _cavemem(args, stdin, cache, CAVEMAN_HOME=str(tmp_path / "home"), CAVEMAN_EMBED="0")
        assert done.returncode == 0, done.stderr
    assert sorted(os.path.basename(f).rsplit("-", 1)[1] for f in glob.glob(str(cache / "re-*"))) == [
        "compress.marshal", "detect.marshal", "recall.marshal", "remember.marshal"]
    code = f"""
import glob, marshal, re, _sre, dataclasses
from cavemem.cli import recache
table = {{}}
for path in glob.glob({str(cache / "re-*.marshal")!r}):
    table.update(marshal.loads(open(path, 'rb').read()))
pats = [k for k in table if k[0] != 'fn']
assert len(pats) > 30, len(pats)
for p, flags in pats:
    fresh = re._compiler.compile(p, flags)
    cached = _sre.compile(p, *table[p, flags])
    assert cached == fresh and cached.groupindex == fresh.groupindex and cached.flags == fresh.flags, p
assert sum(k[0] == 'fn' for k in table) > 10
recache.install("main", "")
@dataclasses.dataclass(frozen=True)
class P:
    x: int
    y: str = 'a'
assert P.__init__.__annotations__ == {{'x': int, 'y': str, 'return': None}}, P.__init__.__annotations__
assert P(1) == P(1, 'a') and repr(P(2)) == "P(x=2, y='a')" and hash(P(1)) == hash(P(1))
print('ok')
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ, CAVEMAN_CACHE_DIR=str(cache)))
    assert out.stdout.strip() == "ok", out.stderr
