"""The FTS5 side of the memory store: scope tokens and the BM25 candidate query.

``mem_fts`` has two columns: ``body`` (the analyzed terms) and ``scope`` (a project token, plus
``s0`` once a version is superseded), so a project or current-only filter can be a doclist
intersection inside the MATCH expression. That is the fast way for a small project; for a big
one it is the slow way, because ``bm25()`` counts the rows of every phrase of the expression, the
project token's whole doclist included, on every query. So from :data:`LARGE_SCOPE` rows the
filter moves into a join with ``memories``: the same rows and the same scores (the scope column
has weight 0), found 2-5x faster in a 100k-memory project.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

TYPE_CHECKING = False  # typing's own flag without importing typing (12 M instructions of a hot CLI command)
if TYPE_CHECKING:
    from .model import Filter

SUPERSEDED_TOKEN = "s0"


def project_token(project: str) -> str:
    """The ``scope`` term of a project (hex, so the ascii tokenizer keeps it whole)."""
    from ..digest import sha256

    return "p" + sha256(project.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def scope_value(project: str, current: bool) -> str:
    return project_token(project) + ("" if current else " " + SUPERSEDED_TOKEN)


def _quote(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


LARGE_SCOPE = 5_000  # rows in the scoped projects from which their filter leaves the MATCH


def fts_query(terms: Sequence[str], where: "Filter", k: int, *, min_rowid: int = 0, nth_newest: int = 0,
              scope_join: bool = False) -> tuple[str, list]:
    """SQL + params for the top ``k`` (rowid, bm25) matching any of ``terms`` under ``where``.

    Project and current-only filters go into the MATCH expression (doclist intersections); only
    the rarer filters (dates, tag, kind, session) join ``memories``. ``scope_join`` moves the
    project and current-only filters into that join too: ``bm25()`` counts the rows of every
    phrase of the expression, so a project token in the MATCH walks the project's whole doclist
    per query (44-55 ms for a 100k-memory project). The rows and their scores are the same either
    way (the scope column's weight is 0). ``min_rowid`` skips older rows; ``nth_newest`` > 0
    instead asks for the rowid of the n-th newest match."""
    expr = "{body} : (" + " OR ".join(_quote(t) for t in terms) + ")"
    if not scope_join:
        if where.projects is not None:
            expr += " AND {scope} : (" + " OR ".join(_quote(project_token(p)) for p in where.projects) + ")"
        if where.current_only:
            expr += " NOT {scope} : " + SUPERSEDED_TOKEN
        where = replace(where, projects=None, current_only=False)
    rest, params = where.sql(alias="m", prefix=" AND ")
    if min_rowid:
        rest = " AND f.rowid >= ?" + rest
        params = [min_rowid, *params]
    source = "FROM mem_fts AS f" + (" JOIN memories AS m ON m.seq = f.rowid" if "m." in rest else "")
    if nth_newest:
        return f"SELECT f.rowid {source} WHERE mem_fts MATCH ?{rest} ORDER BY f.rowid DESC LIMIT 1 OFFSET ?", [expr, *params, nth_newest]
    return f"SELECT f.rowid, bm25(mem_fts, 1.0, 0.0) AS s {source} WHERE mem_fts MATCH ?{rest} ORDER BY s LIMIT ?", [expr, *params, k]


def large_scope(execute, projects) -> bool:
    """Whether the projects hold at least :data:`LARGE_SCOPE` rows (a bounded count: ~0.5 ms)."""
    if projects is None:
        return False
    rows = execute(f"SELECT count(*) FROM (SELECT 1 FROM memories WHERE project IN ({','.join('?' * len(projects))}) "
                   "LIMIT ?)", [*projects, LARGE_SCOPE])
    return rows[0][0] >= LARGE_SCOPE


def fts_rows(conn, terms: Sequence[str], where: "Filter", k: int) -> list[tuple[int, float]]:
    """Top ``k`` (rowid, score) inside a write transaction (dedup); a PostgreSQL connection
    ranks with the same figures natively."""
    native = getattr(conn, "fts_candidates", None)
    if native is not None:
        return native(terms, where, k)
    join = large_scope(lambda sql, params: conn.execute(sql, params).fetchall(), where.projects)
    sql, params = fts_query(terms, where, k, scope_join=join)
    return conn.execute(sql, params).fetchall()


