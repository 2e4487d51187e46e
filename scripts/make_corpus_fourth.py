"""Corpus fourth batch (issue 9): config files of servers this machine does not run, more pip logs.

Why: the check split's config misses come from shapes the earlier batches barely sample (the
machine's own ``/etc`` is small). Debian ships each server's default configuration in its
package, so ``apt-get download`` + ``dpkg-deb -x`` of ~35 server packages gives real nginx, Apache,
Redis, HAProxy, Dovecot, fail2ban, BIND, nftables, … files without installing or running any of
them. Classes: ``nginx-conf`` (brace blocks of ``directive args;``), ``apache-conf`` (directives
in ``<Section>`` blocks: Apache, ProFTPD, collectd), ``directive-conf`` (one ``keyword args`` a
line, or brace blocks: Redis, Tor, rsyslog, Dovecot, BIND, nftables, keepalived, …), ``ini-conf``
(fail2ban, supervisor, MariaDB, Samba, Zabbix, OpenSSL), ``env-file`` (``/etc/default``),
``yaml`` (Prometheus); and ``pip-build-log`` (``pip install --dry-run -v`` of more requirement
sets: the ``Link requires a different Python`` lines). Nothing is written by hand.
"""

from __future__ import annotations

import tempfile

from make_corpus import OUTPUT, REPO, Corpus, run

SERVERS = ("nginx-common apache2 redis-server postfix samba-common logrotate rsyslog haproxy supervisor "
           "unattended-upgrades chrony fail2ban lighttpd mariadb-common tor avahi-daemon mosquitto bind9 exim4-config "
           "dovecot-core vsftpd cups-daemon ufw nftables openvpn smartmontools collectd-core zabbix-agent snmpd "
           "keepalived monit proftpd-core prometheus")

# class -> (globs inside the unpacked packages, how many to take), most specific first; a file
# goes to the first class whose glob names it
CONFIG_GROUPS: dict[str, tuple[tuple[str, ...], int]] = {
    "nginx-conf": (("etc/nginx/nginx.conf", "etc/nginx/sites-available/*", "etc/nginx/*params", "etc/nginx/fastcgi.conf"), 8),
    "apache-conf": (("etc/apache2/apache2.conf", "etc/apache2/*-available/*.conf", "usr/share/doc/proftpd-core/sample-configurations/*.conf",
                     "usr/share/collectd/*.conf", "etc/lighttpd/lighttpd.conf"), 14),
    "ini-conf": (("etc/fail2ban/*.conf", "etc/fail2ban/filter.d/*.conf", "etc/fail2ban/action.d/*.conf", "etc/supervisor/*.conf",
                  "usr/share/doc/supervisor/examples/*.conf", "etc/mysql/*.cnf", "etc/avahi/*.conf", "usr/share/doc/samba-common/examples/*",
                  "usr/share/zabbix-agent/*.conf", "etc/vsftpd.conf", "usr/share/doc/openvpn/examples/sample-keys/*.cnf"), 18),
    "directive-conf": (("etc/redis/redis.conf", "etc/tor/torrc", "etc/smartd.conf", "etc/snmp/*.conf", "usr/share/doc/chrony/examples/*",
                        "etc/haproxy/*.cfg", "etc/rsyslog.conf", "etc/monit/monitrc", "etc/cups/*.conf", "usr/share/doc/mosquitto/examples/*.conf",
                        "etc/logrotate.conf", "etc/logrotate.d/*", "etc/keepalived/*", "etc/exim4/conf.d/main/*", "usr/share/dovecot/conf.d/*",
                        "etc/bind/named.conf*", "usr/share/doc/nftables/examples/*.nft", "usr/share/doc/openvpn/examples/sample-config-files/*.conf",
                        "etc/apt/apt.conf.d/*"), 24),
    "env-file": (("etc/default/*",), 6),
    "yaml": (("etc/prometheus/*.yml",), 2),
}


SERVERS_MORE = ("squid postgresql-15 php8.2-common dnsmasq-base openssh-server unbound hostapd isc-dhcp-server lvm2 "
                "mdadm open-iscsi nfs-common rsync privoxy mpd pulseaudio nano wget i3-wm lightdm subversion screen "
                "sane-utils nut-server freeradius-config frr varnish apt-cacher-ng alsa-utils")
CONFIG_GROUPS_MORE: dict[str, tuple[tuple[str, ...], int]] = {
    "ini-conf": (("etc/lightdm/*.conf", "etc/subversion/*", "etc/freeradius/3.0/certs/*.cnf", "etc/xdg/autostart/*.desktop",
                  "usr/lib/php/*/php.ini-*", "etc/pulse/daemon.conf", "etc/iscsi/iscsid.conf", "etc/mdadm/*.conf"), 12),
    "directive-conf": (("etc/apt-cacher-ng/*.conf", "etc/screenrc", "etc/dhcp/dhcpd*.conf", "etc/lvm/*.conf", "etc/lvm/profile/*",
                        "etc/freeradius/3.0/*.conf", "etc/freeradius/3.0/mods-available/*", "etc/freeradius/3.0/sites-available/*",
                        "etc/nut/*.conf", "etc/squid/squid.conf", "usr/share/openssh/sshd_config", "usr/share/postgresql/*/*.sample",
                        "etc/mpd.conf", "etc/nanorc", "etc/wgetrc", "etc/unbound/*.conf", "usr/share/doc/hostapd/examples/*",
                        "etc/pulse/*.pa", "etc/sane.d/*.conf", "etc/i3/config", "etc/frr/*.conf", "etc/varnish/*"), 36),
}


def _unpacked_configs(c: Corpus, packages: str, groups: dict) -> None:
    """Each group's files from ``packages`` downloaded and unpacked into a temporary directory."""
    from make_corpus_fifth import unpacked_configs  # one unpacking for both batches; the fourth caps no glob

    unpacked_configs(c, packages, groups, per_pattern=None)


def gen_config_fourth(c: Corpus) -> None:
    """Default configuration files from Debian server packages, downloaded and unpacked (not installed)."""
    _unpacked_configs(c, SERVERS, CONFIG_GROUPS)
    _unpacked_configs(c, SERVERS_MORE, CONFIG_GROUPS_MORE)


def gen_logs_fourth(c: Corpus) -> None:
    """``pip install --dry-run -v`` of requirement sets the earlier batches did not resolve."""
    pip = str(REPO / ".venv/bin/pip")
    for reqs in ("requests", "black isort", "scipy", "jupyter", "pytest-cov tox", "boto3"):
        c.add("log", "pip-build-log", f"pip-install-dry-run-{reqs.split()[0]}.log",
              run([pip, "install", "--dry-run", "-v", "--ignore-installed", *reqs.split()], timeout=240),
              f"pip install --dry-run -v --ignore-installed {reqs}", OUTPUT)
    with tempfile.TemporaryDirectory() as d:
        for pkg in ("attrs", "idna"):
            c.add("log", "pip-build-log", f"pip-download-v-{pkg}.log",
                  run([pip, "download", "-v", "--no-deps", "-d", d, pkg], timeout=180), f"pip download -v --no-deps {pkg}", OUTPUT)


GENERATORS_FOURTH = [gen_config_fourth, gen_logs_fourth]
