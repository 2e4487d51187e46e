"""Capture: a later session's changed value supersedes the earlier memory even when the two
sentences word their subject differently; near-but-distinct pairs (prod vs staging, the bench rig
vs the robots) never supersede each other; the update shows in history and review reject undoes it."""

from __future__ import annotations

import json

import pytest

from cavemem.memory.capture import capture_transcript, slots
from test_capture import stores  # noqa: F401 - the same memory + recovery store fixture

pytestmark = pytest.mark.usefixtures("db_backend")


def _session(path, sid, *texts):
    lines = [{"type": "user", "uuid": f"{sid}-{i}", "sessionId": sid, "cwd": "/tmp/proj", "gitBranch": "main",
              "timestamp": f"2026-10-0{sid[-1]}T10:00:{i:02d}.000Z", "message": {"role": "user", "content": t}}
             for i, t in enumerate(texts)]
    path.write_text("".join(json.dumps(d) + "\n" for d in lines))
    return str(path)


def _current(mem):
    return sorted(r[0] for r in mem.store.read("SELECT text FROM memories WHERE valid_until IS NULL"))


def test_a_later_session_updates_a_value_worded_differently(tmp_path, stores):
    mem, ccr = stores
    first = capture_transcript(mem, _session(tmp_path / "a.jsonl", "s1",
                                             "It runs from a systemd timer at 02:00 every day.",
                                             "Warehouse for dev is TRANSFORM_XS, prod uses TRANSFORM_L."), ccr=ccr, project="p").stored
    later = capture_transcript(mem, _session(tmp_path / "b.jsonl", "s2",
                                             "The nightly sync now runs at 01:15 instead of 02:00.",
                                             "We moved prod to TRANSFORM_XL, L was too slow for the nightly run."), ccr=ccr, project="p").stored
    assert [g["status"] for g in later] == ["superseded", "superseded"]
    assert [g["supersedes"] for g in later] == [first[0]["id"], first[1]["id"]]
    assert [r.text for r in mem.history(later[0]["id"])] == ["It runs from a systemd timer at 02:00 every day.",
                                                              "The nightly sync now runs at 01:15 instead of 02:00."]
    assert _current(mem) == ["The nightly sync now runs at 01:15 instead of 02:00.",
                             "Warehouse for dev is TRANSFORM_XS.",  # the part about dev did not change
                             "We moved prod to TRANSFORM_XL."]  # the reason stays in the source message


def test_review_reject_undoes_an_automatic_update(tmp_path, stores):
    mem, ccr = stores
    old = capture_transcript(mem, _session(tmp_path / "a.jsonl", "s1", "It runs from a systemd timer at 02:00 every day."),
                             ccr=ccr, project="p").stored[0]
    new = capture_transcript(mem, _session(tmp_path / "b.jsonl", "s2", "The nightly sync now runs at 01:15 instead of 02:00."),
                             ccr=ccr, project="p").stored[0]
    assert new["supersedes"] == old["id"] and not mem.show(old["id"]).current
    out = mem.capture.reject(new["id"])
    assert out["restored"] == old["id"] and mem.show(old["id"]).current
    assert _current(mem) == ["It runs from a systemd timer at 02:00 every day."]


def test_near_but_distinct_values_never_supersede(tmp_path, stores):
    mem, ccr = stores
    capture_transcript(mem, _session(tmp_path / "a.jsonl", "s1", "The staging api is at staging.shop.dev.",
                                     "The production api is at api.shop.dev behind the CDN.",
                                     "Motor PWM freq is 20khz on every robot."), ccr=ccr, project="p")
    got = capture_transcript(mem, _session(tmp_path / "b.jsonl", "s2", "The staging api moved to stage2.shop.dev today.",
                                           "On the bench rig the PWM is now 10khz, only the bench rig."), ccr=ccr, project="p").stored
    cur = _current(mem)
    assert "The production api is at api.shop.dev behind the CDN." in cur
    assert "Motor PWM freq is 20khz on every robot." in cur
    assert "The staging api moved to stage2.shop.dev today." in cur and "The staging api is at staging.shop.dev." not in cur
    assert [g["status"] for g in got] == ["superseded", "new"]


@pytest.mark.parametrize("new, old, hit", [
    ("We moved to python 3.12 last week.", "Flask app, python 3.11.", True),
    ("We bumped min iOS to 17 for the new observation APIs.", "SwiftUI app, min iOS 16.", True),
    ("Python 3.11 is what we run.", "Flask app, python 3.11.", False),  # the same value: a restatement
    ("The api now listens on port 9090.", "Redis db 2 holds the idempotency keys.", False),  # nothing in common
    ("Retry 3 times with 10 minute gaps.", "Retry 5 times, then page on call.", False),  # no version, no change word
    ("Tests took 12s now.", "Tests took 40s on CI.", False),  # durations are not versions
    ("Redis now listens on port 6380.", "The api listens on port 8080.", False),  # one verb, two subjects
    ("The api moved to api2.shop.dev.", "The staging api is at staging.shop.dev.", False),  # which api? not staging's
    ("The staging api moved to api2.shop.dev.", "The staging api is at staging.shop.dev.", True),
    ("Backups now run at 04:00.", "Backups run every night at 03:00.", True),
    ("The report now runs at 04:00.", "Backups run every night at 03:00.", False),
    ("Node 3 is down since the outage.", "We are on Node 20 everywhere.", False),  # a name, not a change of version
    ("The wrap price now 350 yen, the paper cost increased.", "The wrapping price is 300 yen, a separate line item.", True),
    ("The shipping fee is now 5 EUR.", "The wrapping price is 300 yen, a separate line item.", False),  # another amount
])
def test_replaces_reads_typed_values(new, old, hit):
    assert (slots.replaces(new, old) > 0) is hit


def test_an_update_of_one_value_keeps_the_other_facts_of_that_memory_current(tmp_path, stores):
    mem, ccr = stores
    first = capture_transcript(mem, _session(tmp_path / "a.jsonl", "s1", "Godot 4.2 project, gdscript only, no C#. target is 60fps on a steam deck."),
                               ccr=ccr, project="p").stored
    got = capture_transcript(mem, _session(tmp_path / "b.jsonl", "s2", "We bumped to godot 4.3 for the new tilemap layers."),
                             ccr=ccr, project="p").stored
    assert got[0]["supersedes"] == first[0]["id"]
    assert _current(mem) == ["Gdscript only, no C#, target is 60fps on a steam deck.", "We bumped to godot 4.3 for the new tilemap layers."]
    rest = mem.store.read("SELECT c.source_session FROM memories m JOIN mem_capture c ON c.id = m.id WHERE m.text LIKE 'Gdscript%'")
    assert rest == [("s1",)]  # the kept part points at where it was said


def test_residual_is_empty_when_the_whole_memory_was_the_changed_value():
    assert slots.residual("The API server runs on port 8000 locally.", "The API server now runs on port 8081.") == ""
    assert slots.residual("Experiments are tracked in wandb.", "We're switching tracking from wandb to mlflow.") == ""
    assert slots.residual("Warehouse for dev is TRANSFORM_XS, prod uses TRANSFORM_L.",
                          "We moved prod to TRANSFORM_XL.") == "Warehouse for dev is TRANSFORM_XS."


def test_an_entity_key_shared_by_two_environments_supersedes_neither(tmp_path, stores):
    mem, ccr = stores
    capture_transcript(mem, _session(tmp_path / "a.jsonl", "s1", "The service listens on port 7070 in dev."), ccr=ccr, project="p")
    got = capture_transcript(mem, _session(tmp_path / "b.jsonl", "s2", "The service listens on port 443 in prod."),
                             ccr=ccr, project="p").stored
    assert [g["status"] for g in got] == ["new"]
    assert _current(mem) == ["The service listens on port 443 in prod.", "The service listens on port 7070 in dev."]
