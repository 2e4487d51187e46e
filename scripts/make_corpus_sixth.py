"""Corpus sixth batch (issue 9): the fifth batch's config families sampled wider, and a few more.

Why: after the fifth batch's rules the check split's new files still routed worst on config
(27/36), and each family had two files at most per source in tune. This batch takes the files
the fifth left behind in the same packages (none the corpus already holds) and adds the shipped
configuration of ~25 more packages of the same families: mutt / NeoMutt ``muttrc``s (``set`` /
``color`` directives), keepalived samples, Exim's ``conf.d`` routers, ACLs and transports,
Traffic Server ``records.config`` and friends, NUT, dnsmasq, Avahi, CUPS, monit, strongSwan
plugins, NTPsec, snmpd, mpd. Same classes, same name-hash split. Nothing is written by hand.
"""

from __future__ import annotations

from make_corpus import Corpus
from make_corpus_fifth import CONFIG_GROUPS_FIFTH, SERVERS_FIFTH, unpacked_configs

SERVERS_SIXTH = SERVERS_FIFTH + (
    " mutt neomutt keepalived exim4-config trafficserver nut-server dnsmasq avahi-daemon cups-daemon cups-browsed monit"
    " strongswan-charon strongswan-libcharon snmpd mpd frr lm-sensors opensmtpd"
)
_MORE: dict[str, tuple[str, ...]] = {
    "block-conf": ("usr/share/doc/keepalived/samples/keepalived.conf.*", "usr/share/strongswan/templates/config/plugins/*.conf",
                   "etc/icinga2/features-available/*.conf", "etc/icinga2/conf.d/*.conf", "etc/nagios4/objects/*.cfg",
                   "usr/share/bacula-common/defconfig/*.conf", "usr/share/doc/libreswan/examples/*.conf", "etc/xinetd.d/*",
                   "usr/share/icinga2/include/*.conf", "etc/monit/conf-available/*"),
    "directive-conf": ("etc/Muttrc", "etc/neomuttrc", "usr/share/doc/mutt/examples/*muttrc*", "usr/share/doc/neomutt/examples/*",
                       "usr/share/doc/neomutt/colorschemes/*", "etc/exim4/conf.d/*/*", "etc/trafficserver/*.config",
                       "etc/dnsmasq.conf", "etc/ntpsec/ntp.conf", "etc/snmp/snmpd.conf", "etc/mpd.conf", "etc/smtpd.conf",
                       "usr/share/cups/*.default", "etc/cups/cups-browsed.conf", "usr/share/spamassassin/*.cf",
                       "etc/spamassassin/*.pre", "etc/sensors3.conf", "etc/frr/*.conf", "usr/share/doc/clamav-*/examples/*.sample"),
    "ini-conf": ("etc/nut/*.conf", "etc/nut/upsd.users", "etc/avahi/avahi-daemon.conf", "usr/share/logwatch/default.conf/services/*.conf",
                 "usr/share/logwatch/default.conf/logfiles/*.conf", "usr/share/sssd/sssd.api.d/*.conf", "etc/tlp.d/*.conf"),
    "env-file": ("etc/default/*", "etc/frr/daemons"),
}
CONFIG_GROUPS_SIXTH: dict[str, tuple[tuple[str, ...], int]] = {
    cls: (CONFIG_GROUPS_FIFTH.get(cls, ((), 0))[0] + _MORE[cls], n)
    for cls, n in (("block-conf", 30), ("directive-conf", 34), ("ini-conf", 20), ("env-file", 4))
}


def gen_config_sixth(c: Corpus) -> None:
    """Shipped configuration the fifth batch left behind, and ~25 more packages' (downloaded, unpacked, not installed)."""
    unpacked_configs(c, SERVERS_SIXTH, CONFIG_GROUPS_SIXTH, skip_listed=True)


GENERATORS_SIXTH = [gen_config_sixth]
