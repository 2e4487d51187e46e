"""Capture in everyday Claude Code English (voices set O): musings are not memories, a standing rule keeps
its "please never" clause, an emoticon ends a sentence, a context lead-in goes, "Cause:" labels a cause,
a decision with a request tacked on is still a decision, the assistant reading tool output back is no
fact, and a new version of a line is keyed by what it says."""

from __future__ import annotations

import json

import pytest

from cavemem import Memory
from cavemem.memory.capture import capture_transcript, extract
from cavemem.memory.capture.transcript import Message
from cavemem.store.ccr import open_ccr


def _texts(*turns):
    msgs = [Message(uuid=str(i), type="user" if role == "u" else "assistant", offset=0, length=0, text=text)
            for i, (role, text) in enumerate(turns)]
    return [c.text for c in extract.extract(msgs)]


@pytest.mark.parametrize("said", [
    "Maybe we look at Liquid Clustering at some point, no rush.",
    "Interesting that the plan still uses 200 shuffle partitions, whatever.",
    "huh, z2m is on 1.41 already, didn't know",
    "kinda surprised the cache hit rate is that low",
])
def test_a_musing_is_not_a_memory(said):
    assert _texts(("u", said)) == []


def test_the_same_facts_said_plainly_are_kept():
    assert _texts(("u", "Zigbee2MQTT is on 1.41.")) == ["Zigbee2MQTT is on 1.41."]
    assert _texts(("u", "The sessionize job uses 200 shuffle partitions.")) == ["The sessionize job uses 200 shuffle partitions."]


def test_a_standing_rule_keeps_its_please_never_clause():
    assert _texts(("u", "btw we write tests in RSpec, please never add minitest files")) == [
        "We write tests in RSpec, please never add minitest files."]
    assert _texts(("u", "I keep all automations in YAML files under automations/, please don't suggest the UI editor")) == [
        "I keep all automations in YAML files under automations/, please don't suggest the UI editor."]


def test_an_emoticon_ends_the_sentence_before_it():
    assert _texts(("u", "so the pi died :( home assistant runs on an intel NUC now")) == ["Home assistant runs on an intel NUC now."]


def test_a_context_lead_in_is_no_part_of_the_fact():
    assert _texts(("u", "hi! quick context first: quayside is our ferry booking app, Rails 7.1 on Ruby 3.2 with Postgres 16.")) == [
        "Quayside is our ferry booking app, Rails 7.1 on Ruby 3.2 with Postgres 16."]


def test_a_cause_label_makes_a_bugfix_and_the_labels_are_said_once():
    got = _texts(("u", "problem: the hallway light automation fires twice every time someone walks past"),
                 ("a", "Fixed the double firing. Cause: the automation had two triggers for the same motion sensor. "
                       "Fix: removed the device trigger and set `mode: single`."))
    assert got == ["Symptom: The hallway light automation fires twice every time someone walks past. "
                   "Cause: the automation had two triggers for the same motion sensor. "
                   "Fix: removed the device trigger and set `mode: single`."]


def test_a_decision_with_a_request_tacked_on_is_a_decision_a_value_handed_over_is_not():
    assert _texts(("u", "We're replacing ESLint and Prettier with Biome, can you set that up?")) == [
        "We're replacing ESLint and Prettier with Biome."]
    assert _texts(("u", "the admin login is admin / Tr0ub4dor-x9, can you put it in the seed?")) == []
    assert _texts(("u", "Should we use Biome, can you compare it with ESLint?")) == []  # a real question stays one


def test_the_assistant_reading_tool_output_back_is_no_fact():
    got = _texts(("u", "we upgraded to Rails 7.2 last week"),
                 ("a", "I see the Gemfile moved to Rails 7.2.1 and dropped Sidekiq."),
                 ("u", "right"))
    assert got == ["We upgraded to Rails 7.2 last week."]


def _line(uid, text):
    return json.dumps({"type": "user", "uuid": uid, "sessionId": "s1", "cwd": "/tmp/proj", "timestamp": "2026-10-01T10:00:00.000Z",
                       "message": {"role": "user", "content": text}}) + "\n"


def test_a_new_version_is_keyed_by_what_it_says(tmp_path):
    """"We upgraded to Rails 7.2" replaces the stack line keyed by Ruby; "Ruby is 3.3 now" must then not
    replace the Rails line (it did while the new version kept the old key)."""
    mem, ccr = Memory(str(tmp_path / "m.db"), scorers=[]), open_ccr(str(tmp_path / "c.db"))
    p = tmp_path / "t.jsonl"
    p.write_text(_line("u1", "Quayside is our ferry booking app, Rails 7.1 on Ruby 3.2 with Postgres 16."))
    capture_transcript(mem, str(p), ccr=ccr, project="proj")
    with open(p, "a") as fh:
        fh.write(_line("u2", "we upgraded to Rails 7.2 last week, and Ruby is 3.3 now"))
    capture_transcript(mem, str(p), ccr=ccr, project="proj")
    current = [r[0] for r in mem.store.read("SELECT text FROM memories WHERE valid_until IS NULL")]
    mem.close()
    ccr.close()
    assert "We upgraded to Rails 7.2 last week." in current and "Ruby is 3.3 now." in current


def _stored(tmp_path, *names):
    """Every current memory captured from the named voices transcripts, through the whole pipeline."""
    from pathlib import Path
    mem, ccr = Memory(str(tmp_path / "m.db"), scorers=[]), open_ccr(str(tmp_path / "c.db"))
    for name in names:
        capture_transcript(mem, str(Path(__file__).parent / "data" / "transcripts" / name), ccr=ccr, project="proj")
    current = [r[0] for r in mem.store.read("SELECT text FROM memories WHERE valid_until IS NULL")]
    mem.close()
    ccr.close()
    return current


def test_an_emphasis_after_a_rule_and_a_context_label_are_no_memories(tmp_path):
    """Voices set P: "Rule: … No exceptions." stored "No exceptions." on its own, and "Context: X is our
    warehouse." was kept as a memory of its own next to the facts it introduces."""
    got = _stored(tmp_path, "v-wisla-01-orders.jsonl")
    assert not any(t.strip(". ").lower() == "no exceptions" for t in got)
    assert not any(t.lower().startswith("context:") for t in got)


def test_apologies_and_shrugs_are_not_stored_and_please_not_suggest_is_a_rule(tmp_path):
    got = " ".join(_stored(tmp_path, "v-gelato-01-checkout.jsonl", "v-gelato-02-hosting.jsonl", "v-hanok-01-feed.jsonl"))
    for noise in ("be patient with me", "big news", "boh"):
        assert noise not in got.lower()
    assert "please not suggest Bloc" in got
