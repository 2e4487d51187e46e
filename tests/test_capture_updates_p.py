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
