"""One capture pass over a transcript: archive the new lines, extract, store, move the offset.

This is the single function the ``Stop`` / ``SessionEnd`` / ``PreCompact`` path runs (from the
spool's detached writer, never inside a hook's deadline). Every step is idempotent — the archive
blob is content-addressed, archived messages are keyed by uuid, remembering the same text twice
stores it once — and the archive offset moves last, so a pass killed half-way is simply redone.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace

from ...errors import CaveError
from .. import ids, project as projects
from . import archive, extract, facts, schema, slots, split


@dataclass
class CaptureReport:
    """What one capture pass did over a transcript."""
    session: str = ""
    project: str = ""
    new_messages: int = 0
    archived_bytes: int = 0
    stored: list[dict] = field(default_factory=list)  # {"id", "status", "capture_kind", "confidence"}
    skipped: int = 0
    extractor: str = "rules"

    def to_dict(self) -> dict:
        return {"session": self.session, "project": self.project, "new_messages": self.new_messages,
                "archived_bytes": self.archived_bytes, "stored": self.stored, "skipped": self.skipped,
                "extractor": self.extractor}


def enabled() -> bool:
    return os.environ.get("CAVEMAN_CAPTURE", "1").strip().lower() not in ("0", "false", "no", "off")


def current_by_entity(memory, project: str, entity: str):
    from ..model import SELECT_ROWS, record_from_row

    rows = memory.store.read(SELECT_ROWS + " WHERE project = ? AND entity = ? AND valid_until IS NULL ORDER BY ts DESC LIMIT 1",
                             (project, entity))
    return record_from_row(rows[0]) if rows else None


def same_subject(memory, project: str, cand: extract.Candidate):
    """The current memory keyed by the same subject under another attribute: "Prod rds: db.t3.medium"
    (a topic line, ``decision:prod rds``) then "prod rds is db.r6g.large now" (``setting:prod rds``).
    Facts only, and subjects of two words at least, so one bare word never ties two memories."""
    from ..model import SELECT_ROWS, record_from_row

    attr, _, subject = (cand.entity or "").partition(":")
    if cand.capture_kind != "fact" or len(subject.split()) < 2:
        return None
    sql = (SELECT_ROWS + " WHERE project = ? AND entity LIKE ? AND entity != ? AND valid_until IS NULL AND NOT EXISTS "
           "(SELECT 1 FROM mem_capture c WHERE c.id = memories.id AND c.capture_kind IN ('bugfix', 'explicit')) ORDER BY ts DESC LIMIT 5")
    for row in memory.store.read(sql, (project, "%:" + subject, cand.entity)):
        rec = record_from_row(row)
        if (rec.entity or "").partition(":")[2] == subject:
            return rec
    return None


def replaced_memory(memory, project: str, cand: extract.Candidate):
    """The current memory a candidate says it replaces: for "switching tracking from wandb to
    mlflow", the newest current memory of the project naming wandb; for a fact whose subject is
    new ("staging api" beside "api base url … for staging"), the newest current fact of the same
    attribute whose text holds every word of that subject (two words at least, so "prod api"
    never replaces a staging one)."""
    from ..model import SELECT_ROWS, record_from_row

    if cand.replaces:
        word, like = cand.replaces.lower(), f"%{cand.replaces}%"
        sql = (SELECT_ROWS + " WHERE project = ? AND valid_until IS NULL AND text LIKE ? AND NOT EXISTS (SELECT 1 FROM mem_capture c "
               "WHERE c.id = memories.id AND (c.capture_kind IN ('bugfix', 'explicit') OR c.source_message = ?)) ORDER BY ts DESC LIMIT 10")
        try:  # never a bug fix or an explicit note (events, not current values), nor a sibling from the same message
            rows = memory.store.read(sql, (project, like, cand.source_message or ""))
        except Exception:  # noqa: BLE001 - no capture table yet: nothing captured to replace
            return None
        for row in rows:
            rec = record_from_row(row)
            if word in {t.strip(".") for t in re.findall(r"[\w.+-]+", rec.text.lower())}:
                return rec
        return None
    attr, _, subject = (cand.entity or "").partition(":")
    words = set(subject.split())
    if cand.capture_kind != "fact" or len(words) < 2:
        return None
    sql = SELECT_ROWS + " WHERE project = ? AND valid_until IS NULL AND entity LIKE ? ORDER BY ts DESC LIMIT 20"
    for row in memory.store.read(sql, (project, attr + ":%")):
        rec = record_from_row(row)
        if words <= set(re.findall(r"[a-z0-9]+", rec.text.lower())):
            return rec
    return None


def same_value(old_text: str, new_text: str) -> bool:
    a, b = facts.fact_of(old_text), facts.fact_of(new_text)
    return a is not None and b is not None and a == b


def refines(old_text: str, new_text: str) -> bool:
    a, b = facts.fact_of(old_text), facts.fact_of(new_text)
    return a is not None and b is not None and a[0] == b[0] and b[1].startswith(a[1] + ".")


def store_candidate(memory, cand: extract.Candidate, project: str, session: str, at: str | None = None) -> dict | None:
    """Remember one candidate (a changed fact supersedes the older one); None when refused."""
    old = memory.store.get(cand.supersedes) if cand.supersedes else None  # chosen at capture time (split.py)
    old = old if old is not None and old.current else current_by_entity(memory, project, cand.entity) if cand.entity else None
    old = old if old is not None else same_subject(memory, project, cand) or replaced_memory(memory, project, cand)
    if old is not None and slots.other_scope(cand.text, old.text):
        old = None  # one key, two environments ("port:main" said of dev, then of prod): both stay
    old = old if old is not None else slots.replaced(memory, project, cand)
    if old is not None and cand.capture_kind == "fact" and same_value(old.text, cand.text):
        cand = replace(cand, text=old.text)  # a restatement of the current value: seen again, not an update
        old = None
    if old is not None and cand.capture_kind == "fact" and refines(old.text, cand.text):
        old = None  # "GCC 13" then "configured with GCC 13.2": the same version said more exactly, both stay
    try:
        if old is not None and old.text != cand.text:
            rec = memory.supersede(old.id, cand.text)
            _own_entity(memory, rec, cand)
            _keep_rest(memory, old, cand, project)
        else:
            rec = memory.remember(cand.text, project=project, session=session or None, kind=cand.kind,
                                  entity=cand.entity, tags=("capture", cand.capture_kind), at=at)
    except CaveError:
        return None
    status = rec.extra.get("status", "new")

    def txn(conn):
        schema.ensure(conn)
        verb = "INSERT OR IGNORE" if status == "existing" else "INSERT OR REPLACE"
        conn.execute(f"{verb} INTO mem_capture (id, confidence, source_session, source_message, capture_kind, captured) "
                     "VALUES (?, ?, ?, ?, ?, 1)", (rec.id, cand.confidence, session, cand.source_message, cand.capture_kind))

    memory.store.write(txn, "capture")
    return {"id": rec.id, "status": status, "capture_kind": cand.capture_kind, "confidence": cand.confidence,
            **({"supersedes": old.id} if status == "superseded" and old is not None else {})}


def _own_entity(memory, rec, cand: extract.Candidate) -> None:
    """A new version keyed by what it says: "We upgraded to Rails 7.2" replacing "Rails 7.1 on Ruby 3.2"
    (keyed ``version:ruby``) is ``version:rails``, or "Ruby is 3.3 now" would replace the Rails line."""
    if not cand.entity or not rec.entity or cand.entity == rec.entity or cand.entity.split(":")[0] != rec.entity.split(":")[0]:
        return  # a key of another kind ("decision:…" for a "version:…" line) says less about the line than its own
    memory.store.write(lambda conn: conn.execute("UPDATE memories SET entity = ? WHERE id = ?", (cand.entity, rec.id)), "capture")
    rec.entity = cand.entity


def _keep_rest(memory, old, cand: extract.Candidate, project: str) -> None:
    """The other facts the replaced memory held stay current, as a memory of their own with the
    old one's provenance (an update of one value must not drop its neighbours)."""
    rest = slots.residual(old.text, cand.text)
    if not rest:
        return
    try:
        rec = memory.remember(rest, project=project, session=old.session, kind=old.kind, tags=old.tags or ("capture",), at=old.created_at)
    except CaveError:
        return

    def txn(conn):
        schema.ensure(conn)
        conn.execute("INSERT OR IGNORE INTO mem_capture (id, confidence, source_session, source_message, capture_kind, captured) "
                     "SELECT ?, confidence, source_session, source_message, capture_kind, 1 FROM mem_capture WHERE id = ?",
                     (rec.id, old.id))

    memory.store.write(txn, "capture")


def candidates(messages, report: "CaptureReport", db_path: str | None = None) -> list:
    """The LLM's candidates when an endpoint is configured and answers, else the rules', with the
    learned classifier's additions (and vetoes) when embeddings are on (:mod:`.classify`)."""
    from . import classify, llm

    if llm.enabled():
        try:
            found = llm.extract(messages)
            report.extractor = "llm"
            return found
        except llm.LLMError as exc:
            report.extractor = f"rules (llm failed: {exc})"[:200]
    found = extract.extract(messages)
    if classify.enabled(db_path):
        try:
            found = classify.augment(messages, found)
            report.extractor += "+classifier"
        except Exception as exc:  # noqa: BLE001 - a model that fails to load leaves the rules' candidates
            report.extractor += f" (classifier failed: {type(exc).__name__})"
    return found


def capture_transcript(memory, path: str, *, session: str | None = None, cwd: str | None = None,
                       project: str | None = None, ccr=None, extract_memories: bool | None = None) -> CaptureReport:
    """Archive ``path``'s new lines into the recovery store and store what they say durably."""
    report = CaptureReport()
    chunk, rec = archive.read_new(memory.store, path, session)
    if not chunk.data:
        report.session = session or ""
        report.archived_bytes = chunk.end
        return report
    ccr = ccr if ccr is not None else memory.engine().store()
    handle = archive.store_chunk(ccr, chunk)
    sid = session or next((m.session for m in chunk.messages if m.session), "") or path
    cwd = cwd or next((m.cwd for m in chunk.messages if m.cwd), None) or (rec or {}).get("cwd")
    proj = projects.normalize_project(project) if project is not None else (
        (rec or {}).get("project") or (projects.resolve_project(None, cwd) if cwd else ""))
    report.session, report.project = sid, proj
    if extract_memories if extract_memories is not None else enabled():
        by_uuid = {m.uuid: m for m in chunk.messages}
        found = candidates(chunk.messages, report, getattr(memory.store, "path", None))
        for cand in (part for c in found for part in split.split_changes(memory, proj, c)):  # two updates in one sentence: two
            when = by_uuid[cand.source_message].timestamp or None
            try:
                at = ids.format_time(ids.parse_when(when, what="at")) if when else None
            except CaveError:
                at = None
            got = store_candidate(memory, cand, proj, sid, at)
            if got is None:
                report.skipped += 1
            else:
                report.stored.append(got)
    now = ids.format_time(memory.clock())

    def txn(conn):
        schema.ensure(conn)
        conn.execute("INSERT OR IGNORE INTO cap_sessions (session, project) VALUES (?, ?)", (sid, proj))
        return archive.record_chunk(conn, chunk, handle, path, sid, cwd, now)

    done = memory.store.write(txn, "archive")
    report.new_messages, report.archived_bytes = done["new_messages"], done["archived_bytes"]
    return report
