#!/usr/bin/env python3
"""Coding-agent memory dev set: cavemem beside plain FTS5 BM25 and plain MiniLM cosine.

    python scripts/bench_memory_devset.py              # table + bench-results/bench_memory_devset.json
    python scripts/bench_memory_devset.py --embed      # also cavemem with the [embed] scorer
    (cavemem +static, the shipped static table of cavemem/embed/static.py, is always measured)
    python scripts/bench_memory_devset.py --write-data # regenerate tests/data/memory_devset/*.jsonl

The set (``bench_memory_devset_data*.py``, written by hand for this): five projects of different
stacks (Django billing, Rust game engine, React Native app, Go services on Kubernetes, Python ML), decisions
with reasons, conventions, bug root causes, environment facts, preferences, where-is-the-code
notes, explicit and implicit updates, reworded near-duplicates, near-but-distinct pairs (prod vs
staging), a few secrets; questions asked ~40 days later in other words, off-topic questions and
questions about another project. Questions are split by a hash of their id, fixed up front:
``sha256(id)[0] < 154`` (60%) → tune, else check. Decide on tune, quote check.

Metrics per system and split: recall@5 and MRR over answerable questions (a hit counts when it is
the answer memory or a later version of it); no-hit answerable (answerable questions with zero
hits); old served (questions about an updated fact whose old version ranks above the new one in
the top 5, or shows without it); off-topic refused (zero hits); cross-project leaks (hits from a
project other than the one asked, over every question); twin (questions about one of a look-alike
pair whose partner ranks above it in the top 5); secrets stored verbatim; near-but-distinct pairs
merged and rewordings merged (split by the memory key's hash); the recall-time update rule on every
same-project (older, newer) pair: gold implicit updates caught, distinct pairs and other pairs fired on.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sqlite3
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

DATA_DIR = REPO / "tests" / "data" / "memory_devset"
RESULTS = REPO / "bench-results" / "bench_memory_devset.json"
BASE = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)
NOW = BASE + timedelta(days=45)
K = 5


def split_of(case_id: str) -> str:
    return "tune" if hashlib.sha256(case_id.encode()).digest()[0] < 154 else "check"


def build_set():
    """(memories, questions) as plain dicts, deterministic."""
    import bench_memory_devset_data as d1
    import bench_memory_devset_data2 as d2
    import bench_memory_devset_data3 as d3
    import bench_memory_devset_data4 as d4
    import bench_memory_devset_data5 as d5

    mems, qs = [], []
    for proj, items in (("ledger", d1.LEDGER + d3.LEDGER3 + d4.LEDGER4 + d5.LEDGER5),
                        ("tilemap", d1.TILEMAP + d3.TILEMAP3 + d4.TILEMAP4 + d5.TILEMAP5),
                        ("pulse", d2.PULSE + d3.PULSE3 + d4.PULSE4 + d5.PULSE5),
                        ("dataforge", d2.DATAFORGE + d3.DATAFORGE3 + d4.DATAFORGE4 + d5.DATAFORGE5),
                        ("forecast", d2.FORECAST + d3.FORECAST3 + d4.FORECAST4 + d5.FORECAST5)):
        for it in items:
            key = f"{proj}/{it['key']}"
            mem = {"key": key, "project": proj, "text": it["text"], "day": it["day"]}
            for rel in ("implicit", "explicit", "dup", "distinct"):
                if it.get(rel):
                    mem[rel] = f"{proj}/{it[rel]}"
            if it.get("secret"):
                mem["secret"] = it["secret"]
            mems.append(mem)
            stale = [mem[r] for r in ("implicit", "explicit") if r in mem]
            for i, q in enumerate(it["q"]):
                kind = "update" if stale else ("distinct" if "distinct" in mem else "fact")
                qs.append({"id": f"{key}#{i}", "project": proj, "q": q, "answers": [key], "stale": stale, "kind": kind})
        for j, (path, duty) in enumerate(d2.FILES.get(proj, ())):
            key = f"{proj}/file{j}"
            mems.append({"key": key, "project": proj, "text": f"{path} {duty}.", "day": 3 + j})
            qs.append({"id": f"{key}#0", "project": proj, "q": f"which file {duty.split(' ', 1)[1] if duty.startswith('is ') else duty}",
                       "answers": [key], "stale": [], "kind": "identifier"})
    # the distinct partner questions must not be answered by the partner: nothing to add, the
    # question's answer is its own memory (a merge would make the partner the answer -> counted)
    for i, q in enumerate(d2.OFFTOPIC):
        for proj in ("ledger", "pulse", "forecast"):
            qs.append({"id": f"offtopic/{i}/{proj}", "project": proj, "q": q, "answers": [], "stale": [], "kind": "offtopic"})
    for i, (proj, q) in enumerate(d2.CROSS):
        qs.append({"id": f"cross/{i}", "project": proj, "q": q, "answers": [], "stale": [], "kind": "cross"})
    for q in qs:
        q["split"] = split_of(q["id"])
    mems.sort(key=lambda m: (m["day"], m["key"]))
    return mems, qs


def write_data() -> None:
    mems, qs = build_set()
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    (DATA_DIR / "memories.jsonl").write_text("".join(json.dumps(m) + "\n" for m in mems))
    (DATA_DIR / "questions.jsonl").write_text("".join(json.dumps(q) + "\n" for q in qs))
    print(f"wrote {len(mems)} memories, {len(qs)} questions to {DATA_DIR}")


# -- systems: each returns {question id: [memory keys, best first]} ---------------------------------


def run_cavemem(mems, qs, scorers=None) -> tuple[dict, dict, dict]:
    from cavemem import Memory

    tmp = tempfile.mkdtemp(prefix="devset-")
    kwargs = {} if scorers is None else {"scorers": scorers}
    m = Memory(os.path.join(tmp, "mem.db"), clock=lambda: NOW, cwd=tmp, **kwargs)
    id_of: dict[str, str] = {}
    status: dict[str, str] = {}
    for mem in mems:
        at = BASE + timedelta(days=mem["day"])
        if "explicit" in mem:
            rec = m.supersede(_current(m, id_of[mem["explicit"]]), mem["text"])
            status[mem["key"]] = "superseded-explicit"
        else:
            rec = m.remember(mem["text"], project=mem["project"], at=at)
            status[mem["key"]] = rec.extra.get("status", "new")
        id_of[mem["key"]] = rec.id
    keys_of = version_keys(m, id_of)
    project_of = {}
    out, lat = {}, []
    for q in qs:
        t0 = time.perf_counter()
        res = m.recall(q["q"], project=q["project"], limit=10, now=NOW)
        lat.append((time.perf_counter() - t0) * 1000)
        ranked = []
        for h in res["hits"]:
            ranked.append(sorted(keys_of.get(h["id"], {f"?{h['id']}"})))
            rec = m.store.get(h["id"])
            project_of[h["id"]] = rec.project if rec else "?"
        out[q["id"]] = [(ks, project_of.get(h["id"])) for ks, h in zip(ranked, res["hits"])]
    pairs = update_pairs(m, mems, id_of)  # after the recalls: they bring the vectors up to date
    stored = [r.text + " " + " ".join(filter(None, (r.topic, r.entity, r.session))) for r in m.store.iter_all()] \
        if hasattr(m.store, "iter_all") else [m.store.get(i).text for i in id_of.values() if m.store.get(i)]
    facts = {"status": status, "stored": stored, "latency": lat, "pairs": pairs}
    m.close()
    return out, facts, keys_of


def update_pairs(m, mems, id_of: dict) -> dict:
    """Which same-project pairs (older, newer) the recall-time update rule would put newer-first
    (``update.newer_first`` on the two alone, with the store's own similarity): gold implicit pairs
    caught, distinct pairs fired on (a false supersede), and any other pair fired on."""
    from cavemem.memory.update import newer_first

    judge = next((x for x in m.scorers if hasattr(x, "similarity") and not getattr(x, "error", None)), None)
    gold = {(mem["implicit"], mem["key"]) for mem in mems if "implicit" in mem}
    distinct = {frozenset((mem["key"], mem["distinct"])) for mem in mems if "distinct" in mem}
    related = {frozenset((mem["key"], mem[r])) for mem in mems for r in ("dup", "explicit") if r in mem}
    out = {rel: {"tune": [0, 0], "check": [0, 0]} for rel in ("gold", "distinct", "other")}
    if judge is None:
        return out
    if hasattr(judge, "sync"):
        judge.sync()  # every memory has its vector, not only those the recalls brought up to date
    by_proj: dict[str, list] = {}
    for mem in mems:
        rec = m.store.get(id_of[mem["key"]])
        if rec is not None:
            by_proj.setdefault(mem["project"], []).append((mem, rec))
    for items in by_proj.values():
        sims = judge.similarity([rec.seq for _, rec in items])
        for a, ra in items:
            for b, rb in items:
                if ra.ts >= rb.ts or ra.seq == rb.seq:
                    continue
                fired = newer_first([ra.seq, rb.seq], {ra.seq: ra.text, rb.seq: rb.text}, {ra.seq: ra.ts, rb.seq: rb.ts},
                                    lambda seqs: {k: v for k, v in sims.items() if k[0] in seqs and k[1] in seqs})[0] == rb.seq
                pair = frozenset((a["key"], b["key"]))
                # a pair goes with the split of the labelled memory's first question
                if (a["key"], b["key"]) in gold:
                    cell = out["gold"][split_of(b["key"] + "#0")]
                elif pair in distinct:
                    cell = out["distinct"][split_of(next(k for k in (a["key"], b["key"]) if "distinct" in
                                                         next(x for x in mems if x["key"] == k)) + "#0")]
                elif pair in related:
                    continue
                else:
                    cell = out["other"][split_of(b["key"] + "#0")]
                cell[0] += fired
                cell[1] += 1
    return out


def version_keys(m, id_of: dict) -> dict[str, set]:
    """Memory id -> the dev-set keys it answers: a memory's key also names every later version of it."""
    keys_of: dict[str, set] = {}
    for key, mid in id_of.items():
        seen = set()
        while mid and mid not in seen:
            seen.add(mid)
            keys_of.setdefault(mid, set()).add(key)
            rec = m.store.get(mid)
            mid = rec.superseded_by if rec is not None else None
    return keys_of


def _current(m, mid: str) -> str:
    rec = m.store.get(mid)
    while rec is not None and rec.superseded_by:
        rec = m.store.get(rec.superseded_by)
    return rec.id


def run_fts5(mems, qs) -> dict:
    from cavemem.memory.analyze import STOPWORDS

    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(key UNINDEXED, project UNINDEXED, text, tokenize='porter')")
    db.executemany("INSERT INTO t VALUES (?, ?, ?)", [(m["key"], m["project"], m["text"]) for m in mems])
    out = {}
    for q in qs:
        words = [w for w in re.findall(r"[A-Za-z0-9]+", q["q"].lower()) if w not in STOPWORDS and len(w) > 1]
        got = []
        if words:
            got = db.execute("SELECT key, project FROM t WHERE t MATCH ? AND project = ? ORDER BY bm25(t) LIMIT 10",
                             (" OR ".join(f'"{w}"' for w in words), q["project"])).fetchall()
        out[q["id"]] = [([k], p) for k, p in got]
    return out


def run_cosine(mems, qs) -> dict:
    import numpy as np

    from cavemem.embed.embedder import Embedder

    emb = Embedder(threads=2)
    mv = emb.embed([m["text"] for m in mems])
    qv = emb.embed([q["q"] for q in qs])
    projects = np.array([m["project"] for m in mems])
    out = {}
    for q, v in zip(qs, qv):
        sims = mv @ v
        sims[projects != q["project"]] = -9
        order = np.argsort(-sims)[:10]
        out[q["id"]] = [([mems[i]["key"]], mems[i]["project"]) for i in order]
    return out


# -- scoring ----------------------------------------------------------------------------------------


def score(results: dict, qs, mems) -> dict:
    partners: dict[str, set] = {}
    for mem in mems:
        if "distinct" in mem:
            partners.setdefault(mem["key"], set()).add(mem["distinct"])
            partners.setdefault(mem["distinct"], set()).add(mem["key"])
    by_split = {}
    for split in ("tune", "check", "all"):
        sub = [q for q in qs if split == "all" or q["split"] == split]
        ans = [q for q in sub if q["answers"]]
        r5 = mrr = nohit = 0.0
        upd = [q for q in ans if q["stale"]]
        old = 0
        twins = [q for q in ans if partners.get(q["answers"][0])]
        wrong_twin = 0
        for q in ans:
            ranked = results[q["id"]]
            keys = [ks for ks, _ in ranked]
            rank = next((i for i, ks in enumerate(keys) if set(ks) & set(q["answers"])), None)
            if rank is not None and rank < K:
                r5 += 1
            if rank is not None:
                mrr += 1 / (rank + 1)
            if not ranked:
                nohit += 1
            if q["stale"]:
                # a list that holds the old version (not also as the new one) above the new one
                old_rank = next((i for i, ks in enumerate(keys[:K]) if set(ks) & set(q["stale"]) and not set(ks) & set(q["answers"])), None)
                if old_rank is not None and (rank is None or old_rank < rank):
                    old += 1
            twin = partners.get(q["answers"][0])
            if twin:  # the look-alike partner (prod for a staging question) ranks above the answer
                twin_rank = next((i for i, ks in enumerate(keys[:K]) if set(ks) & twin and not set(ks) & set(q["answers"])), None)
                if twin_rank is not None and (rank is None or twin_rank < rank):
                    wrong_twin += 1
        off = [q for q in sub if q["kind"] == "offtopic"]
        leaks = sum(1 for q in sub for _, p in results[q["id"]] if p not in (q["project"], "global", None))
        cross = [q for q in sub if q["kind"] == "cross"]
        n = len(ans) or 1
        by_split[split] = {
            "answerable": len(ans), "recall_at_5": r5 / n, "mrr": mrr / n, "no_hit_answerable": nohit / n,
            "updates": len(upd), "old_served": old / (len(upd) or 1),
            "twin_questions": len(twins), "twin_above": wrong_twin / (len(twins) or 1),
            "offtopic": len(off), "offtopic_refused": sum(1 for q in off if not results[q["id"]]) / (len(off) or 1),
            "cross_project_leaks": leaks, "cross_refused": sum(1 for q in cross if not results[q["id"]]) / (len(cross) or 1),
        }
    return by_split


def merge_facts(facts, mems) -> dict:
    st = facts["status"]
    dups = [m for m in mems if "dup" in m]
    distinct = [m for m in mems if "distinct" in m]
    secrets = [m["secret"] for m in mems if m.get("secret")]
    blob = "\n".join(facts["stored"])
    lat = sorted(facts["latency"])
    def per_split(items) -> str:
        return " ".join(f"{sp} {sum(st[m['key']] == 'merged' for m in items if split_of(m['key']) == sp)}/"
                        f"{sum(split_of(m['key']) == sp for m in items)}" for sp in ("tune", "check"))

    pairs = facts.get("pairs", {})

    def fired(cell) -> str:
        return " ".join(f"{sp} {cell[sp][0]}/{cell[sp][1]}" for sp in ("tune", "check")) if cell else "-"

    return {
        "rewordings_merged": f"{sum(st[m['key']] == 'merged' for m in dups)}/{len(dups)} ({per_split(dups)})",
        "distinct_pairs_merged": f"{sum(st[m['key']] == 'merged' for m in distinct)}/{len(distinct)} ({per_split(distinct)})",
        "update_rule_gold_pairs": fired(pairs.get("gold")), "update_rule_on_distinct_pairs": fired(pairs.get("distinct")),
        "update_rule_on_other_pairs": fired(pairs.get("other")),
        "implicit_updates": sum(1 for m in mems if "implicit" in m),
        "implicit_auto_superseded": f"{sum(st[m['key']] in ('merged', 'superseded') for m in mems if 'implicit' in m)}/{sum(1 for m in mems if 'implicit' in m)}",
        "secrets_stored_verbatim": f"{sum(s in blob for s in secrets)}/{len(secrets)}",
        "recall_p50_ms": round(lat[len(lat) // 2], 2), "recall_p95_ms": round(lat[int(len(lat) * 0.95)], 2),
    }


def print_table(table: dict) -> None:
    cols = [("recall_at_5", "r@5"), ("mrr", "MRR"), ("no_hit_answerable", "no-hit"), ("old_served", "old"), ("twin_above", "twin"),
            ("offtopic_refused", "off-top"), ("cross_refused", "cross-ref"), ("cross_project_leaks", "leaks")]
    print(f"{'system':<22}{'split':<7}" + "".join(f"{c:>10}" for _, c in cols))
    for name, res in table.items():
        for split in ("tune", "check"):
            row = res[split]
            cells = "".join(f"{row[k]:>10}" if isinstance(row[k], int) else f"{row[k]:>10.3f}" for k, _ in cols)
            print(f"{name:<22}{split:<7}{cells}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write-data", action="store_true")
    ap.add_argument("--embed", action="store_true", help="also cavemem with the [embed] scorer")
    ap.add_argument("--no-static", action="store_true", help="skip cavemem with the static table scorer")
    ap.add_argument("--no-cosine", action="store_true", help="skip the MiniLM cosine baseline")
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args()
    if args.write_data:
        write_data()
        return
    mems, qs = build_set()
    n_split = {s: sum(q["split"] == s for q in qs) for s in ("tune", "check")}
    print(f"{len(mems)} memories in 5 projects, {len(qs)} questions (tune {n_split['tune']}, check {n_split['check']})")
    table, extra = {}, {}
    res, facts, _ = run_cavemem(mems, qs)
    table["cavemem default"] = score(res, qs, mems)
    extra["cavemem default"] = merge_facts(facts, mems)
    if not args.no_static:
        res, facts, _ = run_cavemem(mems, qs, scorers=["static"])
        table["cavemem +static"] = score(res, qs, mems)
        extra["cavemem +static"] = merge_facts(facts, mems)
    if args.embed:
        res, facts, _ = run_cavemem(mems, qs, scorers=["embed"])
        table["cavemem +embed"] = score(res, qs, mems)
        extra["cavemem +embed"] = merge_facts(facts, mems)
    table["FTS5 BM25 (plain)"] = score(run_fts5(mems, qs), qs, mems)
    if not args.no_cosine:
        table["MiniLM cosine (plain)"] = score(run_cosine(mems, qs), qs, mems)
    print_table(table)
    for name, facts in extra.items():
        print(f"{name}: " + ", ".join(f"{k} {v}" for k, v in facts.items()))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"table": table, "cavemem": extra, "memories": len(mems), "questions": len(qs)}, indent=1))


if __name__ == "__main__":
    main()
