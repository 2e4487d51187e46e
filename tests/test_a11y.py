"""``a11y``: CDP accessibility-tree compaction (spec engine-compressors §3.13, §7.14)."""

from __future__ import annotations

import json
import time

import pytest

from cavemem.compressors.a11y import AXTreeCompressor, base36, format_float_positional, go_quote_strconv, query_terms


def ax(v, t="string"):
    return {"type": t, "value": v}


def node(nid, role=None, name=None, children=(), *, value=None, ignored=False, backend=None, props=None, **extra):
    n = {"nodeId": nid, "ignored": ignored, "childIds": list(children)}
    if role is not None:
        n["role"] = ax(role, "role")
    if name is not None:
        n["name"] = ax(name)
    if value is not None:
        n["value"] = ax(value)
    if backend is not None:
        n["backendDOMNodeId"] = backend
    if props:
        n["properties"] = [{"name": k, "value": ax(v, "boolean" if isinstance(v, bool) else "token")} for k, v in props.items()]
    n.update(extra)
    return n


def run(nodes, query: str = "", envelope: bool = False):
    raw = json.dumps({"nodes": nodes} if envelope else nodes).encode()
    got = AXTreeCompressor().compress_with_metadata(raw, query)
    if got is None:
        return None, None
    out, meta = got
    assert meta.method == "a11y" and meta.lossless_to_model is False
    return out.decode(), json.loads(meta.recovery_metadata)


SAMPLE = [
    node("1", "RootWebArea", "Caveman Console", ["2"]),
    node("2", "generic", "noise wrapper", ["3", "4", "6", "7"], ignored=True),
    node("3", "generic", ""),
    node("4", "button", "Save settings", ["5"], backend=42, props={"focused": True, "disabled": False}),
    node("5", "StaticText", "Save settings"),
    node("6", "textbox", "Email address", value="ops@example.com", backend=43, props={"editable": "plaintext"}),
    node("7", "custom-widget", "Mystery"),
]


def test_sample_tree_exact_output_and_uid_map():
    out, meta = run(SAMPLE)
    assert out == (
        'page "Caveman Console"\n'
        '  [u16] button "Save settings" {focused}\n'
        '  [u17] textbox "Email address" = "ops@example.com" {editable}\n'
        '  custom-widget "Mystery"'
    )
    assert meta == {"uids": {"u16": {"backendDOMNodeId": 42, "nodeId": "4"}, "u17": {"backendDOMNodeId": 43, "nodeId": "6"}}}
    raw = json.dumps(SAMPLE).encode()
    assert AXTreeCompressor().compress(raw) == out.encode()
    assert run(SAMPLE, envelope=True)[0] == out


@pytest.mark.parametrize(
    "raw",
    [
        b"{not json", b"[]", b'{"nodes":[]}', b"", b"  ", b"null", b'"x"', b"[1]", b'{"nodes":{}}',
        json.dumps([node("1")]).encode(),  # no role
        json.dumps([node("1", "button"), node("1", "link")]).encode(),  # duplicate nodeId
        json.dumps([node("", "button")]).encode(),  # empty nodeId
        json.dumps([node("1", "button", ignored=True)]).encode(),  # everything ignored
        b'[{"nodeId":1,"role":{"value":"button"}}]',  # nodeId as a number
        b'[{"nodeId":"1","role":"button"}]',  # role as a string
        b'[{"nodeId":"1","role":{"value":"button"},"backendDOMNodeId":4.0}]',  # int field as float
        b'[{"nodeId":"1","role":{"value":"button"},"childIds":[1]}]',  # childIds of numbers
        b'[{"nodeId":"1","role":{"value":"button"},"ignored":"no"}]',  # bool as a string
        b'[{"nodeId":"1","role":{"value":1e400}}]',  # any-number out of float64 range
        b'[{"nodeId":"1","role":{"value":"button"}}] x',
    ],
)  # fmt: skip
def test_fail_closed(raw):
    assert AXTreeCompressor().compress(raw) is None


def test_dangling_iframe_child_is_a_leaf():
    nodes = [
        node("1", "RootWebArea", "Report", ["2", "3"]),
        node("2", "button", "Save settings", backend=10),
        node("3", "Iframe", "Embedded report", ["frame-root-elsewhere"], backend=11, frameId="F1"),
    ]
    out, meta = run(nodes)
    assert out == 'page "Report"\n  [ua] button "Save settings"\n  [ub] iframe "Embedded report"'
    assert meta["uids"]["ua"] == {"backendDOMNodeId": 10, "nodeId": "2"}
    assert meta["uids"]["ub"] == {"backendDOMNodeId": 11, "frameId": "F1", "nodeId": "3"}


def noisy_page(noise: int = 300):
    """A CDP dump in the shape of the reference's golden fixture, padded with ignored noise."""
    nodes = [
        node("root", "RootWebArea", "Caveman AX Fixture", ["w1"], props={"focused": True}, backend=1, frameId="MAIN"),
        node("w1", "generic", "layout noise", ["w2"], ignored=True),
        node("w2", "none", "css wrapper", ["main"], ignored=True),
        node("main", "main", "", ["g1", "lbl", "btn", "tb", "h", "lnk", "spacer"]),
        node("g1", "generic", "", []),
        node("lbl", "LabelText", "", []),
        node("btn", "button", "Save settings", ["btn-text"], backend=10),
        node("btn-text", "StaticText", "Save settings", ["btn-box"]),
        node("btn-box", "InlineTextBox", "Save settings"),
        node("tb", "textbox", "Email address", value="ops@example.com", backend=1, props={"editable": "plaintext", "focusable": True}),
        node("h", "heading", "Operations Overview", ["h-text"]),
        node("h-text", "StaticText", "Operations Overview"),
        node("lnk", "link", "View trace detail", ["lnk-text"], backend=15, props={"focusable": True}),
        node("lnk-text", "StaticText", "View trace detail"),
        node("spacer", "generic", "", [f"n{i}" for i in range(noise)], ignored=True),
    ]
    nodes += [node(f"n{i}", "generic", f"spacer {i}", ignored=True, props={"hidden": True, "hiddenRoot": True}) for i in range(noise)]
    return nodes


GOLDEN = (
    'page "Caveman AX Fixture" {focused}\n'
    "  main\n"
    '    [ua] button "Save settings"\n'
    '    [u1] textbox "Email address" = "ops@example.com" {editable}\n'
    '    heading "Operations Overview"\n'
    '    [uf] link "View trace detail"'
)


def test_noisy_page_golden_output_and_size():
    nodes = noisy_page()
    raw = json.dumps(nodes).encode()
    out, meta = run(nodes)
    assert out == GOLDEN
    assert len(out) * 50 <= len(raw)
    for noise in ("layout noise", "css wrapper", "spacer", "generic", "InlineTextBox", "StaticText", "text "):
        assert noise not in out
    assert sorted(meta["uids"]) == ["u1", "ua", "uf"]


def test_query_keeps_the_match_and_its_ancestors():
    out, meta = run(noisy_page(), "save settings")
    assert out == "\n".join(GOLDEN.splitlines()[:3])
    assert meta == {"uids": {"ua": {"backendDOMNodeId": 10, "nodeId": "btn"}}}


def test_query_without_any_match_gives_the_note():
    out, meta = run(noisy_page(), "definitely absent control")
    assert out == 'page "Caveman AX Fixture" {focused}\n  note "no accessible match"'
    assert meta == {"uids": {}}


def orders_table(n: int = 200):
    rows = []
    nodes = [node("root", "RootWebArea", "Orders", ["tbl"]), node("tbl", "table", "Orders", [f"r{i}" for i in range(1, n + 1)])]
    for i in range(1, n + 1):
        rows += [
            node(f"r{i}", "row", "", [f"r{i}c1", f"r{i}c2", f"r{i}c3", f"r{i}c4"]),
            node(f"r{i}c1", "cell", f"ORD-{i:04d}", [f"r{i}t1"]),
            node(f"r{i}t1", "StaticText", f"ORD-{i:04d}"),
            node(f"r{i}c2", "cell", f"Customer {i}"),
            node(f"r{i}c3", "cell", f"EUR {i + 20}.00"),
            node(f"r{i}c4", "cell", "", [f"r{i}b"]),
            node(f"r{i}b", "button", f"Review ORD-{i:04d}", backend=8 if i == 173 else 1000 + i),
        ]
    return nodes + rows


def test_query_expands_to_the_whole_table_row():
    out, meta = run(orders_table(), "ORD-0173")
    assert out == (
        'page "Orders"\n'
        '  table "Orders"\n'
        "    row\n"
        '      cell "ORD-0173"\n'
        '      cell "Customer 173"\n'
        '      cell "EUR 193.00"\n'
        "      cell\n"
        '        [u8] button "Review ORD-0173"'
    )
    assert "ORD-0001" not in out
    assert meta == {"uids": {"u8": {"backendDOMNodeId": 8, "nodeId": "r173b"}}}


def test_query_takes_at_most_twelve_matches():
    out, _ = run(orders_table(40), "review")
    assert out.count("button") == 12


def test_duplicate_backend_ids_get_distinct_uids_and_unknown_tokens_are_ignored():
    nodes = [
        node("1", "RootWebArea", "P", ["2", "3", "4", "5"]),
        node("2", "button", "One", backend=42),
        node("3", "button", "Two", backend=42, props={"disabled": "maybe-later"}),
        node("4", "generic", "", backend=42, props={"editable": False}),  # {editable:false} keeps it
        node("5", "generic", "", backend=42, props={"editable": True}),  # {editable:true} does not
    ]
    out, meta = run(nodes)
    assert out == 'page "P"\n  [u16] button "One"\n  [u16_2] button "Two"\n  generic'
    assert sorted(meta["uids"]) == ["u16", "u16_2"]


def test_dropped_node_consumes_a_uid_number():
    nodes = [
        node("1", "RootWebArea", "P", ["2", "3"]),
        node("2", "InlineTextBox", "Go", backend=42, props={"clickable": True}),  # handle, then dropped
        node("3", "button", "Go", backend=42),
    ]
    out, meta = run(nodes)
    assert out == 'page "P"\n  [u16_2] button "Go"'
    assert list(meta["uids"]) == ["u16_2"]


@pytest.mark.parametrize(
    "props, labels",
    [
        ({"checked": "mixed"}, " {checked}"),
        ({"checked": "false", "expanded": False}, " {unchecked,collapsed}"),
        ({"expanded": "yes", "selected": "1", "disabled": "TRUE"}, " {disabled,expanded,selected}"),
        ({"editable": "richtext", "focused": "no"}, " {editable}"),
        ({"selected": "mixed", "editable": "maybe"}, ""),
    ],
)
def test_state_labels(props, labels):
    out, _ = run([node("1", "checkbox", "Opt", props=props)])
    assert out == 'checkbox "Opt"' + labels


def test_numeric_states_and_values():
    nodes = [
        {"nodeId": "1", "role": ax("slider"), "name": ax("Volume"), "value": ax(0.5, "number"),
         "properties": [{"name": "checked", "value": ax(1, "number")}, {"name": "editable", "value": ax(1, "number")}]},
        {"nodeId": "2", "role": ax("spinbutton"), "value": ax(1e21, "number")},
        {"nodeId": "3", "role": ax("listbox"), "name": ax({"b": 1, "a": [True, None, "x  y"]}, "object")},
    ]  # fmt: skip
    out, _ = run(nodes)
    assert out.splitlines() == [
        'slider "Volume" = "0.5" {checked}',
        'spinbutton = "1000000000000000000000"',
        'listbox "{\\"a\\":[true,null,\\"x y\\"],\\"b\\":1}"',
    ]


def test_go_json_field_rules():
    raw = b'[{"NodeId":"1","ROLE":{"value":"button"},"name":{"value":"A"},"BackendDOMNodeID":36,"unknown":{"x":[1]}}]'
    assert AXTreeCompressor().compress(raw) == b'[u10] button "A"'
    raw = b'[{"nodeId":"1","role":{"value":"link"},"role":{"type":"x"},"name":{"value":"  two   words "}}]'
    assert AXTreeCompressor().compress(raw) == b'link "two words"'  # a later duplicate merges into the struct


def test_cycles_and_no_roots():
    nodes = [node("a", "button", "A", ["b"], backend=1), node("b", "link", "B", ["a"], backend=2)]
    out, _ = run(nodes)
    assert out == '[u1] button "A"\n  [u2] link "B"'


def test_helpers():
    assert base36(42) == "16" and base36(10) == "a" and base36(0) == "0"
    assert go_quote_strconv('a"\\\n\x07\x7f\u00a0\u200bé😀') == '"a\\"\\\\\\n\\a\\x7f\\u00a0\\u200bé😀"'
    assert [format_float_positional(x) for x in (1e21, -0.0, 1e-7, 2.5, 100.0)] == ["1000000000000000000000", "-0", "0.0000001", "2.5", "100"]
    assert query_terms("Save-settings, ORD_0173  x") == ["save", "settings", "ord", "0173", "x"]


def test_big_wide_tree_is_fast():
    n = 40_000
    nodes = [node("root", "RootWebArea", "Big", [f"n{i}" for i in range(n)])]
    nodes += [node(f"n{i}", "button" if i % 10 == 0 else "generic", f"b{i}" if i % 10 == 0 else "", backend=i + 1) for i in range(n)]
    raw = json.dumps(nodes).encode()
    t0 = time.perf_counter()
    out = AXTreeCompressor().compress(raw)
    assert out.count(b"button") == n // 10
    assert time.perf_counter() - t0 < 30


def chain(depth: int):
    return [node(f"c{i}", "group", f"g{i}", [f"c{i + 1}"]) for i in range(depth)] + [node(f"c{depth}", "button", "deep", backend=5)]


def test_deep_trees_do_not_recurse_or_explode():
    out, _ = run(chain(150), "deep")
    assert out.splitlines()[-1] == "  " * 150 + '[u5] button "deep"'
    t0 = time.perf_counter()
    assert run(chain(8_000), "deep") == (None, None)  # quadratic indentation: refused, not rendered
    assert run(chain(8_000)) == (None, None)
    assert AXTreeCompressor().compress(b"[" * 100_000 + b"]" * 100_000) is None
    assert time.perf_counter() - t0 < 20


def test_invalid_utf8_and_binary_input():
    raw = b'[{"nodeId":"1","role":{"value":"button"},"name":{"value":"\xff\xfe"}}]'
    assert AXTreeCompressor().compress(raw) == 'button "\ufffd\ufffd"'.encode()
    assert AXTreeCompressor().compress(bytes(range(256)) * 1000) is None
    assert AXTreeCompressor().compress(b'[{"nodeId":"1","role":{"value":"button"},"name":{"value":"x\\ud800"}}]') == 'button "x\ufffd"'.encode()


def test_through_the_engine_stores_the_uid_map():
    from cavemem.engine.core import Engine

    raw = json.dumps(noisy_page()).encode()
    eng = Engine()
    res = eng.compress(raw, type="a11y")
    assert res.output == GOLDEN.encode() and res.method == "a11y" and res.lossless_to_model is False
    assert eng.retrieve(res.recovery_handle) == raw
    focused = eng.compress(raw, type="a11y", query="save settings")
    assert focused.output.decode() == "\n".join(GOLDEN.splitlines()[:3])
