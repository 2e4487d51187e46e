"""config compressor, structured stage: stanza families and comment blocks (config_stanzas.py).

The stage runs only where the spec's line-level stage keeps more than half the lines; the
verified §7.10 outputs are checked in test_config_compressor.py and stay unchanged."""

from __future__ import annotations

import hashlib
import time

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from cavemem.compressors.config import ConfigCompressor
from cavemem.compressors.config_stanzas import section_families, yaml_families
from cavemem.compressors.lineends import split_lines
from cavemem.engine.core import Engine
from cavemem.formats.configs import yaml_valid
from cavemem.store.ccr import open_ccr

c = ConfigCompressor()

TRIPLES = [
    "aarch64-apple-darwin", "aarch64-pc-windows-msvc", "aarch64-unknown-linux-gnu", "aarch64-unknown-linux-musl",
    "arm-unknown-linux-gnueabi", "armv7-unknown-linux-gnueabihf", "i686-pc-windows-gnu", "i686-pc-windows-msvc",
    "i686-unknown-linux-gnu", "loongarch64-unknown-linux-gnu", "powerpc-unknown-linux-gnu",
    "powerpc64le-unknown-linux-gnu", "riscv64gc-unknown-linux-gnu", "s390x-unknown-linux-gnu",
    "x86_64-apple-darwin", "x86_64-pc-windows-gnu", "x86_64-pc-windows-msvc", "x86_64-unknown-freebsd",
    "x86_64-unknown-linux-gnu", "x86_64-unknown-linux-musl",
]


def digest(s: str) -> str:
    return hashlib.sha256(s.encode()).hexdigest()


def channel_manifest() -> str:
    out = ['manifest-version = "2"', 'date = "2026-04-16"', "", "[pkg.cargo]", 'version = "0.96.0"', ""]
    for t in TRIPLES:
        out += [
            f"[pkg.cargo.target.{t}]",
            "available = true",
            f'url = "https://static.example.org/dist/cargo-1.95.0-{t}.tar.gz"',
            f'hash = "{digest(t)}"',
            f'xz_url = "https://static.example.org/dist/cargo-1.95.0-{t}.tar.xz"',
            f'xz_hash = "{digest(t + "xz")}"',
            "",
        ]
    return "\n".join(out)


def test_toml_tables_of_one_shape_keep_an_exemplar_and_name_the_rest():
    data = channel_manifest().encode()
    out = c.compress(data).decode()
    assert out.startswith('manifest-version = "2"\ndate = "2026-04-16"\n\n[pkg.cargo]\nversion = "0.96.0"\n\n')
    # the first table is shown whole, the other 19 become one marker naming every table in full
    first = "\n".join(channel_manifest().split("\n")[6:12])
    assert first in out
    marker = [line for line in out.split("\n") if "config lines elided (caveman)" in line]
    assert len(marker) == 1
    assert marker[0] == (
        "# … 132 config lines elided (caveman): 19 more [pkg.cargo.target.*] tables; all available=true; sections "
        + ", ".join(f"pkg.cargo.target.{t}" for t in TRIPLES[1:]) + " …"
    )
    for t in TRIPLES[1:]:
        assert f"[pkg.cargo.target.{t}]" not in out
    assert digest(TRIPLES[5]) not in out
    assert len(out) < len(data) // 3


def test_toml_query_keeps_the_asked_table_whole():
    out = c.compress_query(channel_manifest().encode(), "x86_64-unknown-linux-gnu").decode()
    t = "x86_64-unknown-linux-gnu"
    block = (
        f"[pkg.cargo.target.{t}]\navailable = true\n"
        f'url = "https://static.example.org/dist/cargo-1.95.0-{t}.tar.gz"\nhash = "{digest(t)}"\n'
    )
    assert block in out
    assert 'manifest-version = "2"' in out and "[pkg.cargo]\n" in out
    # only close matches are kept whole: a table sharing three of the four words is not
    assert "[pkg.cargo.target.aarch64-unknown-linux-gnu]" not in out
    assert "aarch64-unknown-linux-gnu" in out  # but it is named in a marker


def test_ini_family_marker_stays_a_comment():
    text = "".join(f"[server{i}]\nhost = node-{digest(str(i))[:8]}.example\nport = {8000 + i}\nweight = {i % 3}\n\n" for i in range(24))
    out = c.compress(text.encode()).decode()
    assert "[server0]\n" in out
    for line in out.split("\n"):
        assert line == "" or line.startswith("#") or line.startswith("[") or "=" in line
    assert "; sections server1, server2, server3, " in out


def gcloud_like() -> str:
    parts = [
        "project:\n  name: project\n  collection: cloud.projects\n  attributes:\n  - &project\n"
        "    parameter_name: project\n    help: The project name.\n    property: core/project\n",
        "region:\n  name: region\n  collection: compute.regions\n  attributes:\n  - &region\n"
        "    parameter_name: region\n    help: The region.\n    property: compute/region\n",
    ]
    for i, name in enumerate(["disk", "image", "instance", "network", "router", "snapshot", "subnet", "vpn_tunnel", "zone_op", "address"]):
        parts.append(
            f"{name}:\n  name: {name}\n  collection: compute.{name}s\n  attributes:\n  - *project\n  - *region\n"
            f"  - parameter_name: {name}Id\n    help: The {name} id {digest(name)[:10]}.\n"
        )
    return "\n".join(parts)


def test_yaml_sibling_blocks_elide_and_parse():
    data = gcloud_like().encode()
    out = c.compress(data).decode()
    assert yaml_valid(out)
    assert yaml.safe_load(out)["project"]["attributes"][0]["property"] == "core/project"
    assert "# … 99 config lines elided (caveman): 11 more sibling blocks; key: region, disk, image," in out
    assert len(out) < len(data) * 0.4


def test_yaml_shown_alias_keeps_its_anchor_block():
    out = c.compress_query(gcloud_like().encode(), "vpn_tunnel").decode()
    assert yaml_valid(out)
    parsed = yaml.safe_load(out)
    # vpn_tunnel aliases *project and *region: both anchors stay defined, so they resolve
    assert parsed["vpn_tunnel"]["attributes"][1]["property"] == "compute/region"
    assert parsed["region"]["collection"] == "compute.regions"
    assert "disk:" not in out


def test_yaml_query_picks_the_best_member():
    out = c.compress_query(gcloud_like().encode(), "vpn_tunnel collection").decode()
    assert "vpn_tunnel:\n  name: vpn_tunnel\n  collection: compute.vpn_tunnels\n" in out
    assert yaml_valid(out)


def items_yaml(n: int = 40, failed: int | None = 17) -> str:
    lines = ["workers:"]
    for i in range(n):
        state = "FAILED" if i == failed else "running"
        lines += [f"  - name: worker-{i:03d}", f"    image: registry.local/w@sha256:{digest(str(i))}", f"    state: {state}"]
    return "\n".join(lines) + "\n"


def test_yaml_list_items_are_named_and_alarms_survive():
    out = c.compress(items_yaml().encode()).decode()
    assert yaml_valid(out)
    assert "  - name: worker-000\n" in out
    assert "  - name: worker-017\n" in out and "    state: FAILED\n" in out  # alarm keeps its member
    markers = [line for line in out.split("\n") if "elided (caveman)" in line]
    assert any("name: worker-001, worker-002" in m for m in markers)
    assert any("all state=running" in m for m in markers)


def test_member_with_a_new_key_is_shown():
    text = items_yaml(failed=None).replace("  - name: worker-020\n", "  - name: worker-020\n    debug: true\n")
    out = c.compress(text.encode()).decode()
    assert "  - name: worker-020\n" in out and "    debug: true\n" in out


def test_two_line_items_are_data_rows_not_stanzas():
    lines = ["keywords:"]
    for i in range(60):
        lines += [f'  - keyword: "phrase number {digest(str(i))[:6]}"', '    severity: "high"']
    fams = yaml_families(lines)
    assert fams == []


def test_families_need_similar_shapes_and_one_varying_name_slot():
    toml = "\n".join(
        ["[tool.black]", "line-length = 100", "target = 'py311'", "[tool.isort]", "profile = 'black'", "known = 'x'",
         "[tool.mypy]", "strict = true", "files = 'src'", "[tool.ruff]", "select = 'E'", "fix = true"]
    )
    assert section_families(toml.split("\n")) == []
    mixed = "\n".join(f"[a.{i}.b]\nx = {i}\ny = 2\n" if i % 2 else f"[a.b.{i}]\nx = {i}\ny = 2\n" for i in range(8))
    assert section_families(mixed.split("\n")) == []


UNIT = """#  SPDX-License-Identifier: LGPL-2.1-or-later
#
#  This file is part of systemd.
#
#  systemd is free software; you can redistribute it and/or modify it
#  under the terms of the GNU Lesser General Public License as published by
#  the Free Software Foundation; either version 2.1 of the License, or
#  (at your option) any later version.

[Unit]
Description=Network Configuration
Documentation=man:systemd-networkd.service(8)
# systemd-udevd.service can be dropped once tuntap is moved to netlink
After=systemd-networkd.socket systemd-udevd.service network-pre.target

[Service]
ExecStart=!!/lib/systemd/systemd-networkd
ExecReload=networkctl reload
LockPersonality=yes
ProtectSystem=strict

# We want to enable systemd-networkd-wait-online.service whenever this service
# is enabled. systemd-networkd-wait-online.service has
# WantedBy=network-online.target, so enabling it only has an effect if
# network-online.target itself is enabled or pulled in by some other unit.

#Restart=on-failure
#RestartSec=0

[Install]
WantedBy=multi-user.target
"""


def test_comment_blocks_become_one_marker_doc_comments_stay():
    out = c.compress_query(UNIT.encode(), "ExecStart").decode()
    assert out.startswith("# … 9 comment lines elided (caveman) …\n[Unit]\n")
    assert "# systemd-udevd.service can be dropped once tuntap is moved to netlink\n" in out
    assert "ExecStart=!!/lib/systemd/systemd-networkd\n" in out
    assert "ProtectSystem=strict\n\n# … 8 comment lines elided (caveman) …\n[Install]\nWantedBy=multi-user.target\n" in out
    assert "GNU Lesser General Public License" not in out
    assert c.compress(out.encode()) is None  # re-entry: a marked file is not compressed again


def test_query_relevant_comment_line_survives():
    out = c.compress_query(UNIT.encode(), "RestartSec").decode()
    assert "#RestartSec=0\n" in out


def test_doc_comment_goes_with_an_elided_stanza():
    blocks = []
    for i in range(12):
        blocks.append(f"# settings for shard {i}\n[shard.{i}]\nhost = h{digest(str(i))[:6]}\nport = {9000 + i}\nrole = replica\n")
    out = c.compress("\n".join(blocks).encode()).decode()
    assert "# settings for shard 0\n[shard.0]\n" in out
    assert "# settings for shard 5" not in out


def test_marker_that_costs_more_than_it_hides_is_not_used():
    # four tiny blocks: a family marker would be longer than half of what it hides
    text = "".join(f"k{i}:\n  a: {i}\n  b: {i}\n" for i in range(4)) + "".join(f"z{i}: {digest(str(i))}\n" for i in range(12))
    out = c.compress(text.encode())
    if out is not None:
        assert "more sibling blocks" not in out.decode()


def test_engine_round_trip_and_cli_query(run_cli):
    data = channel_manifest().encode()
    eng = Engine(store=open_ccr(":memory:"))
    res = eng.compress(data, query="x86_64-unknown-linux-gnu")
    assert res.content_type == "config"
    assert res.ratio > 0.5
    assert eng.retrieve(res.recovery_handle) == data
    r = run_cli("cavemem", "compress", "--query", "x86_64-unknown-linux-gnu", input=data)
    assert r.rc == 0
    assert b"[pkg.cargo.target.x86_64-unknown-linux-gnu]\n" in r.stdout
    assert r.report["content_type"] == "config"


def test_crlf_is_kept_for_markers():
    data = UNIT.replace("\n", "\r\n").encode()
    out = c.compress(data)
    assert out is not None
    assert b"# \xe2\x80\xa6 9 comment lines elided (caveman) \xe2\x80\xa6\r\n[Unit]\r\n" in out
    assert out.count(b"\n") == out.count(b"\r\n")


def _h(i: int) -> str:
    return digest(str(i))


@pytest.mark.parametrize(
    "payload",
    [
        "".join(f"[pkg.t.target.{_h(i)[:12]}]\nurl = \"https://x/{_h(i)}\"\nhash = \"{_h(i + 1)}\"\n\n" for i in range(25_000)),
        "root:\n" + "".join(f"  k{_h(i)[:10]}:\n    url: https://x/{_h(i)}\n    hash: {_h(i + 7)}\n" for i in range(33_000)),
        "items:\n" + "".join(f"- name: {_h(i)[:10]}\n  url: https://x/{_h(i)}\n  hash: {_h(i + 7)}\n" for i in range(33_000)),
        # a chain of anchors: every block aliases the previous one
        "base:\n  b0:\n    a: &a0 x\n    x: 1\n    y: 2\n"
        + "".join(f"  b{i}:\n    a: &a{i} {_h(i)}\n    x: {_h(i + 1)}\n    y: *a{i - 1}\n" for i in range(1, 20_000)),
        "".join(f"# comment {_h(i)}\n" for i in range(100_000)) + "".join(f"k{i}: v\n" for i in range(10)),
        "[a]\n" + "".join(f"; c {_h(i)}\nk{i} = {_h(i)}\n" for i in range(50_000)) + "[b]\nx = 1\n",
        "root:\n" + "".join(" " * (2 * i) + f"  k{i}:\n" for i in range(1, 2000)) + " " * 4002 + "leaf: 1\n",
    ],
)
def test_structured_stage_bad_input_is_fast_and_valid(payload):
    data = payload.encode()
    start = time.monotonic()
    out = c.compress_query(data, "k123 target")
    assert time.monotonic() - start < 15
    if out is not None:
        assert len(out) < len(data)
        if not payload.startswith(("[", "#")):
            assert yaml_valid(out.decode())


_names = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=8)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(_names, st.lists(st.sampled_from(["host", "port", "mode", "tier", "zone"]), min_size=2, max_size=5, unique=True),
                       st.booleans(), st.booleans()), min_size=4, max_size=14, unique_by=lambda t: t[0]),
    st.sampled_from(["", "port tier", "zone"]),
)
def test_property_yaml_output_is_valid_and_keeps_anchor_targets(blocks, query):
    lines = ["# generated", "top:"]
    anchors = []
    for k, (name, keys, anchor, use_alias) in enumerate(blocks):
        lines.append(f"  {name}:")
        for j, key in enumerate(keys):
            if j == 0 and anchor:
                lines.append(f"    {key}: &a{k} v{k}-{_h(k)[:6]}")
                anchors.append(k)
            elif j == 1 and use_alias and anchors and anchors[-1] != k:
                lines.append(f"    {key}: *a{anchors[0]}")
            else:
                lines.append(f"    {key}: {_h(k * 7 + j)[:12]}")
    text = "\n".join(lines) + "\n"
    data = text.encode()
    out = c.compress_query(data, query)
    if out is None:
        return
    decoded = out.decode()
    assert yaml_valid(decoded)
    assert len(out) < len(data)
    original = yaml.safe_load(text)["top"]
    shown = yaml.safe_load(decoded)["top"]
    for name, value in shown.items():  # every shown block means what it meant
        if value is not None:
            assert {k: v for k, v in value.items()} == {k: original[name][k] for k in value}
    assert split_lines(decoded)[0][-1] == split_lines(text)[0][-1] or "elided" in decoded


def test_query_relevant_comment_inside_an_exemplar_is_kept():
    text = "".join(
        f"[node.{i}]\n"
        + ("# a long note about this node\n# that explains the maintenance window\n# rotate disks on sunday\n\n" if i == 0 else "")
        + f"host = n{digest(str(i))[:8]}\nport = {7000 + i}\nzone = z{i % 3}\n\n"
        for i in range(10)
    )
    plain = c.compress(text.encode()).decode()
    assert "rotate disks on sunday" not in plain and "comment lines elided" in plain
    asked = c.compress_query(text.encode(), "rotate disks sunday").decode()
    assert "# rotate disks on sunday\n" in asked


def test_array_tables_shown_once_are_not_listed_again():
    # Cargo.lock shape: every [[package]] shares one name, shown on the exemplar, so the marker
    # spends nothing on repeating it
    text = 'version = 3\n\n' + "".join(
        f'[[package]]\nname = "crate-{i}"\nversion = "0.{i}.1"\nchecksum = "{digest(str(i))}"\n\n' for i in range(30)
    )
    out = c.compress(text.encode()).decode()
    assert out.count("[[package]]") == 1
    marker = [line for line in out.split("\n") if "config lines elided (caveman)" in line]
    assert len(marker) == 1 and "sections" not in marker[0] and "29 more" in marker[0]


def test_sections_hidden_outside_a_family_are_named():
    # sections of different shapes repeating shown settings: the line-level rules drop some
    # whole (every line they hide is visible elsewhere), and the marker names them
    text = "".join(
        f"[svc-{i}]\n" + "".join(f"k{j} = {digest(str(j))[:12]}\n" for j in range(i % 5 + 1)) + "\n" for i in range(30)
    )
    out = c.compress(text.encode()).decode()
    hidden = [f"svc-{i}" for i in range(30) if f"[svc-{i}]\n" not in out]
    assert hidden
    listed = [n for line in out.split("\n") if "config lines elided (caveman)" in line
              for n in line.split("sections ", 1)[1].rstrip(" …").split(", ")]
    assert listed == hidden
