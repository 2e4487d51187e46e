#!/usr/bin/env python3
"""Regenerate cavemem's own eval fixtures (``fixtures/``) from real tool output on this machine.

Every fixture is the captured output of a real command run here — pytest, gcc, pip, git, grep,
ls, lscpu, man, python's http.server — or a real file shipped by an installed package (docs,
licences, configs, sources). Nothing is synthesised. Each command is listed below (``SETUP`` and
``FIXTURES``) and written into ``fixtures/README.md`` with the file's source and licence.

    python scripts/make_fixtures.py            # regenerate fixtures/ and fixtures/README.md
    python scripts/make_fixtures.py --check    # verify only: sizes, detected types, manifest facts
    python scripts/make_fixtures.py --readme   # rewrite fixtures/README.md from the lists below

Outputs vary a little between machines and runs (timestamps, durations, installed versions), so
after regenerating run ``--check``: it confirms every fact the manifest grades still occurs in
its fixture and that every auto-detected fixture is still detected as the type its name claims.
Fixtures are capped at 50 KB; the scratch directory is ``/tmp/cavemem-fixtures-work``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "fixtures"
WORK = Path("/tmp/cavemem-fixtures-work")
MAX_BYTES = 50 * 1024

# Environment every command runs with: deterministic locale/timezone/width, the project venv's
# python as $PY, the stdlib test folder as $STDLIB_TEST.
PY = sys.executable

SETUP = [
    # two real releases of rich from the local package index, unpacked side by side
    "$PY -m pip download --quiet --no-deps --no-cache-dir -d wheels rich==13.9.4",
    "$PY -m pip download --quiet --no-deps --no-cache-dir -d wheels rich==15.0.0",
    "rm -rf rich-13.9.4 rich-15.0.0 && mkdir rich-13.9.4 rich-15.0.0",
    "cd rich-13.9.4 && $PY -m zipfile -e ../wheels/rich-13.9.4-py3-none-any.whl .",
    "cd rich-15.0.0 && $PY -m zipfile -e ../wheels/rich-15.0.0-py3-none-any.whl .",
    # a git repository holding the two releases as two commits (fixed author and dates)
    "rm -rf repo && git init -q repo && cp -r rich-13.9.4/rich repo/rich"
    " && git -C repo add -A && git -C repo commit -q -m 'rich 13.9.4'",
    "rm -rf repo/rich && cp -r rich-15.0.0/rich repo/rich && git -C repo add -A"
    " && GIT_AUTHOR_DATE='2026-01-02T10:00:00Z' GIT_COMMITTER_DATE='2026-01-02T10:00:00Z'"
    " git -C repo commit -q -m 'rich 15.0.0'",
    # zlib's example programs (Debian zlib1g-dev docs), copied so compiler paths are short
    "rm -rf examples && cp -r /usr/share/doc/zlib1g-dev/examples examples",
]


@dataclass
class Source:
    path: str  # relative to fixtures/
    command: str  # bash, run in WORK; stdout is the fixture
    source: str
    licence: str


FIXTURES = [
    # -- json ----------------------------------------------------------------------------------
    Source("json/pip-list-verbose.json", "$PY -m pip list --format json --verbose",
           "pip's package listing of the cavemem development venv", "generated data (package names/versions)"),
    Source("json/lscpu.json", "lscpu --json", "util-linux lscpu, this machine's CPU", "generated data"),
    Source("json/npm-package.json", "$PY -m json.tool /usr/lib/node_modules/npm/package.json",
           "npm's package.json (node npm 10/11 global install) pretty-printed by python -m json.tool",
           "Artistic-2.0 (npm)"),
    Source("json/pip-download-report.json",
           "$PY -m pip install --dry-run --quiet --ignore-installed --no-index --find-links wheels --report - rich==15.0.0"
           " --no-deps | $PY -c 'import json,sys; r=json.load(sys.stdin); m=r[\"install\"][0][\"metadata\"];"
           " m.pop(\"description\", None); json.dump(r, sys.stdout, indent=2)'",
           "pip's JSON installation report for rich 15.0.0 (its long README description field dropped for size)",
           "MIT (rich metadata)"),
    Source("json/pip-inspect-head.json",
           "$PY -m pip inspect 2>/dev/null | $PY -c 'import json,sys; r=json.load(sys.stdin);"
           " r[\"installed\"]=r[\"installed\"][:16];"
           " [p[\"metadata\"].pop(\"description\", None) for p in r[\"installed\"]];"
           " r[\"environment\"].pop(\"platform_version\", None); json.dump(r, sys.stdout, indent=2)'",
           "pip inspect of the cavemem venv: its first 16 installed packages, long README descriptions and the"
           " kernel build string dropped", "generated data (package metadata: each package's own licence)"),
    Source("json/node-process-versions.json", "node -p 'JSON.stringify(process.versions, null, 2)'",
           "node's process.versions object (no arrays: nothing to elide)", "generated data"),
    # -- terminal ------------------------------------------------------------------------------
    Source("terminal/pytest-textwrap-color.txt",
           "cd $STDLIB_TEST && $PY -m pytest --color=yes -v -p no:cacheprovider test_textwrap.py",
           "pytest (colour forced) running CPython's own test_textwrap.py", "PSF-2.0 (test names from CPython)"),
    Source("terminal/gcc-c89-enough.txt",
           "gcc -fdiagnostics-color=always -Wall -Wextra -pedantic -std=c89 -c examples/enough.c -o /dev/null 2>&1",
           "gcc 12 coloured diagnostics compiling zlib's examples/enough.c as strict C89", "zlib (source excerpts)"),
    Source("terminal/ls-color-long.txt",
           "ls --color=always -l --time-style=long-iso /usr/lib/node_modules/npm/lib/commands",
           "GNU ls with forced colours over npm's command modules", "generated listing"),
    Source("terminal/git-log-color-stat.txt", "git -C repo log --color=always --stat=100 -n 1",
           "git log --stat (colour forced) of the rich 13.9.4 -> 15.0.0 commit", "MIT (rich file names)"),
    Source("terminal/curl-progress-meter.txt",
           "$PY -m http.server --bind 127.0.0.1 --directory /opt/wheels 0 > curl-http.out 2>/dev/null & pid=$!;"
           " sleep 1; port=$(sed -n 's/.* port \\([0-9]*\\) .*/\\1/p' curl-http.out);"
           " curl --limit-rate 16M -o /dev/null http://127.0.0.1:$port/$(ls /opt/wheels | head -n 1 | sed 's/+/%2B/') 2>&1;"
           " kill $pid; wait $pid 2>/dev/null; true",
           "curl's carriage-return progress meter downloading a wheel from a loopback http.server at 16 MB/s",
           "generated output"),
    # -- diff ----------------------------------------------------------------------------------
    Source("diff/git-diff-rich-progress-function-context.diff",
           "git -C repo diff --function-context HEAD~1 HEAD -- rich/progress.py",
           "git diff -W of rich/progress.py between rich 13.9.4 and 15.0.0", "MIT (rich)"),
    Source("diff/git-diff-rich-console-U10.diff", "git -C repo diff -U10 HEAD~1 HEAD -- rich/console.py",
           "git diff -U10 of rich/console.py between rich 13.9.4 and 15.0.0", "MIT (rich)"),
    Source("diff/diff-u-lgpl-2-to-2.1.diff",
           "diff -u /usr/share/common-licenses/LGPL-2 /usr/share/common-licenses/LGPL-2.1; true",
           "diff -u between the LGPL 2.0 and 2.1 texts shipped by Debian base-files",
           "verbatim copying permitted (FSF licence texts)"),
    Source("diff/diff-ru-rich-markdown.diff",
           "diff -ruN -U8 rich-13.9.4/rich/markdown.py rich-15.0.0/rich/markdown.py; true",
           "diff -ruN -U8 of rich/markdown.py between rich 13.9.4 and 15.0.0", "MIT (rich)"),
    # -- html ----------------------------------------------------------------------------------
    Source("html/npm-ls.html", "cat /usr/lib/node_modules/npm/docs/output/commands/npm-ls.html",
           "npm's HTML documentation page for `npm ls`", "Artistic-2.0 (npm)"),
    Source("html/npm-scripts.html", "cat /usr/lib/node_modules/npm/docs/output/using-npm/scripts.html",
           "npm's HTML documentation page on package scripts", "Artistic-2.0 (npm)"),
    Source("html/libffi-closure-api.html", "cat /usr/share/doc/libffi8/html/The-Closure-API.html",
           "libffi's texinfo HTML manual, 'The Closure API'", "MIT (libffi)"),
    Source("html/zlib-how.html", "cat /usr/share/doc/zlib1g-dev/examples/zlib_how.html",
           "zlib's 'zlib Usage Example' HTML page", "zlib licence"),
    # -- tabular -------------------------------------------------------------------------------
    Source("tabular/dpkg-packages.csv",
           "(echo package,version,architecture,installed_kib,status;"
           " dpkg-query -W -f='${Package},${Version},${Architecture},${Installed-Size},${db:Status-Abbrev}\\n'"
           " | head -n 400)",
           "dpkg-query's package list of this machine as CSV (first 400 packages)", "generated data"),
    Source("tabular/iso3166-countries.tsv", "grep -v '^#' /usr/share/zoneinfo/iso3166.tab",
           "tzdata's ISO 3166 country table without its comment header", "public domain (tzdata)"),
    Source("tabular/undici-errors.md",
           "sed -n '10,30p' /usr/lib/node_modules/npm/node_modules/undici/docs/docs/api/Errors.md",
           "the error-code Markdown table of undici's API docs (bundled with npm)", "MIT (undici)"),
    Source("tabular/npm-trust-flags.md",
           "awk '/^\\|/{p=1; print; next} p{exit}' /usr/lib/node_modules/npm/docs/content/commands/npm-trust.md",
           "the flag table of npm's `npm trust` Markdown docs", "Artistic-2.0 (npm)"),
    # -- code ----------------------------------------------------------------------------------
    Source("code/textwrap.py", "cat $STDLIB/textwrap.py", "CPython 3.11 standard library textwrap.py", "PSF-2.0"),
    Source("code/zlib-zran.c", "cat examples/zran.c", "zlib's examples/zran.c (random access into gzip streams)",
           "zlib licence"),
    Source("code/zlib-gzlog.c", "cat examples/gzlog.c",
           "zlib's examples/gzlog.c: its `local` storage-class macro makes tree-sitter report parse errors, so the"
           " code compressor's parse gate must pass it through untouched", "zlib licence"),
    Source("code/npm-install-command.js", "cat /usr/lib/node_modules/npm/lib/commands/install.js",
           "npm's lib/commands/install.js", "Artistic-2.0 (npm)"),
    Source("code/rich-progress-bar.py", "cat rich-15.0.0/rich/progress_bar.py", "rich 15.0.0 progress_bar.py",
           "MIT (rich)"),
    # -- log -----------------------------------------------------------------------------------
    Source("log/pip-install.log",
           "rm -rf target pip.log"
           " && ($PY -m pip install --no-deps --no-index --find-links wheels --target target --log pip.log rich==13.9.4"
           " ; $PY -m pip install --no-deps --no-index --find-links wheels --target target --log pip.log rich==14.0.0"
           " ; $PY -m pip install --no-deps --no-index --find-links wheels --target target --upgrade --log pip.log"
           " rich==15.0.0) >/dev/null 2>&1; cat pip.log",
           "pip --log of three installs from a two-wheel folder (13.9.4 ok, 14.0.0 missing, 15.0.0 upgrade)",
           "generated log"),
    Source("log/dpkg-tail.log", "tail -n 300 /var/log/dpkg.log", "the last lines of this machine's dpkg log",
           "generated log"),
    Source("log/http-server-access.log",
           "$PY -m http.server --bind 127.0.0.1 --directory examples 0 > http.out 2> http.log & pid=$!;"
           " sleep 1; port=$(sed -n 's/.* port \\([0-9]*\\) .*/\\1/p' http.out);"
           " for round in 1 2 3 4 5 6; do for p in '' README.examples zpipe.c gzlog.c gzlog.h zran.c enough.c"
           " zran.h gun.c fitblk.c gzjoin.c gznorm.c zlib_how.html minigzip.c example.c infcover.c gzappend.c; do"
           " curl -s -o /dev/null http://127.0.0.1:$port/$p; done; done;"
           " for p in missing.c admin/ .env; do curl -s -o /dev/null http://127.0.0.1:$port/$p; done;"
           " for p in zpipe.c gzlog.c README.examples; do curl -s -o /dev/null http://127.0.0.1:$port/$p; done;"
           " kill $pid; wait $pid 2>/dev/null; sed 's/port [0-9]*/port PORT/; s/:[0-9]*\\//:PORT\\//' http.log",
           "python -m http.server's access log (loopback only): six polling rounds over zlib's examples,"
           " then three 404s, then three more hits", "generated log"),
    # -- search-result -------------------------------------------------------------------------
    Source("search-result/grep-license-fields.txt",
           "grep -rn '^License:' /usr/share/doc/*/copyright | head -n 300",
           "grep -rn over Debian copyright files for their License: fields", "generated (package licence names)"),
    Source("search-result/grep-npm-docs-token.txt",
           "grep -rn -i 'token' /usr/lib/node_modules/npm/docs/content",
           "grep -rn -i token over npm's Markdown docs", "Artistic-2.0 (npm docs excerpts)"),
    Source("search-result/grep-package-json-urls.txt",
           "grep -rnoE 'https://[^\"'\\'' )]+' /usr/lib/node_modules/npm/node_modules/*/package.json | head -n 260",
           "grep -o of https URLs in the package.json files of npm's bundled dependencies",
           "generated (URLs from MIT/ISC package metadata)"),
    # -- config --------------------------------------------------------------------------------
    Source("config/gcloud-compute-resources.yaml",
           "cat /usr/lib/google-cloud-sdk/lib/googlecloudsdk/command_lib/compute/resources.yaml",
           "Google Cloud SDK compute resource definitions", "Apache-2.0 (Google Cloud SDK)"),
    Source("config/gcloud-network-services-resources.yaml",
           "cat /usr/lib/google-cloud-sdk/lib/googlecloudsdk/command_lib/network_services/resources.yaml",
           "Google Cloud SDK network-services resource definitions", "Apache-2.0 (Google Cloud SDK)"),
    Source("config/systemd-networkd.service", "cat /lib/systemd/system/systemd-networkd.service",
           "systemd's systemd-networkd unit file (INI)", "LGPL-2.1+ (systemd)"),
    Source("config/systemd-logind.service", "cat /lib/systemd/system/systemd-logind.service",
           "systemd's systemd-logind unit file (INI)", "LGPL-2.1+ (systemd)"),
    Source("config/rust-channel-manifest.toml",
           "sed -n '1,/^\\[pkg.cargo.target.x86_64-unknown-netbsd\\]/p'"
           " \"$(rustc --print sysroot)/lib/rustlib/multirust-channel-manifest.toml\" | head -n -2",
           "the head (cargo targets) of rustup's stable channel manifest", "MIT OR Apache-2.0 (Rust release data)"),
    # -- text ----------------------------------------------------------------------------------
    Source("text/apache-2.0.txt", "cat /usr/share/common-licenses/Apache-2.0", "the Apache License 2.0 text",
           "verbatim copying permitted"),
    Source("text/mpl-2.0.txt", "cat /usr/share/common-licenses/MPL-2.0", "the Mozilla Public License 2.0 text",
           "verbatim copying permitted"),
    Source("text/npm-readme.md", "cat /usr/lib/node_modules/npm/README.md", "npm's README", "Artistic-2.0 (npm)"),
    Source("text/git-readme.md", "cat /usr/share/doc/git/README.md", "git's README (Debian git docs)", "GPL-2.0 (git)"),
    Source("text/rich-license.txt", "cat rich-15.0.0/rich-15.0.0.dist-info/licenses/LICENSE",
           "rich's MIT licence file (short: a genuine pass-through)", "MIT"),
    Source("text/debian-releases-ragged.csv", "cat /usr/share/distro-info/debian.csv",
           "Debian's distro-info release table: a ragged CSV (rows of 4, 6, 7 and 8 fields) that no strict"
           " table parser accepts, so it is plain text, and too short to compress: a genuine pass-through",
           "ISC (distro-info-data)"),
]


def _env() -> dict:
    import sysconfig

    env = dict(os.environ)
    stdlib = sysconfig.get_paths()["stdlib"]
    env.update(
        PY=PY,
        STDLIB=stdlib,
        STDLIB_TEST=os.path.join(stdlib, "test"),
        LC_ALL="C.UTF-8",
        TZ="UTC",
        COLUMNS="100",
        GIT_AUTHOR_NAME="fixtures",
        GIT_AUTHOR_EMAIL="fixtures@example.invalid",
        GIT_COMMITTER_NAME="fixtures",
        GIT_COMMITTER_EMAIL="fixtures@example.invalid",
        GIT_AUTHOR_DATE="2026-01-01T10:00:00Z",
        GIT_COMMITTER_DATE="2026-01-01T10:00:00Z",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        PYTHONDONTWRITEBYTECODE="1",
    )
    return env


def _run(command: str, env: dict, ok=(0, 1)) -> bytes:
    """stdout of ``command``; exit status 1 is accepted for fixtures (pytest, grep and diff use
    it for "found something"), setup steps must exit 0."""
    proc = subprocess.run(["bash", "-c", command], cwd=WORK, env=env, capture_output=True, timeout=300)
    if proc.returncode not in ok:
        raise SystemExit(f"command failed ({proc.returncode}): {command}\n{proc.stderr.decode(errors='replace')}")
    return proc.stdout


def _scrub(data: bytes) -> bytes:
    """Remove what identifies this machine: its hostname and the scratch path."""
    host = socket.gethostname().encode()
    if len(host) >= 4:
        data = data.replace(host, b"host")
    return data.replace(str(WORK).encode(), b"/tmp/work")


def generate() -> None:
    env = _env()
    WORK.mkdir(parents=True, exist_ok=True)
    for cmd in SETUP:
        _run(cmd, env, ok=(0,))
    for old in OUT.glob("*/*"):  # drop fixtures no longer listed
        if old.is_file():
            old.unlink()
    for src in FIXTURES:
        data = _scrub(_run(src.command, env))
        if not data.strip():
            raise SystemExit(f"{src.path}: command produced no output")
        if len(data) > MAX_BYTES:
            raise SystemExit(f"{src.path}: {len(data)} bytes exceeds {MAX_BYTES}")
        dest = OUT / src.path
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)
        print(f"{len(data):>6}  {src.path}")
    write_readme()


README_HEAD = """# cavemem's own eval fixtures

`cavemem evals run` (no `--fixtures`) runs this set; so does `caveman-engine evals run`. Every file
is **real output produced on a Debian 12 development machine** — a command's stdout, or a file an
installed package ships — captured by `scripts/make_fixtures.py`, which holds every command below.
Nothing is synthesised; files are capped at 50 KB; the machine's hostname and the scratch path are
scrubbed.

`manifest.yaml` grades each fixture on what an agent needs to keep: the facts (`contains`,
`recall_keys`, `probes`), that something was saved (`compressed`, `ratio_threshold` bands set to
what a good compressor should reach), and `byte_identical` for payloads that genuinely have nothing
to save. Names are `<expected content type>/<what it is>`; the tests check that every fixture
without a forced `type` is auto-detected as that type.

Payloads whose every unit is distinct — licence clauses, a package table where each row is a
different package, a dpkg log where each line names a different package — are kept whole by the
compressors' redundancy policy (a unit is dropped only when units like it stay visible), so they
are graded on their facts alone. `scripts/bench_compare.py` runs this set, the caveman engine's 17
reference fixtures, and the Headroom peer side by side.

Regenerate with `python scripts/make_fixtures.py`, then check with
`python scripts/make_fixtures.py --check` (sizes, detected types, every graded fact still present):
timestamps, durations and installed versions differ between machines, so a regenerated set may need
its manifest facts refreshed.

Setup commands (run in `/tmp/cavemem-fixtures-work`; `$PY` is the venv's python):

"""


def write_readme() -> None:
    lines = [README_HEAD]
    lines += [f"    {cmd}" for cmd in SETUP]
    lines += ["", "| file | command | source | licence |", "|---|---|---|---|"]
    for src in FIXTURES:
        cmd = src.command.replace("|", "\\|")
        lines.append(f"| `{src.path}` | `{cmd}` | {src.source} | {src.licence} |")
    lines.append("")
    (OUT / "README.md").write_text("\n".join(lines))


def check() -> int:
    """Sizes, detection of auto-typed fixtures, and every graded fact present in its file."""
    sys.path.insert(0, str(REPO))
    from cavemem.engine.detect import detect
    from cavemem.evals.manifest import parse_manifest

    manifest = parse_manifest((OUT / "manifest.yaml").read_bytes())
    problems = []
    listed = {fx.file for fx in manifest.fixtures}
    for src in FIXTURES:
        if src.path not in listed:
            problems.append(f"{src.path}: not in manifest.yaml")
    for fx in manifest.fixtures:
        path = OUT / fx.file
        if not path.is_file():
            problems.append(f"{fx.name}: missing file {fx.file}")
            continue
        data = path.read_bytes()
        if len(data) > MAX_BYTES:
            problems.append(f"{fx.name}: {len(data)} bytes > {MAX_BYTES}")
        expected = fx.name.split("/", 1)[0]
        if not fx.type and detect(data) != expected:
            problems.append(f"{fx.name}: detected as {detect(data)}, expected {expected}")
        facts = [p.value for p in fx.probes]
        for g in fx.graders:
            if g.type == "contains" and g.value:
                facts.append(g.value)
            if g.type == "recall_keys":
                facts += [str(v) for v in (g.options or {}).get("must_contain") or []]
        for fact in facts:
            if "caveman" not in fact and fact.encode() not in data:
                problems.append(f"{fx.name}: fact {fact!r} not in the fixture")
    for p in problems:
        print(p)
    print(f"{len(manifest.fixtures)} fixtures checked, {len(problems)} problems")
    return 1 if problems else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="verify the existing fixtures only")
    ap.add_argument("--readme", action="store_true", help="rewrite fixtures/README.md only")
    args = ap.parse_args()
    if args.check:
        return check()
    if args.readme:
        write_readme()
        return 0
    if shutil.which("git") is None:
        raise SystemExit("git is required")
    generate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
