"""Export and import as JSON lines: a lossless, idempotent round trip.

Export writes one JSON object per stored version (current and superseded), oldest first, keys
sorted, no ASCII escaping — so ``export → import into an empty store → export`` is
byte-identical and importing the same file twice adds nothing.

Import reads two kinds of line:

- **restores** (the line has an ``id``): the row is written back verbatim — id, times,
  supersession links, metadata. The id must be the content hash of the line's project and text,
  which keeps ids trustworthy; a line whose id already exists is a duplicate and is skipped.
- **new memories** (no ``id``; e.g. converted from another tool): treated like ``remember`` —
  ``<private>`` spans removed, secrets redacted (unless ``redact=False``), id computed, dedup by id.

A bad line (invalid JSON, wrong types, missing text, too large, id mismatch) is reported with its
line number and skipped; the good lines around it are imported. Writes are committed in batches.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from .. import fastjson
from ..gocompat import go_text
from . import ids
from .rows import bump_corpus, index_terms, insert_rows
from .store import KINDS, MAX_MEMORY_BYTES, MemoryRecord, MemoryStore

BATCH = 2000
_OPTIONAL_STR = ("valid_until", "supersedes", "superseded_by", "change", "session", "topic", "kind", "entity", "last_seen")


def export_line(rec: MemoryRecord) -> str:
    return fastjson.dumps_compact(rec.to_dict(with_extra=False), sort_keys=True)


@dataclass
class ImportReport:
    """What one import did: lines read, imported, duplicates, errors."""
    lines: int = 0
    imported: int = 0
    duplicates: int = 0
    errors: list[dict] = field(default_factory=list)
    redacted: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict:
        out = {"lines": self.lines, "imported": self.imported, "duplicates": self.duplicates, "bad_lines": len(self.errors)}
        if self.errors:
            out["errors"] = self.errors
        if self.redacted:
            out["redacted"] = dict(sorted(self.redacted.items()))
        return out


class BadLine(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def _str_or_none(obj: dict, key: str) -> str | None:
    value = obj.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise BadLine("cave_invalid_input", f"{key} must be a string")
    return value


def _str_list(obj: dict, key: str) -> tuple[str, ...]:
    value = obj.get(key)
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadLine("cave_invalid_input", f"{key} must be a list of strings")
    return tuple(value)


def _check_unicode(obj: dict) -> None:
    """A lone surrogate (``"\\ud800"`` is valid JSON) cannot be stored as UTF-8; say so for the
    line instead of failing the batch it is in (issue 15 item 2)."""
    for key, value in obj.items():
        for v in (value if isinstance(value, list) else [value]):
            if isinstance(v, str):
                try:
                    v.encode("utf-8")
                except UnicodeEncodeError:
                    raise BadLine("cave_invalid_input", f"{key} contains a lone surrogate (not valid Unicode text)") from None


def parse_line(raw: str, *, redact: bool, now: str, report: ImportReport) -> MemoryRecord:
    """One JSONL line → a record ready to insert (raises :class:`BadLine`)."""
    try:
        obj = json.loads(raw)  # stdlib: faster here than orjson behind its big-int guard (bench_engine)
    except ValueError as exc:
        raise BadLine("cave_invalid_input", f"invalid JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise BadLine("cave_invalid_input", "a line must be a JSON object")
    text = obj.get("text")
    if not isinstance(text, str) or not text.strip():
        raise BadLine("cave_invalid_input", "text must be a non-empty string")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MEMORY_BYTES:
        raise BadLine("cave_memory_too_large", f"memory is over the {MAX_MEMORY_BYTES}-byte cap")
    project = obj.get("project", "")
    if project is None:
        project = ""
    if not isinstance(project, str) or project.strip() == "*":
        raise BadLine("cave_invalid_input", "project must be a string (not '*')")
    kind = _str_or_none(obj, "kind")
    if kind is not None and kind not in KINDS:
        raise BadLine("cave_invalid_input", f"kind must be one of {', '.join(KINDS)}")
    _check_unicode(obj)
    seen = obj.get("seen_count", 1)
    if not isinstance(seen, int) or isinstance(seen, bool) or seen < 1 or seen >= 2**63:
        raise BadLine("cave_invalid_input", "seen_count must be a positive integer")
    created = _str_or_none(obj, "created_at") or now
    try:
        ts = ids.to_micros(ids.parse_timestamp(created)[0])
    except (ValueError, OverflowError):
        raise BadLine("cave_invalid_input", f"created_at is not an RFC 3339 time: {created!r}") from None
    rec = MemoryRecord(
        id="", text=text, project=project, created_at=created, ts=ts,
        valid_from=_str_or_none(obj, "valid_from") or created,
        tags=_str_list(obj, "tags"), files=_str_list(obj, "files"), seen_count=seen,
    )
    for key in _OPTIONAL_STR:
        if key in obj:  # an absent key keeps the record's default (None)
            setattr(rec, key, _str_or_none(obj, key))
    given_id = obj.get("id")
    if given_id is not None:
        if not isinstance(given_id, str) or given_id != ids.memory_id(text, project):
            raise BadLine("cave_invalid_input", "id does not match the content hash of project and text")
        rec.id = given_id
        return rec
    # a new memory: same cleaning as remember; history links make no sense without ids
    from . import privacy

    cleaned, kinds, _ = privacy.clean(text, redact_secrets=redact)
    if not cleaned.strip():
        raise BadLine("cave_memory_empty", "nothing left to import after removing <private> spans")
    if redact and (rec.topic or rec.entity or rec.session or rec.tags or rec.files):  # every stored field, as remember does
        fields, more = privacy.clean_fields({k: getattr(rec, k) for k in ("topic", "entity", "session", "tags", "files")})
        for k, value in fields.items():
            setattr(rec, k, tuple(value) if isinstance(getattr(rec, k), tuple) else value)
        for k, n in more.items():
            kinds[k] = kinds.get(k, 0) + n
    for k, n in kinds.items():
        report.redacted[k] = report.redacted.get(k, 0) + n
    rec.text = cleaned
    rec.id = ids.memory_id(cleaned, project)
    rec.valid_until = rec.supersedes = rec.superseded_by = None
    return rec


SERIAL_CHUNKS = 5  # chunks of BATCH lines parsed in process before worker processes take over (~0.3 s to start)


def _workers() -> int:
    """Parsing processes for a big import: ``CAVEMAN_IMPORT_WORKERS`` (0 or 1 = parse in process),
    default one a core up to 4 — parsing, redaction and analysis are ~70 µs of CPU a memory,
    as much as the database's own work, so they run beside it."""
    raw = os.environ.get("CAVEMAN_IMPORT_WORKERS", "").strip()
    if raw.isdigit():
        return int(raw)
    return min(4, os.cpu_count() or 1)


def _parse_chunk(args) -> tuple[list, dict[str, int]]:
    """Parse, clean and analyze one chunk of ``(line number, text)``: ``(number, record, terms)``
    for a good line, ``(number, None, error)`` for a bad one; plus the redactions by kind."""
    chunk, redact, now = args
    report = ImportReport()
    out: list = []
    for number, raw in chunk:
        try:
            rec = parse_line(raw, redact=redact, now=now, report=report)
        except BadLine as bad:
            out.append((number, None, {"line": number, "error": bad.code, "message": bad.message}))
            continue
        out.append((number, rec, index_terms(rec)))
    return out, report.redacted


def _chunks(lines: Iterable[str | bytes], report: ImportReport) -> Iterator[list[tuple[int, str]]]:
    chunk: list[tuple[int, str]] = []
    for number, raw in enumerate(lines, 1):
        if isinstance(raw, (bytes, bytearray)):
            raw = go_text(bytes(raw))
        if not raw.strip():
            continue
        report.lines += 1
        chunk.append((number, raw))
        if len(chunk) >= BATCH:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _merged(result: tuple[list, dict[str, int]], report: ImportReport) -> Iterator[tuple[int, MemoryRecord, list[str]]]:
    parsed, redacted = result
    for k, n in redacted.items():
        report.redacted[k] = report.redacted.get(k, 0) + n
    for number, rec, terms in parsed:
        if rec is None:
            report.errors.append(terms)
        else:
            yield number, rec, terms


def _pool(workers: int):
    """Forked workers: they start in milliseconds with everything imported, and (unlike spawn)
    never re-run the caller's ``__main__``; they only parse (no database connection is used in
    them). None where fork is unavailable: parse in process."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        return None
    return multiprocessing.get_context("fork").Pool(workers)


def parsed_lines(lines: Iterable[str | bytes], *, redact: bool, now: str, report: ImportReport,
                 workers: int | None = None) -> Iterator[tuple[int, MemoryRecord, list[str]]]:
    """``(line number, record, index terms)`` of every good line, in order (bad lines go to
    ``report.errors``). After :data:`SERIAL_CHUNKS` chunks the rest is parsed by ``workers``
    processes, at most two chunks each ahead of the writer: the same records and report, in
    the same order, as parsing in process."""
    workers = _workers() if workers is None else workers
    pending: collections.deque = collections.deque()
    pool = None
    try:
        for i, chunk in enumerate(_chunks(lines, report)):
            if pool is None and workers > 1 and i >= SERIAL_CHUNKS:
                pool = _pool(workers)
                workers = workers if pool is not None else 0
            if pool is None:
                yield from _merged(_parse_chunk((chunk, redact, now)), report)
                continue
            pending.append(pool.apply_async(_parse_chunk, ((chunk, redact, now),)))
            while len(pending) > 2 * workers:
                yield from _merged(pending.popleft().get(), report)
        while pending:
            yield from _merged(pending.popleft().get(), report)
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()


def present_ids(conn, wanted: list[str]) -> set[str]:
    """The ids of ``wanted`` already stored (inside the import's transaction). PostgreSQL asks
    once with an array (a 500-parameter ``IN`` list is parsed and planned each time: 7 µs of
    server CPU a memory at 100k, most of the dedup's cost)."""
    native = getattr(conn, "present_ids", None)
    if native is not None:
        return native(wanted)
    present: set[str] = set()
    for i in range(0, len(wanted), 500):
        chunk = wanted[i : i + 500]
        present.update(r[0] for r in conn.execute(f"SELECT id FROM memories WHERE id IN ({','.join('?' * len(chunk))})", chunk))
    return present


def import_lines(
    store: MemoryStore,
    lines: Iterable[str | bytes],
    *,
    redact: bool = True,
    now: str,
    progress: Callable[[ImportReport], None] | None = None,
    workers: int | None = None,
) -> ImportReport:
    """Import JSON lines into ``store``, a batch a transaction; the lines are parsed, cleaned and
    analyzed before the write lock is taken (see :func:`parsed_lines`)."""
    report = ImportReport()
    batch: list[tuple[int, MemoryRecord, list[str]]] = []

    def txn_for(rows: list[tuple[int, MemoryRecord, list[str]]]):
        def txn(conn):
            present = present_ids(conn, list({rec.id for _, rec, _ in rows}))
            items = []
            dups = 0
            for _, rec, terms in rows:
                if rec.id in present:
                    dups += 1
                    continue
                present.add(rec.id)  # a repeat inside the same batch is a duplicate too
                items.append((rec, terms))
            bulk = getattr(conn, "insert_rows", None)  # PostgreSQL's COPY path
            bulk(items) if bulk is not None else insert_rows(conn, items)
            bump_corpus(conn, len(items), sum(len(t) for _, t in items))
            return len(items), dups

        return txn

    def flush() -> None:
        if not batch:
            return
        try:
            docs, dups = store.write(txn_for(batch), "import")
        except (ValueError, OverflowError, TypeError):  # a value SQLite refuses: find its line, keep the rest
            docs = dups = 0
            for row in batch:
                try:
                    d, u = store.write(txn_for([row]), "import")
                except (ValueError, OverflowError, TypeError) as exc:
                    report.errors.append({"line": row[0], "error": "cave_invalid_input", "message": f"cannot store: {exc}"})
                    continue
                docs += d
                dups += u
            report.errors.sort(key=lambda e: e["line"])
        report.imported += docs
        report.duplicates += dups
        batch.clear()
        if progress is not None:
            progress(report)

    bulk = getattr(store, "bulk_load", None)  # PostgreSQL: search indexes built once after a big load
    with bulk() if bulk is not None else contextlib.nullcontext() as loader:
        for row in parsed_lines(lines, redact=redact, now=now, report=report, workers=workers):
            batch.append(row)
            if len(batch) >= BATCH:
                flush()
                if loader is not None:
                    loader.written(report.imported)
        flush()
    return report


def export_records(store: MemoryStore, where) -> Iterator[MemoryRecord]:
    """Rows matching ``where`` in storage order, streamed in pages."""
    last = 0
    while True:
        sql, params = where.sql(prefix=" AND ")
        from .model import SELECT_ROWS, record_from_row

        rows = store.read(SELECT_ROWS + " WHERE seq > ?" + sql + " ORDER BY seq LIMIT 1000", [last, *params])
        if not rows:
            return
        for row in rows:
            rec = record_from_row(row)
            last = rec.seq
            yield rec
