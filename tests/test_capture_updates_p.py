"""Updates across sessions said in other words (issue 11): a thing said to run somewhere else under its
initials ("HA" / "home assistant"), a URL changed in a memory that also names a dev server, a job that
moved said subject first ("CI moved to Buildkite") in one sentence with a version bump, a choice closed
by the product it rules out ("…; no Cloudflare"), and a pick among options laid out before "which one
do you want?". Each test captures tiny transcripts, one session after the other, through the pipeline."""

from __future__ import annotations

import json

from cavemem import Memory
from cavemem.memory.capture import capture_transcript, extract
from cavemem.memory.capture.transcript import Message
from cavemem.store.ccr import open_ccr


def _line(uid, session, role, text):
    return json.dumps({"type": role, "uuid": uid, "sessionId": session, "cwd": "/tmp/proj", "timestamp": "2026-10-01T10:00:00.000Z",
                       "message": {"role": role, "content": text}}) + "\n"


def _capture(tmp_path, *sessions):
    """Current memory texts after capturing each session (a list of (role, text)) in turn; all texts ever stored."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    mem, ccr = Memory(str(tmp_path / "m.db"), scorers=[]), open_ccr(str(tmp_path / "c.db"))
    for n, turns in enumerate(sessions):
        p = tmp_path / f"s{n}.jsonl"
        p.write_text("".join(_line(f"{n}-{i}", f"s{n}", "user" if r == "u" else "assistant", t) for i, (r, t) in enumerate(turns)))
        capture_transcript(mem, str(p), ccr=ccr, project="proj")
    current = [r[0] for r in mem.store.read("SELECT text FROM memories WHERE valid_until IS NULL")]
    every = [r[0] for r in mem.store.read("SELECT text FROM memories")]
    mem.close()
    ccr.close()
    return current, every


def _texts(*turns):
    msgs = [Message(uuid=str(i), type="user" if role == "u" else "assistant", offset=0, length=0, text=text)
            for i, (role, text) in enumerate(turns)]
    return [c.text for c in extract.extract(msgs)]


def test_a_thing_said_to_run_elsewhere_under_its_initials_replaces_the_old_host(tmp_path):
    current, every = _capture(tmp_path, [("u", "HA runs on a raspberry pi 4 with an SSD, zigbee goes through zigbee2mqtt.")],
                              [("u", "home assistant runs on an intel NUC now")])
    assert "Home assistant runs on an intel NUC now." in current
    assert not any("raspberry" in t for t in current) and any("raspberry" in t for t in every)
    assert any("zigbee2mqtt" in t for t in current)  # the neighbour fact of the old memory stays


def test_two_hosts_of_different_things_both_stay(tmp_path):
    current, _ = _capture(tmp_path, [("u", "Home assistant runs on a raspberry pi 4.")],
                          [("u", "The mqtt broker runs on an intel NUC now.")])
    assert any("raspberry" in t for t in current) and any("intel NUC" in t for t in current)


def test_a_url_changed_beside_a_dev_server_replaces_the_unscoped_one(tmp_path):
    current, _ = _capture(tmp_path, [("u", "Backend API is https://api.hanok.kr/v2, dev server is api-dev.hanok.kr.")],
                          [("u", "Backend team changed API version, now it is https://api.hanok.kr/v3.")])
    assert not any("/v2" in t for t in current)
    assert any("/v3" in t for t in current) and any("api-dev.hanok.kr" in t for t in current)


def test_a_url_of_staging_never_replaces_the_prod_one(tmp_path):
    current, _ = _capture(tmp_path, [("u", "Backend API is https://api.hanok.kr/v2, dev server is api-dev.hanok.kr.")],
                          [("u", "The dev backend API changed, now it is https://api-dev.hanok.kr/v3.")])
    assert any("https://api.hanok.kr/v2" in t for t in current)


def test_a_two_word_tool_name_is_a_fact_and_a_job_moved_subject_first_replaces_it(tmp_path):
    current, every = _capture(tmp_path, [("u", "Lattice is a TypeScript monorepo: pnpm workspaces plus Turborepo, Node 20."),
                                         ("u", "CI is GitHub Actions for now.")],
                              [("u", "We're on Node 22 since Monday, and CI moved to Buildkite.")])
    assert "CI is GitHub Actions." in every
    assert not any("GitHub Actions" in t for t in current) and not any("Node 20" in t for t in current)
    assert any("Buildkite" in t for t in current) and any("Node 22" in t for t in current)
    assert any("Turborepo" in t for t in current)  # the rest of the stack line stays


def test_a_choice_closed_by_the_product_it_rules_out_replaces_it(tmp_path):
    current, every = _capture(tmp_path, [("a", "route53 or cloudflare?"), ("u", "cloudflare. we want the waf")],
                              [("u", "Route 53 for DNS, AWS WAF attached to the ALB; no Cloudflare.")])
    assert any(t.startswith("Cloudflare. we want the waf") for t in every)
    assert not any(t.startswith("Cloudflare. we want the waf") for t in current)
    assert "Route 53 for DNS, AWS WAF attached to the ALB; no Cloudflare." in current


def test_a_pick_among_options_laid_out_before_which_one_is_a_decision_and_is_replaced_later(tmp_path):
    ask = ("For the API docs there are two ways: springdoc-openapi generates them from the controllers; Spring REST Docs "
           "needs a test per endpoint but the docs are always correct. Which one do you want?")
    assert any(t.startswith("Springdoc. faster. (answering:") for t in _texts(("a", ask), ("u", "springdoc. faster.")))
    current, _ = _capture(tmp_path, [("a", ask), ("u", "springdoc. faster.")],
                          [("u", "We change the docs. Spring REST Docs instead of springdoc.")])
    assert not any(t.startswith("Springdoc. faster.") for t in current)
    assert any("Spring REST Docs instead of springdoc" in t for t in current)


def test_a_which_question_with_no_options_laid_out_stores_no_pick():
    assert _texts(("a", "Which one do you want?"), ("u", "springdoc. faster.")) == []


def test_a_reminder_one_day_before_is_a_practice_one_day_we_is_a_musing():
    assert _texts(("u", "SMS reminders we send with Twilio, one day before the appointment at 6 pm.")) == [
        "SMS reminders we send with Twilio, one day before the appointment at 6 pm."]
    assert _texts(("u", "One day we will move the workers to Kubernetes.")) == []


def test_each_half_of_a_semicolon_sentence_is_read():
    assert _texts(("u", "Everything lives in the otter_prod catalog; the cluster runtime is 14.3 LTS.")) == [
        "The cluster runtime is 14.3 LTS.", "Everything lives in the otter_prod catalog."]


def test_a_short_answer_naming_the_head_of_an_option_picks_it():
    got = _texts(("a", "Axum it is. And for storage: plain PostgreSQL, or TimescaleDB for the readings?"), ("u", "timescale"))
    assert got == ["Timescale. (answering: And for storage: plain PostgreSQL, or TimescaleDB for the readings?)"]


def _replaced(tmp_path, old, new):
    """True when ``new`` (a later session) superseded ``old`` and is itself current."""
    current, every = _capture(tmp_path, [("u", old)], [("u", new)])
    return old in every and old not in current and new in current


def _both_stay(tmp_path, old, new):
    current, _ = _capture(tmp_path, [("u", old)], [("u", new)])
    return old in current and new in current


def test_a_version_under_another_name_of_the_tool_replaces_it(tmp_path):
    assert _replaced(tmp_path, "DB is PostgreSQL 15.", "Postgres is 16 now.")


def test_x_is_out_y_is_in_replaces_the_line_naming_x(tmp_path):
    assert _replaced(tmp_path, "Tests run with Jest.", "Jest is out, Vitest is in.")


def test_a_time_said_of_the_same_generic_thing_replaces_it_a_named_other_thing_stays(tmp_path):
    assert _replaced(tmp_path / "a", "Deploys run nightly at 02:00.", "The nightly deploy is at 03:00 now.")
    assert _replaced(tmp_path / "b", "We release on Tuesdays.", "Release day is Thursday now.")
    assert _both_stay(tmp_path / "c", "Standup is at 09:30 every day.", "The nightly deploy is at 03:00 now.")


def test_a_correction_of_a_port_replaces_it(tmp_path):
    assert _replaced(tmp_path, "Staging DB port is 5432.", "Correction: the staging DB is on port 5433.")


def test_where_a_thing_is_or_goes_through_now_replaces_where_it_was(tmp_path):
    assert _replaced(tmp_path / "a", "The frontend is hosted on Netlify.", "The frontend is on Vercel now.")
    assert _replaced(tmp_path / "b", "Emails go through SendGrid.", "Emails go through Postmark now, SendGrid kept bouncing.")
    assert _both_stay(tmp_path / "c", "The frontend is hosted on Netlify.", "The docs are hosted on GitHub Pages now.")


def test_a_job_moved_to_a_named_tool_is_stored_and_replaces_the_old_tool(tmp_path):
    assert _replaced(tmp_path / "a", "Auth is done with Auth0.", "Auth moved to Clerk last week.")
    assert _replaced(tmp_path / "b", "We use Celery for background jobs.", "Background jobs moved to Dramatiq.")


def test_a_value_moved_is_no_job_moved(tmp_path):
    """"Envoy admin moved to port 9902" is a port: it never replaces the admin rule by the word "admin"."""
    current, _ = _capture(tmp_path, [("u", "Admin must never be exposed publicly, bind it to 127.0.0.1.")],
                          [("u", "Envoy admin moved to port 9902, 9901 is taken by the node exporter.")])
    assert "Admin must never be exposed publicly, bind it to 127.0.0.1." in current


def test_a_run_measured_is_no_setting():
    assert _texts(("u", "Tests took 12s, that's fine for now.")) == []


def test_a_rule_closed_by_always_is_a_preference():
    assert _texts(("u", "totals in the bill go on their own line always")) == ["Totals in the bill go on their own line always."]


def test_a_fact_said_in_a_mixed_language_is_kept_its_reason_and_a_credential_are_not():
    assert _texts(("u", "slots son de 30 minutos")) == ["Slots son de 30 minutos."]
    assert _texts(("u", "MinIO 换成阿里云 OSS 了, bucket 叫 yunpan-prod")) == ["MinIO 换成阿里云 OSS 了, bucket 叫 yunpan-prod."]
    assert _texts(("u", "Deployment geht über Coolify auf einem Hetzner CX32, das ist halt billiger als Vercel.")) == [
        "Deployment geht über Coolify auf einem Hetzner CX32."]
    assert _texts(("u", "supabase service role key hai eyJhbGciOiJIUzI1NiJ9.c2VydmljZV9yb2xl.Zx8Kq2LmNv, isko .env me daal do")) == []
    assert _texts(("u", "ok bhai sab theek hai")) == []


def test_thanks_and_goodbyes_in_any_language_are_no_part_of_the_fact():
    assert _texts(("u", "ok gracias, deploy target is fly.io")) == ["Deploy target is fly.io."]
    assert _texts(("u", "shukriya bhai, the staging server is at 10.0.0.7")) == ["The staging server is at 10.0.0.7."]
    assert _texts(("u", "bis morgen, the API lives at api.kaffee.de")) == ["The API lives at api.kaffee.de."]
    assert _texts(("u", "sorry for my english, the app is for android 10+")) == ["The app is for android 10+."]
    assert _texts(("u", "Super admin is the only role that sees /admin/billing.")) == [
        "Super admin is the only role that sees /admin/billing."]


def test_a_test_status_said_as_a_topic_line_is_not_stored():
    assert _texts(("u", "tests pass: 148 passed in 3.2s")) == []


def test_a_second_object_without_its_verb_stays_with_the_first():
    assert _texts(("u", "we now also ingest weather observations from DMI, and the gate OCR events from the new camera system")) == [
        "We now also ingest weather observations from DMI, and the gate OCR events from the new camera system."]


def test_a_terse_version_said_now_is_stored_and_replaces_the_old_version(tmp_path):
    assert _replaced(tmp_path, "Runtime is Node 20 LTS.", "Node 22 now.")
    assert _texts(("u", "Step 2 now.")) == []


def test_a_retraction_names_what_the_next_statement_replaces(tmp_path):
    current, every = _capture(tmp_path, [("u", "Sanctions screening goes through ComplyAdvantage.")],
                              [("u", "We are no longer using ComplyAdvantage. Screening moves to Dow Jones Risk & Compliance from January.")])
    assert "Sanctions screening goes through ComplyAdvantage." in every
    assert current == ["Screening moves to Dow Jones Risk & Compliance from January."]
    assert _texts(("u", "We are no longer using ComplyAdvantage.")) == []


def test_everyday_wordings_of_a_new_value_replace_the_old_one(tmp_path):
    pairs = [("Airflow 2.9 on MWAA.", "Airflow is now 2.10."),
             ("Config lives in ~/.tallow.toml.", "Config now in ~/.config/tallow/config.toml."),
             ("The deadline is 1 March.", "The deadline moved to 15 March."),
             ("The server runs on :8080.", "Port is 9000 now."),
             ("We host the Django app on PythonAnywhere.", "From this week the Django app is on Hetzner."),
             ("State management is Riverpod.", "We change state management to Bloc."),
             ("Logs go to Papertrail.", "We moved logs to Better Stack."),
             ("DB is MySQL 8.", "Not anymore MySQL, we use PostgreSQL 16."),
             ("Cache is Redis 7.", "We dont use redis anymore, cache is in-memory."),
             ("We deploy every Friday.", "Deploy is not Friday anymore, is Thursday."),
             ("Our product manager is Burak.", "Product manager is Elif now."),
             ("The timeout is 30 seconds.", "Timeout changed from 30 to 60 seconds."),
             ("Dbt runs every 4 hours.", "Dbt runs now every 2 hours.")]
    failed = [(old, new) for i, (old, new) in enumerate(pairs) if not _replaced(tmp_path / str(i), old, new)]
    assert failed == []


def test_a_percentage_changed_replaces_its_clause_and_the_rest_stays(tmp_path):
    current, _ = _capture(tmp_path, [("u", "Tests run with pytest and coverage must stay over 80%.")],
                          [("u", "Coverage must stay over 90% now.")])
    assert "Coverage must stay over 90% now." in current and any("pytest" in t for t in current)
    assert not any("80%" in t for t in current)


def test_look_alikes_of_these_wordings_stay_apart(tmp_path):
    pairs = [("The deadline is 1 March.", "The launch party is on 20 March now."),
             ("Coverage must stay over 80%.", "The discount is 15% now."),
             ("We host the Django app on PythonAnywhere.", "The docs site is on Netlify now."),
             ("Routing is GoRouter.", "We change state management to Bloc."),
             ("Redis listens on port 6379, the API on port 8080.", "Port is 9000 now."),
             ("Airflow 2.9 on MWAA.", "Python is now 3.12.")]
    merged = [(old, new) for i, (old, new) in enumerate(pairs) if not _both_stay(tmp_path / str(i), old, new)]
    assert merged == []


def test_a_thing_renamed_replaces_the_line_naming_it_and_a_green_build_is_no_fact(tmp_path):
    assert _replaced(tmp_path, "Assets are in the bucket acme-assets.", "The S3 bucket got renamed to acme-prod-assets.")
    assert _texts(("u", "build is green now, the CI runs on GitHub Actions")) == []


def test_a_rule_after_a_path_and_a_tool_for_a_job_beside_a_credential_are_kept():
    assert _texts(("u", "modules in modules/, one dir per env under envs/. no workspaces")) == [
        "Modules in modules/, one dir per env under envs/. no workspaces."]
    assert _texts(("u", "also the alert emails, use Postmark. the server token is 4f1c9a2e-7b3d-4e8f-a6c5-91d2e0b7f3a8")) == [
        "The alert emails, use Postmark."]


def test_a_verbless_via_line_names_the_tool():
    assert _texts(("u", "relases via goreleaser, binarys on github releases")) == ["Relases via goreleaser."]


def test_a_key_of_a_service_named_with_its_value_is_never_stored():
    assert _texts(("u", "The sandbox key of the fiscal cloud is sbx_9f8e7d6c5b4a, only in application-dev.properties.")) == []


def test_the_speakers_own_story_is_no_memory_a_practice_of_years_is():
    assert _texts(("u", "By way of introduction: I wrote COBOL for the county council for thirty-one years.")) == []
    assert _texts(("u", "I've been a nurse for ten years.")) == []
    assert _texts(("u", "I have run the nightly backup with restic for 3 years.")) == [
        "I have run the nightly backup with restic for 3 years."]


def test_how_the_speaker_feels_or_what_they_just_did_is_no_part_of_the_fact():
    assert _texts(("u", "I'm so tired today, the timezone is Europe/Warsaw")) == ["The timezone is Europe/Warsaw."]
    assert _texts(("u", "btw I just had coffee, retention is 30 days")) == ["Retention is 30 days."]
    assert _texts(("u", "lol ok that was quick, we use pnpm 9")) == ["We use pnpm 9."]


def test_y_replaces_x_and_an_arrow_between_names_replace_the_line_naming_x(tmp_path):
    current, _ = _capture(tmp_path / "a", [("u", "Crash reports go to Sentry.")], [("u", "Bugsnag replaces Sentry for the crash reports.")])
    assert current == ["Bugsnag replaces Sentry for the crash reports."]
    current, _ = _capture(tmp_path / "b", [("u", "The cache is redis 7 on the same box.")], [("u", "cache: redis -> valkey 8")])
    assert not any("redis 7" in t for t in current) and any("valkey" in t for t in current)


def test_seconds_abbreviated_after_what_is_timed_are_a_duration(tmp_path):
    assert _replaced(tmp_path, "The HTTP timeout is 10s.", "The HTTP timeout is 30s now.")
    from cavemem.memory.capture import slots
    assert "qty:time" not in slots.values("We have 10s of users on the beta.")


def test_a_count_said_by_its_noun_is_the_same_slot_as_the_number_of_them(tmp_path):
    assert _replaced(tmp_path / "a", "The worker count is 4.", "We have 8 workers now.")
    assert _both_stay(tmp_path / "b", "The worker count is 4.", "We have 3 replicas now.")


def test_x_is_replaced_with_y_is_stored_and_replaces_x(tmp_path):
    assert _replaced(tmp_path, "Errors go to Sentry.", "Sentry is replaced with Bugsnag.")
