"""Implicit updates read from a statement's structure (its subject and the kind of its value), not
from its wording: a restated value with no change word, a "key: value" line and a "(was X)" note
rank before what they replace; another attribute, a sibling subject or another environment never do."""

from __future__ import annotations

import pytest

from cavemem.memory.update import SAME_SLOT, SAME_SUBJECT, SLOT_ONE_WAY, newer_first, replaces

NEAR = (SAME_SLOT + SLOT_ONE_WAY) / 2  # above the slot floor, under the one-way bar
CLOSE = (SLOT_ONE_WAY + SAME_SUBJECT) / 2  # over the one-way bar, under the change-word bar

# (older, newer), each said with no change word at all
RESTATED = [
    ("The thumbnail cache holds 2000 entries.", "The thumbnail cache holds 5000 entries."),
    ("The nightly vacuum job starts at 02:00.", "The nightly vacuum job starts at 04:30."),
    ("Search results: 20 per page.", "Search results are paged at 50 per page."),
    ("PDF exports are produced with Puppeteer.", "PDF exports: produced with Playwright (was Puppeteer)."),
    ("Error reports go to Bugsnag.", "Error reports go to Sentry."),
]
# (older, newer): another attribute, a sibling subject, another environment
DISTINCT = [
    ("Training jobs request 16 GB of memory.", "Training uses a batch size of 512."),
    ("The ingest pods have a 512Mi memory limit.", "The router pods have a 1Gi memory limit."),
    ("The production read replica is db-ro-prod.example.com.", "The staging read replica is db-ro-stg.example.com."),
    ("EU stores are forecast from the eu-west-1 account.", "US stores are forecast from the us-east-1 account."),
    ("The nightly vacuum job starts at 02:00.", "The nightly vacuum job takes 40 minutes."),
]


@pytest.mark.parametrize(("old", "new"), RESTATED)
def test_a_restated_value_of_the_same_subject_goes_first_without_a_change_word(old, new):
    assert replaces(old, new, NEAR)
    assert newer_first([1, 2], {1: old, 2: new}, {1: 10, 2: 20}, lambda seqs: {(1, 2): NEAR}) == [2, 1]


@pytest.mark.parametrize(("old", "new"), DISTINCT)
def test_another_attribute_subject_or_environment_is_no_update(old, new):
    assert not replaces(old, new, CLOSE)
    assert newer_first([1, 2], {1: old, 2: new}, {1: 10, 2: 20}, lambda seqs: {(1, 2): CLOSE}) == [1, 2]


def test_the_older_fact_never_goes_behind_an_older_text():
    old, new = RESTATED[0]
    assert newer_first([1, 2], {1: new, 2: old}, {1: 20, 2: 10}, lambda seqs: {(1, 2): NEAR}) == [1, 2]


def test_a_subject_found_one_way_only_needs_a_closer_meaning():
    old, new = "Workout charts are drawn with victory-native.", "Charts use react-native-skia directly."
    assert not replaces(old, new, NEAR)
    assert replaces(old, new, CLOSE)


def test_without_vectors_only_a_subject_found_both_ways_decides():
    """A memory not embedded yet has no cosine: the structure alone, and only its strict form."""
    both = RESTATED[1]
    one_way = ("Workout charts are drawn with victory-native.", "Charts use react-native-skia directly.")
    assert replaces(*both, None)
    assert not replaces(*one_way, None)
    assert not replaces(*DISTINCT[2], None)
    assert newer_first([1, 2], {1: both[0], 2: both[1]}, {1: 10, 2: 20}, lambda seqs: {}) == [2, 1]


def test_turns_of_one_speaker_are_not_versions_of_each_other():
    """A conversation stored as "<speaker>: <text>": the speaker is no subject, so two turns by
    the same person with other names in them stay in the order recall gave."""
    old, new = "Caroline: I adopted a dog named Max in May.", "Caroline: Melanie and I painted the fence on Sunday."
    assert not replaces(old, new, CLOSE)
    key_line = ("Search results: 20 per page.", "Search results: 50 per page.")
    assert replaces(*key_line, NEAR)  # a "key: value" line with a two-word key is still read as one
