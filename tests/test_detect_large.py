"""Detection of inputs past its sample size (issue 9, the 64 MiB cap): JSON is judged whole, the
rest by a head cut at a line, so a large input is named as its head is and a document that is
only valid JSON as a whole (or breaks at its very end) is judged on all of its bytes."""

from __future__ import annotations

import importlib

from cavemem.engine.detect import detect

SAMPLE = importlib.import_module("cavemem.engine.detect").SAMPLE_BYTES
LOG = b"".join(b"2026-12-04 04:%02d:%02d INFO worker-%d handled request id=%d in %d ms\n" % (i // 60 % 60, i % 60, i % 8, i, i % 97)
               for i in range(2000))
INI = b"".join(b"[section%d]\nkey%d = value %d\n# note\n" % (i, i, i) for i in range(2000))


def _past_sample(block: bytes) -> bytes:
    return block * (SAMPLE // len(block) + 2)


def test_a_large_log_is_named_as_its_head():
    big = _past_sample(LOG)
    assert len(big) > SAMPLE and detect(big) == "log" == detect(LOG)


def test_a_large_ini_opening_on_a_bracket_is_no_json():
    big = _past_sample(INI)
    assert detect(big) == "config" == detect(INI)


def test_large_json_is_judged_whole():
    item = b'{"id": 1, "name": "pkg", "deps": ["a", "b"]}'
    doc = b"[" + b",".join([item] * (SAMPLE // len(item) + 10)) + b"]"
    assert len(doc) > SAMPLE and detect(doc) == "json"
    assert detect(doc[:-1]) != "json"  # the closing bracket past the sample decides
