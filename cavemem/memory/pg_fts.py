"""Full-text candidates on PostgreSQL scored exactly as SQLite's FTS5 scores them (bm25 with its
k1 1.2, b 0.75, idf floor 1e-6, the scope column counted in document length), in one statement
each: the GIN index finds the rows, the server computes the scores from the same corpus
statistics, so the candidates and their ties equal SQLite's to float rounding."""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

from ..store.pg import conn as pgconn
from .model import Filter
from .store import SUPERSEDED_TOKEN, project_token

K1, B = 1.2, 0.75

LONG_TERM = 2000  # bytes: a tsvector lexeme holds at most 2047, so longer terms are indexed by digest

def tsquery(terms: Sequence[str]) -> str:
    """An OR of ``terms`` as literal lexemes (no stemming or parsing on the server)."""
    return " | ".join("'" + term_key(t).replace("\\", "\\\\").replace("'", "''") + "'" for t in dict.fromkeys(terms))


def term_key(term: str) -> str:
    """``cavemem_term_key`` in Python: the term, or a digest of an over-long one."""
    raw = term.encode("utf-8", "surrogatepass")
    return "h:" + hashlib.md5(raw).hexdigest() if len(raw) > LONG_TERM else term


def _filter(where: Filter, alias: str = "m") -> tuple[str, list]:
    sql, params = where.sql(alias=alias, prefix=" AND ")
    return (pgconn.translate(sql)[0] if sql else ""), params


Query = Callable[[str, Sequence], list]


def rank_fts(q: Query, terms: Sequence[str], where: Filter, k: int, newest: int = 0, *, rows: bool = False,
             within: Sequence[str] | None = None) -> list[tuple]:
    """Top ``k`` (seq, bm25) for an OR of ``terms`` under ``where`` in one round trip: candidates
    from the GIN index, each scored on the server with FTS5's bm25 over the same statistics
    (``newest`` > 0: only the newest ``newest`` matches are scored, as on SQLite). The arithmetic
    is :func:`bm25`'s, operation for operation in IEEE doubles, so the scores and their ties
    equal the Python formula's (and SQLite's to float rounding). ``rows``: each candidate's
    ``(seq, score, id, project, session, ts, valid_until, body)`` instead, in the same trip.
    ``within``: only rows matching one of these terms are candidates (scored by all ``terms``)."""
    terms = list(terms)
    if not terms or k <= 0:
        return []
    rest, params = _filter(replace(where, projects=None, current_only=False))
    # SQLite scores the rows from its ``newest``-th newest match's successor (LIMIT 1 OFFSET newest):
    # newest + 1 of them; the same rows here
    dense = newest > 0 and _dense(q, terms, newest)
    matches, match_args = _matches(where, tsquery(terms if within is None else within), rest, params,
                                   newest + 1 if newest > 0 else 0, dense)
    uniq = list(dict.fromkeys(terms))
    slot = {t: i for i, t in enumerate(uniq, 1)}
    parts = " + ".join(f"CASE WHEN tf[{j}] > 0 THEN w.idf[{slot[t]}] * (tf[{j}] * ({K1}::float8 + 1)) / (tf[{j}] + norm) "
                       f"ELSE 0::float8 END" for j, t in enumerate(terms, 1))
    sql = (
        "WITH s AS (SELECT greatest(c.docs, 1)::float8 AS n, greatest((c.tokens + c.docs + (SELECT count(*) FROM memories "
        "WHERE valid_until IS NOT NULL))::float8 / greatest(c.docs, 1)::float8, 1e-9::float8) AS avgdl "
        "FROM mem_corpus AS c WHERE c.id = 1), "
        "w AS (SELECT array_agg(CASE WHEN v > 0 THEN v ELSE 1e-6::float8 END ORDER BY ord) AS idf FROM (SELECT t.ord, "
        "ln((s.n - coalesce(d.df, 0)::float8 + 0.5::float8) / (coalesce(d.df, 0)::float8 + 0.5::float8)) AS v "
        "FROM s, unnest(%s::text[]) WITH ORDINALITY AS t(key, ord) LEFT JOIN mem_df AS d ON d.term_key = t.key) AS x), "
        # the scope column holds the project's token (+ " s0" once superseded): its token count is
        # bm25's extra length, and project / current-only filter here without touching memories
        "r AS MATERIALIZED (SELECT f.rowid, f.body, string_to_array(nullif(f.body, ''), ' ') AS toks, "
        "CASE WHEN strpos(f.scope, ' ') > 0 THEN 2 ELSE 1 END AS extra FROM (" + matches + ") AS f), "
        "c AS MATERIALIZED (SELECT r.rowid, r.body, ARRAY[" + ", ".join(
            "coalesce(array_length(array_positions(r.toks, %s::text), 1), 0)" for _ in terms) + "] AS tf, "
        f"{K1}::float8 * (1 - {B}::float8 + {B}::float8 * (coalesce(cardinality(r.toks), 0) + r.extra)::float8 / s.avgdl) "
        "AS norm FROM r, s) "
        "SELECT c.rowid, 0::float8 + " + parts + " AS score" + (", c.body" if rows else "") +
        " FROM c, w ORDER BY score DESC, c.rowid LIMIT %s"
    )
    if rows:  # the top rows' where and when beside their bodies (ranking reads them next)
        sql = ("SELECT t.rowid, t.score, m.id, m.project, m.session, m.ts, m.valid_until, t.body FROM (" + sql +
               ") AS t JOIN memories AS m ON m.seq = t.rowid ORDER BY t.score DESC, t.rowid")
    args = [[term_key(t) for t in uniq], *match_args, *terms, k]
    if rows:
        return [(seq, float(score), *rest) for seq, score, *rest in q(sql, args)]
    return [(seq, float(score)) for seq, score in q(sql, args)]


PRUNE_DF = 5000  # the first pass scores the rows of the rarest terms up to this many matches


def rank_fts_bounded(q: Query, terms: Sequence[str], where: Filter, k: int) -> list[tuple]:
    """:func:`rank_fts` (no ``newest``), exactly, scoring fewer matches of common terms (MaxScore).
    A first pass scores (by all terms) the rows of the rarest terms, :data:`PRUNE_DF` matches at
    most: its k-th score θ bounds the true k-th score from below. A row containing none of the
    terms left in gets less than ``(k1 + 1) × idf`` from each most common term left out; the
    most common terms whose bounds sum below θ are left out of the candidate query, which is
    then exact. The near-duplicate probe (8 words) of 25 dev-set texts remembered into the 1M
    bench project: 720 -> 170 ms of server CPU a remember (all in the write lock)."""
    terms = list(terms)
    uniq = list(dict.fromkeys(terms))
    if not uniq or k <= 0:
        return rank_fts(q, terms, where, k)
    keys = {term_key(t): t for t in uniq}
    df, docs = dict.fromkeys(uniq, 0), None
    for key, n in q("SELECT term_key, df FROM mem_df WHERE term_key = ANY(%s) UNION ALL "
                    "SELECT NULL, docs FROM mem_corpus WHERE id = 1", [list(keys)]):
        if key is None:
            docs = n
        else:
            df[keys[key]] = n
    order = sorted(uniq, key=lambda t: (df[t], t))
    first, total = order[:1], df[order[0]]
    for t in order[1:]:
        total += df[t]
        if total > PRUNE_DF:
            break
        first.append(t)
    if len(first) == len(uniq) or not docs:
        return rank_fts(q, terms, where, k)
    got = rank_fts(q, terms, where, k, within=first)
    if len(got) < k:
        return rank_fts(q, terms, where, k)
    theta, bound, left_out = got[-1][1], 0.0, set()
    for t in reversed(order[len(first):]):  # the most common first
        step = (K1 + 1) * idf_of(max(docs, 1), df[t]) * terms.count(t)
        if (bound + step) * (1 + 1e-9) + 1e-12 >= theta:
            break
        bound += step
        left_out.add(t)
    if not left_out:
        return rank_fts(q, terms, where, k)
    return rank_fts(q, terms, where, k, within=[t for t in uniq if t not in left_out])


def _dense(q: Query, terms: Sequence[str], newest: int) -> bool:
    """Whether the newest ``newest`` matches are found sooner by walking the rows newest first
    (they are dense) than by fetching every match and sorting: the walk visits about
    newest × docs / matches rows, the fetch ``matches`` scattered ones, so walk once matches² ≥
    newest × docs / 2 (the summed document frequencies bound the matches). On the 1M store a
    3-word OR with 7k matches walked 104k rows (235 ms); fetched, a few ms."""
    docs, total = q("SELECT (SELECT docs FROM mem_corpus WHERE id = 1), coalesce(sum(df), 0)::bigint FROM mem_df "
                    "WHERE term_key = ANY(%s)", [[term_key(t) for t in dict.fromkeys(terms)]])[0]
    return 2 * total * total >= newest * max(docs, 1)


def _matches(where: Filter, tsq: str, rest: str, params: list, newest: int, dense: bool) -> tuple[str, list]:
    """The statement of the matching ``mem_fts`` rows (rowid, body, scope) under ``where``, and
    its arguments. ``newest`` > 0 under a project filter: the newest matches of each scope value
    apart (one ``(scope, rowid)`` index walk each, stopping at ``newest``), merged — the same rows
    as the newest of all, but a common word in a small project no longer walks the whole table
    backwards past the big project's rows (1M store: 640 -> a few ms). Not ``dense``: ordered by
    ``rowid + 0``, which no index gives, so the server fetches the matches from the full-text
    index and sorts them instead of walking rows."""
    join = " JOIN memories AS m ON m.seq = f.rowid" if rest else ""
    base = "SELECT f.rowid, f.body, f.scope FROM mem_fts AS f" + join + " WHERE f.tsv @@ %s::tsquery"
    order = " ORDER BY f.rowid DESC LIMIT %s" if dense else " ORDER BY f.rowid + 0 DESC LIMIT %s"
    values = _scope_values(where)
    if values is None:
        cond = " AND strpos(f.scope, ' ') = 0" if where.current_only else ""
        if newest <= 0:
            return base + cond + rest, [tsq, *params]
        return base + cond + rest + order, [tsq, *params, newest]
    if newest <= 0:
        return base + " AND f.scope = ANY(%s)" + rest, [tsq, values, *params]
    branch = f"({base} AND f.scope = %s{rest}{order})"
    args = [a for v in values for a in (tsq, v, *params, newest)]
    return "SELECT * FROM (" + " UNION ALL ".join([branch] * len(values)) + ") AS u ORDER BY rowid DESC LIMIT %s", [*args, newest]


def _scope_values(where: Filter) -> list[str] | None:
    """The project and current-only parts of ``where`` as the ``mem_fts.scope`` values allowed
    (as SQLite puts them in its MATCH expression); None: every project."""
    if where.projects is None:
        return None
    values = [project_token(p) for p in where.projects]
    if not where.current_only:
        values += [v + " " + SUPERSEDED_TOKEN for v in values]
    return values


def bm25(body: str, extra_tokens: int, terms: Sequence[str], idf: dict[str, float], avgdl: float) -> float:
    """FTS5's bm25 (positive) of one row whose indexed column is ``body`` (space-separated
    terms) and whose other columns hold ``extra_tokens`` tokens; one phrase per query term."""
    toks = body.split(" ") if body else []
    tf = Counter(toks)
    norm = K1 * (1 - B + B * (len(toks) + extra_tokens) / avgdl)
    score = 0.0
    for t in terms:
        n = tf.get(t, 0)
        if n:
            score += idf[t] * (n * (K1 + 1)) / (n + norm)
    return score


def idf_of(n_rows: int, n: int) -> float:
    v = math.log((n_rows - n + 0.5) / (n + 0.5))
    return v if v > 0 else 1e-6
