"""Curating stored memories: supersede, history, show and forget (one version or in bulk).

A mixin of :class:`cavemem.memory.api.Memory`, kept apart from the remember/recall hot path; it
relies on the ``store``, ``redact``, ``_engine``, ``engine()``, ``_now()`` and ``project()`` the
class provides.
"""

from __future__ import annotations

from datetime import datetime

from ..errors import CaveError
from . import ids, plugins
from .model import MAX_MEMORY_BYTES, Filter, MemoryRecord, as_text, too_large, utf8_len
from .rows import bump_corpus, delete_row, index_terms, insert_row, mark_superseded


class CurateMixin:
    """Supersede / history / show / forget for :class:`~cavemem.memory.api.Memory`."""

    def supersede(self, mem_id: str, text, *, redact: bool | None = None) -> MemoryRecord:
        """Replace current memory ``mem_id`` with ``text``; the old version stays in history."""
        if not isinstance(mem_id, str) or not mem_id.strip():
            raise CaveError("cave_invalid_arguments", "supersede requires old memory id")
        mem_id = mem_id.strip()
        text = as_text(text)
        if not text.strip():
            raise CaveError("cave_memory_empty", "cannot supersede with empty text")
        n = utf8_len(text)
        if n > MAX_MEMORY_BYTES:
            raise too_large(n)
        from . import privacy

        cleaned, redacted, spans = privacy.clean(text, redact_secrets=self.redact if redact is None else redact)
        if not cleaned.strip():
            raise CaveError("cave_memory_empty", "nothing left to remember after removing <private> spans")
        if utf8_len(cleaned) > MAX_MEMORY_BYTES:
            raise too_large(utf8_len(cleaned))
        now = self._now()
        stamp = ids.format_time(now)

        def txn(conn):
            old = self.store.get(mem_id, conn)
            if old is None or not old.current:
                raise CaveError("cave_memory_conflict", f"memory {mem_id} is not current")
            if old.text == cleaned:
                raise CaveError("cave_memory_conflict", "replacement text is identical to current memory")
            new = MemoryRecord(
                id=ids.memory_id(cleaned, old.project), text=cleaned, project=old.project, created_at=stamp,
                valid_from=stamp, ts=ids.to_micros(now), supersedes=old.id, change="supersede",
                session=old.session, topic=old.topic, kind=old.kind, entity=old.entity, tags=old.tags, files=old.files,
            )
            if self.store.get(new.id, conn) is not None:
                raise CaveError("cave_memory_conflict", f"replacement memory {new.id} already exists")
            terms = index_terms(new)
            insert_row(conn, new, terms)
            if not mark_superseded(conn, old, stamp, new.id):
                raise CaveError("cave_memory_conflict", f"memory {mem_id} changed during supersede")
            bump_corpus(conn, 1, len(terms))
            new.extra = {"status": "superseded"}
            return new

        out = self.store.write(txn, "supersede")
        if redacted:
            out.extra["redacted"] = dict(sorted(redacted.items()))
        return out

    def history(self, mem_id: str) -> list[MemoryRecord]:
        """Every version of the chain ``mem_id`` belongs to, oldest → current."""
        if not isinstance(mem_id, str) or not mem_id.strip():
            raise CaveError("cave_invalid_arguments", "history requires a memory id")
        return self.store.chain(mem_id.strip())

    def show(self, mem_id: str) -> MemoryRecord:
        rec = self.store.get((mem_id or "").strip())
        if rec is None:
            raise CaveError("cave_memory_not_found", f"memory {mem_id} not found")
        return rec

    def forget(
        self,
        mem_id: str | None = None,
        *,
        project: str | None = None,
        before: datetime | str | None = None,
        tag: str | None = None,
        all_projects: bool = False,
        dry_run: bool = False,
        unused_for: str | None = None,
    ) -> dict:
        """Hard-delete one version by id (its chain is relinked), or in bulk by project /
        date / tag. Bulk forgetting is limited to one project (``project``, else the current
        one) unless ``all_projects``; ``dry_run`` reports without deleting. The recovery-store
        copies of forgotten memories are deleted too."""
        if mem_id is not None:
            if project is not None or before is not None or tag is not None or all_projects:
                raise CaveError("cave_invalid_arguments", "forget takes either an id or filters, not both")
            rec = self.store.get(mem_id.strip())
            if rec is None:
                return {"forgotten": False, "id": mem_id}
            if dry_run:
                return {"forgotten": False, "id": mem_id, "dry_run": True, "would_forget": True}
            gone = self._delete([rec])
            return {"forgotten": bool(gone), "id": mem_id, **self._purge(gone)}
        if before is None and tag is None and project is None and not all_projects and unused_for is None:
            raise CaveError("cave_invalid_arguments", "forget needs an id or at least one of --project, --before, --tag")
        where = Filter(projects=None if all_projects else (self.project(project),), current_only=False, tag=tag)
        if before is not None:
            where.until_us = ids.to_micros(ids.parse_when(before, what="before", now=self._now())) - 1
        victims = self.store.select(where, order="seq")
        if unused_for is not None:  # hit-rate feedback: old and not used by any reply within the window
            from .capture.feedback import unused

            victims = unused(self, victims, unused_for)
        if dry_run:
            return {"dry_run": True, "forgotten": 0, "would_forget": len(victims), "ids": [r.id for r in victims]}
        gone = self._delete(victims)
        return {"dry_run": False, "forgotten": len(gone), "ids": [r.id for r in gone], **self._purge(gone)}

    def _delete(self, victims: list[MemoryRecord]) -> list[MemoryRecord]:
        def txn(conn):
            done = []
            for rec in victims:
                if conn.execute("SELECT 1 FROM memories WHERE seq = ?", (rec.seq,)).fetchone():
                    delete_row(conn, rec)
                    done.append(rec)
            return done

        if not victims:
            return []
        done = self.store.write(txn, "forget")
        if done:
            self.store.db.scrub()  # forgotten text must not stay readable in the WAL (issue 15 item 6)
        return done

    def _purge(self, gone: list[MemoryRecord]) -> dict:
        """Delete derived copies of forgotten texts — recovery-store originals and, when the
        [embed] extra is on for the store, their vectors (best effort; never blocks forget)."""
        if not gone:
            return {}
        # no-op unless a plugin keeps derived data; session neighbours' vectors held the text in their windows
        vectors = plugins.forget_everywhere(self.store.path, [r.id for r in gone], lambda: self._session_neighbours(gone))
        out = self._purge_ccr(gone)
        for key, value in vectors.items():
            out[key] = out.get(key, []) + value if key == "warnings" else value
        return out

    def _session_neighbours(self, gone: list[MemoryRecord]) -> list[str]:
        """Ids of the memories now adjacent to forgotten ones in their sessions."""
        seqs = set()
        for rec in gone:
            if rec.session:
                seqs.update(s for s in self.store.neighbors(rec, Filter(projects=(rec.project,), current_only=False)) if s)
        return [r.id for r in self.store.by_seq(seqs, brief=True).values()]

    def _purge_ccr(self, gone: list[MemoryRecord]) -> dict:
        import os

        from .. import paths
        from ..store.ccr import OWNER_MEMORY, handle_for

        try:
            if self._engine is None and not os.path.exists(paths.ccr_db_path()):
                return {}
            store = self.engine().store()
            # the memory lets go of its copies; a record a compress (or a remaining memory with
            # the same text) also needs stays (issue 15 item 1)
            texts = {rec.text for rec in gone if not self.store.read("SELECT 1 FROM memories WHERE text = ? LIMIT 1", (rec.text,))}
            purged = store.release([handle_for(t.encode("utf-8", "surrogatepass")) for t in texts], OWNER_MEMORY)
        except Exception as exc:
            return {"warnings": [f"cave_ccr_unavailable: recovery copies were not purged ({exc})"]}
        return {"recovery_copies_deleted": purged} if purged else {}
