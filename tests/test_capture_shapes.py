"""Capture rules read through typed values and turn context: terse stack lines, changed values, a
request glued to a fact, "must" conventions, momentary status, a diagnosis of a problem stated
without a bug word, and a short pick between options worded at length."""

from __future__ import annotations

from cavemem.memory.capture import extract
from cavemem.memory.capture.transcript import Message


def _msgs(*turns):
    return [Message(uuid=str(i), type="user" if role == "u" else "assistant", offset=0, length=0, text=text)
            for i, (role, text) in enumerate(turns)]


def _texts(*turns):
    return [c.text for c in extract.extract(_msgs(*turns))]


def test_a_terse_stack_line_is_a_fact_and_the_request_after_it_is_not():
    assert _texts(("u", "morning! flask app, python 3.11. can you add a /health endpoint that returns the git sha")) == [
        "Flask app, python 3.11."]
    assert _texts(("u", "ok, 3 files, 2 tests")) == []  # counts name no thing
    assert _texts(("u", "rails 7, ruby 3.3, sidekiq")) == ["Rails 7, ruby 3.3, sidekiq."]


def test_a_changed_value_is_kept_without_the_task_glued_to_it():
    assert _texts(("u", "we bumped min iOS to 17 for the new observation APIs")) == [
        "We bumped min iOS to 17 for the new observation APIs."]
    assert _texts(("u", "we moved to python 3.12 last week, update the Dockerfile base image")) == [
        "We moved to python 3.12 last week."]
    assert _texts(("u", "To run the pipeline locally, run it with `make etl-local DATE=2026-10-12`.")) == [
        "To run the pipeline locally, run it with `make etl-local DATE=2026-10-12`."]  # a how-to keeps its answer


def test_must_conventions_and_momentary_status():
    got = extract.extract(_msgs(("u", "webhooks hit /webhooks/adyen and must be HMAC-verified before anything else happens"),
                                ("u", "tests took 12s, that's fine for now")))
    assert [(c.kind, c.text) for c in got] == [
        ("preference", "Webhooks hit /webhooks/adyen and must be HMAC-verified before anything else happens.")]


def test_a_diagnosis_of_a_problem_without_a_bug_word_is_one_bugfix():
    got = extract.extract(_msgs(
        ("u", "customers get charged twice when they double-click pay"),
        ("a", "The cause is that `create_payment` has no idempotency. I made the client send an `Idempotency-Key` header.")))
    assert [(c.capture_kind, c.text) for c in got] == [("bugfix", "Symptom: customers get charged twice when they double-click pay. "
                                                        "Cause: The cause is that `create_payment` has no idempotency. "
                                                        "Fix: I made the client send an `Idempotency-Key` header.")]
    looked = _msgs(("u", "the page is empty on refresh"), ("a", "The cause is a stale cache. I checked the headers."))
    assert [c.text for c in extract.extract(looked)] == []  # looking is not fixing


def test_a_short_pick_between_options_worded_at_length():
    got = _texts(("u", "Should new screens get their own feature module or live in the main target?"),
                 ("a", "Their own module: it keeps previews fast."), ("u", "yeah own module"))
    assert got == ["Own module. (answering: Should new screens get their own feature module or live in the main target?)"]


def test_a_new_clause_after_a_full_sentence_starts_a_new_memory():
    assert _texts(("u", "SwiftUI app, min iOS 16. we don't use storyboards at all")) == [
        "SwiftUI app, min iOS 16.", "We don't use storyboards at all."]


def test_a_diagnosis_said_as_an_explanation_is_one_bug_fix_memory():
    got = extract.extract(_msgs(("u", "orders show up twice on the kitchen screen when the wifi is flaky"),
                                ("a", "The duplicates happen because the POS retries the webhook and each retry inserts a row. "
                                      "I now insert with ON CONFLICT DO NOTHING on the POS order number.")))
    assert [(c.capture_kind, c.text) for c in got] == [(
        "bugfix", "Symptom: Orders show up twice on the kitchen screen when the wifi is flaky. Cause: The duplicates happen because "
                  "the POS retries the webhook and each retry inserts a row. Fix: I now insert with ON CONFLICT DO NOTHING on the POS order number.")]
    # an explanation with "because" where nothing went wrong is no bug fix
    assert [c.capture_kind for c in extract.extract(_msgs(
        ("u", "should we cache routes in redis or in memory?"),
        ("a", "In memory is enough because you run one instance. I added a Caffeine cache of 10,000 routes.")))] == []


def test_an_answer_to_the_assistants_either_or_question_is_a_decision_with_its_question():
    assert _texts(("a", "Should message history be paginated by offset or by cursor?"), ("u", "cursor, by inserted_at + id")) == [
        "Cursor, by inserted_at + id. (answering: Should message history be paginated by offset or by cursor?)"]
    assert _texts(("a", "Do you want it per instance (an in-process LRU), or shared (Upstash Redis)?"),
                  ("u", "which one would you pick"), ("a", "Shared: you run several instances."), ("u", "ok the second one then")) == [
        "The second one then. (answering: Do you want it per instance (an in-process LRU), or shared (Upstash Redis)?)"]
    assert _texts(("a", "One test fails. Shall I fix it now or later?"), ("u", "later")) == []  # the assistant's own next step
    assert _texts(("a", "Should the API be REST or gRPC?"), ("u", "hmm not sure yet")) == []  # names neither side


def test_a_decision_in_the_present_tense_or_said_as_it_is():
    got = extract.extract(_msgs(("u", "We go with local queue on the terminal, max 72 hours offline."),
                                ("u", "flux has the objects already so restic cronjobs it is"),
                                ("u", "that's just the way it is, we never deploy on fridays")))
    assert [c.capture_kind for c in got][:2] == ["decision", "decision"]
    assert all(c.capture_kind != "decision" for c in got[2:])


def test_a_terse_one_value_fragment_and_a_not_b():
    assert _texts(("u", "terraform 1.8. aws eu-west-1. pnpm not npm")) == ["Terraform 1.8.", "Aws eu-west-1.", "Pnpm not npm."]
    assert _texts(("u", "tf 1.9 for all infra")) == ["Tf 1.9 for all infra."]  # opens with the named version
    assert _texts(("u", "yes 100")) == [] and _texts(("u", "see 3.2")) == []  # no named thing, or a reference
    assert _texts(("u", "default ~/Documents/Quillpad")) == ["Default ~/Documents/Quillpad."]


def test_a_misspelt_password_is_still_a_credential_and_we_move_from_to_is_a_decision():
    assert _texts(("u", "yea its in 1password. the keystore pasword is fl-K3ystore-2026-x, same deal")) == []
    got = extract.extract(_msgs(("u", "we move the Strapi from Hetzner to DigitalOcean App Platform next week")))
    assert [(c.capture_kind, c.replaces) for c in got] == [("decision", "Hetzner")]


def test_routines_exclusive_channels_and_obligations_are_conventions():
    got = extract.extract(_msgs(("u", "Please run clang-format before every commit."), ("u", "Dependencies come only through vcpkg."),
                                ("u", "Polaris only, no custom CSS."), ("u", "Accessibility is required by law here."),
                                ("u", "only one test fails")))
    assert [c.capture_kind for c in got] == ["preference"] * 4


def test_a_retraction_alone_is_no_memory_but_the_new_value_is():
    got = _texts(("u", "Amendment A: the retention period is no longer five years. Identity documents are now kept for seven years after closure."))
    assert not any("no longer" in t for t in got)  # stored, it would read as the old fact
    assert any("seven years" in t for t in got)
    assert _texts(("u", "we are no longer using ComplyAdvantage.")) == []
    assert _texts(("u", "we no longer use jest, we use vitest now")) == ["We no longer use jest, we use vitest now."]  # names the new one
