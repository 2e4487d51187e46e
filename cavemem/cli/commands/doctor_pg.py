"""Read-only health checks of a PostgreSQL store for ``cavemem doctor`` (issue 13).

Reachable (and which server), the ``vector`` and ``pg_trgm`` extensions, each component's
recorded migrations against this build's, the full-text rows against the memories, and the
indexes recall relies on (the two GIN search indexes, the memories' btrees, an HNSW index on each
vector table past the exact-search size). Nothing is created, migrated or repaired here: the
checks connect without running migrations, so a doctor run never changes the schema.
"""

from __future__ import annotations

from collections.abc import Sequence

from cavemem.errors import CaveError
from cavemem.store.backend import mask_url
from cavemem.store.pg import conn as pgconn

Check = dict


def _check(out: list, name: str, status: str, detail: str, **extra) -> None:
    out.append({"check": name, "status": status, "detail": detail, **extra})


def checks(url: str) -> list[Check]:
    """The checks, in order; a server that cannot be reached is one failed check."""
    out: list[Check] = []
    try:
        srv = pgconn.server(url)
        version = srv.query("SHOW server_version")[0][0]
    except CaveError as err:
        _check(out, "postgres server", "fail", err.message, url=mask_url(url))
        return out
    _check(out, "postgres server", "ok", f"{srv.masked} (PostgreSQL {version})", url=srv.masked, version=version)
    _extensions(out, srv)
    from cavemem.memory.pg_store import MIGRATIONS as MEMORY
    from cavemem.store.pg.ccr import MIGRATIONS as CCR

    names = _recorded(srv)
    memory_ok = _schema(out, "memory store", names.get("memory"), MEMORY)
    _schema(out, "recovery store", names.get("ccr"), CCR)
    if memory_ok:
        _search_rows(out, srv)
        _indexes(out, srv)
    return out


def _extensions(out: list, srv: pgconn.Server) -> None:
    have = dict(srv.query("SELECT extname, extversion FROM pg_extension WHERE extname IN ('vector', 'pg_trgm')"))
    missing = [e for e in ("vector", "pg_trgm") if e not in have]
    if missing:
        _check(out, "postgres extensions", "fail", f"missing {', '.join(missing)} (as a superuser: "
               + "; ".join(f"CREATE EXTENSION {e}" for e in missing) + ")", missing=missing)
    else:
        _check(out, "postgres extensions", "ok", ", ".join(f"{k} {v}" for k, v in sorted(have.items())), versions=have)


def _recorded(srv: pgconn.Server) -> dict[str, list[str]]:
    if srv.query("SELECT to_regclass('cavemem_migrations')")[0][0] is None:
        return {}
    out: dict[str, list[str]] = {}
    for component, name in srv.query("SELECT component, name FROM cavemem_migrations ORDER BY component, position"):
        out.setdefault(component, []).append(name)
    return out


def _schema(out: list, name: str, recorded: list[str] | None, migrations: Sequence[pgconn.Migration]) -> bool:
    """ok / warn (older or absent: migrated on next open) / fail (newer than this build)."""
    known = [n for n, _ in migrations]
    if not recorded:
        _check(out, name, "warn", "no schema yet (created on first use)", schema=0)
        return False
    extra = [n for n in recorded if n not in known]
    if extra:
        _check(out, name, "fail", f"schema has migration(s) {', '.join(extra)} this cavemem does not know; upgrade cavemem",
               schema=len(recorded))
        return False
    if len(recorded) < len(known):
        _check(out, name, "warn", f"schema at {recorded[-1]}, migrated to {known[-1]} on next open", schema=len(recorded))
        return True
    _check(out, name, "ok", f"schema {recorded[-1]} ({len(recorded)} migrations)", schema=len(recorded))
    return True


def _search_rows(out: list, srv: pgconn.Server) -> None:
    rows, missing, orphans = srv.query(
        "SELECT (SELECT count(*) FROM memories), "
        "(SELECT count(*) FROM memories m WHERE NOT EXISTS (SELECT 1 FROM mem_fts f WHERE f.rowid = m.seq)), "
        "(SELECT count(*) FROM mem_fts f WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.seq = f.rowid))")[0]
    if missing or orphans:
        _check(out, "search index", "fail", f"{missing} memories missing from the full-text rows, {orphans} rows without a "
               "memory (export, then import into a fresh store)", missing=missing, orphans=orphans)
    else:
        _check(out, "search index", "ok", f"{rows} memory versions, all indexed", rows=rows)


def _indexes(out: list, srv: pgconn.Server) -> None:
    from cavemem.embed.pg_vectors import EXACT_ROWS
    from cavemem.memory.pg_store import BULK_LOCK, SEARCH_INDEXES
    from cavemem.memory.store_schema import MEMORY_INDEXES

    present = {r[0] for r in srv.query("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()")}
    want = [*SEARCH_INDEXES, *(sql.split()[2] for sql in MEMORY_INDEXES)]
    if srv.query("SELECT to_regclass('cavemem_vector_indexes')")[0][0] is not None:
        for tab, model in srv.query("SELECT tab, model FROM cavemem_vector_indexes ORDER BY tab"):
            if srv.query(f"SELECT count(*) > %s FROM {tab}", (EXACT_ROWS,))[0][0]:
                want.append(f"{tab}_hnsw")
    missing = [n for n in want if n not in present]
    if not missing:
        _check(out, "postgres indexes", "ok", f"all {len(want)} present", indexes=want)
        return
    loading = srv.query("SELECT count(*) > 0 FROM pg_locks WHERE locktype = 'advisory' AND classid::bigint = %s AND objsubid = 2 "
                        "AND objid::bigint = hashtext(current_schema())::bigint & 4294967295 AND granted",
                        (BULK_LOCK,))[0][0]
    detail = f"missing {', '.join(missing)}"
    if loading:
        _check(out, "postgres indexes", "warn", detail + " (a bulk import is running; it builds them when it ends)", missing=missing)
    else:
        _check(out, "postgres indexes", "fail", detail + " (the next cavemem run that opens the store rebuilds the search "
               "indexes; a vector table's HNSW index is built by the next semantic recall)", missing=missing)
