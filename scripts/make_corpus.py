#!/usr/bin/env python3
"""Build the real-payload compression corpus (issue 9) by running real programs and copying shipped files.

    python scripts/make_corpus.py [--out corpus/generated] [--only CLASS,...]

Nothing here is written by hand: every file is the output of a program run on this machine
(apt, dpkg, pip, npm, node, gcc, javac/java, pytest, unittest, strace, ps, ss, git, grep, diff,
sqlite3, man, script) or a file shipped by a Debian / PyPI / npm / rustup package already
installed. Each file gets a *kind* (the cavemem auto type a person would name for it), a finer
*class* (apt-log, pytest-log, toml, ...), its source command and licence; the manifest
(``corpus/manifest.json``) records them with the tune/check split, fixed up front by a hash of
the relative name: ``tune`` when ``sha256(name)[0] < 154`` (about 60%), else ``check``.

Sizes are kept between 1 KB and 5 MB (bigger outputs are cut at a line boundary). Outputs of
``ps``/``ss``/logs vary from machine to machine; the *shape* is what is reproducible.
"""

from __future__ import annotations

import argparse
import glob
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MIN_SIZE, MAX_SIZE = 1024, 5 * 1024 * 1024
VENV_SP = sorted(glob.glob(str(REPO / ".venv/lib/python3*/site-packages")))[0]
PEER_SP = (sorted(glob.glob(str(Path.home() / ".cache/cavemem-peer/venv/lib/python3*/site-packages"))) or [VENV_SP])[0]
SYS_PY = "/usr/lib/python3.11"
PYENV_PY = "/root/.pyenv/versions/3.11.7/lib/python3.11"
NPM = "/usr/lib/node_modules/npm"
RUSTLIB = sorted(glob.glob("/root/.rustup/toolchains/*/lib/rustlib"))
ENV = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8", TZ="UTC", COLUMNS="120", PAGER="cat", MANPAGER="cat",
           GIT_PAGER="cat", PYTHONDONTWRITEBYTECODE="1", NO_COLOR="")
ENV.pop("NO_COLOR")
ENV["TERM"] = "xterm-256color"

DEBIAN = "Debian package licence (see /usr/share/doc/<pkg>/copyright)"
PSF = "PSF-2.0 (CPython standard library)"
PYPI = "licence of the PyPI package (see its dist-info)"
NPMLIC = "Artistic-2.0 / MIT (npm and its bundled modules)"
OUTPUT = "program output generated on this machine (no third-party text beyond the inputs named)"


class Corpus:
    def __init__(self, out: Path, only: set[str]):
        self.out, self.only, self.entries = out, only, []

    def add(self, kind: str, cls: str, name: str, data: bytes, source: str, licence: str) -> None:
        if self.only and cls not in self.only:
            return
        if kind == "terminal" and b"\x1b[" not in data:
            return  # a capture with no escape sequence is not a terminal capture
        if len(data) > MAX_SIZE:
            cut = data.rfind(b"\n", 0, MAX_SIZE)
            data = data[: cut + 1 if cut > 0 else MAX_SIZE]
        if len(data) < MIN_SIZE:
            return
        rel = f"{kind}/{name}"
        digest = hashlib.sha256(data).hexdigest()
        if any(e["file"] == rel or e["sha256"] == digest for e in self.entries):
            return  # the same bytes under two names would sit in both splits
        path = self.out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        split = "tune" if hashlib.sha256(rel.encode()).digest()[0] < 154 else "check"
        self.entries.append({"file": rel, "kind": kind, "class": cls, "bytes": len(data), "split": split,
                             "sha256": digest, "source": source, "licence": licence})

    def copy(self, kind: str, cls: str, name: str, path: str, licence: str) -> None:
        try:
            data = Path(path).read_bytes()
        except OSError:
            return
        if path.endswith(".gz"):
            data = gzip.decompress(data)
        self.add(kind, cls, name, data, f"file {path}", licence)


def run(cmd, cwd=None, shell=False, timeout=120, env=None) -> bytes:
    """stdout+stderr of a real command (exit status ignored: failing runs are the point)."""
    try:
        p = subprocess.run(cmd, cwd=cwd, shell=shell, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout, env=env or ENV)
        return p.stdout
    except (subprocess.TimeoutExpired, FileNotFoundError) as e:
        return getattr(e, "output", b"") or b""


def slug(path: str) -> str:
    return path.strip("/").replace("/", "-").replace(" ", "_")[-80:]


def pick(paths, n: int, lo=MIN_SIZE, hi=MAX_SIZE) -> list[str]:
    """n files spread over the size range (deterministic: sorted by size, evenly sampled)."""
    ok = sorted({p for p in paths if os.path.isfile(p) and lo <= os.path.getsize(p) <= hi},
                key=lambda p: (os.path.getsize(p), p))
    if len(ok) <= n:
        return ok
    return [ok[i * (len(ok) - 1) // max(n - 1, 1)] for i in range(n)]


# ------------------------------------------------------------------------------------------ logs
def gen_logs(c: Corpus) -> None:
    term = Path("/var/log/apt/term.log").read_bytes() if os.path.exists("/var/log/apt/term.log") else b""
    blocks = term.split(b"\nLog started: ")
    for i, size in enumerate((4_000, 20_000, 60_000, len(term))):
        c.add("log", "apt-log", f"apt-term-{i}.log", term[:size], "file /var/log/apt/term.log (head)", DEBIAN)
    for i, b in enumerate(blocks[:12]):
        c.add("log", "apt-log", f"apt-term-block{i}.log", b, "file /var/log/apt/term.log (one run)", DEBIAN)
    c.copy("log", "apt-log", "apt-history.log", "/var/log/apt/history.log", DEBIAN)
    dpkg = Path("/var/log/dpkg.log").read_bytes()
    for i, size in enumerate((3_000, 30_000, 120_000, len(dpkg))):
        c.add("log", "dpkg-log", f"dpkg-{i}.log", dpkg[-size:].split(b"\n", 1)[-1], "file /var/log/dpkg.log (tail)", DEBIAN)
    for pkgs in ("gcc-12 g++-12 make", "postgresql-15 postgresql-contrib", "texlive-base", "python3-numpy python3-scipy"):
        c.add("log", "apt-log", f"apt-get-s-{pkgs.split()[0]}.log", run(f"apt-get -s install --reinstall {pkgs}", shell=True),
              f"apt-get -s install --reinstall {pkgs}", OUTPUT)
    c.add("log", "apt-log", "apt-get-download-progress.log",
          run("cd $(mktemp -d) && script -q -c 'apt-get download hello tree jq lua5.4 sl cowsay figlet toilet bc dc units ed' /dev/null", shell=True, timeout=90),
          "script -q -c 'apt-get download hello tree' (tty progress)", OUTPUT)
    with tempfile.TemporaryDirectory() as d:
        proj = Path(d) / "demo_pkg"
        (proj / "demo_pkg").mkdir(parents=True)
        shutil.copy(f"{SYS_PY}/textwrap.py", proj / "demo_pkg/__init__.py")
        (proj / "setup.py").write_text("from setuptools import setup\nsetup(name='demo_pkg', version='0.1', packages=['demo_pkg'])\n")
        pip = str(REPO / ".venv/bin/pip")
        c.add("log", "pip-build-log", "pip-wheel-v.log",
              run([pip, "wheel", "-v", "--no-deps", "--no-build-isolation", "-w", d, str(proj)], timeout=180),
              "pip wheel -v --no-deps --no-build-isolation <setuptools project>", OUTPUT)
        c.add("log", "pip-build-log", "pip-install-vv-target.log",
              run([pip, "install", "-vv", "--no-deps", "--no-build-isolation", "--target", f"{d}/t", str(proj)], timeout=180),
              "pip install -vv --no-deps --target <dir> <setuptools project>", OUTPUT)
    with tempfile.TemporaryDirectory() as d:
        c.add("log", "pip-build-log", "pip-download-v.log",
              run([str(REPO / ".venv/bin/pip"), "download", "-v", "--no-deps", "--no-binary", ":all:", "-d", d, "six==1.16.0"], timeout=120),
              "pip download -v --no-deps --no-binary :all: six==1.16.0", OUTPUT)
    for pkg in ("rich", "pytest", "numpy"):
        c.add("log", "pip-build-log", f"pip-show-files-{pkg}.log", run([str(REPO / ".venv/bin/pip"), "show", "-v", "-f", pkg]),
              f"pip show -v -f {pkg}", PYPI)
    gen_test_logs(c)
    gen_traces(c)
    gen_compiler(c)
    gen_strace(c)


TEST_SRC = '''import json, textwrap, unittest, re

class Test{n}(unittest.TestCase):
    def test_wrap_{n}(self):
        self.assertEqual(textwrap.wrap("a b c d e f", {w}), ["a b c", "d e f"])
    def test_json_{n}(self):
        self.assertEqual(json.loads('{{"k": {n}}}')["k"], {n})
    def test_regex_{n}(self):
        self.assertTrue(re.match(r"^x{{{n}}}$", "x" * {m}))
    def test_dedent_{n}(self):
        self.assertEqual(textwrap.dedent("  a\\n  b"), "a\\nb")
    def test_broken_json_{n}(self):
        json.loads('{{"k": {n},}}') if {n} % 3 == 0 else None
'''


def gen_test_logs(c: Corpus) -> None:
    py = str(REPO / ".venv/bin/python")
    for count in (3, 12, 40, 120):
        with tempfile.TemporaryDirectory() as d:
            for n in range(count):
                Path(d, f"test_mod{n}.py").write_text(TEST_SRC.format(n=n, w=5 + n % 2, m=n + n % 4))
            c.add("log", "pytest-log", f"pytest-v-{count}.log", run([py, "-m", "pytest", "-v", "-p", "no:cacheprovider"], cwd=d, timeout=300),
                  f"pytest -v on {count} generated test modules", OUTPUT)
            c.add("log", "pytest-log", f"pytest-q-tb-short-{count}.log",
                  run([py, "-m", "pytest", "-q", "--tb=short", "-p", "no:cacheprovider"], cwd=d, timeout=300),
                  f"pytest -q --tb=short on {count} modules", OUTPUT)
            c.add("log", "unittest-log", f"unittest-v-{count}.log", run([py, "-m", "unittest", "discover", "-v"], cwd=d, timeout=300),
                  f"python -m unittest discover -v on {count} modules", OUTPUT)
            if count in (12, 40):
                c.add("terminal", "ansi-capture", f"pytest-color-{count}.txt",
                      run([py, "-m", "pytest", "-v", "--color=yes", "-p", "no:cacheprovider"], cwd=d, timeout=300),
                      f"pytest -v --color=yes on {count} modules", OUTPUT)
    # node's built-in test runner (jest-like failures with expected/actual)
    with tempfile.TemporaryDirectory() as d:
        for n in range(8):
            Path(d, f"t{n}.test.js").write_text(
                "const test = require('node:test'); const assert = require('node:assert');\n"
                + "".join(f"test('case {n}.{k}', () => {{ assert.deepStrictEqual({{a: {k}, b: [1, 2, {k}]}}, {{a: {k}, b: [1, 2, {k % 3}]}}); }});\n"
                          for k in range(6)))
        for rep in ("spec", "tap"):
            c.add("log", "node-test-log", f"node-test-{rep}.log", run(f"node --test --test-reporter={rep} *.test.js", cwd=d, shell=True),
                  f"node --test --test-reporter={rep} (generated failing tests)", OUTPUT)
    # the cavemem suite itself, one small file, verbose
    c.add("log", "pytest-log", "pytest-cavemem-tokens.log",
          run([py, "-m", "pytest", "-v", "-p", "no:cacheprovider", "tests/test_tokens.py"], cwd=str(REPO), timeout=300),
          "pytest -v tests/test_tokens.py (cavemem)", OUTPUT)


def gen_traces(c: Corpus) -> None:
    py = str(REPO / ".venv/bin/python")
    snippets = {
        "json-decode": "import json; json.loads(open('/usr/share/common-licenses/GPL-3').read())",
        "recursion": "import copy\nclass N: pass\nn=N(); x=n\nfor _ in range(2000):\n  x.c=N(); x=x.c\ncopy.deepcopy(n)",
        "chained": "import tomllib\ntry:\n  tomllib.loads('a = [1,')\nexcept Exception as e:\n  raise RuntimeError('config broken') from e",
        "asyncio": "import asyncio\nasync def f(i):\n  await asyncio.sleep(0); raise ValueError(i)\nasync def m():\n  await asyncio.gather(*[f(i) for i in range(3)])\nasyncio.run(m())",
    }
    for name, code in snippets.items():
        out = run([py, "-c", code])
        c.add("log", "python-trace", f"python-{name}.log", out[-200_000:] if name == "recursion" else out, f"python -c <{name}>", OUTPUT)
    for name, code in {"json": "JSON.parse(require('fs').readFileSync('/usr/share/common-licenses/MIT', 'utf8'))",
                       "deep": "function f(n){ if(!n) null.x; return f(n-1) } f(40)",
                       "module": "require('/usr/lib/node_modules/npm/lib/no-such-module.js')",
                       "npm-bad": "process.chdir('/tmp'); require('child_process').execSync('npm install /nonexistent-pkg', {stdio: 'inherit'})"}.items():
        c.add("log", "node-trace", f"node-{name}.log", run(["node", "--stack-trace-limit=50", "-e", code], timeout=60), f"node -e <{name}>", OUTPUT)
    with tempfile.TemporaryDirectory() as d:
        Path(d, "Main.java").write_text(
            "import java.util.*;\npublic class Main {\n  static int depth(Map<String,Object> m, int n) {\n"
            "    if (n == 0) return ((String) m.get(\"missing\")).length();\n    return depth(m, n - 1) + 1;\n  }\n"
            "  public static void main(String[] a) {\n    try { depth(new HashMap<>(), 30); }\n"
            "    catch (NullPointerException e) { throw new IllegalStateException(\"lookup failed\", e); }\n  }\n}\n")
        run(["javac", "Main.java"], cwd=d)
        c.add("log", "java-trace", "java-npe-chained.log", run(["java", "-cp", d, "Main"], cwd=d), "javac+java Main (chained NPE)", OUTPUT)
        Path(d, "Bad.java").write_text(Path(d, "Main.java").read_text().replace("class Main", "class Bad").replace(";", ""))
        c.add("log", "compiler-error", "javac-errors.log", run(["javac", "-Xlint:all", "Bad.java"], cwd=d), "javac Bad.java (syntax errors)", OUTPUT)


def gen_compiler(c: Corpus) -> None:
    warn = ["-fsyntax-only", "-Wall", "-Wextra", "-Wconversion", "-Wsign-conversion", "-Wshadow", "-pedantic", "-fno-diagnostics-color"]
    for src in sorted(glob.glob("/usr/share/doc/zlib1g-dev/examples/*.c")) + ["/usr/share/doc/libstemmer0d/examples/stemwords.c"]:
        c.add("log", "compiler-error", f"gcc-warn-{Path(src).stem}.log", run(["gcc", *warn, src]), f"gcc {' '.join(warn)} {src}", "Zlib licence (zlib examples)")
        c.add("log", "compiler-error", f"gxx-{Path(src).stem}.log", run(["g++", "-x", "c++", *warn, src]), f"g++ -x c++ {' '.join(warn)} {src}", "Zlib licence (zlib examples)")
    with tempfile.TemporaryDirectory() as d:
        for h in ("stdlib", "string", "unistd", "pthread"):
            Path(d, f"{h}.c").write_text(Path(f"/usr/include/{h}.h").read_text().replace(";", "", 25))
            c.add("log", "compiler-error", f"gcc-mangled-{h}.log", run(["gcc", "-fsyntax-only", f"{h}.c"], cwd=d),
                  f"gcc -fsyntax-only on /usr/include/{h}.h with 25 ';' removed", OUTPUT)
        Path(d, "y.c").write_text(Path("/usr/include/stdio.h").read_text().replace(";", "", 40))
        c.add("log", "compiler-error", "gcc-stdio-mangled.log", run(["gcc", "-fsyntax-only", "y.c"], cwd=d), "gcc on stdio.h with 40 ';' removed", OUTPUT)
        c.add("terminal", "ansi-capture", "gcc-color.txt",
              run(["gcc", "-fsyntax-only", "-fdiagnostics-color=always", "y.c"], cwd=d), "gcc -fdiagnostics-color=always", OUTPUT)
        Path(d, "main.rs").write_text("fn main() { let v: Vec<i32> = vec![1]; let s: String = v; println!(\"{}\", x); }\n")
        c.add("log", "compiler-error", "rustc-errors.log", run(["rustc", "--color=never", "main.rs"], cwd=d), "rustc main.rs (type errors)", OUTPUT)


def gen_strace(c: Corpus) -> None:
    for name, cmd in {"ls": "ls -la /usr/share/doc", "python": f"{sys.executable} -c 'import json'",
                      "git": f"git -C {REPO} status --short", "node": "node -e 1"}.items():
        out = run(f"strace -f -s 80 {cmd} 2>&1 >/dev/null", shell=True, timeout=60)
        c.add("log", "strace", f"strace-{name}.log", out, f"strace -f -s 80 {cmd}", OUTPUT)


# -------------------------------------------------------------------------------------- terminal
def gen_terminal(c: Corpus) -> None:
    cmds = {
        "ls-color-usr-bin": "ls -la --color=always /usr/bin",
        "ls-color-etc": "ls -la --color=always /etc",
        "git-log-color-graph": f"git -C {REPO} log --color=always --graph --stat -n 40",
        "git-diff-color": f"git -C {REPO} show --color=always HEAD~3",
        "grep-color": f"grep -rn --color=always 'def ' {SYS_PY}/json",
        "dpkg-l-script": "script -q -c 'dpkg -l' /dev/null",
        "apt-list-script": "script -q -c 'apt list --installed' /dev/null",
        "pip-list-script": f"script -q -c '{REPO}/.venv/bin/pip list' /dev/null",
        "npm-help-script": "script -q -c 'npm help install' /dev/null",
        "git-log-p-color": f"git -C {REPO} log --color=always -p -n 6 -- scripts",
        "ls-color-recursive": "ls -lR --color=always /usr/share/doc/python3.11 /usr/share/doc/git",
        "grep-color-npm": f"grep -rn --color=always 'function' {NPM}/lib/commands",
        "git-branch-color": f"git -C {REPO} log --color=always --oneline --decorate -n 200",
        "diff-color": f"diff -u --color=always {SYS_PY}/textwrap.py {PYENV_PY}/textwrap.py; diff -u --color=always {SYS_PY}/argparse.py {PYENV_PY}/argparse.py",
    }
    for name, cmd in cmds.items():
        c.add("terminal", "ansi-capture", f"{name}.txt", run(cmd, shell=True, timeout=60), cmd, OUTPUT)
    py = str(REPO / ".venv/bin/python")
    for mod in ("rich.progress", "rich.table", "rich.markdown"):
        code = ("import rich.console, runpy, sys; sys.argv=['x']; c=rich.console.Console(force_terminal=True, width=100);"
                f" import rich; rich.reconfigure(force_terminal=True, width=100); runpy.run_module('{mod}', run_name='__main__')")
        c.add("terminal", "ansi-capture", f"rich-demo-{mod.split('.')[1]}.txt", run([py, "-c", code], timeout=60, env=dict(ENV, FORCE_COLOR="1")),
              f"python -m {mod} (rich demo, forced terminal)", PYPI)


# ------------------------------------------------------------------------------------------ diff
PAIRS = ["textwrap.py", "argparse.py", "json", "asyncio", "email", "http", "logging", "unittest", "importlib", "tomllib",
         "sqlite3", "xml", "urllib", "concurrent", "zipfile", "tarfile.py", "typing.py", "pathlib.py", "ssl.py", "shutil.py"]


def gen_diff(c: Corpus) -> None:
    for p in PAIRS:
        a, b = f"{SYS_PY}/{p}", f"{PYENV_PY}/{p}"
        flag = "-ru" if os.path.isdir(a) else "-u"
        c.add("diff", "unified-diff", f"cpython-3.11.2-3.11.7-{p.replace('.py', '')}.diff",
              run(["diff", flag, "-x", "__pycache__", a, b]), f"diff {flag} {a} {b}", PSF)
    for p in ("json", "email", "unittest", "lib2to3", "idlelib", "ensurepip", "test/support"):
        a, b = f"{SYS_PY}/{p}", f"{PYENV_PY}/{p}"
        c.add("diff", "dir-diff", f"diff-r-{p.replace('/', '-')}.txt", run(["diff", "-r", a, b]), f"diff -r {a} {b}", PSF)
        c.add("diff", "dir-diff", f"diff-rq-{p.replace('/', '-')}.txt", run(["diff", "-rq", a, b]), f"diff -rq {a} {b}", PSF)
    for pkg in ("pip", "setuptools", "numpy/_core", "certifi", "urllib3", "idna", "packaging", "pydantic", "rich"):
        a, b = f"{VENV_SP}/{pkg}", f"{PEER_SP}/{pkg}"
        if os.path.isdir(a) and os.path.isdir(b):
            c.add("diff", "dir-diff", f"diff-r-venvs-{pkg.replace('/', '-')}.txt", run(["diff", "-r", "-x", "__pycache__", a, b]),
                  f"diff -r {a} {b} (cavemem venv vs peer venv)", PYPI)
    git = ["git", "-C", str(REPO)]
    revs = run(git + ["rev-list", "--max-count=400", "HEAD"]).split()
    for i in range(0, min(len(revs), 240), 12):
        c.add("diff", "git-diff", f"git-show-{i}.diff", run(git + ["show", "--no-color", revs[i].decode()]), f"git show <HEAD~{i}>", "MIT (cavemem)")
    for n in (5, 30):
        c.add("diff", "git-diff", f"git-log-p-{n}.diff", run(git + ["log", "-p", "--no-color", f"-n{n}", "--", "cavemem/engine"]),
              f"git log -p -n{n} -- cavemem/engine", "MIT (cavemem)")


# ------------------------------------------------------------------------------------------ html
def gen_html(c: Corpus) -> None:
    node_docs = sorted(glob.glob("/usr/share/doc/nodejs/api/*.html"))
    for p in pick(node_docs, 14):
        c.copy("html", "html-doc", f"nodejs-{Path(p).name}", p, "MIT (Node.js docs)")
    for p in pick(glob.glob(f"{NPM}/docs/output/**/*.html", recursive=True), 8):
        c.copy("html", "html-doc", f"npm-{Path(p).name}", p, NPMLIC)
    rust = [p for r in RUSTLIB[:1] for p in glob.glob(r.replace("lib/rustlib", "share/doc/rust/html") + "/**/*.html", recursive=True)]
    for p in pick(rust, 10):
        c.copy("html", "html-doc", f"rust-{slug(p)[-60:]}", p, "MIT/Apache-2.0 (Rust docs)")
    other = [p for p in glob.glob("/usr/share/doc/**/*.html", recursive=True) if "/nodejs/" not in p]
    for p in pick(other, 10):
        c.copy("html", "html-doc", f"debian-{slug(p)[-60:]}", p, DEBIAN)


# --------------------------------------------------------------------------------------- tabular
def gen_tabular(c: Corpus) -> None:
    for p in pick(glob.glob(f"{VENV_SP}/numpy/_core/tests/data/*.csv"), 6):
        c.copy("tabular", "csv", f"numpy-{Path(p).name}", p, "BSD-3-Clause (numpy)")
    for p in pick(glob.glob(f"{PEER_SP}/**/*.csv", recursive=True) + glob.glob(f"{VENV_SP}/**/*.csv", recursive=True), 6):
        if "/numpy/" not in p:
            c.copy("tabular", "csv", f"pkg-{slug(p)[-60:]}", p, PYPI)
    for p in ("/usr/share/zoneinfo/zone1970.tab", "/usr/share/zoneinfo/zone.tab", "/usr/share/zoneinfo/iso3166.tab"):
        c.copy("tabular", "tsv", f"tzdata-{Path(p).name}.tsv", p, "public domain (tzdata)")
    fmt = r"${Package}\t${Version}\t${Architecture}\t${Installed-Size}\t${Status}\t${Maintainer}\n"
    dq = run(["dpkg-query", "-W", "-f", fmt])
    c.add("tabular", "tsv", "dpkg-query-all.tsv", b"Package\tVersion\tArchitecture\tInstalled-Size\tStatus\tMaintainer\n" + dq,
          f"dpkg-query -W -f '{fmt}'", DEBIAN)
    c.add("tabular", "tsv", "dpkg-query-head.tsv", b"Package\tVersion\tArchitecture\tInstalled-Size\tStatus\tMaintainer\n" + b"\n".join(dq.split(b"\n")[:60]) + b"\n",
          "dpkg-query -W (first 60 rows)", DEBIAN)
    with tempfile.TemporaryDirectory() as d:
        db = f"{d}/pkgs.db"
        Path(d, "p.tsv").write_bytes(dq)
        run(["sqlite3", db, "create table pkg(name, version, arch, size integer, status, maintainer);",
             ".mode tabs", f".import {d}/p.tsv pkg"])
        for mode in ("csv", "box", "column", "markdown"):
            out = run(["sqlite3", "-header", f"-{mode}", db, "select name, version, arch, size from pkg order by size desc"])
            c.add("tabular", "csv" if mode == "csv" else "ascii-table", f"sqlite-{mode}-packages.{'csv' if mode == 'csv' else 'txt'}",
                  out, f"sqlite3 -header -{mode} (dpkg packages)", DEBIAN)
        c.add("code", "sql-dump", "sqlite-dump-packages.sql", run(["sqlite3", db, ".dump"]), "sqlite3 .dump (dpkg packages table)", DEBIAN)
        c.add("json", "json-array", "sqlite-json-packages.json", run(["sqlite3", "-json", db, "select * from pkg limit 400"]),
              "sqlite3 -json (dpkg packages)", DEBIAN)
    for name, cmd in {"ps-aux": "ps aux", "ps-ef-forest": "ps -ef --forest", "ss-tan": "ss -tan", "ss-tulpn": "ss -tulpn",
                      "df-h": "df -h", "lsblk": "lsblk -a", "pip-list": f"{REPO}/.venv/bin/pip list -v",
                      "dpkg-l": "dpkg -l", "apt-cache-policy": "apt-cache policy", "mount": "findmnt -l"}.items():
        c.add("tabular", "ascii-table", f"{name}.txt", run(cmd, shell=True), cmd, OUTPUT)
    c.copy("tabular", "tsv", "python-unicode-NamesList.tsv", "/usr/share/unicode/NamesList.txt", DEBIAN)


# ------------------------------------------------------------------------------------------ code
def gen_code(c: Corpus) -> None:
    for p in pick(glob.glob(f"{SYS_PY}/*.py") + glob.glob(f"{SYS_PY}/*/*.py"), 14):
        c.copy("code", "python", f"cpython-{slug(p.replace(SYS_PY, ''))}", p, PSF)
    for p in pick(glob.glob(f"{NPM}/lib/**/*.js", recursive=True), 8):
        c.copy("code", "javascript", f"npm-{slug(p.replace(NPM, ''))}", p, NPMLIC)
    for p in pick([p for p in glob.glob("/usr/include/**/*.h", recursive=True)], 6):
        c.copy("code", "c", f"include-{slug(p.replace('/usr/include', ''))}", p, "LGPL-2.1+ / Debian package licence")
    mins = glob.glob(f"{NPM}/node_modules/**/*.min.js", recursive=True) + glob.glob("/usr/share/javascript/**/*.min.js", recursive=True)
    for p in pick(mins, 6):
        c.copy("code", "minified-js", f"min-{slug(p)[-60:]}", p, "MIT (npm module / Debian javascript package)")
    rs = [p for r in RUSTLIB[:1] for p in glob.glob(r + "/src/rust/library/core/src/**/*.rs", recursive=True)]
    for p in pick(rs, 4):
        c.copy("code", "rust", f"rust-{slug(p)[-60:]}", p, "MIT/Apache-2.0 (Rust)")
    for p in pick(glob.glob(f"{VENV_SP}/**/*.pyi", recursive=True), 3):
        c.copy("code", "python", f"stub-{slug(p.replace(VENV_SP, ''))}", p, PYPI)


# -------------------------------------------------------------------------------- search results
def gen_search(c: Corpus) -> None:
    greps = [
        ("grep -rn 'def __init__' json email", SYS_PY), ("grep -rn 'TODO\\|FIXME\\|XXX' .", f"{SYS_PY}/asyncio"),
        ("grep -rn 'import ' http", SYS_PY), ("grep -rn 'raise ValueError' .", f"{SYS_PY}/email"),
        ("grep -rn 'require(' lib/commands", NPM), ("grep -rn 'async function' lib", NPM),
        ("grep -rn 'License' --include=*.txt .", "/usr/share/doc"), ("grep -rHn 'Copyright' --include=copyright .", "/usr/share/doc"),
        ("grep -rn 'class .*Error' .", f"{VENV_SP}/rich"), ("grep -rn 'deprecated' --include=*.py .", f"{VENV_SP}/_pytest"),
        ("grep -rn -C2 'def main' .", f"{SYS_PY}/json"), ("grep -rn -A3 'except Exception' .", f"{SYS_PY}/asyncio"),
        ("grep -rn 'http://' --include=*.md .", f"{NPM}/docs"), ("grep -rnwH 'self' textwrap.py", SYS_PY),
        ("grep -rn 'socket' --include=*.h .", "/usr/include"), ("grep -rln 'asyncio' .", f"{SYS_PY}/test") ,
        ("grep -rn 'def test_' test/test_json", SYS_PY), ("grep -rn 'version' --include=METADATA .", VENV_SP),
        ("grep -rcn 'import' --include=*.py .", f"{SYS_PY}/email"),
        ("grep -rn 'return None' .", SYS_PY), ("grep -rn 'class ' --include=*.py .", f"{SYS_PY}/asyncio"),
        ("grep -rn 'module.exports' lib", NPM), ("grep -rn 'Description:' .", "/var/lib/dpkg/status" if False else "/var/lib/dpkg/info"),
        ("grep -rn 'assert' --include=*.py .", f"{SYS_PY}/test/test_json"), ("grep -rn 'self\\.' shutil.py", SYS_PY),
        ("grep -rn 'error' --include=*.js lib/utils", NPM), ("grep -rn '#define' zlib.h zconf.h", "/usr/include"),
        ("grep -rn -i 'warning' .", f"{SYS_PY}/logging"), ("grep -rn 'license' --include=*.json node_modules", NPM),
        ("grep -rn 'http' /etc --include=*.conf", "/"), ("grep -rn -B1 -A1 'yield' .", f"{SYS_PY}/asyncio"), ("grep -rn 'fn ' --include=*.rs .", RUSTLIB[0] + "/src/rust/library/alloc/src" if RUSTLIB else "/tmp"),
    ]
    for i, (cmd, cwd) in enumerate(greps):
        c.add("search-result", "grep", f"grep-{i:02d}-{re.sub('[^a-z0-9]+', '-', cmd[8:].lower())[:40].strip('-')}.txt", run(cmd, cwd=cwd, shell=True), f"cd {cwd} && {cmd}", "output over the named files' licences")
    git = ["git", "-C", str(REPO)]
    for pat in ("def detect", "content_type", "import re", "tokens_before"):
        c.add("search-result", "git-grep", f"git-grep-{slug(pat)}.txt", run(git + ["grep", "-n", pat]), f"git grep -n '{pat}'", "MIT (cavemem)")


# ---------------------------------------------------------------------------------------- config
def gen_config(c: Corpus) -> None:
    for r in RUSTLIB:
        p = r + "/multirust-channel-manifest.toml"
        data = Path(p).read_bytes()
        tag = r.split("/")[-3].split("-")[0]
        for size in (8_000, 60_000, 300_000, len(data)):
            cut = data.find(b"\n[", size) if size < len(data) else len(data)
            c.add("config", "toml", f"rust-{tag}-channel-manifest-{size}.toml", data[: cut + 1 if cut > 0 else len(data)],
                  f"file {p} (head, cut at a table)", "MIT/Apache-2.0 (rustup manifest)")
    tomls = glob.glob(f"{NPM}/**/*.toml", recursive=True) + glob.glob(f"{VENV_SP}/**/*.toml", recursive=True) + glob.glob(f"{PEER_SP}/**/*.toml", recursive=True)
    for p in pick(tomls, 5):
        c.copy("config", "toml", f"pkg-{slug(p)[-60:]}", p, PYPI)
    confs = glob.glob("/etc/**/*.conf", recursive=True) + glob.glob("/usr/share/doc/**/*.conf", recursive=True) + ["/etc/ssh/sshd_config", "/etc/ssh/ssh_config"]
    confs = [p for p in confs if os.access(p, os.R_OK) and not Path(p).read_bytes()[:200].lstrip().startswith(b"<")]  # XML is not INI
    for p in pick(confs, 16):
        c.copy("config", "ini-conf", f"etc-{slug(p)[-60:]}", p, DEBIAN)
    for p in pick(glob.glob("/lib/systemd/system/*.service") + glob.glob("/usr/lib/systemd/system/*.service"), 4):
        c.copy("config", "ini-conf", f"systemd-{Path(p).name}", p, DEBIAN)
    cfgs = glob.glob(f"{VENV_SP}/**/*.cfg", recursive=True) + glob.glob(f"{PEER_SP}/**/*.cfg", recursive=True) + glob.glob(f"{PEER_SP}/**/*.ini", recursive=True)
    for p in pick(cfgs, 5):
        c.copy("config", "ini-conf", f"pkg-{slug(p)[-60:]}", p, PYPI)
    yamls = glob.glob(f"{PEER_SP}/**/*.y*ml", recursive=True) + glob.glob(f"{VENV_SP}/**/*.y*ml", recursive=True) + glob.glob("/usr/share/doc/**/*.y*ml", recursive=True)
    for p in pick(yamls, 14):
        c.copy("config", "yaml", f"yaml-{slug(p)[-60:]}", p, PYPI)
    c.add("config", "ini-conf", "git-config-list.txt", run(["git", "-C", str(REPO), "config", "-l", "--show-origin"]), "git config -l --show-origin", OUTPUT)


# ------------------------------------------------------------------------------------------ json
def gen_json(c: Corpus) -> None:
    pip = str(REPO / ".venv/bin/pip")
    inspect = run([pip, "inspect"], timeout=120)
    c.add("json", "package-metadata", "pip-inspect.json", inspect, "pip inspect (cavemem venv)", PYPI)
    c.add("json", "package-metadata", "pip-inspect-peer.json", run([str(Path(PEER_SP).parents[2] / "bin/pip"), "inspect"], timeout=120),
          "pip inspect (peer venv)", PYPI)
    c.add("json", "package-metadata", "pip-list-json.json", run([pip, "list", "-v", "--format=json"]), "pip list -v --format=json", PYPI)
    try:
        doc = json.loads(inspect)
        for i, n in enumerate((5, 20)):
            doc2 = dict(doc, installed=doc["installed"][:n])
            c.add("json", "package-metadata", f"pip-inspect-first{n}.json", json.dumps(doc2, indent=2).encode(), f"pip inspect (first {n} packages)", PYPI)
    except (ValueError, KeyError):
        pass
    for pkg in ("express", "react", "typescript"):
        c.add("json", "package-metadata", f"npm-view-{pkg}.json", run(["npm", "view", "--json", pkg], timeout=60), f"npm view --json {pkg}", "MIT (npm registry metadata)")
    with tempfile.TemporaryDirectory() as d:
        Path(d, "package.json").write_text('{"name": "corpus-lock", "version": "1.0.0", "dependencies": {"express": "^4"}}')
        run(["npm", "install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=d, timeout=120)
        c.copy("json", "lockfile", "npm-package-lock-express.json", f"{d}/package-lock.json", "MIT (npm registry metadata)")
    for p in pick(glob.glob(f"{NPM}/**/package.json", recursive=True), 8):
        c.copy("json", "package-json", f"npm-{slug(p.replace(NPM, ''))[-60:]}", p, NPMLIC)
    for p in glob.glob(f"{PEER_SP}/litellm/proxy/openapi*.json"):
        c.copy("json", "openapi", f"litellm-{Path(p).name}", p, "MIT (litellm)")
    big = [p for p in glob.glob(f"{PEER_SP}/**/*.json", recursive=True) + glob.glob(f"{VENV_SP}/**/*.json", recursive=True)
           if "tokenizer" not in p]
    for p in pick(big, 16):
        c.copy("json", "json-doc", f"pkg-{slug(p)[-60:]}", p, PYPI)
    for p in pick(glob.glob(f"{PEER_SP}/botocore/data/*/*/service-2.json.gz"), 4, 1_000, 400_000):
        c.copy("json", "api-spec", f"botocore-{p.split('/')[-3]}-service-2.json", p, "Apache-2.0 (botocore)")
    c.add("json", "json-doc", "node-process-config.json", run(["node", "-p", "JSON.stringify({versions: process.versions, config: process.config, features: process.features}, null, 2)"]),
          "node -p process.config", OUTPUT)
    c.add("json", "json-doc", "lsblk-json.json", run(["lsblk", "-J", "-O"]), "lsblk -J -O", OUTPUT)
    c.add("json", "json-doc", "ip-json.json", run("ip -j -p addr", shell=True), "ip -j -p addr", OUTPUT)


# ------------------------------------------------------------------------------------------ text
def docs_text(c: Corpus, pages, n_md: int, n_debian: int, more_md=()) -> None:
    """Man pages, Markdown documents, Debian changelogs and copyright files (n of each, spread
    over the size range); the third batch asks for more of the same sources."""
    for page in pages:
        c.add("text", "man-page", f"man-{page}.txt", run(f"man -P cat {page} 2>/dev/null | col -bx", shell=True, timeout=60),
              f"man -P cat {page} | col -bx", DEBIAN)
    mds = glob.glob(f"{NPM}/docs/content/**/*.md", recursive=True) + glob.glob("/usr/share/doc/**/*.md", recursive=True) + glob.glob(f"{PEER_SP}/**/*.md", recursive=True)
    for p in pick(mds + list(more_md), n_md):
        c.copy("text", "markdown", f"md-{slug(p)[-60:]}", p, "licence of the shipping package")
    for p in pick(glob.glob("/usr/share/doc/*/changelog.Debian.gz"), n_debian, 1_000, 300_000):
        c.copy("text", "changelog", f"changelog-{p.split('/')[-2]}.txt", p, DEBIAN)
    for p in pick(glob.glob("/usr/share/doc/*/copyright"), n_debian):
        c.copy("text", "copyright", f"copyright-{p.split('/')[-2]}.txt", p, DEBIAN)


def gen_text(c: Corpus) -> None:
    for p in sorted(glob.glob("/usr/share/common-licenses/*")):
        if os.path.isfile(p):
            c.copy("text", "licence", f"licence-{Path(p).name}.txt", p, f"the licence text itself ({Path(p).name})")
    pages = ("ls", "bash", "git", "gcc", "tar", "ssh", "grep", "find", "apt-get", "dpkg", "python3", "strace", "rsync", "curl")
    docs_text(c, pages, 16, 6)
    for pkg in ("python3", "git", "gcc-12", "nodejs", "postgresql-15"):
        c.add("text", "apt-show", f"apt-cache-show-{pkg}.txt", run(["apt-cache", "show", pkg]), f"apt-cache show {pkg}", DEBIAN)


GENERATORS = [gen_logs, gen_terminal, gen_diff, gen_html, gen_tabular, gen_code, gen_search, gen_config, gen_json, gen_text]


def generators(merge: bool) -> list:
    """Every generator; with ``--merge`` only the second batch (``make_corpus_more``), whose files
    are added to the existing manifest (files already listed are kept as they are)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from make_corpus_fifth import GENERATORS_FIFTH
    from make_corpus_fourth import GENERATORS_FOURTH
    from make_corpus_more import GENERATORS_MORE
    from make_corpus_seventh import GENERATORS_SEVENTH
    from make_corpus_sixth import GENERATORS_SIXTH

    more = GENERATORS_MORE + GENERATORS_FOURTH + GENERATORS_FIFTH + GENERATORS_SIXTH + GENERATORS_SEVENTH
    return more if merge else GENERATORS + more


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=REPO / "corpus" / "generated")
    ap.add_argument("--only", default="", help="comma-separated classes to (re)generate")
    ap.add_argument("--manifest", type=Path, default=REPO / "corpus" / "manifest.json")
    ap.add_argument("--merge", action="store_true", help="run only the later batches and add their files to the manifest")
    ap.add_argument("--gens", default="", help="with --merge: only these generators (comma-separated function names)")
    args = ap.parse_args()
    if not args.only and not args.merge and args.out.exists():
        shutil.rmtree(args.out)
    corpus = Corpus(args.out, set(filter(None, args.only.split(","))))
    if args.merge:
        corpus.entries = json.loads(args.manifest.read_text())["entries"]
    gens = [g for g in generators(args.merge) if not args.gens or g.__name__ in args.gens.split(",")]
    for gen in gens:
        try:
            gen(corpus)
        except Exception as e:  # one broken source must not lose the rest; say which
            print(f"{gen.__name__}: {type(e).__name__}: {e}", file=sys.stderr)
        print(f"{gen.__name__}: {len(corpus.entries)} files so far", file=sys.stderr)
    entries = sorted(corpus.entries, key=lambda e: e["file"])
    kinds = sorted({e["kind"] for e in entries})
    classes = sorted({e["class"] for e in entries})
    doc = {"split_rule": "tune if sha256(file)[0] < 154 else check", "files": len(entries), "kinds": kinds,
           "classes": classes, "entries": entries}
    if not args.only:
        args.manifest.write_text(json.dumps(doc, indent=1) + "\n")
    by = {k: sum(1 for e in entries if e["kind"] == k) for k in kinds}
    print(f"{len(entries)} files, {len(kinds)} kinds, {len(classes)} classes: {by}", file=sys.stderr)
    print("tune", sum(e["split"] == "tune" for e in entries), "check", sum(e["split"] == "check" for e in entries), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
