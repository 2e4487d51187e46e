"""Implicit updates read from how people write a change: the reason for it ("since we hired …"),
a statement that opens on its verb or on "we" (its object is the subject), "local time" (a time
zone, not the local environment), and siblings named with no known verb stay two facts."""

from __future__ import annotations

import pytest

from cavemem.memory.update import SAME_SLOT, SAME_SUBJECT, replaces, states_change

CLOSE = SAME_SUBJECT + 0.1  # two texts clearly about one subject


@pytest.mark.parametrize("text", [
    "Support chat hours are 8:00-20:00 CET since we hired two more agents.",
    "The default node pool is n2d-standard-8 after the capacity review.",
    "Build agents use 8 cores after switching the CI provider.",
    "The old S3 bucket was shut down, exports go to GCS.",
    "sarama is not used in new code and is being removed.",
])
def test_the_reason_for_a_change_reads_as_a_change(text):
    assert states_change(text)


@pytest.mark.parametrize("text", [
    "Requests time out after 10 seconds.",
    "The cache expires after 5 minutes.",
    "Invoices are due 30 days after issue.",
])
def test_a_duration_is_no_change(text):
    assert not states_change(text)


def test_a_reworded_value_with_its_reason_goes_before_the_old_value():
    assert replaces("In-app chat support is staffed 9:00-17:00 CET.",
                    "Support chat hours are 8:00-20:00 CET since we hired two more agents.", CLOSE)


def test_a_statement_that_opens_on_we_or_its_verb_is_about_its_object():
    assert replaces("HTTP clients are built with resty.",
                    "We build HTTP clients with the standard library; resty is not used any more.", CLOSE)
    assert replaces("The parser pins serde 1.0.150.", "Bumped the parser to serde 1.0.210.", SAME_SLOT + 0.05)


def test_local_time_is_a_time_zone_and_prod_vs_staging_still_never_merge():
    assert replaces("Backups start at 01:00 local time.", "Backups start at 03:00 UTC.", CLOSE)
    assert not replaces("Backups of the production database start at 01:00.",
                        "Backups of the staging database start at 03:00.", 0.95)
    assert not replaces("The local dev server listens on 8000.", "The server listens on 8080.", 0.95)


def test_siblings_named_before_a_verb_the_rule_does_not_know_stay_two_facts():
    assert not replaces("Music volume defaults to 70%.", "Voice chat volume defaults to 90%.", 0.85)
    assert not replaces("Category-level models train on 3 years of history.",
                        "New-store models train on the first 8 weeks of history.", CLOSE)
