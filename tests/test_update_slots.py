"""Implicit updates by slot: a changed value of one subject ranks first even when the two texts'
cosine is under the same-subject bar, and look-alike subjects never do."""

from __future__ import annotations

import pytest

from cavemem import Memory
from cavemem.memory.update import SAME_SLOT, SAME_SUBJECT, newer_first, replaces

BELOW = (SAME_SLOT + SAME_SUBJECT) / 2  # a cosine between the slot floor and the subject bar

# (older, newer): one subject, a changed value; said as agents write them
UPDATES = [
    ("The search indexer runs on idx-1.corp.example.com.", "The search indexer moved to idx-2.corp.example.com."),
    ("Session cookies expire after 12 hours.", "Session cookie lifetime is now 24 hours."),
    ("The nightly backup runs at 01:00.", "Backups now start at 03:00."),
    ("Integration tests run against Postgres 14.", "Integration tests now use Postgres 16."),
    ("The API gateway timeout is 30 s.", "Gateway timeout was lowered to 15 s."),
    ("pgbouncer pool_size is 20 per database.", "Bumped the pgbouncer pool to 40 after the timeouts."),
    ("We pin Terraform 1.5.7.", "Terraform 1.7.2 is what CI runs."),  # another version, no change word
]
# (older, newer): neighbouring subjects with the same shape of value; both stay true
SIBLINGS = [
    ("The search indexer runs on idx-1.corp.example.com.", "The thumbnail worker moved to idx-2.corp.example.com."),
    ("The image resizer listens on port 9000.", "The auth proxy now listens on port 9100."),
    ("The API container gets 2 CPUs.", "The worker container now gets 4 CPUs."),
    ("Session cookies expire after 12 hours.", "Password reset links now expire after 1 hour."),
    ("The nightly backup runs at 01:00.", "The weekly report job now runs at 06:00."),
    ("Android builds use Gradle 8.2.", "iOS builds now use Xcode 15.4."),
    ("Redis maxmemory is 2 GB.", "Bumped the Kafka retention to 4 GB."),
    ("Admin users get a 15 minute session.", "Guest users now get a 5 minute session."),
]


@pytest.mark.parametrize(("old", "new"), UPDATES)
def test_a_changed_value_of_the_same_subject_replaces_it_below_the_subject_bar(old, new):
    assert replaces(old, new, BELOW)
    assert newer_first([1, 2], {1: old, 2: new}, {1: 10, 2: 20}, lambda seqs: {(1, 2): BELOW}) == [2, 1]


@pytest.mark.parametrize(("old", "new"), SIBLINGS)
def test_a_neighbouring_subject_with_the_same_shape_of_value_is_no_update(old, new):
    assert not replaces(old, new, BELOW)


def test_the_slot_needs_some_meaning_and_the_same_environment():
    old, new = UPDATES[0]
    assert not replaces(old, new, SAME_SLOT)  # the floor itself is not enough
    assert not replaces("Production API runs on api-1.example.com.", "Staging API moved to api-2.example.com.", 0.95)
    # a where-the-code note is not replaced by a bug story that mentions the same thing
    assert not replaces("src/days.ts compares calendar days for streaks.",
                        "Streaks broke at midnight; now we compare local calendar days.", 0.9)


def test_a_number_restated_without_a_change_word_needs_a_close_meaning():
    old, new = "The default window size is 1280x720.", "Default window is 1600x900 on the new UI."
    assert not replaces(old, new, BELOW)
    assert replaces(old, new, 0.8)


@pytest.fixture
def mem(cave_home, tmp_path):
    m = Memory(str(cave_home / "mem.db"), cwd=str(tmp_path), scorers=["embed"])
    yield m
    m.close()


def test_recall_serves_the_bumped_value_first_and_keeps_the_old_one(mem):
    mem.remember("pgbouncer pool_size is 20 per database.", project="p", at="2026-01-05")
    mem.remember("Bumped the pgbouncer pool to 40 after the connection timeouts during the invoice run.",
                 project="p", at="2026-02-10")
    mem.remember("Writes go to the primary db-primary.internal.example.io.", project="p", at="2026-01-06")
    got = [h["text"] for h in mem.recall("what is the pool size in front of postgres", project="p")["hits"]]
    assert got[0].startswith("Bumped the pgbouncer pool to 40")
    assert "pgbouncer pool_size is 20 per database." in got


def test_a_tool_named_gone_replaces_it_and_a_bug_story_replaces_nothing():
    assert replaces("Django sessions are stored in the database.",
                    "Sessions are no longer kept in the database; they live in Redis now.", BELOW)
    assert not replaces("Maps are limited to 256x256 chunks.",
                        "Memory spiked to 3 GB when loading big maps because every chunk kept its mesh; we now drop it.", BELOW)
