"""Browsing and moving memories: list, count, stats, export and import.

A mixin of :class:`cavemem.memory.api.Memory`, kept apart from the remember/recall hot path; it
relies on the ``store``, ``cwd``, ``redact`` and ``_now()`` the class provides.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from ..errors import CaveError
from . import ids, project as projects
from .model import Filter, MemoryRecord, require_kind

TYPE_CHECKING = False  # typing's own flag without importing typing (12 M instructions of a hot CLI command)
if TYPE_CHECKING:
    from .transfer import ImportReport

_CURSOR = re.compile(r"([on])(-?[0-9]{1,18})\.([0-9]{1,18})")


def page_cursor(rec: MemoryRecord, older: bool = True) -> str:
    """The cursor of the list page just older (or newer) than ``rec``: ``o`` or ``n``, then its
    time in microseconds and its seq (``o1767225600000000.42``)."""
    return f"{'o' if older else 'n'}{rec.ts}.{rec.seq}"


def parse_cursor(cursor: str) -> tuple[bool, int, int]:
    """``(older, ts, seq)`` of a :func:`page_cursor` string."""
    m = _CURSOR.fullmatch(cursor or "")
    if m is None:
        raise CaveError("cave_invalid_arguments", f"list: bad page cursor {cursor!r} (expected o|n<microseconds>.<seq>)")
    return m.group(1) == "o", int(m.group(2)), int(m.group(3))


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
        cursor: str | None = None,
    ) -> list[MemoryRecord]:
        """Newest first; the scope is the project plus global memories (``"*"`` = all); confidence
        bounds are inclusive (memories without capture metadata have confidence 1). ``cursor``
        (from :func:`page_cursor`): the page just older or newer than a row, found by an index
        seek instead of an offset that walks every row before it; the same rows as offset paging."""
        where = self._filter(project, since, until, tag=tag, kind=kind, include_superseded=include_superseded,
                             min_confidence=min_confidence, max_confidence=max_confidence)
        return self._select_page(where, limit, offset, cursor)

    def _select_page(self, where: Filter, limit: int, offset: int, cursor: str | None) -> list[MemoryRecord]:
        past = parse_cursor(cursor) if cursor else None
        if past is not None and offset:
            raise CaveError("cave_invalid_arguments", "list: give a cursor or an offset, not both")
        return self.store.select(where, limit=max(0, limit), offset=max(0, offset), past=past)

    def page(self, *, limit: int = 20, offset: int = 0, cursor: str | None = None, project: str | None = None,
             since=None, until=None, **filters) -> dict:
        """One list page for a browser or API client (filters as :meth:`list`): ``memories``,
        ``count`` (all matches), ``offset`` (where the page starts, counted when it was reached by
        cursor) and the ``older`` / ``newer`` cursors of the pages beside it (None at either end)."""
        where = self._filter(project, since, until, **filters)
        records = self._select_page(where, limit, offset, cursor)
        if cursor and records:
            total, offset = self.store.count_newer(where, records[0].ts, records[0].seq)
        else:
            total = self.store.count(where)
            if cursor:  # an empty page (its rows were forgotten): nothing to place it by
                offset = 0 if parse_cursor(cursor)[0] is False else total
        older = page_cursor(records[-1]) if records and offset + len(records) < total else None
        newer = page_cursor(records[0], older=False) if records and offset > 0 else None
        return {"memories": records, "count": total, "offset": offset, "older": older, "newer": newer}

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
