"""Confidence, expiry and the review queue for captured memories.

Why a side table: confidence and expiry are opinions about a memory, not part of its text, so
they live in ``mem_capture`` keyed by id. A captured memory starts below confidence 1 and shows up
in ``cavemem review`` (newest first, with the transcript line it came from) until it is accepted
(confidence 1), edited (superseded by the corrected text, confirmed) or rejected (forgotten; a
fact it had superseded becomes current again, so a wrong automatic update is undone).
Recall leaves expired memories out and down-weights unconfirmed ones (:func:`adjust`).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from ...errors import CaveError
from .. import ids
from . import archive, schema

LOW_CONFIDENCE_FLOOR = 0.5  # score multiplier at confidence 0; 1.0 at confidence 1
# Score multiplier for a memory replies have used: 1 + USED_BOOST * used / (injected + 1). Off: on the
# memory dev set (scripts/bench_capture.py --boost, lexical) 0.05 / 0.1 / 0.2 / 0.4 moved check MRR
# 0.589 -> 0.585 / 0.584 / 0.583 / 0.588 and r@5 0.703 -> 0.703 / 0.697 / 0.691 / 0.691 — it never helped.
USED_BOOST = 0.0
_TTL = re.compile(r"^\s*(\d+)\s*([dhwm])\s*$", re.I)


def expiry_us(expires=None, ttl: str | None = None, now: datetime | None = None) -> int | None:
    """UTC microseconds a memory stops being recalled: ``expires`` (a date or time) or ``ttl``
    ("30d", "12h", "2w", "6m")."""
    now = now or ids.utc_now()
    if expires is not None and ttl is not None:
        raise CaveError("cave_invalid_arguments", "use either --expires or --ttl")
    if ttl is not None:
        m = _TTL.match(str(ttl))
        if not m or int(m.group(1)) <= 0:
            raise CaveError("cave_invalid_arguments", f"--ttl must look like 30d, 12h, 2w or 6m (got {ttl!r})")
        n, unit = int(m.group(1)), m.group(2).lower()
        delta = {"h": timedelta(hours=n), "d": timedelta(days=n), "w": timedelta(weeks=n), "m": timedelta(days=30 * n)}[unit]
        return ids.to_micros(now + delta)
    if expires is not None:
        return ids.to_micros(ids.parse_when(expires, end_of_day=True, what="expires", now=now))
    return None


def check_confidence(value) -> float | None:
    if value is None:
        return None
    try:
        c = float(value)
    except (TypeError, ValueError):
        raise CaveError("cave_invalid_arguments", f"confidence must be a number from 0 to 1 (got {value!r})") from None
    if not 0.0 <= c <= 1.0:
        raise CaveError("cave_invalid_arguments", f"confidence must be from 0 to 1 (got {c})")
    return c


def set_meta(memory, mem_id: str, *, confidence: float | None = None, expires_us: int | None = None) -> None:
    """Record a hand-set confidence / expiry for ``mem_id`` (kept for captured rows' provenance)."""
    if confidence is None and expires_us is None:
        return

    def txn(conn):
        schema.ensure(conn)
        conn.execute("INSERT OR IGNORE INTO mem_capture (id) VALUES (?)", (mem_id,))
        if confidence is not None:
            conn.execute("UPDATE mem_capture SET confidence = ? WHERE id = ?", (confidence, mem_id))
        if expires_us is not None:
            conn.execute("UPDATE mem_capture SET expires_us = ? WHERE id = ?", (expires_us, mem_id))

    memory.store.write(txn, "remember")


def meta_by_seq(store, seqs) -> dict[int, tuple]:
    """seq → (confidence, expires_us, captured, injected, used) for memories that have capture metadata."""
    seqs = list(seqs)
    out: dict[int, tuple] = {}
    for i in range(0, len(seqs), 500):
        chunk = seqs[i : i + 500]
        try:
            rows = store.read("SELECT m.seq, c.confidence, c.expires_us, c.captured, c.injected, c.used FROM memories m JOIN mem_capture c "
                              f"ON c.id = m.id WHERE m.seq IN ({','.join('?' * len(chunk))})", chunk)
        except CaveError:
            return {}  # a store without the capture tables: nothing to adjust
        out.update((r[0], r[1:]) for r in rows)
    return out


def adjust(store, ranked: list, now_us: int, include_expired: bool = False) -> list:
    """Ranked hits without expired memories, scores scaled by confidence and (slightly) by past
    use, re-sorted."""
    meta = meta_by_seq(store, [r.seq for r in ranked])
    if not meta:
        return ranked
    out = []
    for r in ranked:
        m = meta.get(r.seq)
        if m is not None:
            conf, exp, _, injected, used = m
            if exp is not None and exp <= now_us and not include_expired:
                continue
            r.score *= (LOW_CONFIDENCE_FLOOR + (1 - LOW_CONFIDENCE_FLOOR) * conf) * (1 + USED_BOOST * used / (injected + 1))
        out.append(r)
    out.sort(key=lambda r: -r.score)
    return out


def pending(memory, project=None, limit: int = 50, with_source: bool = True) -> list[dict]:
    """Captured, unconfirmed, current memories, newest first, with the line they came from.
    ``project``: one name, a tuple of names, or None / "*" for every project."""
    sql = ("SELECT m.id, m.text, m.project, m.created_at, m.kind, c.confidence, c.capture_kind, c.source_session, "
           "c.source_message FROM memories m JOIN mem_capture c ON c.id = m.id WHERE c.captured = 1 AND c.confidence < 1 "
           "AND m.valid_until IS NULL")
    params: list = []
    scope = (project,) if isinstance(project, str) and project != "*" else project
    if scope is not None and scope != "*":
        sql += f" AND m.project IN ({','.join('?' * len(scope))})"
        params.extend(scope)
    rows = memory.store.read(sql + " ORDER BY m.ts DESC, m.seq DESC LIMIT ?", [*params, limit])
    keys = ("id", "text", "project", "created_at", "kind", "confidence", "capture_kind", "source_session", "source_message")
    out = [dict(zip(keys, r)) for r in rows]
    if with_source and out:
        try:
            ccr = memory.engine().store()
            for item in out:
                raw = archive.message_bytes(memory.store, ccr, item["source_session"] or "", item["source_message"] or "")
                if raw is not None:
                    item["source"] = archive.message_text(raw)
        except Exception as exc:  # noqa: BLE001 - the queue is still useful without source lines
            out[0].setdefault("warnings", []).append(f"cave_ccr_unavailable: source lines not shown ({exc})")
    return out


def _captured(memory, mem_id: str) -> dict:
    rows = memory.store.read("SELECT confidence, source_session, source_message, capture_kind FROM mem_capture WHERE id = ?", (mem_id,))
    rec = memory.store.get(mem_id)
    if rec is None or not rows:
        raise CaveError("cave_memory_not_found", f"no captured memory {mem_id}")
    return {"record": rec, "confidence": rows[0][0], "source_session": rows[0][1], "source_message": rows[0][2],
            "capture_kind": rows[0][3]}


def accept(memory, mem_id: str) -> dict:
    _captured(memory, mem_id)
    memory.store.write(lambda conn: conn.execute("UPDATE mem_capture SET confidence = 1.0 WHERE id = ?", (mem_id,)), "review")
    return {"id": mem_id, "accepted": True, "confidence": 1.0}


def edit(memory, mem_id: str, text: str) -> dict:
    got = _captured(memory, mem_id)
    new = memory.supersede(mem_id, text)

    def txn(conn):
        conn.execute("INSERT OR REPLACE INTO mem_capture (id, confidence, source_session, source_message, capture_kind, captured) "
                     "VALUES (?, 1.0, ?, ?, ?, 1)", (new.id, got["source_session"], got["source_message"], got["capture_kind"]))

    memory.store.write(txn, "review")
    return {"id": new.id, "supersedes": mem_id, "confidence": 1.0}


def reject(memory, mem_id: str) -> dict:
    """Forget a captured memory; the version it superseded (if any) becomes current again."""
    got = _captured(memory, mem_id)
    rec = got["record"]
    previous = rec.supersedes if rec.change == "supersede" and rec.current else None
    out = memory.forget(mem_id)
    memory.store.write(lambda conn: conn.execute("DELETE FROM mem_capture WHERE id = ?", (mem_id,)), "review")
    if previous:
        from ..store import scope_value

        def revive(conn):
            row = conn.execute("SELECT seq, project FROM memories WHERE id = ? AND superseded_by IS NULL", (previous,)).fetchone()
            if row is None:
                return False
            conn.execute("UPDATE memories SET valid_until = NULL WHERE seq = ?", (row[0],))
            conn.execute("UPDATE mem_fts SET scope = ? WHERE rowid = ?", (scope_value(row[1], True), row[0]))
            return True

        if memory.store.write(revive, "review"):
            out["restored"] = previous
    out["rejected"] = bool(out.get("forgotten"))
    return out


def annotate(store, hits: list[dict]) -> None:
    """Mark recalled hits that are unconfirmed captures (the context block says so)."""
    found = [h["id"] for h in hits if isinstance(h.get("id"), str)]
    if not found:
        return
    try:
        rows = store.read(f"SELECT id, confidence, captured FROM mem_capture WHERE id IN ({','.join('?' * len(found))})", found)
    except CaveError:
        return
    meta = {r[0]: r[1:] for r in rows}
    for h in hits:
        m = meta.get(h.get("id"))
        if m is not None and m[1] and m[0] < 1:
            h["confidence"] = round(m[0], 2)
            h["unconfirmed"] = True


class CaptureAPI:
    """``Memory(...).capture``: sessions, review and capture passes, for adapters to stay thin."""

    def __init__(self, memory):
        self.memory = memory

    def run(self, transcript_path: str, **kw):
        from .pipeline import capture_transcript

        return capture_transcript(self.memory, transcript_path, **kw)

    def sessions(self, project: str | None = None, limit: int = 50) -> list[dict]:
        return archive.list_sessions(self.memory.store, project, limit)

    def session(self, session: str) -> dict:
        rec = archive.session_record(self.memory.store, session)
        if rec is None:
            rows = self.memory.store.read("SELECT session FROM cap_sessions WHERE session LIKE ? LIMIT 2", (session + "%",))
            if len(rows) == 1:
                rec = archive.session_record(self.memory.store, rows[0][0])
        if rec is None:
            raise CaveError("cave_memory_not_found", f"no archived session {session}")
        return rec

    def messages(self, session: str, limit: int = 10000) -> list[dict]:
        """The session's archived lines in order: ``{"uuid", "type", "ts", "raw", "text"}``."""
        ccr = self.memory.engine().store()
        blobs: dict = {}
        out = []
        for m in archive.messages(self.memory.store, session, limit=limit):
            if m["handle"] not in blobs:
                blobs[m["handle"]] = ccr.get(m["handle"])
            raw = blobs[m["handle"]][m["pos"] : m["pos"] + m["length"]]
            out.append({"uuid": m["uuid"], "type": m["type"], "ts": m["ts"], "raw": raw, "text": archive.message_text(raw)})
        return out

    def forget_session(self, session: str, *, dry_run: bool = False) -> dict:
        """Delete one archived session (see :func:`.archive.forget_session`)."""
        rec = self.session(session)
        return archive.forget_session(self.memory.store, self.memory.engine().store(), rec["session"], dry_run=dry_run)

    def pending(self, project: str | None = None, limit: int = 50) -> list[dict]:
        return pending(self.memory, project, limit)

    def accept(self, mem_id: str) -> dict:
        return accept(self.memory, mem_id)

    def edit(self, mem_id: str, text: str) -> dict:
        return edit(self.memory, mem_id, text)

    def reject(self, mem_id: str) -> dict:
        return reject(self.memory, mem_id)
