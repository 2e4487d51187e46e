"""Retrieve with a query: BM25 narrowing (spec engine-core §6; §10 ideas 49–59)."""

from __future__ import annotations

import json

from cavemem.engine.core import Engine
from cavemem.engine.narrow import MARK, narrow
from cavemem.store.ccr import open_ccr


def _engine_with(data: bytes) -> tuple[Engine, str]:
    store = open_ccr(":memory:")
    h = store.put(data, content_type="json", compressor="json", tokens_before=10, tokens_after=5)
    return Engine(store=store), h


def _blocks(view: str) -> list[str]:
    return [b for b in view.split("\n\n") if b and b != MARK]


def test_mark_is_exact():
    assert MARK == "… [caveman: non-adjacent] …" and len(MARK) == 27 and len(MARK.encode()) == 31


def test_orders_page_keeps_whole_records():
    orders = [
        {"order_id": f"ord-{1032 + i}", "amount": 10 + i, "status": "fulfilled", "note": f"routine shipment {i}"}
        for i in range(12)
    ]
    orders[11]["status"] = "unfulfilled"
    data = json.dumps({"page": 1, "orders": orders}, indent=2).encode()
    view = narrow(data, "unfulfilled orders with order_id, amount, status").decode()
    for block in _blocks(view):
        rec = json.loads(block)
        assert {"order_id", "amount", "status"} <= set(rec)
    assert view.count('"status": "unfulfilled"') == 1
    unf = [json.loads(b) for b in _blocks(view) if '"unfulfilled"' in b]
    assert unf[0]["order_id"] == "ord-1043"


def test_single_matching_record_is_whole():
    data = b'{"items":[{"id":"row-1","text":"delivery failed"},{"id":"row-2","text":"delivery ok"}]}'
    view = narrow(data, "failed").decode()
    assert _blocks(view) == ['{\n  "id": "row-1",\n  "text": "delivery failed"\n}']
    assert view.startswith(MARK) and view.endswith(MARK)


def test_records_from_two_arrays_are_separated():
    data = json.dumps(
        {"errors": [{"id": "err-1", "msg": "target failed"}], "warnings": [{"id": "warn-1", "msg": "target slow"}]}
    ).encode()
    view = narrow(data, "target").decode()
    assert view.index("err-1") < view.index(MARK, view.index("err-1")) < view.index("warn-1")


def test_log_lines_with_gaps():
    lines = [f"line {i} routine event" for i in range(40)]
    lines[2] = "line 2 database timeout"
    lines[30] = "line 30 database timeout again"
    view = narrow("\n".join(lines).encode(), "timeout").decode()
    assert "line 2 database timeout" in view and "line 30 database timeout again" in view
    assert view.startswith(MARK) and view.endswith(MARK)
    assert "\n\n" + MARK + "\n\n" in view


def test_csv_rows_keep_header_once():
    rows = ["txn_id,account,amount,status,region"]
    for i in range(40):
        status = "disputed" if i in (5, 25) else "settled"
        rows.append(f"txn-{i:03d},acct-{i},{i * 3}.50,{status},eu")
    view = narrow(("\n".join(rows) + "\n").encode(), "disputed").decode()
    out = view.split("\n")
    assert out[0] == "txn_id,account,amount,status,region"
    assert view.count("txn_id,account") == 1
    row_lines = [ln for ln in out[1:] if ln and ln != MARK]
    assert row_lines and all(ln.startswith("txn-") and ln.count(",") >= 4 for ln in row_lines)
    assert MARK in view


def test_nested_config_without_records_fails_to_narrow():
    data = json.dumps({"server": {"host": "x", "port": 80}, "db": {"url": "postgres"}}).encode()
    assert narrow(data, "postgres") is None
    eng, h = _engine_with(data)
    assert eng.retrieve(h, "postgres") == data


def test_ndjson_lines_are_whole_events():
    events = [json.dumps({"delivery_id": f"d{i}", "state": "failed" if i % 7 == 0 else "ok"}) for i in range(40)]
    view = narrow("\n".join(events).encode(), "failed").decode()
    for block in _blocks(view):
        assert "delivery_id" in json.loads(block)


def test_blank_query_and_messages_example():
    messages = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "Section about kubernetes pod scheduling and node affinity."},
            {"role": "user", "content": "Section about postgres vacuum tuning and autovacuum thresholds."},
            {"role": "user", "content": "Section about redis eviction policies and maxmemory."},
        ],
    }
    data = json.dumps(messages).encode()
    eng, h = _engine_with(data)
    assert eng.retrieve(h, "   ") == data
    assert eng.retrieve(h, "") == data
    view = eng.retrieve(h, "postgres autovacuum tuning")
    assert view == (
        MARK + "\n\n{\n"
        '  "content": "Section about postgres vacuum tuning and autovacuum thresholds.",\n'
        '  "role": "user"\n}\n\n' + MARK
    ).encode()
    assert b"kubernetes" not in view and b"redis eviction" not in view and len(view) < len(data)


def test_no_hits_or_not_shorter_returns_original():
    data = b"alpha\nbeta\ngamma"
    eng, h = _engine_with(data)
    assert eng.retrieve(h, "zeta") == data
    assert eng.retrieve(h, "alpha beta gamma") == data


def test_invalid_utf8_survives_narrowing_byte_exact():
    data = b"first line ok\n\xff\xfe broken bytes error here\nthird line ok\n" + b"filler line\n" * 20
    view = narrow(data, "error")
    assert b"\xff\xfe broken bytes error here" in view
