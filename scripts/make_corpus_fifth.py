"""Corpus fifth batch (issue 9): more shipped configuration of the families detection missed, and
logs and tables of programs the earlier batches did not run.

Why: on the fourth batch's corpus the check split still routed 12 of 120 configs to ``text``, and
the families behind them (FreeRADIUS and LVM ``section { key = value }`` blocks under long comment
blocks, squid-style ``#  TAG:`` documentation around a few directives) had only a handful of files
in tune: detection fitted what tune contained. This batch widens tune with the same *families*
from ~75 other Debian server packages (``apt-get download`` + ``dpkg-deb -x``, nothing installed):
``block-conf`` (brace blocks: strongSwan, Bacula, ganglia, corosync, DRBD, conntrackd, Dante,
radvd, squidGuard, Nagios and Icinga objects, BIRD, Cyrus, xinetd, Kerberos), more
``directive-conf`` (munin, tinyproxy, NTP, OpenSSH client, sudoers, OpenDKIM, ClamAV,
SpamAssassin, apcupsd, c-icap, vnStat, memcached, Postfix ``master.cf``), more ``ini-conf``
(pgbouncer, SSSD, uWSGI, pgpool, logwatch, Postfix ``main.cf``, Zabbix, PowerDNS, TLP, Shorewall)
and ``env-file``; then logs (``ssh -vvv``, ``GIT_TRACE``, ``LD_DEBUG``, ``python -v``,
``compileall``, ``apt-get -s`` with resolver debugging, ``gcc -v``) and tables (``readelf``,
``nm``, ``git ls-tree -l``, ``ls -l``, ``python -X importtime``, ``cProfile``, ``strace -c``).
The split is the same name hash, so the check split grows too. Nothing is written by hand.
"""

from __future__ import annotations

import glob
import shutil
import tempfile

import os
from pathlib import Path

from make_corpus import DEBIAN, ENV, OUTPUT, PSF, PYENV_PY, REPO, Corpus, pick, run, slug

SERVERS_FIFTH = (
    "munin-node munin nagios4-common nagios4-core icinga2-common bacula-common bacula-director strongswan-starter "
    "strongswan-charon slapd krb5-config corosync conntrackd ntpsec sssd-common pgbouncer clamav-freshclam "
    "clamav-daemon spamassassin opendkim xinetd autofs auditd postfix sudo openssh-client knot nsd pdns-server radvd "
    "lldpd memcached pgpool2 apcupsd libreswan tinyproxy sysstat logwatch drbd-utils tlp uwsgi ganglia-monitor gmetad "
    "zabbix-server-pgsql nagios-nrpe-server shorewall bird2 ldirectord squidguard e2guardian c-icap dante-server "
    "minidlna samba amavisd-new cyrus-common vnstat"
)
# class -> (globs inside the unpacked packages, how many to take), most specific first
CONFIG_GROUPS_FIFTH: dict[str, tuple[tuple[str, ...], int]] = {
    "block-conf": (("usr/share/strongswan/templates/config/strongswan.d/*.conf", "usr/share/bacula-common/defconfig/*.conf",
                    "etc/ganglia/gmond.conf", "etc/corosync/corosync.conf", "etc/drbd.d/*.conf",
                    "usr/share/doc/drbd-utils/examples/*.example", "usr/share/doc/conntrackd/examples/*/conntrackd.conf",
                    "usr/share/doc/conntrackd/examples/sync/*/conntrackd.conf", "usr/share/doc/dante-server/examples/danted.conf",
                    "usr/share/doc/radvd/examples/*.example", "usr/share/doc/squidguard/examples/sample.conf",
                    "etc/squidguard/*.default", "etc/nagios4/objects/*.cfg", "usr/share/doc/nagios4-common/examples/template-object/*.cfg",
                    "etc/icinga2/conf.d/*.conf", "etc/icinga2/zones.conf", "usr/share/icinga2/include/plugins-contrib.d/*.conf",
                    "usr/share/bird2/bird.conf", "etc/cyrus.conf", "etc/xinetd.conf", "usr/share/doc/xinetd/examples/*.conf",
                    "usr/share/kerberos-configs/*.template", "usr/share/doc/libreswan/examples/*.conf",
                    "usr/share/doc/libreswan/ipsec.conf-sample", "etc/knot/knot.conf", "usr/share/doc/nsd/examples/*.sample"), 32),
    "directive-conf": (("etc/munin/munin-node.conf", "etc/munin/munin.conf", "usr/share/doc/tinyproxy/examples/tinyproxy.conf",
                        "etc/ntpsec/ntp.conf", "etc/ssh/ssh_config", "etc/sudoers", "usr/share/doc/sudo/examples/sudoers.dist",
                        "etc/sudo.conf", "etc/opendkim.conf", "usr/share/doc/opendkim/examples/opendkim.conf.sample",
                        "usr/share/doc/clamav-*/examples/*.sample", "etc/spamassassin/*.cf", "etc/spamassassin/*.pre",
                        "usr/share/spamassassin/*.cf", "etc/apcupsd/*.conf", "etc/c-icap/c-icap.conf", "etc/vnstat.conf",
                        "usr/share/memcached/memcached.conf.default", "usr/share/postfix/master.cf.dist",
                        "usr/share/doc/pgpool2/examples/pool_hba.conf.sample", "usr/share/doc/ldirectord/examples/ldirectord.cf",
                        "etc/audit/auditd.conf", "etc/sysstat/sysstat.ioconf", "etc/ganglia/gmetad.conf"), 30),
    "ini-conf": (("usr/share/doc/pgbouncer/examples/pgbouncer.ini", "usr/share/doc/sssd-common/examples/*.conf",
                  "usr/share/sssd/*.ini", "usr/share/sssd/sssd.api.conf", "usr/share/sssd/sssd.api.d/*.conf",
                  "usr/share/uwsgi/conf/default.ini", "etc/sudo_logsrvd.conf", "usr/share/autofs/conffiles/autofs.conf",
                  "usr/share/logwatch/default.conf/logwatch.conf", "usr/share/logwatch/default.conf/services/*.conf",
                  "usr/share/pgpool2/pgpool.conf", "etc/nagios/nrpe.cfg", "usr/share/postfix/main.cf.dist",
                  "usr/share/zabbix-server-pgsql/zabbix_server.conf", "etc/powerdns/pdns.conf", "etc/minidlna.conf",
                  "etc/e2guardian/e2guardian.conf", "usr/share/tlp/defaults.conf", "usr/share/shorewall/configfiles/shorewall.conf",
                  "etc/kamailio/kamctlrc"), 24),
    "env-file": (("etc/default/*",), 6),
}


PER_PATTERN = 2  # one package's many rule files (SpamAssassin, Icinga plugins) must not make a family of their own


def gen_config_fifth(c: Corpus) -> None:
    """Default configuration files of ~60 more Debian server packages, downloaded and unpacked
    (not installed); at most two files per glob, spread over its sizes, then n per class."""
    unpacked_configs(c, SERVERS_FIFTH, CONFIG_GROUPS_FIFTH)


def unpacked_configs(c: Corpus, packages: str, groups: dict, skip_listed: bool = False, per_pattern: int | None = PER_PATTERN) -> None:
    """Each group's files from ``packages`` (downloaded and unpacked in a temporary directory),
    at most ``per_pattern`` a glob (None: all, as the fourth batch took them); with
    ``skip_listed`` none the corpus already holds (by source path)."""
    listed = {e["source"].split()[1] for e in c.entries if e["source"].startswith("file /")} if skip_listed else set()
    with tempfile.TemporaryDirectory() as d:
        run(f"cd {d} && apt-get download {packages} 2>/dev/null", shell=True, timeout=600)
        for deb in sorted(glob.glob(f"{d}/*.deb")):
            run(["dpkg-deb", "-x", deb, f"{d}/x"])
        root = f"{d}/x/"
        taken: set[str] = set()
        for cls, (patterns, n) in groups.items():
            paths = []
            for pat in patterns:
                found = [p for p in glob.glob(root + pat) if p not in taken and os.path.isfile(p) and not os.path.islink(p)
                         and "/" + p[len(root):] not in listed
                         and not p.endswith((".gz", ".md", ".rst")) and Path(p).read_bytes()[:2] != b"#!"]
                paths += found if per_pattern is None else pick(found, per_pattern)
            for p in pick(paths, n):
                taken.add(p)
                rel = p[len(root):]
                c.add("config", cls, f"deb-{slug(rel)[-60:]}", Path(p).read_bytes(),
                      f"file /{rel} of its Debian package (apt-get download, dpkg-deb -x; not installed)", DEBIAN)


def _py(*args: str) -> list[str]:
    return [str(REPO / ".venv/bin/python"), *args]


def gen_logs_fifth(c: Corpus) -> None:
    """Debug and verbose logs of programs the earlier batches did not run."""
    env = dict(ENV)
    c.add("log", "ssh-debug-log", "ssh-vvv-refused.log",
          run(["ssh", "-vvv", "-o", "BatchMode=yes", "-o", "ConnectTimeout=3", "-p", "1", "nobody@127.0.0.1", "true"]),
          "ssh -vvv -p 1 nobody@127.0.0.1 (connection refused)", OUTPUT)
    for cmd in ("status", "log -3 --stat", "gc --auto"):
        c.add("log", "git-trace", f"git-trace-{cmd.split()[0]}.log",
              run(["git", "-C", str(REPO), *cmd.split()], env={**env, "GIT_TRACE": "1", "GIT_TRACE_PERFORMANCE": "1"}),
              f"GIT_TRACE=1 GIT_TRACE_PERFORMANCE=1 git {cmd}", OUTPUT)
    for what, prog in (("libs", "/usr/bin/git --version"), ("files", "/usr/bin/python3 -c pass"), ("symbols", "/bin/true")):
        c.add("log", "ld-debug", f"ld-debug-{what}.log", run(prog.split(), env={**env, "LD_DEBUG": what}),
              f"LD_DEBUG={what} {prog}", OUTPUT)
    c.add("log", "python-verbose", "python-v-import-json-email.log",
          run(["/usr/bin/python3.11", "-v", "-c", "import json, email.parser"]), "python3.11 -v -c 'import json, email.parser'", PSF)
    with tempfile.TemporaryDirectory() as d:
        shutil.copytree(f"{PYENV_PY}/email", f"{d}/email")
        c.add("log", "compileall-log", "compileall-f-email.log", run(["python3", "-m", "compileall", "-f", f"{d}/email"]),
              f"python3 -m compileall -f on a copy of {PYENV_PY}/email", PSF)
    for pkg in ("postgresql", "nginx"):
        c.add("log", "apt-log", f"apt-get-s-debug-{pkg}.log",
              run(["apt-get", "-s", "-o", "Debug::pkgProblemResolver=1", "-o", "Debug::pkgDepCache::AutoInstall=1",
                   "install", pkg], timeout=180),
              f"apt-get -s -o Debug::pkgProblemResolver=1 -o Debug::pkgDepCache::AutoInstall=1 install {pkg}", DEBIAN)
    zexample = sorted(glob.glob("/usr/share/doc/zlib1g-dev/examples/*.c")) or sorted(glob.glob("/usr/include/zlib.h"))
    if zexample:
        c.add("log", "compiler-verbose", "gcc-v-c.log", run(["gcc", "-v", "-c", "-o", "/dev/null", zexample[0]]),
              f"gcc -v -c {zexample[0]}", OUTPUT)


def gen_tables_fifth(c: Corpus) -> None:
    """Tables printed by binutils, git, ls and the Python profilers."""
    lib = (sorted(glob.glob("/usr/lib/x86_64-linux-gnu/libz.so.*.*")) or ["/usr/bin/git"])[0]
    for args, name in ((["readelf", "-S", "-W", "/usr/bin/git"], "readelf-S-git"), (["readelf", "-s", "-W", lib], "readelf-s-libz"),
                       (["readelf", "-d", "/usr/bin/python3"], "readelf-d-python3"), (["nm", "-S", "--size-sort", "-D", lib], "nm-S-libz"),
                       (["objdump", "-h", "/usr/bin/git"], "objdump-h-git")):
        c.add("tabular", "binutils-table", f"{name}.txt", run(args), " ".join(args), OUTPUT)
    c.add("tabular", "ascii-table", "git-ls-tree-r-l.txt", run(["git", "-C", str(REPO), "ls-tree", "-r", "-l", "HEAD"]),
          "git ls-tree -r -l HEAD (this repository)", OUTPUT)
    c.add("tabular", "ascii-table", "ls-l-usr-bin.txt", run(["ls", "-l", "--time-style=long-iso", "/usr/bin"]),
          "ls -l --time-style=long-iso /usr/bin", OUTPUT)
    c.add("tabular", "ascii-table", "ls-la-etc.txt", run(["ls", "-la", "--time-style=long-iso", "/etc"]),
          "ls -la --time-style=long-iso /etc", OUTPUT)
    c.add("tabular", "profile-table", "python-importtime-asyncio-email.txt",
          run(_py("-X", "importtime", "-c", "import asyncio, email.parser, json, http.client")),
          "python -X importtime -c 'import asyncio, email.parser, json, http.client' (stderr)", OUTPUT)
    with tempfile.TemporaryDirectory() as d:
        prof = f"import cProfile, pstats; cProfile.run('import email.parser, json, http.client', '{d}/p'); " \
               f"pstats.Stats('{d}/p').sort_stats('cumulative').print_stats(80)"
        c.add("tabular", "profile-table", "cprofile-import-email-json.txt", run(_py("-c", prof)),
              "cProfile.run of importing email.parser, json, http.client; pstats sorted by cumulative time", OUTPUT)
    c.add("tabular", "profile-table", "strace-c-python.txt",
          run(["strace", "-c", "-o", "/dev/stdout", *_py("-c", "import json, email")]),
          "strace -c python -c 'import json, email'", OUTPUT)


GENERATORS_FIFTH = [gen_config_fifth, gen_logs_fifth, gen_tables_fifth]
