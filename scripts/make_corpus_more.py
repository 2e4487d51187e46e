"""More corpus generators (issue 9, second batch): the kinds where detection is hardest.

Imported by ``scripts/make_corpus.py`` (``--merge`` adds these files to an existing corpus without
regenerating the rest). As there, nothing is written by hand: every file is a program's output on
this machine or a file shipped by an installed package (Debian, PyPI, npm, rustup, the Google
Cloud SDK and pyenv checkouts). Classes added: ``systemd-unit``, ``k8s-yaml``, ``ci-yaml``,
``schema-yaml``, ``toml-lock``, ``properties``, ``ini-conf`` (tox/pytest/mypy, ``npm config``),
``kv-dump``; ``make-log``, ``cmake-log``, ``npm-log``, ``klog``, ``alternatives-log``,
``pip-build-log``; ``ascii-table``, ``csv``/``tsv`` with other delimiters; ``grep``,
``git-grep`` (``--heading``); ``perl``, ``shell``, ``vimscript``, ``cmake``, ``tcl``, ``php``,
``sql``, ``go``, ``makefile``; ``rst``, ``readme``, ``news``, ``help-text``, ``pod-text``.
The third batch (``gen_*_third``) samples config, text and log sources wider (``env-file`` is new).
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import tempfile
from pathlib import Path

from make_corpus import DEBIAN, OUTPUT, PEER_SP, PSF, PYPI, REPO, VENV_SP, Corpus, docs_text, pick, run, slug

GCLOUD = "/usr/lib/google-cloud-sdk"
KUBECTL = f"{GCLOUD}/bin/kubectl"
PYENV = "/root/.pyenv"
APACHE = "Apache-2.0 (Google Cloud SDK and its bundled third-party packages; see their LICENSE files)"
MITPY = "MIT (pyenv)"
STRICT = "-std=c89 -pedantic -Wall -Wextra -Wconversion -Wsign-conversion -Wshadow -O2"


def _sh(cmd: str, cwd=None, timeout=120) -> bytes:
    return run(cmd, cwd=cwd, shell=True, timeout=timeout)


# ---------------------------------------------------------------------------------------- config
def gen_config_more(c: Corpus) -> None:
    units = glob.glob("/lib/systemd/system/*.socket") + glob.glob("/lib/systemd/system/*.timer")
    units += glob.glob("/lib/systemd/system/*.service")
    for p in pick(units, 8):
        c.copy("config", "systemd-unit", f"unit-{Path(p).name}", p, DEBIAN)
    k8s = {  # (arguments, the container command after ``--``)
        "deployment": ("create deployment web --image=nginx:1.25 --replicas=3 --port=80", ""),
        "job": ("create job migrate --image=python:3.11", "-- python -m app.migrate --all"),
        "cronjob": ("create cronjob backup --image=postgres:15 --schedule='0 3 * * *'", "-- pg_dumpall"),
        "configmap-ssh": ("create configmap ssh --from-file=/etc/ssh/ssh_config --from-file=/etc/adduser.conf", ""),
        "configmap-env": ("create configmap pg --from-file=/usr/share/postgresql/15/postgresql.conf.sample", ""),
        "secret-tls": ("create secret generic certs --from-file=/etc/ssl/certs/ca-certificates.crt", ""),
        "service": ("create service nodeport web --tcp=80:8080 --node-port=30080", ""),
        "ingress": ("create ingress web --rule='a.example.com/*=web:80' --rule='b.example.com/api*=api:8080,tls=b-cert'", ""),
        "quota": ("create quota q --hard=cpu=4,memory=8G,pods=20,services=5,secrets=10,configmaps=10", ""),
    }
    docs = {n: _sh(f"{KUBECTL} {a} --dry-run=client -o yaml {t} 2>/dev/null") for n, (a, t) in k8s.items()}
    for name, (args, tail) in k8s.items():
        c.add("config", "k8s-yaml", f"kubectl-{name}.yaml", docs[name], f"kubectl {args} --dry-run=client -o yaml {tail}", OUTPUT)
    small = [n for n in k8s if not n.startswith(("configmap", "secret"))]  # a manifest: several objects, one stream
    for names in (small, small[:4], small[4:]):
        c.add("config", "k8s-yaml", f"kubectl-manifest-{'-'.join(names)}.yaml", b"---\n".join(docs[n] for n in names),
              "kubectl create " + " / ".join(names) + " --dry-run=client -o yaml, joined with ---", OUTPUT)
    wf = glob.glob(f"{PYENV}/**/.github/workflows/*.y*ml", recursive=True) + glob.glob(f"{GCLOUD}/**/.github/workflows/*.y*ml", recursive=True)
    wf += glob.glob(f"{GCLOUD}/**/.travis.yml", recursive=True) + glob.glob(f"{PYENV}/**/.travis.yml", recursive=True)
    for p in pick(wf, 10):
        c.copy("config", "ci-yaml", f"ci-{slug(p)[-60:]}", p, APACHE if p.startswith(GCLOUD) else MITPY)
    schemas = glob.glob(f"{GCLOUD}/lib/googlecloudsdk/schemas/**/*.yaml", recursive=True)
    schemas += glob.glob(f"{GCLOUD}/lib/surface/**/*.yaml", recursive=True)
    for p in pick(schemas, 8):
        c.copy("config", "schema-yaml", f"gcloud-{slug(p)[-60:]}", p, APACHE)
    inis = glob.glob(f"{GCLOUD}/**/tox.ini", recursive=True) + glob.glob(f"{GCLOUD}/**/*.ini", recursive=True)
    inis += glob.glob(f"{PYENV}/versions/*/lib/python3*/test/libregrtest/mypy.ini")
    for p in pick(inis, 8):
        c.copy("config", "ini-conf", f"ini-{slug(p)[-60:]}", p, APACHE)
    props = glob.glob(f"{GCLOUD}/**/*.properties", recursive=True)
    for p in pick(props, 3):
        c.copy("config", "properties", f"props-{slug(p)[-60:]}", p, APACHE)
    c.add("config", "ini-conf", "npm-config-ls-l.txt", _sh("cd /tmp && npm config ls -l"), "npm config ls -l", OUTPUT)
    c.add("config", "kv-dump", "sysctl-a.txt", _sh("sysctl -a 2>/dev/null | sort"), "sysctl -a | sort", OUTPUT)
    c.add("config", "yaml", "kubectl-config-view.yaml", _sh(f"KUBECONFIG=/dev/null {KUBECTL} config view --raw -o yaml; "
                                                           f"{KUBECTL} create deployment api --image=python:3.11 --dry-run=client -o yaml"),
          "kubectl config view + kubectl create deployment --dry-run=client -o yaml", OUTPUT)
    with tempfile.TemporaryDirectory() as d:
        pip = str(REPO / ".venv/bin/pip")
        for reqs in ("rich", "requests pytest", "httpx pydantic"):
            out = f"{d}/pylock-{reqs.split()[0]}.toml"
            run([pip, "lock", *reqs.split(), "-o", out], timeout=180)
            c.copy("config", "toml-lock", f"pylock-{reqs.replace(' ', '-')}.toml", out, PYPI)


# ------------------------------------------------------------------------------------------ logs
def gen_logs_more(c: Corpus) -> None:
    with tempfile.TemporaryDirectory() as d:
        shutil.copytree("/usr/share/doc/liblzma-dev/examples", f"{d}/lzma")
        c.add("log", "make-log", "make-liblzma-examples.log", _sh(f"make -k CC=gcc CFLAGS='{STRICT}' 2>&1", cwd=f"{d}/lzma"),
              f"make -k CC=gcc CFLAGS='{STRICT}' in liblzma's shipped examples", "public domain (liblzma examples)")
        xs = "/usr/share/doc/libxmlsec1-dev/examples"
        if os.path.isdir(xs):
            shutil.copytree(xs, f"{d}/xmlsec")
            c.add("log", "make-log", "make-xmlsec-examples.log", _sh(f"make -k CC=gcc CFLAGS='{STRICT}' 2>&1", cwd=f"{d}/xmlsec", timeout=240),
                  f"make -k CC=gcc CFLAGS='{STRICT}' in libxmlsec1's shipped examples", "MIT (xmlsec examples)")
        proj = Path(d, "cm")
        proj.mkdir()
        for src in sorted(glob.glob("/usr/share/doc/zlib1g-dev/examples/*.c"))[:4]:
            shutil.copy(src, proj)
        names = " ".join(Path(p).name for p in sorted(proj.glob("*.c")))
        Path(proj, "CMakeLists.txt").write_text(
            "cmake_minimum_required(VERSION 3.16)\nproject(zex C)\nfind_package(ZLIB REQUIRED)\n"
            f"foreach(s {names})\n  get_filename_component(n ${{s}} NAME_WE)\n  add_executable(${{n}} ${{s}})\n"
            "  target_compile_options(${n} PRIVATE -Wall -Wextra -Wconversion)\n  target_link_libraries(${n} ZLIB::ZLIB)\nendforeach()\n")
        c.add("log", "cmake-log", "cmake-configure-build.log",
              _sh("cmake -S . -B build --debug-find-pkg=ZLIB 2>&1; cmake --build build -v -- -k 2>&1", cwd=str(proj), timeout=300),
              "cmake -S . -B build --debug-find-pkg=ZLIB; cmake --build build -v (zlib examples)", "Zlib licence (zlib examples)")
        Path(d, "npmp").mkdir()
        Path(d, "npmp/package.json").write_text('{"name": "corpus-npm", "version": "1.0.0", "dependencies": {"express": "^4", "chalk": "^5", "commander": "^12"}}')
        c.add("log", "npm-log", "npm-install-verbose.log",
              _sh("npm install --package-lock-only --ignore-scripts --no-audit --no-fund --loglevel silly 2>&1", cwd=f"{d}/npmp", timeout=180),
              "npm install --package-lock-only --loglevel silly (express, chalk, commander)", OUTPUT)
        c.add("log", "npm-log", "npm-install-missing.log",
              _sh("npm install --no-audit --no-fund --loglevel http no-such-package-cavemem-corpus-xyz 2>&1", cwd=f"{d}/npmp", timeout=120),
              "npm install <a package that does not exist> --loglevel http", OUTPUT)
    for v in (6, 8, 9):
        c.add("log", "klog", f"kubectl-get-pods-v{v}.log", _sh(f"KUBECONFIG=/dev/null {KUBECTL} get pods -A -v={v} --request-timeout=2s 2>&1", timeout=60),
              f"kubectl get pods -A -v={v} (no cluster)", OUTPUT)
    c.copy("log", "alternatives-log", "alternatives.log", "/var/log/alternatives.log", DEBIAN)
    pip = str(REPO / ".venv/bin/pip")
    for reqs in ("rich==13.7.1 httpx", "flask sqlalchemy"):
        c.add("log", "pip-build-log", f"pip-install-dry-run-{reqs.split()[0].split('=')[0]}.log",
              run([pip, "install", "--dry-run", "-v", "--ignore-installed", *reqs.split()], timeout=180),
              f"pip install --dry-run -v --ignore-installed {reqs}", OUTPUT)
    c.add("log", "tcl-trace", "tclsh-error.log", _sh("echo 'proc f {n} {if {$n == 0} {error \"bottom reached\"}; f [expr {$n-1}]}; f 30' | tclsh 2>&1"),
          "tclsh: a recursive proc that raises", OUTPUT)
    c.add("log", "perl-trace", "perl-confess.log", _sh("perl -MCarp -e 'sub f { my $n = shift; $n ? f($n-1) : Carp::confess(\"bottom\") } f(40)' 2>&1"),
          "perl -MCarp: confess from 40 frames", OUTPUT)


# --------------------------------------------------------------------------------------- tabular
def gen_tabular_more(c: Corpus) -> None:
    cmds = {
        "free-h": "free -h -w; free -b", "lscpu-e": "lscpu -e=CPU,NODE,SOCKET,CORE,CACHE,ONLINE,MAXMHZ,MINMHZ; lscpu -C",
        "df-i": "df -i -T", "ps-eo-rss": "ps -eo pid,ppid,user,%cpu,%mem,rss,vsz,stat,lstart,comm --sort=-rss",
        "netstat-tan": "netstat -tan", "vmstat": "vmstat -a -S M 1 3; vmstat -d",
        "column-passwd": "column -t -s: /etc/passwd", "column-group": "getent group | column -t -s:",
        "lsblk-f": "lsblk -f -o NAME,FSTYPE,SIZE,RO,TYPE,MOUNTPOINT",
        "dpkg-query-columns": "dpkg-query -W -f='${binary:Package;-40} ${Version;-32} ${Installed-Size;8} ${Priority}\\n' | head -n 500",
    }
    for name, cmd in cmds.items():
        c.add("tabular", "ascii-table", f"{name}.txt", _sh(cmd), cmd, OUTPUT)
    fmt = r"${Package}\t${Version}\t${Architecture}\t${Installed-Size}\t${Section}\t${Priority}\n"
    dq = _sh(f"dpkg-query -W -f '{fmt}' | head -n 700")
    with tempfile.TemporaryDirectory() as d:
        db = f"{d}/p.db"
        Path(d, "p.tsv").write_bytes(dq)
        run(["sqlite3", db, "create table pkg(name, version, arch, size integer, section, priority);", ".mode tabs", f".import {d}/p.tsv pkg"])
        q = "select name, version, size, section, priority from pkg order by section, size desc"
        for name, mode in {"semicolon.csv": ["-csv", "-separator", ";"], "pipe-list.txt": ["-list"], "tabs.tsv": ["-tabs"],
                           "table.txt": ["-table"], "qbox.txt": ["-qbox"]}.items():
            c.add("tabular", "csv" if name.endswith(".csv") else "tsv" if name.endswith(".tsv") else "ascii-table",
                  f"sqlite-{name}", run(["sqlite3", "-header", *mode, db, q]), f"sqlite3 -header {' '.join(mode)} (dpkg packages)", DEBIAN)
        c.add("tabular", "csv", "sqlite-sections-count.csv",
              run(["sqlite3", "-header", "-csv", db, "select section, count(*) n, sum(size) kb, min(name) first, max(name) last from pkg group by section"]),
              "sqlite3 -csv group by section (dpkg packages)", DEBIAN)
    c.add("tabular", "csv", "pip-list-freeze-csv.csv",
          _sh(f"{REPO}/.venv/bin/python -c \"import csv,sys,importlib.metadata as m; w=csv.writer(sys.stdout); w.writerow(['name','version','requires','summary'])"
              f"; [w.writerow([d.metadata['Name'], d.version, len(d.requires or []), d.metadata['Summary']]) for d in sorted(m.distributions(), key=lambda d: d.metadata['Name'].lower())]\""),
          "python: importlib.metadata distributions written by csv.writer", PYPI)


# ----------------------------------------------------------------------------------------- search
def gen_search_more(c: Corpus) -> None:
    git = f"git -C {REPO}"
    for pat in ("def ", "class ", "return None", "raise "):
        c.add("search-result", "git-grep", f"git-grep-heading-{slug(pat.strip()).replace(' ', '_')}.txt",
              _sh(f"{git} grep -n --heading --break -e '{pat}' -- cavemem"), f"git grep -n --heading --break '{pat}' -- cavemem", "MIT (cavemem)")
    c.add("search-result", "git-grep", "git-grep-p-except.txt", _sh(f"{git} grep -n -p 'except Exception' -- cavemem"),
          "git grep -n -p 'except Exception' -- cavemem (function context)", "MIT (cavemem)")
    greps = [("grep -rn 'sub new' --include=*.pm .", "/usr/share/perl/5.36"), ("grep -rn 'function!' --include=*.vim autoload", "/usr/share/vim/vim90"),
             ("grep -rn 'cmake_policy' --include=*.cmake .", "/usr/share/cmake-3.25/Modules"), ("grep -rn 'proc ' --include=*.tcl .", "/usr/share/tcltk"),
             ("grep -rn 'CREATE FUNCTION' .", "/usr/share/postgresql/15/extension"), ("grep -rn 'ExecStart=' .", "/lib/systemd/system"),
             ("grep -rnI 'http_proxy' .", "/etc"), ("grep -rn 'def test_' --include=*.py .", f"{VENV_SP}/pip/_vendor"),
             ("grep -rnE 'TODO|FIXME' --include=*.py .", f"{GCLOUD}/lib/googlecloudsdk/core")]
    for i, (cmd, cwd) in enumerate(greps):
        if os.path.isdir(cwd):
            c.add("search-result", "grep", f"grep2-{i:02d}-{re.sub('[^a-z0-9]+', '-', cmd[8:].lower())[:40].strip('-')}.txt",
                  _sh(cmd, cwd=cwd), f"cd {cwd} && {cmd}", "output over the named files' licences")


# ------------------------------------------------------------------------------------------ code
def gen_code_more(c: Corpus) -> None:
    langs = [
        ("perl", glob.glob("/usr/share/perl/5.36/**/*.pm", recursive=True), 5, "Artistic / GPL (Perl)"),
        ("shell", glob.glob(f"{PYENV}/libexec/*") + glob.glob(f"{PYENV}/plugins/*/bin/*") + glob.glob("/usr/share/**/*.sh", recursive=True), 5, MITPY),
        ("vimscript", glob.glob("/usr/share/vim/vim90/autoload/*.vim") + glob.glob("/usr/share/vim/vim90/ftplugin/*.vim"), 4, "Vim licence"),
        ("cmake", glob.glob("/usr/share/cmake-3.25/Modules/*.cmake"), 4, "BSD-3-Clause (CMake)"),
        ("tcl", glob.glob("/usr/share/tcltk/**/*.tcl", recursive=True), 3, "Tcl/Tk licence (BSD-style)"),
        ("php", glob.glob(f"{GCLOUD}/**/*.php", recursive=True) + glob.glob("/usr/share/**/*.php", recursive=True), 3, APACHE),
        ("sql", glob.glob("/usr/share/postgresql/15/extension/*.sql") + glob.glob("/usr/share/postgresql/15/*.sql"), 4, "PostgreSQL licence"),
        ("go", glob.glob("/usr/share/doc/git/contrib/**/*.go", recursive=True), 2, "GPL-2.0 (git contrib)"),
        ("makefile", glob.glob("/usr/share/doc/**/Makefile", recursive=True) + glob.glob(f"{PYENV}/**/Makefile", recursive=True), 3, DEBIAN),
        ("python", glob.glob(f"{GCLOUD}/lib/googlecloudsdk/core/**/*.py", recursive=True), 4, APACHE),
    ]
    for cls, paths, n, lic in langs:
        paths = [p for p in paths if os.path.isfile(p) and not p.endswith((".md", ".txt"))]
        for p in pick(paths, n):
            c.copy("code", cls, f"{cls}-{slug(p)[-60:]}", p, lic)


# ------------------------------------------------------------------------------------------ text
def gen_text_more(c: Corpus) -> None:
    rst = glob.glob(f"{GCLOUD}/**/*.rst", recursive=True) + glob.glob("/usr/share/doc/**/*.rst", recursive=True)
    for p in pick(rst, 8):
        c.copy("text", "rst", f"rst-{slug(p)[-60:]}", p, APACHE if p.startswith(GCLOUD) else DEBIAN)
    readmes = [p for p in glob.glob("/usr/share/doc/*/README*") if not p.endswith((".html", ".md"))]
    for p in pick(readmes, 6):
        c.copy("text", "readme", f"readme-{slug(p)[-60:]}", p, DEBIAN)
    for p in pick(glob.glob("/usr/share/doc/*/NEWS*"), 5, 1_000, 400_000):
        c.copy("text", "news", f"news-{p.split('/')[-2]}-{Path(p).name.replace('.gz', '')}.txt", p, DEBIAN)
    for name, cmd in {"gcc": "gcc --help=common", "git-help-a": "git help -a", "curl": "curl --help all", "tar": "tar --help",
                      "pip": f"{REPO}/.venv/bin/pip install --help", "npm": "cd /tmp && npm help-search install", "python": "python3 --help-all"}.items():
        c.add("text", "help-text", f"help-{name}.txt", _sh(f"{cmd} 2>&1"), cmd, OUTPUT)
    for mod in ("Getopt::Long", "File::Find", "Data::Dumper"):
        c.add("text", "pod-text", f"pod-{mod.replace('::', '-')}.txt", _sh(f"pod2text /usr/share/perl/5.36/{mod.replace('::', '/')}.pm"),
              f"pod2text {mod}", "Artistic / GPL (Perl)")
    for mod in ("json", "textwrap", "pathlib"):
        c.add("text", "pod-text", f"pydoc-{mod}.txt", run([str(REPO / ".venv/bin/python"), "-m", "pydoc", mod], env=dict(os.environ, PAGER="cat")),
              f"python -m pydoc {mod}", PSF)


# ------------------------------------------------------------------- third batch (issue 9, wider)
# More of the same sources, sampled wider (``pick`` spreads n files over the size range; names
# already in the corpus are skipped), plus new ones: ``/etc/default`` env files, more man pages,
# help texts, pydoc and pod2text pages, CPython's own unittest runs, more failing programs.
def gen_config_third(c: Corpus) -> None:
    confs = glob.glob("/etc/**/*.conf", recursive=True) + glob.glob("/usr/share/doc/**/*.conf", recursive=True)
    confs = [p for p in confs if os.access(p, os.R_OK) and not Path(p).read_bytes()[:200].lstrip().startswith(b"<")]
    for p in pick(confs, 40):
        c.copy("config", "ini-conf", f"etc-{slug(p)[-60:]}", p, DEBIAN)
    for p in pick([p for p in glob.glob("/etc/default/*") if os.access(p, os.R_OK)], 8, 300):
        c.copy("config", "env-file", f"etc-default-{Path(p).name}", p, DEBIAN)
    yamls = glob.glob(f"{PEER_SP}/**/*.y*ml", recursive=True) + glob.glob(f"{VENV_SP}/**/*.y*ml", recursive=True)
    yamls += glob.glob(f"{GCLOUD}/lib/googlecloudsdk/**/*.yaml", recursive=True)
    for p in pick(yamls, 40):
        c.copy("config", "yaml", f"yaml-{slug(p)[-60:]}", p, PYPI if not p.startswith(GCLOUD) else APACHE)
    tomls = glob.glob(f"{PEER_SP}/**/*.toml", recursive=True) + glob.glob(f"{VENV_SP}/**/*.toml", recursive=True)
    tomls += glob.glob(f"{GCLOUD}/**/*.toml", recursive=True) + glob.glob(f"{PYENV}/**/*.toml", recursive=True)
    for p in pick(tomls, 12, 600):
        c.copy("config", "toml", f"pkg-{slug(p)[-60:]}", p, PYPI)
    cfgs = glob.glob(f"{PEER_SP}/**/*.cfg", recursive=True) + glob.glob(f"{GCLOUD}/**/*.cfg", recursive=True)
    cfgs += glob.glob(f"{PYENV}/**/*.cfg", recursive=True) + glob.glob(f"{PYENV}/**/*.ini", recursive=True)
    for p in pick(cfgs, 14, 600):
        c.copy("config", "ini-conf", f"pkg-{slug(p)[-60:]}", p, PYPI)
    units = glob.glob("/lib/systemd/system/*.service") + glob.glob("/lib/systemd/system/*.socket")
    for p in pick(units, 20, 600):
        c.copy("config", "systemd-unit", f"unit-{Path(p).name}", p, DEBIAN)


def gen_text_third(c: Corpus) -> None:
    pages = ("make", "sed", "gawk", "ps", "less", "ssh-keygen", "systemctl", "perl", "node", "sqlite3", "cmake",
             "vim", "gzip", "xargs", "sort", "crontab", "sudo", "ip", "mount", "tmux")
    docs_text(c, pages, 40, 16, glob.glob(f"{GCLOUD}/**/*.md", recursive=True))
    readmes = [p for p in glob.glob("/usr/share/doc/*/README*") if not p.endswith((".html", ".md"))]
    for p in pick(readmes, 16):
        c.copy("text", "readme", f"readme-{slug(p)[-60:]}", p, DEBIAN)
    rst = glob.glob(f"{GCLOUD}/**/*.rst", recursive=True) + glob.glob("/usr/share/doc/**/*.rst", recursive=True)
    rst += glob.glob(f"{PEER_SP}/**/*.rst", recursive=True)
    for p in pick(rst, 20):
        c.copy("text", "rst", f"rst-{slug(p)[-60:]}", p, APACHE if p.startswith(GCLOUD) else DEBIAN)
    for name, cmd in {"ls": "ls --help", "grep": "grep --help", "git-commit": "git commit -h", "cmake": "cmake --help",
                      "node": "node --help", "sqlite3": "sqlite3 -help", "kubectl": f"{KUBECTL} --help",
                      "pytest": f"{REPO}/.venv/bin/python -m pytest --help", "rsync": "rsync --help", "apt-get": "apt-get --help"}.items():
        c.add("text", "help-text", f"help-{name}.txt", _sh(f"{cmd} 2>&1"), cmd, OUTPUT)
    for mod in ("File::Temp", "List::Util", "Carp", "Text::Wrap", "Pod::Usage"):
        path = _sh(f"perldoc -l {mod} 2>/dev/null").strip().decode() or f"/usr/share/perl/5.36/{mod.replace('::', '/')}.pm"
        c.add("text", "pod-text", f"pod-{mod.replace('::', '-')}.txt", _sh(f"pod2text {path}"), f"pod2text {mod}", "Artistic / GPL (Perl)")
    for mod in ("argparse", "subprocess", "csv", "collections", "shutil", "logging"):
        c.add("text", "pod-text", f"pydoc-{mod}.txt", run([str(REPO / ".venv/bin/python"), "-m", "pydoc", mod], env=dict(os.environ, PAGER="cat")),
              f"python -m pydoc {mod}", PSF)


def gen_logs_third(c: Corpus) -> None:
    py = f"{PYENV}/versions/3.11.7/bin/python3"
    for mod in ("test_textwrap", "test_json", "test_csv", "test_shlex", "test_fnmatch", "test_difflib"):
        c.add("log", "unittest-log", f"cpython-unittest-{mod}.log", run([py, "-m", "unittest", "-v", f"test.{mod}"], timeout=300),
              f"python3.11 -m unittest -v test.{mod} (pyenv CPython's own tests)", PSF)
    for pkgs in ("nginx", "redis-server", "openjdk-17-jdk-headless", "libreoffice-core", "docker.io"):
        c.add("log", "apt-log", f"apt-get-s-{pkgs.split()[0]}.log", _sh(f"apt-get -s install {pkgs} 2>&1"), f"apt-get -s install {pkgs}", OUTPUT)
    for cmd in ("ls -la /etc", "python3 -c pass", "git --version", "cat /etc/hostname"):
        c.add("log", "strace", f"strace-{slug(cmd)[:30]}.log", _sh(f"strace -f -tt {cmd} 2>&1 >/dev/null", timeout=60), f"strace -f -tt {cmd}", OUTPUT)
    snippets = {"keyerror": "d = {}\nfor i in range(5): d[i] = i\nprint(d[9])",
                "import": "import importlib\nimportlib.import_module('no_such_module_cavemem')",
                "unicode": "b'\\xff\\xfe'.decode('utf-8')",
                "warnings": "import warnings\nfor i in range(30): warnings.warn(f'deprecated call {i}', DeprecationWarning, stacklevel=1)"}
    for name, code in snippets.items():
        c.add("log", "python-trace", f"python-{name}.log", run([str(REPO / ".venv/bin/python"), "-W", "always", "-c", code]),
              f"python -c <{name}>", OUTPUT)
    pip = str(REPO / ".venv/bin/pip")
    for reqs in ("django", "numpy pandas", "fastapi uvicorn"):
        c.add("log", "pip-build-log", f"pip-install-dry-run-{reqs.split()[0]}.log",
              run([pip, "install", "--dry-run", "-v", "--ignore-installed", *reqs.split()], timeout=180),
              f"pip install --dry-run -v --ignore-installed {reqs}", OUTPUT)


GENERATORS_MORE = [gen_config_more, gen_logs_more, gen_tabular_more, gen_search_more, gen_code_more, gen_text_more,
                   gen_config_third, gen_text_third, gen_logs_third]
