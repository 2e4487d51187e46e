"""Rewordings of one fact merge into one memory with both wordings in ``history``; look-alike facts
(another environment, another value, another subject) stay two memories."""

from __future__ import annotations

import pytest

from cavemem import Memory
from cavemem.memory.dedup import is_rewording


@pytest.fixture
def mem(tmp_path):
    m = Memory(str(tmp_path / "mem.db"), cwd=str(tmp_path), scorers=())
    yield m
    m.close()


REWORDINGS = [
    # other word forms of the same words: "pagination" / "paginate", "squash" / "squashing"
    ("List endpoints use cursor pagination (next/prev opaque cursors), not page numbers, because offset scans were slow past 100k rows.",
     "We paginate list endpoints with opaque next/prev cursors rather than page numbers; offset scans got slow beyond 100k rows."),
    # "live" here is a verb, not the live environment
    ("Notebooks live in notebooks/ and are never imported; anything reused moves into the analysis package with tests.",
     "Notebooks stay in notebooks/ and are never imported; reused code moves into the analysis package and gets tests."),
    # two names joined by a slash are words, however spaced
    ("Session tokens are kept in the secure store (Keychain/Keystore), never in plain preferences; they are refreshed on launch.",
     "Session tokens go in the secure store (Keychain / Keystore), never in plain preferences; we refresh them on every launch."),
]

LOOK_ALIKES = [
    ("Production ledger API runs on ledger-prod-3.internal.acme.io behind the load balancer and the WAF.",
     "Staging ledger API runs on ledger-stg-1.internal.acme.io behind the load balancer and the WAF."),
    ("The nightly export job writes CSV files to the reports bucket and keeps them for 30 days.",
     "The nightly export job writes CSV files to the reports bucket and keeps them for 90 days."),
    ("The iOS app caches images on disk with a 200 MB limit and evicts the oldest files first.",
     "The Android app caches images on disk with a 200 MB limit and evicts the oldest files first."),
]


@pytest.mark.parametrize(("old", "new"), REWORDINGS)
def test_a_rewording_merges_and_history_keeps_both_wordings(mem, old, new):
    first = mem.remember(old, project="p")
    second = mem.remember(new, project="p")
    assert is_rewording(old, new)
    assert second.extra["status"] == "merged" and second.supersedes == first.id
    assert [v.text for v in mem.history(first.id)] == [old, new]
    assert mem.count(project="p") == 1


@pytest.mark.parametrize(("old", "new"), LOOK_ALIKES)
def test_a_look_alike_with_another_environment_or_value_stays_a_memory_of_its_own(mem, old, new):
    mem.remember(old, project="p")
    rec = mem.remember(new, project="p")
    assert rec.extra["status"] == "new"
    assert mem.count(project="p") == 2


def test_a_stem_in_common_is_not_enough_for_other_facts():
    assert not is_rewording("Invoices are emailed as PDF files on the first of each month to the billing contact.",
                            "The monthly invoice run emails billing contacts a summary of failed payments.")
