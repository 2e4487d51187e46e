"""Capture: a terse spec list is read item by item (a results list is not); a later session's
change of a version, a duration or an instance size supersedes the earlier memory, also when the
two sessions key the subject differently ("Prod rds: …" then "prod rds is … now")."""

from __future__ import annotations

import pytest

from cavemem.memory.capture import slots
from test_capture_shapes import _texts
from test_capture_slots import _current, _session
from test_capture import stores  # noqa: F401 - the same memory + recovery store fixture


def test_a_spec_list_is_kept_item_by_item_but_not_what_refers_to_the_turn():
    got = _texts(("u", "- horizon 8 weeks ahead\n- never shuffle for CV, it's a time series\n"
                       "- polars for feature engineering, pandas only at the model boundary\n- nice, keep those features"))
    assert got == ["Horizon 8 weeks ahead.", "Never shuffle for CV, it's a time series.",
                   "Polars for feature engineering, pandas only at the model boundary."]


def test_a_results_list_and_a_single_line_are_not_a_spec():
    assert _texts(("u", "Results so far:\n- LightGBM at 21.4% on the holdout\n- naive baseline at 29.8% on it")) == []
    assert _texts(("u", "- polars for feature engineering")) == []  # one bullet: no list


def test_values_read_a_version_named_before_the_change_a_duration_and_a_size():
    assert slots.values("Quarkus we upgrade now to 3.15, it has the fix.")["version:quarkus"] == {"3.15"}
    assert slots.replaces("Quarkus we upgrade now to 3.15.", "Java 21 with Quarkus 3.11.") == 3
    assert slots.values("horizon 8 weeks ahead") == {"qty:time": {"80640"}}  # minutes: one type for every unit
    assert slots.values("slots of 1 hour") == slots.values("slots of 60 minutes") and slots.values("15d")["qty:time"] == {"21600"}
    assert slots.replaces("The horizon goes to 12 weeks, merchandising asked for it.", "Horizon 8 weeks ahead.") == 2
    assert slots.replaces("Sessions now expire after 12 weeks.", "Horizon 8 weeks ahead.") == 0  # another subject
    assert slots.values("prod rds is db.r6g.large now")["size"] == {"db.r6g.large"}


@pytest.mark.usefixtures("db_backend")
def test_a_topic_line_is_updated_by_a_later_setting_of_the_same_subject(tmp_path, stores):
    mem, ccr = stores
    from cavemem.memory.capture import capture_transcript

    first = capture_transcript(mem, _session(tmp_path / "a.jsonl", "s1", "prod rds: db.t3.medium. staging rds: db.t3.small"),
                               ccr=ccr, project="p").stored
    later = capture_transcript(mem, _session(tmp_path / "b.jsonl", "s2", "go. prod rds is db.r6g.large now. staging stays"),
                               ccr=ccr, project="p").stored
    assert [g["status"] for g in later] == ["superseded"] and later[0]["supersedes"] == first[0]["id"]
    assert _current(mem) == ["Prod rds is db.r6g.large now. staging stays.", "Staging rds: db.t3.small."]


def test_how_people_feel_an_open_choice_and_a_problem_report_are_not_stored():
    assert _texts(("u", "We host on fly.io in ams, marketing is unhappy.")) == ["We host on fly.io in ams."]
    assert _texts(("u", "Lighthouse says 41 performance on mobile, marketing is unhappy.")) == []  # a measurement of the moment
    assert _texts(("u", "We must choose how terminals talk to the API when internet is down in the shop.")) == []
    assert _texts(("u", "Problem: when a customer removes the gift wrap, the 300 yen line stays in the order.")) == []
    assert _texts(("u", "oh and we bumped to flutter 3.27 yesterday bc of a plugin")) == [
        "We bumped to flutter 3.27 yesterday."]  # a time word is no feeling; a reason naming nothing specific is cut
    assert _texts(("u", "we use Twilio for the reminders because my uncle wants it simple")) == [
        "We use Twilio for the reminders."]
    assert _texts(("u", "Payments go with Mollie, because in the Netherlands everybody pays with iDEAL.")) == [
        "Payments go with Mollie, because in the Netherlands everybody pays with iDEAL."]  # names something: kept


def test_a_question_ends_its_sentence_before_a_capital():
    assert _texts(("u", "Which metric should we report, accuracy or macro F1? The api listens on port 8080.")) == [
        "The api listens on port 8080."]


def test_i_switched_a_then_pick_a_must_convention_and_a_sentence_ended_by_a_laugh():
    assert _texts(("u", "also i switched from npm to bun, its sooo much faster")) == ["I switched from npm to bun."]
    assert _texts(("u", "oracle free tier then")) == ["Oracle free tier then."]
    assert _texts(("u", "ok then")) == []
    assert _texts(("u", "The UI must support Arabic right-to-left and English.")) == [
        "The UI must support Arabic right-to-left and English."]
    assert _texts(("u", "so i made a discord bot for my server lol. discord.js v14 + typescript, runs on my old laptop")) == [
        "Discord.js v14 + typescript, runs on my old laptop."]
    assert _texts(("u", "version name format is yyyy.mm.build, like 2026.11.3")) == [
        "Version name format is yyyy.mm.build, like 2026.11.3."]  # "yyyy" is no "sooo"


def test_what_a_change_says_is_gone():
    from cavemem.memory.capture.shapes import replaced_word

    assert replaced_word("We renamed master to main.") == "master"
    assert replaced_word("We dropped Redis, the job queue is in Postgres now.") == "Redis"
    assert replaced_word("We use pnpm now, npm was too slow.") == "npm"
    assert replaced_word("We dropped the cron job.") == "cron"  # past the article
    assert replaced_word("We use pnpm for the frontend.") is None


@pytest.mark.usefixtures("db_backend")
@pytest.mark.parametrize("before, after", [
    ("we use npm for the frontend packages", "we use pnpm now, npm was too slow"),
    ("Let's use Redis for the job queue.", "we dropped Redis, the job queue is in Postgres now with pg-boss"),
    ("Deploys go out with a fabfile.", "deploys now go through GitHub Actions, the fabfile is gone"),
    ("The worker service is called ingestd.", "we renamed ingestd to intake, the old name confused people"),
    ("The API rate limit is 100 requests per minute.", "rate limit is now 300 requests per minute"),
    ("Tests run with jest.", "we switched the tests to vitest"),
    ("we host on heroku", "we moved hosting to fly.io last week"),
])
def test_a_later_statement_that_names_what_is_gone_supersedes_it(tmp_path, stores, before, after):
    mem, ccr = stores
    from cavemem.memory.capture import capture_transcript

    first = capture_transcript(mem, _session(tmp_path / "a.jsonl", "s1", before), ccr=ccr, project="p").stored
    later = capture_transcript(mem, _session(tmp_path / "b.jsonl", "s2", after), ccr=ccr, project="p").stored
    assert len(first) == 1 and [g.get("supersedes") for g in later] == [first[0]["id"]]
    assert len(_current(mem)) == 1


@pytest.mark.usefixtures("db_backend")
def test_a_moved_host_supersedes_and_the_version_beside_it_stays(tmp_path, stores):
    mem, ccr = stores
    from cavemem.memory.capture import capture_transcript

    capture_transcript(mem, _session(tmp_path / "a.jsonl", "s1", "Go 1.22, broker is mosquitto on broker.kelpie.lan port 1883."),
                       ccr=ccr, project="p")
    later = capture_transcript(mem, _session(tmp_path / "b.jsonl", "s2", "The broker moved, it is now on mqtt.kelpie.lan, same port."),
                               ccr=ccr, project="p").stored
    assert [g["status"] for g in later] == ["superseded"]
    assert _current(mem) == ["Go 1.22.", "The broker moved, it is now on mqtt.kelpie.lan, same port."]


def test_moved_off_is_a_decision_and_an_aside_is_cut_with_the_feeling():
    assert _texts(("u", "we moved off envoyer, deploys now go through github actions")) == [
        "We moved off envoyer, deploys now go through github actions."]
    assert _texts(("u", "quotes expire after 14 days. customers complain but that's the policy")) == [
        "Quotes expire after 14 days."]


@pytest.mark.usefixtures("db_backend")
def test_a_job_moved_to_another_tool_leaves_other_jobs_alone(tmp_path, stores):
    mem, ccr = stores
    from cavemem.memory.capture import capture_transcript

    capture_transcript(mem, _session(tmp_path / "a.jsonl", "s1", "Tests run with jest.", "Lint runs with eslint."), ccr=ccr, project="p")
    capture_transcript(mem, _session(tmp_path / "b.jsonl", "s2", "we switched the tests to vitest"), ccr=ccr, project="p")
    assert _current(mem) == ["Lint runs with eslint.", "We switched the tests to vitest."]
