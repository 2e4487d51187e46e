"""Big CSV tables hold each repeated cell value once (issue 9: peak RSS at the 64 MiB cap).

The strict reader's answer must not change: same records, same offsets, same errors; only equal
cells down a column become one string object."""

from __future__ import annotations

import random

import pytest

from cavemem.formats import gocsv, tables


def _table(rows: int) -> str:
    rnd = random.Random(5)
    out = ["name,arch,version,note"]
    for i in range(rows):
        note = '"a, ""quoted"" note"' if i % 97 == 0 else f"n{rnd.randint(0, 9)}"
        out.append(f"pkg{i},{rnd.choice(['amd64', 'all', 'arm64'])},{rnd.randint(0, 3)}.{rnd.randint(0, 9)},{note}")
    return "\n".join(out) + "\n"


def test_shared_cells_parse_the_same(monkeypatch):
    text = _table(60_000)
    assert len(text) >= gocsv.SHARE_MIN_CHARS
    shared = gocsv.read_records(text, ",")
    monkeypatch.setattr(gocsv, "SHARE_MIN_CHARS", 1 << 40)
    plain = gocsv.read_records(text, ",")
    assert shared == plain
    assert gocsv.read_records(text, ",", offsets=False) == [fields for fields, _ in plain]


def test_repeated_values_are_one_object():
    rows = gocsv.read_records(_table(60_000), ",", offsets=False)
    arches = {id(r[1]) for r in rows[1:]}
    assert len(arches) == 3  # amd64 / all / arm64, each once
    assert len({id(r[0]) for r in rows[1:]}) == 60_000  # names stay distinct


def test_parse_table_rows_unchanged(monkeypatch):
    data = _table(60_000).encode()
    got = tables.parse_table(data)
    monkeypatch.setattr(gocsv, "SHARE_MIN_CHARS", 1 << 40)
    tables.parse_table(b"x,y\n1,2\n")  # forget the remembered answer
    plain = tables.parse_table(data)
    assert got.kind == plain.kind == "csv" and got.rows == plain.rows


def test_errors_still_raised_when_shared():
    text = _table(60_000) + 'bad,"unterminated\n'
    with pytest.raises(gocsv.CSVError):
        gocsv.read_records(text, ",")
    with pytest.raises(gocsv.CSVError):
        gocsv.read_records(_table(60_000) + "a,b\n", ",")  # wrong width
