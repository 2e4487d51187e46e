"""Ways of writing the voices set M showed (capture reads what is said, not how it is typed): emoji
bullets, markdown bold keys, a "key: value" line glued after a sentence, a trailing "always", a fact
in another language that still names a version or port, durations said in words, "X dropped", a
reason in parentheses and "the old one is gone" after an update."""

from __future__ import annotations

from cavemem.memory.capture import extract, slots
from cavemem.memory.capture.pipeline import store_candidate
from test_capture_asides import _msgs, mem  # noqa: F401 - the same memory fixture
from test_capture_shapes import _texts


def test_emoji_bullets_and_bold_keys_read_as_list_items():
    assert _texts(("u", "✅ svelte 5.1\n🚫 no tailwind, ever\n🎯 ship only through the beta channel")) == [
        "Svelte 5.1.", "No tailwind, ever.", "Ship only through the beta channel."]
    assert _texts(("u", "## Stack\n- **Queue:** NATS 2.10\n- **DB:** CockroachDB 24.1")) == ["Queue: NATS 2.10.", "DB: CockroachDB 24.1."]


def test_a_key_line_after_a_sentence_starts_anew_and_a_trailing_always_is_a_rule():
    assert "Stack: Vue 3 + Pocketbase, hosting on a NUC." in _texts(("u", "ok we build a kiosk for the museum. stack: Vue 3 + Pocketbase, hosting on a NUC."))
    assert _texts(("u", "the receipts show the tip on a separate line, always")) == [
        "The receipts show the tip on a separate line, always."]


def test_a_fact_in_another_language_that_names_a_version_or_port_is_kept():
    assert _texts(("u", "Die Datenbank läuft auf Postgres 16.2 im Keller.")) == ["Die Datenbank läuft auf Postgres 16.2 im Keller."]
    assert _texts(("u", "缓存用 Memcached，port 11212")) == ["缓存用 Memcached，port 11212."]
    assert _texts(("u", "Danke, das war es für heute.")) == []  # nothing named: not a fact


def test_durations_in_words_are_values_that_update(mem):  # noqa: F811
    assert slots.values("the backup runs every four hours") == slots.values("the backup runs every 4 hours")
    old = extract.extract(_msgs(("u", "the backup job runs every four hours from /etc/cron.d/backup")))
    new = extract.extract(_msgs(("u", "the backup job runs every two hours now"), first=1))
    first = store_candidate(mem, old[0], "p", "s1")
    later = store_candidate(mem, new[0], "p", "s2")
    assert later["status"] == "superseded" and later["supersedes"] == first["id"]


def test_x_dropped_supersedes_and_a_parenthesised_reason_is_cut(mem):  # noqa: F811
    first = extract.extract(_msgs(("u", "Search: Meilisearch, with Typesense as fallback")))
    later = extract.extract(_msgs(("u", "Search: Meilisearch stays, Typesense dropped (nobody used the fallback anyway)"), first=1))
    assert [c.text for c in later] == ["Search: Meilisearch stays, Typesense dropped."]
    old = store_candidate(mem, first[0], "p", "s1")
    new = store_candidate(mem, later[0], "p", "s2")
    assert new["status"] == "superseded" and new["supersedes"] == old["id"]


def test_the_old_one_is_gone_is_cut_from_the_update():
    assert _texts(("u", "and the new runner is called ci3.acme.internal the old one is gone")) == [
        "The new runner is called ci3.acme.internal."]


def test_conventions_said_without_the_usual_rule_words():
    assert _texts(("u", "please review it dont just merge it")) == ["Please review it dont just merge it."]
    assert _texts(("u", "no third party analytics sdks. plain server logs only")) != []
    assert _texts(("u", "Metrics we export with prometheus_client, not with statsd.")) == [
        "Metrics we export with prometheus_client, not with statsd."]
    assert _texts(("u", "the invoice mails go always in Dutch")) == ["The invoice mails go always in Dutch."]
    assert _texts(("u", "Stripe webhooks must validate the timestamp first.")) == ["Stripe webhooks must validate the timestamp first."]
    assert _texts(("u", "max 20 uploads per user. hard limit")) != []
    assert _texts(("u", "and prefix every table with crm_ so the plugins never clash")) != []
    assert _texts(("u", "This is a hard rule.")) == []  # says which rule only with the turn before


def test_seconds_are_durations_and_a_list_header_is_not_glued_to_the_sentence_before():
    assert slots.values("it polls every 30 seconds") == slots.values("it polls every 0.5 minutes")
    assert _texts(("u", "Each gateway pushes a heartbeat every 15 seconds.")) == ["Each gateway pushes a heartbeat every 15 seconds."]
    got = _texts(("u", "orchard is the backend for a cider press, go 1.22 with echo. the setup:\n- db: sqlite\n- queue: none"))
    assert "Orchard is the backend for a cider press, go 1.22 with echo." in got


def test_an_introduction_inside_a_list_or_topic_line_is_not_stored():
    assert _texts(("u", "> **ana** quaywise = the booking web app for the ferry line\n> **ana** vue 3 + vite")) == ["Vue 3 + vite."]
    assert _texts(("u", "Ctx: ledgerline = our internal billing platform.")) == []


def test_the_assistants_restatement_of_a_message_no_rule_read_is_kept():
    got = extract.extract(_msgs(("u", "calendario de google por cada barbero, es la verdad, nada de tabla propia"),
                                ("a", "Understood: one Google Calendar per barber is the source of truth; no bookings table.")))
    assert [(c.text, c.confidence) for c in got] == [("One Google Calendar per barber is the source of truth; no bookings table.", 0.6)]
    # not when the rules read the user's message, nor when the restatement shares no word with it
    assert _texts(("u", "we use Postgres 16 for everything"), ("a", "Understood: Postgres 16 is the database for everything.")) == [
        "We use Postgres 16 for everything."]
    assert _texts(("u", "hmm"), ("a", "Got it: the deploy runs from the release branch only.")) == []


def test_a_diagnosis_said_as_a_consequence_or_as_what_the_crash_is():
    got = extract.extract(_msgs(("u", "the export crashes on big projects"),
                                ("a", "The export crash is the PDF writer running out of file handles: each page opens the font again. "
                                      "I now load the font once per document.")))
    assert [c.capture_kind for c in got] == ["bugfix"]
    got = extract.extract(_msgs(("u", "Another problem: when two admins approve the same refund at once, it is paid twice."),
                                ("a", "Both approvals read the refund as pending before either one wrote, so both payouts went out. "
                                      "I added a row lock with `select_for_update` on the refund.")))
    assert [c.capture_kind for c in got] == ["bugfix"] and "select_for_update" in got[0].text


def test_a_failure_report_a_measurement_of_the_moment_and_a_diagnosis_are_no_facts():
    assert _texts(("a", "One test fails: `test_refund_mail` expects a mail that never arrives.")) == []
    assert _texts(("u", "Lighthouse says 38 performance on mobile, ugh.")) == []
    assert _texts(("u", "The nightly import has been flaky for weeks.")) == []
    assert _texts(("u", "errors: anyhow in the binary, thiserror in the library")) == [
        "Errors: anyhow in the binary, thiserror in the library."]  # a topic that names a bug word is still a topic


def test_a_restatement_shares_a_short_name_with_the_reversal_it_restates():
    got = _texts(("u", "hmm no. ops says keep it in aws. sqs. dlq via aws too"),
                 ("a", "Understood: SQS for the queue, with an AWS dead-letter queue; no RabbitMQ."))
    assert "SQS for the queue, with an AWS dead-letter queue; no RabbitMQ." in got
