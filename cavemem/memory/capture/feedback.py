"""Hit-rate feedback: which injected memories did the reply actually use?

Why: a memory that is injected again and again and never used is noise the context pays for
(seed 000 §4.3). The user-prompt hook notes what it injected (a small file per session, no store
write inside the hook); the next Stop hands that list and the reply to the detached writer, which
counts, per memory, ``injected`` and ``used``. "Used" is overlap of wording and meaning with the
reply: half of the memory's analysed terms appear in it, or one of its distinctive tokens
(numbers, versions, hosts, paths, identifiers) does.
"""

from __future__ import annotations

import re

from .. import analyze, ids
from . import schema

_DISTINCT = re.compile(r"[\w./:@-]*\d[\w./:@-]*|[a-z][\w-]*\.[a-z][\w.-]+|/[\w.-]+(?:/[\w.-]+)+|\w+_\w+", re.I)
USED_SHARE = 0.5


def distinctive(text: str) -> set[str]:
    return {t.strip(".:-").lower() for t in _DISTINCT.findall(text) if len(t.strip(".:-")) >= 3}


def was_used(memory_text: str, reply: str) -> bool:
    terms = set(analyze.analyze(memory_text))
    if not terms or not reply.strip():
        return False
    low = reply.lower()
    if any(tok in low for tok in distinctive(memory_text)):
        return True
    return len(terms & set(analyze.analyze(reply))) >= USED_SHARE * len(terms)


def record(memory, injected: list[dict], reply: str) -> dict:
    """Count one injection (and maybe one use) for each ``{"id", "text"}`` in ``injected``."""
    seen: dict[str, bool] = {}
    for item in injected:
        mid, text = item.get("id"), item.get("text")
        if isinstance(mid, str) and isinstance(text, str) and mid not in seen:
            seen[mid] = was_used(text, reply or "")
    if not seen:
        return {"injected": 0, "used": 0}
    now = ids.format_time(memory.clock())

    def txn(conn):
        schema.ensure(conn)
        for mid, used in seen.items():
            if conn.execute("SELECT 1 FROM memories WHERE id = ?", (mid,)).fetchone() is None:
                continue  # forgotten since
            conn.execute("INSERT OR IGNORE INTO mem_capture (id) VALUES (?)", (mid,))
            conn.execute("UPDATE mem_capture SET injected = injected + 1, used = used + ?, "
                         "last_used = CASE WHEN ? THEN ? ELSE last_used END WHERE id = ?", (int(used), int(used), now, mid))

    memory.store.write(txn, "feedback")
    return {"injected": len(seen), "used": sum(seen.values())}


def usage(memory, project=None) -> dict:
    """Injected / used totals and the current memories injected but never used."""
    sql = ("SELECT m.id, m.text, c.injected, c.used FROM memories m JOIN mem_capture c ON c.id = m.id "
           "WHERE m.valid_until IS NULL AND c.injected > 0")
    params: list = []
    if project is not None:
        sql += " AND m.project = ?"
        params.append(project)
    rows = memory.store.read(sql + " ORDER BY c.injected DESC", params)
    never = [{"id": r[0], "text": r[1], "injected": r[2]} for r in rows if r[3] == 0]
    return {"injected_memories": len(rows), "injections": sum(r[2] for r in rows), "uses": sum(r[3] for r in rows),
            "never_used": never}


def unused(memory, records: list, unused_for: str) -> list:
    """The ``records`` older than ``unused_for`` ("90d") that no reply used within it."""
    from .review import expiry_us

    now = memory.clock()
    cutoff = 2 * ids.to_micros(now) - expiry_us(ttl=unused_for, now=now)  # now - duration
    cutoff_text = ids.format_time(ids.from_micros(cutoff))
    seqs = [r.seq for r in records if r.ts < cutoff]
    recent: set[int] = set()
    for i in range(0, len(seqs), 500):
        chunk = seqs[i : i + 500]
        recent.update(r[0] for r in memory.store.read(
            f"SELECT m.seq FROM memories m JOIN mem_capture c ON c.id = m.id WHERE m.seq IN ({','.join('?' * len(chunk))}) "
            "AND c.last_used IS NOT NULL AND c.last_used >= ?", [*chunk, cutoff_text]))
    return [r for r in records if r.ts < cutoff and r.seq not in recent]
