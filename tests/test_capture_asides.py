"""What a captured memory leaves out (capture/asides.py): the reason given for a choice, a person's
coming or going, what still works beside a symptom, a trailing verdict on it, a reversal lead-in,
an estimate of the moment and a sentence that only introduces the project or team. The source
message keeps all of it; the memory keeps what a later session needs."""

from __future__ import annotations

import pytest

from cavemem import Memory
from cavemem.memory.capture import extract
from cavemem.memory.capture.pipeline import store_candidate
from cavemem.memory.capture.transcript import Message
from test_capture_shapes import _texts


def _msgs(*turns, first=0):
    return [Message(uuid=str(first + i), type="user" if role == "u" else "assistant", offset=0, length=0, text=text)
            for i, (role, text) in enumerate(turns)]


def test_a_reason_after_a_choice_is_cut_but_a_want_or_a_fact_stays():
    assert _texts(("u", "We leave Mailgun, the newsletters go out with Brevo now, it is cheaper for our volume.")) == [
        "We leave Mailgun, the newsletters go out with Brevo now."]
    assert _texts(("u", "We stop with the paper forms, signups go through the web form now, the members never fill them in.")) == [
        "We stop with the paper forms, signups go through the web form now."]
    # a first-person want is part of the choice, a short identity is a fact of its own
    assert _texts(("u", "we go with caddy, we want the automatic certs")) == ["We go with caddy, we want the automatic certs."]
    assert _texts(("u", "react 18 + vite, api is django")) == ["React 18 + vite, api is django."]


def test_a_person_leaving_is_not_kept_in_the_fact_it_changes():
    assert _texts(("u", "Jonas left the team, now Mira is our release manager and she tags the builds.")) == [
        "Mira is our release manager and she tags the builds."]


def test_a_symptom_keeps_what_goes_wrong_not_what_works_or_a_verdict():
    got = extract.extract(_msgs(("u", "the map tiles are blank on firefox, only at zoom 15. chrome is fine."),
                                ("a", "The tiles are blank because the tile server sends `image/jpg`, which Firefox rejects. "
                                      "I fixed it by setting `Content-Type: image/jpeg` in the nginx location.")))
    bug = next(c for c in got if c.capture_kind == "bugfix")
    assert "only at zoom 15" in bug.text and "chrome is fine" not in bug.text.lower()
    got = extract.extract(_msgs(("u", "the invoice total is wrong for big orders, like 40 items shows 12 EUR, totally absurd"),
                                ("a", "The total is wrong because the line sum is rounded per page. I fixed it by summing in cents.")))
    bug = next(c for c in got if c.capture_kind == "bugfix")
    assert "like 40 items shows 12 EUR" in bug.text and "absurd" not in bug.text


def test_a_reversal_lead_in_and_an_estimate_are_not_stored():
    assert _texts(("u", "Changed my mind about the cache: 10 minutes TTL, not 1 hour.")) == ["The cache: 10 minutes TTL, not 1 hour."]
    assert _texts(("u", "The tickets are very uneven, like 70% are password resets.")) == []


def test_an_introduction_of_the_project_or_team_is_not_a_fact():
    assert _texts(("u", "Harbourly is SaaS for marinas, we are a team of four in Gdansk.")) == []
    assert _texts(("u", "I am the only developer on this.")) == []
    # an introduction that holds a value a later session needs stays
    assert _texts(("u", "Harbourly is a booking app written in Go 1.23 with sqlc.")) != []


@pytest.fixture()
def mem(tmp_path):
    m = Memory(str(tmp_path / "m.db"), scorers=[], merge=True)
    yield m
    m.close()


def test_the_update_still_supersedes_once_the_reason_is_cut(mem):
    first = extract.extract(_msgs(("u", "The reminders go out by SMS through Twilio.")))
    later = extract.extract(_msgs(("u", "We stop with Twilio, the reminders go by WhatsApp now, the clients don't read SMS."), first=1))
    old = store_candidate(mem, first[0], "p", "s1")
    new = store_candidate(mem, later[0], "p", "s2")
    assert new["status"] == "superseded" and new["supersedes"] == old["id"]
    assert mem.show(new["id"]).text == "We stop with Twilio, the reminders go by WhatsApp now."


def test_a_password_value_is_never_stored_whatever_rule_reads_it():
    got = extract.extract(_msgs(("u", "the login fails for user admin with password Hunter2024x on staging"),
                                ("a", "The login fails because the staging seed hashes with md5 while the app checks bcrypt. "
                                      "I fixed it by re-seeding the users with bcrypt hashes.")))
    assert [c.capture_kind for c in got] == ["bugfix"]
    assert "Hunter2024x" not in got[0].text and "password [REDACTED] on staging" in got[0].text
