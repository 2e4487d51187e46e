"""Capture: tolerant transcript reading, exact incremental archive, rule extraction, supersession."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from cavemem import Memory
from cavemem.memory.capture import archive, capture_transcript, extract
from cavemem.memory.capture.transcript import read_from
from cavemem.store.ccr import open_ccr

# every test runs on SQLite and on PostgreSQL (conftest.db_backend)
pytestmark = pytest.mark.usefixtures("db_backend")

DATA = os.path.join(os.path.dirname(__file__), "data", "transcripts")


@pytest.fixture
def stores(tmp_path):
    mem = Memory(str(tmp_path / "mem.db"), scorers=[])
    ccr = open_ccr(str(tmp_path / "ccr.db"))
    yield mem, ccr
    mem.close()
    ccr.close()


def _line(kind, uid, text, **extra):
    d = {"type": kind, "uuid": uid, "sessionId": "s1", "cwd": "/tmp/proj", "gitBranch": "main",
         "timestamp": "2026-10-01T10:00:00.000Z", "message": {"role": kind, "content": text}}
    d.update(extra)
    return json.dumps(d) + "\n"


def test_reader_skips_unknown_types_and_ignores_a_torn_last_line(tmp_path):
    p = tmp_path / "t.jsonl"
    p.write_text(_line("user", "u1", "hello") + '{"type":"weird-new-type","uuid":"w1"}\n' + "not json\n"
                 + _line("assistant", "a1", [{"type": "thinking", "thinking": "secret plan"}, {"type": "text", "text": "hi"}])
                 + '{"type":"user","uuid":"u2","mess')
    chunk = read_from(str(p))
    assert [m.uuid for m in chunk.messages] == ["u1", "w1", "a1"]
    assert chunk.messages[2].text == "hi"  # thinking is not conversation
    assert chunk.end == p.stat().st_size - len('{"type":"user","uuid":"u2","mess')


def test_tool_results_are_data_not_conversation(tmp_path):
    p = tmp_path / "t.jsonl"
    p.write_text(_line("user", "u1", [{"type": "tool_result", "tool_use_id": "x", "content": "Let's go with rm -rf /"}],
                       toolUseResult={"stdout": "x"}))
    msg = read_from(str(p)).messages[0]
    assert msg.tool and msg.text == ""


def test_archive_is_incremental_and_exact(tmp_path, stores):
    mem, ccr = stores
    p = tmp_path / "t.jsonl"
    first = _line("user", "u1", "The API server runs on port 8000.")
    p.write_text(first)
    r1 = capture_transcript(mem, str(p), ccr=ccr, project="proj")
    assert (r1.new_messages, r1.archived_bytes) == (1, len(first))
    second = _line("assistant", "a1", "ok")
    with open(p, "a") as fh:
        fh.write(second + '{"torn')
    r2 = capture_transcript(mem, str(p), ccr=ccr, project="proj")
    assert (r2.new_messages, r2.archived_bytes) == (1, len(first) + len(second))
    r3 = capture_transcript(mem, str(p), ccr=ccr, project="proj")
    assert r3.new_messages == 0 and r3.stored == []
    assert archive.message_bytes(mem.store, ccr, "s1", "u1") == first.rstrip("\n").encode()
    assert archive.message_bytes(mem.store, ccr, "s1", "a1") == second.rstrip("\n").encode()
    rec = archive.session_record(mem.store, "s1")
    assert rec["messages"] == 2 and rec["branch"] == "main" and rec["cwd"] == "/tmp/proj"


def test_changed_fact_supersedes_and_restatement_does_not(tmp_path, stores):
    mem, ccr = stores
    p = tmp_path / "t.jsonl"
    p.write_text(_line("user", "u1", "The API server runs on port 8000."))
    old = capture_transcript(mem, str(p), ccr=ccr, project="proj").stored[0]
    with open(p, "a") as fh:
        fh.write(_line("user", "u2", "The API server runs on port 8000 locally.")
                 + _line("user", "u3", "The API server now runs on port 8081."))
    got = capture_transcript(mem, str(p), ccr=ccr, project="proj").stored
    assert [g["status"] for g in got] == ["existing", "superseded"]
    chain = [r.text for r in mem.history(got[1]["id"])]
    assert chain == ["The API server runs on port 8000.", "The API server now runs on port 8081."]
    assert not mem.show(old["id"]).current


def test_capture_off_still_archives(tmp_path, stores, monkeypatch):
    mem, ccr = stores
    monkeypatch.setenv("CAVEMAN_CAPTURE", "0")
    p = tmp_path / "t.jsonl"
    p.write_text(_line("user", "u1", "Let's go with Postgres for the orders database."))
    r = capture_transcript(mem, str(p), ccr=ccr, project="proj")
    assert r.stored == [] and r.new_messages == 1 and mem.count(project="*") == 0


def test_devset_file_captures_its_gold_and_no_secrets_or_noise(tmp_path, stores):
    mem, ccr = stores
    gold = json.load(open(os.path.join(DATA, "gold.json")))
    name = "acme-api-01-setup.jsonl"
    shutil.copy(os.path.join(DATA, name), tmp_path / name)
    r = capture_transcript(mem, str(tmp_path / name), ccr=ccr, project="acme-api")
    texts = [mem.show(s["id"]).text.lower() for s in r.stored]
    for item in gold[name]["gold"]:
        assert any(all(w in t for w in item["must"]) for t in texts), item
    for bad in gold[name]["noise"] + gold[name]["secrets"]:
        assert not any(bad.lower() in t for t in texts), bad
    row = mem.store.read("SELECT confidence, source_session, source_message FROM mem_capture WHERE id = ?", (r.stored[0]["id"],))[0]
    assert 0 < row[0] < 1 and row[1] == gold[name]["session"]
    assert archive.message_bytes(mem.store, ccr, row[1], row[2])  # the source line is there, exactly


def test_rules_skip_questions_chatter_code_and_credentials():
    from cavemem.memory.capture.transcript import Message

    msgs = [Message(uuid="1", type="user", offset=0, length=0, text="Should we use port 9000 for the api?"),
            Message(uuid="2", type="assistant", offset=0, length=0, text="Let me check the tests.\n```\nlet's go with B\n```"),
            Message(uuid="3", type="user", offset=0, length=0, text="The db password is hunter2hunter2, it runs on port 5432.")]
    assert extract.extract(msgs) == []


def _msgs(*turns):
    from cavemem.memory.capture.transcript import Message

    return [Message(uuid=str(i), type="user" if role == "u" else "assistant", offset=0, length=0, text=text)
            for i, (role, text) in enumerate(turns)]


def test_a_bare_option_pick_stores_what_the_option_was():
    got = extract.extract(_msgs(("u", "Which cache for the sessions?"),
                                ("a", "A) Memcached: simple, no persistence. B) Redis: persistence and TTLs per key."),
                                ("u", "B please, we need the TTLs.")))
    assert [(c.kind, c.text) for c in got] == [
        ("decision", "Redis: persistence and TTLs per key. (picked option B: B please, we need the TTLs.)")]


def test_assistant_facts_count_only_when_asked_or_confirmed():
    asked = extract.extract(_msgs(("u", "What Node version does CI use?"), ("a", "CI runs node 20.11 on every job.")))
    assert [c.text for c in asked] == ["CI runs node 20.11 on every job."] and asked[0].confidence < 0.7
    unconfirmed = _msgs(("u", "Bump the lockfile."), ("a", "CI runs node 20.11 on every job."), ("u", "No, that's the old runner."))
    assert extract.extract(unconfirmed) == []
    hedged = _msgs(("u", "What Node version does CI use?"), ("a", "CI probably runs node 20.11."))
    assert extract.extract(hedged) == []


def test_schedules_directional_verbs_and_named_conventions():
    got = extract.extract(_msgs(("u", "Backups go out every Sunday at 03:00 UTC."),
                                ("u", "The exporter publishes to metrics.acme.internal now."),
                                ("u", "Tests live next to the code, that's our convention."),
                                ("u", "We should standardise on httpx for outbound calls.")))
    assert [(c.kind, c.entity) for c in got] == [("fact", "schedule:backups"), ("fact", "host:exporter"),
                                                 ("preference", None), ("decision", "decision:outbound calls")]


def test_turn_rules_short_answers_confirmed_fixes_and_corrections():
    pick = extract.extract(_msgs(("u", "Do we log with structlog or loguru?"), ("a", "structlog: JSON out of the box."),
                                 ("u", "structlog, obviously")))
    assert [c.text for c in pick] == ["Structlog, obviously. (answering: Do we log with structlog or loguru?)"]
    fix = _msgs(("u", "the worker keeps crashing with MemoryError on big uploads"),
                ("a", "I switched the upload handler to stream chunks of 1 MiB instead of reading the whole body."),
                ("u", "works now, thanks"))
    assert [c.capture_kind for c in extract.extract(fix)] == ["bugfix"]
    assert extract.extract(fix[:2] + _msgs(("u", "still crashing"))) == []
    corr = extract.extract(_msgs(("u", "The report job runs every Monday at 07:00."), ("u", "actually make it 08:30")))
    assert [c.text for c in corr] == ["The report job runs every Monday at 07:00.", "The report job runs every Monday at 08:30."]
    assert corr[0].entity == corr[1].entity


def test_from_a_to_b_and_a_narrower_subject_supersede_the_memory_they_replace(tmp_path, stores):
    mem, ccr = stores
    p = tmp_path / "t.jsonl"
    p.write_text(_line("user", "u1", "Builds are tested in Jenkins.")
                 + _line("user", "u2", "The billing api is at billing.acme.dev for production."))
    first = capture_transcript(mem, str(p), ccr=ccr, project="proj").stored
    with open(p, "a") as fh:
        fh.write(_line("user", "u3", "We're moving CI from Jenkins to GitHub Actions.")
                 + _line("user", "u4", "The production api moved to api.billing.acme.dev.")
                 + _line("user", "u5", "The staging api is at staging.billing.acme.dev."))
    got = capture_transcript(mem, str(p), ccr=ccr, project="proj").stored
    assert [g["status"] for g in got] == ["superseded", "superseded", "new"]
    assert [g.get("supersedes") for g in got[:2]] == [first[0]["id"], first[1]["id"]]


def test_broad_net_keeps_specific_statements_and_skips_tasks_bugs_and_credentials():
    got = extract.extract(_msgs(("u", "uploads land in the bucket shop-assets on DigitalOcean Spaces"),
                                ("u", "rename the helper to parse_money in utils.py"),
                                ("u", "checkout is broken since the 3.2 deploy"),
                                ("u", "the deploy key is AKIA1234567890ABCDEF for now")))
    assert [(c.text, c.confidence) for c in got] == [("Uploads land in the bucket shop-assets on DigitalOcean Spaces.", 0.5)]


def test_an_assistant_proposal_the_user_agrees_to_and_a_scratched_fact():
    agreed = extract.extract(_msgs(("u", "hook the cache up however you like"),
                                   ("a", "I'd rather use Redis with a 5 minute TTL than the in-process LRU."), ("u", "even better, do that")))
    assert [(c.kind, c.text) for c in agreed] == [("decision", "I'd rather use Redis with a 5 minute TTL than the in-process LRU.")]
    declined = _msgs(("a", "I'd rather use Redis with a 5 minute TTL than the in-process LRU."), ("u", "no, keep the LRU"))
    assert all(c.kind != "decision" or "Redis" not in c.text for c in extract.extract(declined))
    moved = extract.extract(_msgs(("u", "The launch is scheduled for Friday 2026-12-04 at 09:00."), ("u", "scratch that, launch is the 11th")))
    assert [c.text for c in moved] == ["The launch is scheduled for Friday 2026-12-04 at 09:00.", "Launch is the 11th."]
    assert moved[0].entity == moved[1].entity == "when:launch"
