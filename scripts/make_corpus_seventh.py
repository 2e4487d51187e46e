"""Corpus seventh batch (issue 9): the families whose check files routed worst, sampled wider.

Why: on the corpus regenerated on this machine the check split routed 395/418 files; the misses
fell in families tune held one to five files of: verbose and debug logs (``LD_DEBUG``,
``python -v``, ``gcc -v``, Python warnings, ``pytest -v``, ``node --test`` reporters,
``GIT_TRACE``), server configuration with directive and brace-block dialects, Kubernetes
manifests, ``pyproject.toml``, CMake and Perl modules, ``git grep -p`` output, CSV tables,
``--help`` texts and pydoc / pod2text documents. This batch adds more real files of each family
(only the family is taken from the check misses, never a file's content): runs of the same
programs on other inputs, the shipped configuration of ~40 more Debian packages (``apt-get
download`` + ``dpkg-deb -x``, nothing installed), ``pyproject.toml`` of PyPI sdists (``pip
download --no-deps --no-binary :all:``), shipped CMake / Perl modules and CSV files the corpus
does not hold yet. Same name-hash split. Nothing is written by hand.
"""

from __future__ import annotations

import glob
import os
import tarfile
import tempfile
from pathlib import Path

from make_corpus import DEBIAN, ENV, OUTPUT, PSF, PYPI, REPO, TEST_SRC, Corpus, pick, run, slug
from make_corpus_more import KUBECTL

PY311 = "/usr/bin/python3.11"
VPY = str(REPO / ".venv/bin/python")
SERVERS_SEVENTH = (
    "bind9 isc-dhcp-server lighttpd collectd-core rsyslog proftpd-core dovecot-core haproxy unbound chrony openvpn"
    " nftables mosquitto coturn fail2ban supervisor squid-common ngircd znc kea-dhcp4-server pdns-recursor ulogd2"
    " inspircd syslog-ng-core pure-ftpd-common vsftpd varnish slrn tin lynx elinks irssi fetchmail procmail msmtp"
    " isync rtorrent aria2 moc cmus"
)
_CONF_NAME = (".conf", ".cfg", ".ini", ".cf", "rc", ".config", ".options", ".local", ".default", ".sample", ".example")
_NOT_CONF = (".gz", ".md", ".rst", ".txt", ".html", ".xml", ".json", ".py", ".pl", ".pm", ".sh", ".lua", ".js", ".css",
             ".pem", ".crt", ".key", ".csv", ".so", ".png", ".svg", ".1", ".5", ".8")


def _listed(c: Corpus) -> set[str]:
    return {e["source"].split()[1] for e in c.entries if e["source"].startswith("file /")}


# ------------------------------------------------------------------------------------------ logs
def gen_logs_seventh(c: Corpus) -> None:
    """Verbose and debug logs of real program runs on inputs the earlier batches did not use."""
    for what, prog in (("bindings", "/usr/bin/sqlite3 -version"), ("reloc", "/usr/bin/curl --version"),
                       ("scopes", "/usr/bin/perl -e 1"), ("versions", "/usr/bin/gpg --version"),
                       ("statistics", "/usr/bin/ssh -V"), ("libs", "/usr/bin/curl --version"),
                       ("files", "/usr/bin/perl -e 1"), ("symbols", "/usr/bin/sqlite3 -version")):
        c.add("log", "ld-debug", f"ld-debug-{what}-{Path(prog.split()[0]).name}.log",
              run(prog.split(), env={**ENV, "LD_DEBUG": what}), f"LD_DEBUG={what} {prog}", OUTPUT)
    for mods in ("asyncio", "http.client, ssl", "sqlite3, csv, decimal", "unittest, logging.handlers"):
        c.add("log", "python-verbose", f"python-v-import-{mods.split(',')[0].replace('.', '-')}.log",
              run([PY311, "-v", "-c", f"import {mods}"]), f"python3.11 -v -c 'import {mods}'", PSF)
    srcs = sorted(glob.glob("/usr/share/doc/liblzma-dev/examples/*.c"))
    for i, (cc, flags) in enumerate((("gcc", "-v -O2 -c -o /dev/null"), ("gcc", "-v -o /dev/null -llzma"),
                                     ("gcc", "-v -E -o /dev/null"), ("g++", "-v -x c++ -c -o /dev/null"))):
        if srcs:
            src = srcs[i % len(srcs)]
            c.add("log", "compiler-verbose", f"{cc}-v-{i}-{Path(src).stem}.log", run([cc, *flags.split(), src]),
                  f"{cc} {flags} {src}", "public domain (liblzma examples)")
    warn = {
        "deprecation": "import warnings, datetime\nfor i in range(12): datetime.datetime.utcnow(); warnings.warn(f'old api {i}', DeprecationWarning)",
        "resource": "import gc\nfor i in range(15): open('/etc/hostname')\ngc.collect()",
        "syntax": "for i in range(10): compile(f'x{i} = \"\\\\d{i}\" is 1', f'<mod{i}>', 'exec')",
        "user": "import warnings\ndef f(i): warnings.warn(f'value {i} clipped to range', UserWarning, stacklevel=2)\nfor i in range(25): f(i)",
        "socket": "import socket, gc\nfor i in range(12): socket.socket()\ngc.collect()",
        "coroutine": "import asyncio\nasync def job(i): return i\nfor i in range(10): job(i)\nimport gc; gc.collect()",
        "runtime": "import warnings, numbers\nfor i in range(20): warnings.warn(f'overflow in step {i}', RuntimeWarning)",
        "popen": "import subprocess, gc\nfor i in range(8): subprocess.Popen(['true'])\ngc.collect()",
        "tempfile": "import tempfile, gc\ndef leak(i): return tempfile.TemporaryFile(prefix=f'chunk{i}')\nfor i in range(12): leak(i)\ngc.collect()",
        "pending": "import warnings\ndef old(i): warnings.warn(f'old() goes in 4.0, use new({i})', PendingDeprecationWarning, stacklevel=2)\n"
                   "for i in range(18): old(i)",
    }
    for name, code in warn.items():
        c.add("log", "python-trace", f"python-warnings-{name}.log", run([VPY, "-X", "dev", "-W", "always", "-c", code]),
              f"python -X dev -W always -c <{name} warnings>", OUTPUT)
    _test_logs_seventh(c)
    for cmd in ("log -p -2", "diff HEAD~3 --stat", "branch -a -v", "rev-list --count HEAD"):
        c.add("log", "git-trace", f"git-trace-{slug(cmd)[:24]}.log",
              run(["git", "-C", str(REPO), *cmd.split()], env={**ENV, "GIT_TRACE": "1", "GIT_TRACE_PERFORMANCE": "1",
                                                               "GIT_TRACE_SETUP": "1"}),
              f"GIT_TRACE=1 GIT_TRACE_PERFORMANCE=1 GIT_TRACE_SETUP=1 git {cmd}", OUTPUT)


def _test_logs_seventh(c: Corpus) -> None:
    """pytest and node --test on suites of other sizes and with other options."""
    for count, opts in ((6, "-vv --tb=long"), (30, "-v -rA --tb=line"), (80, "-v --tb=no -rfE"), (15, "--tb=long -l"),
                        (45, "-v --tb=long"), (10, "-q --tb=native")):
        with tempfile.TemporaryDirectory() as d:
            for n in range(count):
                Path(d, f"test_mod{n}.py").write_text(TEST_SRC.format(n=n, w=5 + n % 2, m=n + n % 4))
            c.add("log", "pytest-log", f"pytest-{slug(opts).replace('=', '')}-{count}.log",
                  run([VPY, "-m", "pytest", *opts.split(), "-p", "no:cacheprovider"], cwd=d, timeout=300),
                  f"pytest {opts} on {count} generated test modules", OUTPUT)
    for tests in ("tests/test_gocompat_blank.py", "tests/test_fastjson.py tests/test_gocsv_share.py", "tests/test_json_strings.py",
                  "tests/test_list_keyset.py", "tests/test_compressor_helpers.py", "tests/test_digest.py", "tests/test_layers.py",
                  "tests/test_log_fold.py"):
        c.add("log", "pytest-log", f"pytest-cavemem-{Path(tests.split()[0]).stem}.log",
              run([VPY, "-m", "pytest", "-v", "-p", "no:cacheprovider", *tests.split()], cwd=str(REPO), timeout=300),
              f"pytest -v {tests} (cavemem)", OUTPUT)
    with tempfile.TemporaryDirectory() as d:
        for n in range(5):
            Path(d, f"s{n}.test.js").write_text(
                "const test = require('node:test'); const assert = require('node:assert');\n"
                + "".join(f"test('parse {n}.{k}', async (t) => {{ await t.test('sub {k}', () => {{ "
                          f"assert.strictEqual(String({k} * {n}), '{k * n + (k % 2)}'); }}); }});\n" for k in range(5))
                + f"test('throws {n}', () => {{ assert.throws(() => JSON.parse('{{x'), SyntaxError); }});\n")
        for rep in ("tap", "spec", "dot"):
            c.add("log", "node-test-log", f"node-test-sub-{rep}.log", run(f"node --test --test-reporter={rep} *.test.js", cwd=d, shell=True),
                  f"node --test --test-reporter={rep} (generated subtests, some failing)", OUTPUT)
    with tempfile.TemporaryDirectory() as d:
        for n in range(4):
            Path(d, f"d{n}.test.js").write_text(
                "const { describe, it } = require('node:test'); const assert = require('node:assert');\n"
                f"describe('module {n}', () => {{\n"
                + "".join(f"  it('case {k}', {{ skip: {str(k == 3).lower()}, todo: {str(k == 4).lower()} }}, () => "
                          f"{{ assert.deepStrictEqual([{k}, {n}].map(String), ['{k}', '{n + k % 2}']); }});\n" for k in range(6))
                + "});\n")
        for rep in ("tap", "spec"):
            c.add("log", "node-test-log", f"node-test-describe-{rep}.log", run(f"node --test --test-reporter={rep} *.test.js", cwd=d, shell=True),
                  f"node --test --test-reporter={rep} (generated describe/it suites with skip and todo, some failing)", OUTPUT)


# ---------------------------------------------------------------------------------------- config
def _conf_class(data: bytes) -> str:
    """The family label (the kind is config either way): brace blocks, ``[section]`` heads or directives."""
    lines = [line.strip() for line in data.split(b"\n") if line.strip() and not line.lstrip().startswith((b"#", b";"))]
    if sum(line.endswith(b"{") for line in lines) >= 2:
        return "block-conf"
    if sum(line.startswith(b"[") and line.endswith(b"]") for line in lines) >= 2:
        return "ini-conf"
    return "directive-conf"


def _conf_paths(root: str) -> list[str]:
    found = glob.glob(root + "etc/**/*", recursive=True) + glob.glob(root + "usr/share/doc/*/examples/**/*", recursive=True)
    out = []
    for p in found:
        name = os.path.basename(p)
        if not os.path.isfile(p) or os.path.islink(p) or name.lower().endswith(_NOT_CONF) or "/init.d/" in p:
            continue
        if "/examples/" in p and not (name.endswith(_CONF_NAME) or "conf" in name):
            continue
        if "/logcheck/" in p or name.endswith(".vcl"):  # regex lists and VCL programs: not what a person calls a config
            continue
        head = Path(p).read_bytes()[:4096]
        if head[:2] == b"#!" or b"\0" in head or head.lstrip()[:1] == b"<":
            continue
        out.append(p)
    return out


def gen_config_seventh(c: Corpus) -> None:
    """Shipped configuration of ~40 more Debian packages (at most two files a package, spread over
    sizes), Kubernetes objects kubectl writes, ``pyproject.toml`` of PyPI sdists."""
    listed = _listed(c)
    with tempfile.TemporaryDirectory() as d:
        run(f"cd {d} && apt-get download {SERVERS_SEVENTH} 2>/dev/null", shell=True, timeout=900)
        for deb in sorted(glob.glob(f"{d}/*.deb")):
            root = f"{d}/x-{Path(deb).name.split('_')[0]}/"
            run(["dpkg-deb", "-x", deb, root])
            paths = [p for p in _conf_paths(root) if "/" + p[len(root):] not in listed]
            for p in pick(paths, 2):
                rel, data = p[len(root):], Path(p).read_bytes()
                c.add("config", _conf_class(data), f"deb7-{slug(rel)[-60:]}", data,
                      f"file /{rel} of its Debian package (apt-get download, dpkg-deb -x; not installed)", DEBIAN)
    _k8s_seventh(c)
    _pyproject_seventh(c)


def _k8s_seventh(c: Corpus) -> None:
    k8s = {
        "configmap-sshd": "create configmap sshd --from-file=/etc/ssh/sshd_config --from-file=/etc/login.defs",
        "configmap-pg-hba": "create configmap pghba --from-file=/usr/share/postgresql/15/pg_hba.conf.sample "
                            "--from-file=/usr/share/postgresql/15/pg_ident.conf.sample",
        "secret-bundle": "create secret generic bundle --from-file=/usr/share/common-licenses/Apache-2.0",
        "configmap-literal": "create configmap app " + " ".join(f"--from-literal=KEY_{i}=value-{i * 37}" for i in range(40)),
        "clusterrole": "create clusterrole reader --verb=get,list,watch --resource=pods,services,deployments,configmaps,secrets",
        "deployment-big": "create deployment api --image=ghcr.io/example/api:2.4.1 --replicas=5 --port=8080",
    }
    docs = {n: run(f"{KUBECTL} {a} --dry-run=client -o yaml 2>/dev/null", shell=True) for n, a in k8s.items()}
    for name, args in k8s.items():
        c.add("config", "k8s-yaml", f"kubectl7-{name}.yaml", docs[name], f"kubectl {args} --dry-run=client -o yaml", OUTPUT)
    small = ["clusterrole", "deployment-big", "configmap-literal"]
    c.add("config", "k8s-yaml", "kubectl7-manifest-" + "-".join(small) + ".yaml", b"---\n".join(docs[n] for n in small),
          "kubectl create " + " / ".join(small) + " --dry-run=client -o yaml, joined with ---", OUTPUT)


SDISTS = ("attrs==23.2.0", "hatchling==1.21.1", "black==24.2.0", "pydantic==2.6.3", "httpx==0.27.0", "ruff==0.3.0",
          "mypy==1.9.0", "scikit-build-core==0.8.2", "poetry-core==1.9.0", "maturin==1.5.0", "pdm-backend==2.1.8",
          "trove-classifiers==2024.3.3")


def _pyproject_seventh(c: Corpus) -> None:
    with tempfile.TemporaryDirectory() as d:
        for req in SDISTS:  # one at a time: an sdist whose metadata step fails must not lose the others
            run([VPY, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", "-d", d, req], timeout=300)
        for sd in sorted(glob.glob(f"{d}/*.tar.gz")):
            with tarfile.open(sd) as tf:
                members = [m for m in tf.getmembers() if m.isfile() and m.name.count("/") == 1 and m.name.endswith("pyproject.toml")]
                if members:
                    pkg = Path(sd).name[: -len(".tar.gz")]
                    c.add("config", "toml", f"pypi-{pkg}-pyproject.toml", tf.extractfile(members[0]).read(),
                          f"pyproject.toml of the {pkg} sdist (pip download --no-deps --no-binary :all:)", PYPI)


# ------------------------------------------------------------------------- code, search, tables, text
def gen_other_seventh(c: Corpus) -> None:
    """CMake and Perl modules, ``git grep -p`` / ``-W`` output, CSV tables, --help texts and documents."""
    listed = _listed(c)
    for cls, paths, n, lic in (("cmake", glob.glob("/usr/share/cmake-3.25/Modules/*.cmake"), 6, "BSD-3-Clause (CMake)"),
                               ("perl", glob.glob("/usr/share/perl/5.36/**/*.pm", recursive=True), 6, "Artistic / GPL (Perl)")):
        for p in pick([p for p in paths if p not in listed], n):
            c.copy("code", cls, f"{cls}7-{slug(p)[-60:]}", p, lic)
    git = ["git", "-C", str(REPO)]
    for flags, pat, where in (("-n -p", "raise ", "cavemem"), ("-n -p", "return None", "scripts"),
                              ("-n -W", "def is_", "cavemem/engine"), ("-n --show-function", "import ", "tests")):
        c.add("search-result", "git-grep", f"git-grep{slug(flags).replace('-', '')}-{slug(pat.strip())}-{slug(where)}.txt",
              run(git + ["grep", *flags.split(), pat, "--", where]), f"git grep {flags} '{pat}' -- {where}", "MIT (cavemem)")
    for p in ("/usr/share/distro-info/debian.csv", "/usr/share/distro-info/ubuntu.csv"):
        c.copy("tabular", "csv", f"distro-info-{Path(p).name}", p, DEBIAN)
    c.add("tabular", "csv", "dpkg-query-csv.csv",
          run(["dpkg-query", "-W", "-f=${Package},${Version},${Architecture},${Installed-Size},${Priority}\n"]),
          "dpkg-query -W -f='${Package},${Version},${Architecture},${Installed-Size},${Priority}\\n'", DEBIAN)
    c.add("tabular", "csv", "lscpu-p.csv", run(["lscpu", "-p=CPU,CORE,SOCKET,NODE,CACHE,ONLINE"]), "lscpu -p=...", OUTPUT)
    c.add("tabular", "csv", "sqlite-csv-pragma.csv",
          run(["sqlite3", "-csv", "-header", ":memory:", "select * from pragma_function_list order by name"]),
          "sqlite3 -csv -header :memory: 'select * from pragma_function_list'", OUTPUT)
    vsp = glob.glob(str(REPO / ".venv/lib/python3*/site-packages/**/*.csv"), recursive=True)
    for p in pick([p for p in vsp if p not in listed and "/numpy/" not in p], 3):
        c.copy("tabular", "csv", f"pkg7-{slug(p)[-60:]}", p, PYPI)
    for name, cmd in {"rsync": "rsync --help", "find": "find --help", "git-log-h": "git log -h", "ssh-keygen": "ssh-keygen --help",
                      "dpkg": "dpkg --help", "sed": "sed --help", "node-v8": "node --v8-options", "pip-install": f"{VPY} -m pip install --help",
                      "git-help-g": "git help -g", "apt-cache": "apt-cache --help"}.items():
        c.add("text", "help-text", f"help7-{name}.txt", run(cmd, shell=True, env={**ENV, "PAGER": "cat"}), cmd, OUTPUT)
    for mod in ("os.path", "itertools", "functools", "tarfile", "http.client"):
        c.add("text", "pod-text", f"pydoc7-{mod.replace('.', '-')}.txt", run([VPY, "-m", "pydoc", mod], env={**ENV, "PAGER": "cat"}),
              f"python -m pydoc {mod}", PSF)
    for mod in ("Data::Dumper", "Time::Local", "Scalar::Util", "File::Spec"):
        path = run(f"perldoc -l {mod} 2>/dev/null", shell=True).strip().decode()
        if path:
            c.add("text", "pod-text", f"pod7-{mod.replace('::', '-')}.txt", run(["pod2text", path]), f"pod2text {mod}", "Artistic / GPL (Perl)")


GENERATORS_SEVENTH = [gen_logs_seventh, gen_config_seventh, gen_other_seventh]
