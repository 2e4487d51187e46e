"""Engine core behaviour (spec engine-core §1, §3, §10 test ideas 1–21)."""

from __future__ import annotations

import json
import re

import pytest

from cavemem.compressors.base import Compressor, Metadata
from cavemem.compressors import safety
from cavemem.engine.core import Engine, normalize_mode
from cavemem.engine.registry import Entry, Registry
from cavemem.store.ccr import open_ccr

ARRAY_JSON = json.dumps({"results": [{"id": i} for i in range(1, 13)], "error": None}).encode()


class _Counter:
    """A deterministic stand-in counter: one token per byte."""

    name = "bytes-test"

    def count(self, data):
        return len(data)


class Shrink(Compressor):
    content_type = "shrink"

    def compress(self, data):
        return data[: len(data) // 2]


class Fake(Compressor):
    content_type = "fake"
    safety_class = 1

    def compress(self, data):
        return b"x"


class Unknown(Compressor):
    content_type = "weird"
    safety_class = 99

    def compress(self, data):
        return b"x"


class Boom(Compressor):
    content_type = "boom"

    def compress(self, data):
        raise RuntimeError("compressor bug")


class Grow(Compressor):
    content_type = "grow"

    def compress(self, data):
        return data + data


def _engine(store="mem", **extra):
    reg = Registry(())
    for comp in (Shrink(), Fake(), Unknown(), Boom(), Grow()):
        reg.register(Entry(comp.content_type, "unused:Unused"), comp)
    st = open_ccr(":memory:") if store == "mem" else store
    return Engine(store=st, counter=_Counter(), registry=reg)


PAYLOAD = b"0123456789" * 20


def test_record_mode_and_unknown_modes_pass_through():
    eng = _engine()
    for mode in ("record", "", "turbo", "Compress", None):
        res = eng.compress(PAYLOAD, type="shrink", mode=mode)
        assert res.output == PAYLOAD
        assert res.passed_through
        assert res.tokens_before == res.tokens_after == len(PAYLOAD)
        assert res.basis == "inferred"
    assert normalize_mode("compress") == "compress"
    assert normalize_mode("COMPRESS") == "record"


def test_compress_stores_before_emitting_and_retrieve_is_exact():
    eng = _engine()
    res = eng.compress(PAYLOAD, type="shrink")
    assert res.output == PAYLOAD[:100]
    assert res.recovery_handle.startswith("ccr_") and len(res.recovery_handle) == 36
    assert res.method == "shrink" and res.lossless_to_model is False
    assert res.ratio == 0.5
    assert eng.retrieve(res.recovery_handle) == PAYLOAD
    for form in (f"ccr://{res.recovery_handle}", f"<<ccr:{res.recovery_handle}>>", f" ccr:{res.recovery_handle} "):
        assert eng.retrieve(form) == PAYLOAD


def test_pass_through_conditions():
    eng = _engine()
    # P2: no compressor for a forced type; content_type reports the forced string
    res = eng.compress(PAYLOAD, type="nope")
    assert res.passed_through and res.content_type == "nope" and res.output == PAYLOAD
    # P3: unknown safety class
    assert eng.compress(PAYLOAD, type="weird").passed_through
    # P5: compressor raising fails closed
    assert eng.compress(PAYLOAD, type="boom").passed_through
    # P6: not smaller
    assert eng.compress(PAYLOAD, type="grow").passed_through
    # empty input never divides by zero
    res = eng.compress(b"", type="shrink")
    assert res.passed_through and res.tokens_before == 0 and res.ratio == 0


def test_no_store_passes_lossy_through_but_external_recovery_transforms():
    eng = _engine(store=None)
    res = eng.compress(PAYLOAD, type="shrink")
    assert res.passed_through and not res.error
    res = eng.compress(PAYLOAD, type="shrink", external_recovery=True)
    assert not res.passed_through and res.recovery_handle == "" and res.method == "shrink"


def test_closed_store_returns_error_and_untouched_pass_through():
    st = open_ccr(":memory:")
    eng = _engine(store=st)
    st.close()
    res = eng.compress(PAYLOAD, type="shrink")
    assert res.error == "cave_ccr_unavailable"
    assert res.output == PAYLOAD and res.passed_through
    assert res.tokens_after == res.tokens_before and res.ratio == 0 and not res.method


def test_simulate_matches_compress_and_never_stores():
    eng = _engine()
    sim = eng.simulate(PAYLOAD, type="shrink")
    assert sim.safety_class == "S4" and sim.lossy and sim.requires_ccr and sim.recoverable
    assert eng.stats()["totals"]["count"] == 0
    res = eng.compress(PAYLOAD, type="shrink")
    assert (sim.tokens_before, sim.tokens_after, sim.ratio, sim.content_type) == (
        res.tokens_before,
        res.tokens_after,
        res.ratio,
        res.content_type,
    )
    rec = eng.simulate(PAYLOAD, type="shrink", mode="record")
    assert rec.to_dict()["tokens_saved"] == 0 and rec.compressor == "" and rec.recoverable
    nostore = _engine(store=None).simulate(PAYLOAD, type="shrink")
    assert nostore.lossy and not nostore.recoverable and nostore.to_dict()["tokens_saved"] > 0
    fake = _engine(store=None).simulate(PAYLOAD, type="fake")
    assert fake.recoverable and not fake.lossy and fake.safety_class == "S1"
    assert fake.method == "fake" and fake.lossless_to_model is True


def test_result_json_field_order():
    eng = _engine()
    res = eng.compress(PAYLOAD, type="shrink")
    line = res.to_json()
    keys = list(json.loads(line))
    assert keys == [
        "content_type",
        "tokens_before",
        "tokens_after",
        "token_count_basis",
        "ratio",
        "basis",
        "recovery_handle",
        "method",
        "lossless_to_model",
    ]
    assert '"ratio":0.5' in line and '"lossless_to_model":false' in line
    passthrough = eng.compress(b"abc", type="nope").to_json()
    assert passthrough == (
        '{"content_type":"nope","tokens_before":3,"tokens_after":3,'
        '"token_count_basis":"bytes-test","ratio":0,"basis":"inferred"}'
    )


def test_metadata_compressor_gets_query_even_when_empty():
    seen = []

    class Meta(Compressor):
        content_type = "meta"

        def compress_with_metadata(self, data, query):
            seen.append(query)
            return data[:10], Metadata(method="custom", lossless_to_model=True, recovery_metadata=b'{"k":1}')

    eng = _engine()
    eng.registry.register(Entry("meta", "unused:Unused"), Meta())
    res = eng.compress(PAYLOAD, type="meta")
    assert seen == [""] and res.method == "custom" and res.lossless_to_model is True
    assert eng.store().get_metadata(res.recovery_handle) == b'{"k":1}'


def test_run_is_the_one_call_and_gets_the_engine_counter():
    seen = []

    class Counting(Compressor):
        content_type = "counting"

        def run(self, data, query, counter):
            seen.append((query, counter.name))
            return data[: counter.count(data) // 4], None  # None metadata: the engine fills it in

    eng = _engine()
    eng.registry.register(Entry("counting", "unused:Unused"), Counting())
    res = eng.compress(PAYLOAD, type="counting", query="q")
    assert seen == [("q", "bytes-test")]
    assert res.output == PAYLOAD[: len(PAYLOAD) // 4] and res.method == "counting" and res.lossless_to_model is False


def test_an_object_outside_the_contract_fails_closed():
    class Duck:  # compresses, but is no Compressor: no declared safety class
        content_type = "duck"

        def run(self, data, query, counter):
            return b"q", None

    eng = _engine()
    eng.registry.register(Entry("duck", "unused:Unused"), Duck())
    res = eng.compress(PAYLOAD, type="duck")
    assert res.output == PAYLOAD and res.passed_through


def test_safety_classes():
    for i in range(5):
        assert safety.lookup(i).name == f"S{i}"
    s4 = safety.lookup(4)
    assert not s4.byte_safe and s4.requires_ccr and not s4.reversible
    assert safety.lookup(0).byte_safe and not safety.lookup(1).requires_ccr
    assert [safety.lookup(i).reversible for i in range(5)] == [True, True, True, False, False]
    assert safety.lookup(99) is None


def test_file_wrapper_is_restored_around_output():
    eng = _engine()
    body = b"\n" + b"z" * 300 + b"\n"
    wrapped = b' \n<file name="C:\\x\\a>b.go">' + body + b"</file>\n\t"
    res = eng.compress(wrapped, type="shrink")
    assert res.output.startswith(b' \n<file name="C:\\x\\a>b.go">')
    assert res.output.endswith(b"</file>\n\t")
    assert res.output == b' \n<file name="C:\\x\\a>b.go">' + body[: len(body) // 2] + b"</file>\n\t"
    assert res.tokens_before == len(wrapped)  # counts the full caller bytes
    assert eng.retrieve(res.recovery_handle) == wrapped


def test_stats_without_store():
    assert _engine(store=None).stats() == {
        "totals": {"count": 0, "tokens_before": 0, "tokens_after": 0, "ratio": 0},
        "by_content_type": {},
        "basis": "inferred",
    }


def test_unknown_handle_raises_clear_error():
    from cavemem.errors import UnknownHandle

    with pytest.raises(UnknownHandle) as info:
        _engine().retrieve("ccr_does_not_exist")
    assert info.value.code == "cave_unknown_handle"


def test_prose_detected_as_code_falls_back_to_the_text_compressor(monkeypatch):
    """Licence-like prose trips the code detector (keywords + indentation); the code compressor
    declines what no grammar parses, so the engine tries the text route before passing through."""
    from cavemem.engine.detect import detect

    para = (
        "    The licenses for most software and other practical works are designed to take away your "
        "freedom to share and change the works. By contrast, the public license is intended to guarantee "
        "your freedom to share and change all versions of a program, to make sure it remains free software "
        "for all its users. We, the Foundation, use this license for most of our software; it applies also "
        "to any other work released this way by its authors. You can apply it to your programs, too. "
        "When we speak of free software, we are referring to freedom, not price; the module and interface "
        "terms are defined below, and each static or private copy must return the same notice."
    )
    doc = ("PUBLIC LICENSE\n\n" + "\n\n".join(f"{i}. Section {i}.\n{para}" for i in range(1, 9)) + "\n").encode()
    assert detect(doc) == "text"  # the detector no longer takes licence prose for code ...
    from cavemem.engine import core

    monkeypatch.setattr(core, "detect", lambda data: "code")  # ... and the fallback still covers a detector miss
    eng = Engine(store=open_ccr(":memory:"))
    res = eng.compress(doc)
    assert res.content_type == "text" and res.method == "text" and res.recovery_handle
    assert eng.retrieve(res.recovery_handle) == doc
    forced = eng.compress(doc, type="code")  # a forced type never falls back
    assert forced.passed_through and forced.content_type == "code"


def test_source_with_nothing_to_elide_passes_through_as_code_not_as_prose():
    """A type stub (every body already ``...``) parses as Python, so the code compressor takes
    it and saves nothing: the engine passes it through as code instead of letting the prose
    reader drop its definitions."""
    parts = ['from typing import Final\n\n__docformat__: Final = "restructuredtext en"\n\n']
    for c in range(12):
        parts.append(f"class Reader{c}:\n    delimiter: str | None\n    comments: str\n\n")
        parts += [f"    def method_{c}_{m}(\n        self,\n        value: str | int,\n        /,\n        strict: bool = ...,\n    ) -> list[str]: ...\n"
                  for m in range(6)]
        parts.append("\n")
    data = "".join(parts).encode()
    eng = Engine(store=open_ccr(":memory:"))
    res = eng.compress(data)
    assert res.content_type == "code" and res.passed_through and res.output == data
    assert eng.compress(data, type="text").tokens_after < res.tokens_after / 2  # what the prose route would have done


def test_program_table_is_compressed_as_a_table_with_every_hidden_row_named():
    """``ps aux``-style output (first column all ``root``) detects and routes as tabular: the
    aligned-table reader names each hidden row by its first cell plus the next distinct column
    (``root 17``), so nothing is hidden without a name, and the original comes back exactly."""
    row = "root     {:>5}  0.0  0.0  {:>5} {:>5} ?        S    21:48   0:00 /usr/lib/systemd/worker --id {}\n"
    table = "USER       PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n"
    table += "".join(row.format(i, 5000 + i % 3, 900 + i % 5, i % 4) for i in range(1, 400))
    data = table.encode()
    from cavemem.engine.detect import detect

    assert detect(data) == "tabular"
    eng = Engine(store=open_ccr(":memory:"))
    res = eng.compress(data)
    assert res.content_type == "tabular" and res.recovery_handle and res.tokens_after < res.tokens_before / 2
    assert eng.retrieve(res.recovery_handle) == data
    named = {int(pid) for pid in re.findall(r"\broot +(\d+)\b", res.output.decode())}  # shown rows and marker names
    assert named == set(range(1, 400))


def test_best_of_json_uses_the_engines_counter(monkeypatch):
    """Spec engine-core §10 idea 11: the JSON best-of choice is driven by the injected counter."""
    from cavemem.engine.core import _registry_from_env

    data = json.dumps({"rows": [{"id": i, "name": f"n{i}"} for i in range(20)]}).encode()

    class Scripted:
        name = "best-of-test"

        def __init__(self, toon, elision):
            self.toon, self.elision = toon, elision

        def count(self, b):
            b = bytes(b)
            if b == data:
                return 100
            if b.startswith(b"rows["):  # the TOON candidate
                return self.toon
            return self.elision if b"__caveman" in b else 99  # elision, else minify

    monkeypatch.setenv("CAVE_ENGINE_TOON", "best-of")
    for toon, elision, method, lossless in ((10, 20, "toon", True), (20, 10, "elision", False)):
        eng = Engine(store=open_ccr(":memory:"), counter=Scripted(toon, elision), registry=_registry_from_env())
        res = eng.compress(data)
        assert res.token_count_basis == "best-of-test"
        assert (res.method, res.lossless_to_model) == (method, lossless), (toon, elision, res.to_json())
        assert res.tokens_after == min(toon, elision)


class _FlakyCounter(_Counter):
    """Fails the first count of the whole input (the helper thread's), then counts bytes."""

    def __init__(self, size):
        self.size = size
        self.failed = False

    def count(self, data):
        if len(data) == self.size and not self.failed:
            self.failed = True
            raise RuntimeError("counter hiccup")
        return len(data)


def test_big_inputs_are_counted_beside_the_compressor_with_the_same_figures():
    from cavemem.engine.core import PARALLEL_COUNT_MIN_BYTES
    from cavemem.tokens import O200kCounter

    rows = [{"id": i, "status": "ok" if i % 97 else "error", "name": f"item-{i}"} for i in range(40_000)]
    data = json.dumps({"results": rows}).encode()
    assert len(data) >= PARALLEL_COUNT_MIN_BYTES
    counter = O200kCounter()
    res = Engine(store=open_ccr(":memory:"), counter=counter).compress(data)
    assert res.tokens_before == counter.count(data) and res.tokens_after == counter.count(res.output)
    assert res.recovery_handle and res.tokens_after < res.tokens_before

    # A helper thread that dies still yields the exact count: the caller counts again itself.
    eng = _engine()
    big = b"0123456789" * (PARALLEL_COUNT_MIN_BYTES // 10 + 1)
    eng.counter = _FlakyCounter(len(big))
    res = eng.compress(big, type="shrink")
    assert res.tokens_before == len(big) and res.tokens_after == len(big) // 2
