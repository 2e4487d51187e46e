"""Implicit updates in the wordings of dev set part 8: a lead-in ("Correction:", "Actually"), a
markdown "key: value" bullet, another time unit or a frequency word for the same quantity, the old
value named as gone ("X is out", "Y replaced X", "use Y, not X"), a date that slipped, another
release of the same software at a low cosine. The newer memory is served first; a look-alike
(a size against a count, another release of other software) is not."""

from __future__ import annotations

import pytest

from cavemem.memory.update import SAME_SLOT, SAME_SUBJECT, newer_first, replaces

BELOW = (SAME_SLOT + SAME_SUBJECT) / 2  # over the slot floor, under the same-subject bar
HIGH = 0.7
LOW = 0.42  # under the slot floor: two wordings of one release bump

# (older, newer, cosine): one subject, its value changed
UPDATES = [
    # a lead-in before the subject
    ("Thumbnails are cached as 256x256 webp files.", "Actually the thumbnails are 512x512, retina screens blurred them.", BELOW),
    # another unit for one quantity, a bullet with a key
    ("The uploader retries every 45 s.", "- uploader retry interval: 3 minutes, the 45 s retries hammered the API", HIGH),
    # a frequency word, a key line
    ("Search indexes are rebuilt every 30 minutes from the primary.", "Search index rebuild: nightly, the primary was overloaded.", HIGH),
    # "every <period>" with no number
    ("The sitemap is regenerated every Monday.", "Sitemap generation reruns every day for the blog.", HIGH),
    # the old value named as gone
    ("Feature flags are served by LaunchDarkly.", "Unleash replaced LaunchDarkly for feature flags, it is self-hosted.", BELOW),
    ("Transactional emails are sent through Mailgun.", "Mailgun is out, Postmark is in for receipts.", BELOW),
    ("Forms are validated with yup.", "Form screens use zod for validation; yup was dropped for type inference.", BELOW),
    ("Priya approves every database migration.", "Database migrations need Tom's approval; Priya left the team.", BELOW),
    # a date that slipped
    ("Public beta is planned for March 3.", "The beta date slipped to April 10 for the billing work.", 0.62),
    # another release of the same software, worded apart
    ("The API pins pydantic 1.10.", "Moved the API models to pydantic 2.7, the validator renames are done.", LOW),
]

# (older, newer, cosine): both stay true
DISTINCT = [
    # a size and a count of one subject: two attributes
    ("Map regions are 64x64 cells.", "Map regions have 3 cell layers.", 0.8),
    # a count read as a version, never dotted
    ("The audit queue has 12 consumers.", "The billing queue has 48 consumers so payments never lag.", LOW),
    # another software's release
    ("The API pins pydantic 1.10.", "The worker moved to celery 5.4.", LOW),
    # a gone value the older text never held
    ("Feature flags are served by LaunchDarkly.", "Unleash replaced Flagsmith for the admin tool's toggles.", BELOW),
    # turns of talk state no value of a memory: one speaker's news is no update of another's
    ("Caroline: I drive my old car to work every day.", "Mel: my old car is gone, I sold it last week.", BELOW),
]


@pytest.mark.parametrize(("old", "new", "cos"), UPDATES)
def test_the_newer_wording_of_a_changed_value_is_served_first(old, new, cos):
    assert replaces(old, new, cos)
    assert newer_first([1, 2], {1: old, 2: new}, {1: 10, 2: 20}, lambda seqs: {(1, 2): cos}) == [2, 1]


@pytest.mark.parametrize(("old", "new", "cos"), DISTINCT)
def test_a_look_alike_keeps_its_place(old, new, cos):
    assert not replaces(old, new, cos)
    assert newer_first([1, 2], {1: old, 2: new}, {1: 10, 2: 20}, lambda seqs: {(1, 2): cos}) == [1, 2]
