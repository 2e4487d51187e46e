"""Browsing and moving memories: list, count, stats, export and import.

A mixin of :class:`cavemem.memory.api.Memory`, kept apart from the remember/recall hot path; it
relies on the ``store``, ``cwd``, ``redact`` and ``_now()`` the class provides.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from ..errors import CaveError
from . import ids, project as projects
from .model import Filter, MemoryRecord, require_kind

if TYPE_CHECKING:
    from .transfer import ImportReport


class BrowseMixin:
    """List / count / stats / export / import for :class:`~cavemem.memory.api.Memory`."""

    def _filter(self, project, since, until, *, tag=None, kind=None, include_superseded=False,
                min_confidence=None, max_confidence=None) -> Filter:
        scope = projects.read_scope(project, self.cwd)
        where = Filter(projects=scope, current_only=not include_superseded, tag=tag, kind=require_kind(kind))
        if min_confidence is not None or max_confidence is not None:
            from .capture.review import check_confidence

            where.min_confidence, where.max_confidence = check_confidence(min_confidence), check_confidence(max_confidence)
        now = self._now()
        if since is not None:
            where.since_us = ids.to_micros(ids.parse_when(since, what="since", now=now))
        if until is not None:
            where.until_us = ids.to_micros(ids.parse_when(until, end_of_day=True, what="until", now=now))
        return where

    def list(
        self,
        *,
        project: str | None = None,
        since=None,
        until=None,
        tag: str | None = None,
        kind: str | None = None,
        include_superseded: bool = False,
        limit: int = 20,
        offset: int = 0,
        min_confidence: float | None = None,
        max_confidence: float | None = None,
    ) -> list[MemoryRecord]:
        """Newest first; the scope is the project plus global memories (``"*"`` = all); confidence
        bounds are inclusive (memories without capture metadata have confidence 1)."""
        where = self._filter(project, since, until, tag=tag, kind=kind, include_superseded=include_superseded,
                             min_confidence=min_confidence, max_confidence=max_confidence)
        return self.store.select(where, limit=max(0, limit), offset=max(0, offset))

    def count(self, *, project: str | None = None, include_superseded: bool = False, **filters) -> int:
        where = self._filter(project, filters.get("since"), filters.get("until"), tag=filters.get("tag"),
                             kind=filters.get("kind"), include_superseded=include_superseded,
                             min_confidence=filters.get("min_confidence"), max_confidence=filters.get("max_confidence"))
        return self.store.count(where)

    def stats(self) -> dict:
        """Counts by project and kind, text bytes, time range, merges, file size (and, once hooks
        have injected memories, how often they were used)."""
        out = self.store.stats()
        from .capture.feedback import usage

        try:
            use = usage(self)
        except CaveError:
            use = {"injected_memories": 0}
        if use["injected_memories"]:
            out["usage"] = use
        return out

    # -- export / import -----------------------------------------------------------------------
    def export(self, *, project: str | None = None) -> Iterator[str]:
        """JSON lines of every stored version (all projects, or exactly ``project``)."""
        from .transfer import export_line, export_records

        where = Filter(projects=None if project is None or project == projects.ALL_PROJECTS else (projects.normalize_project(project),),
                       current_only=False)
        for rec in export_records(self.store, where):
            yield export_line(rec)

    def import_lines(self, lines: Iterable[str | bytes], *, redact: bool | None = None, progress=None) -> ImportReport:
        """Import JSON lines (see :mod:`cavemem.memory.transfer`); bad lines are reported, not fatal."""
        from .transfer import import_lines

        return import_lines(
            self.store, lines, redact=self.redact if redact is None else redact,
            now=ids.format_time(self._now()), progress=progress,
        )
