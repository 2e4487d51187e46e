#!/usr/bin/env python3
"""Recall quality and speed with one project padded to N memories of realistic distractors (issue 10 item 7).

    nice python scripts/bench_memory_scale.py --size 100000              # lexical (CAVEMAN_EMBED=0)
    nice python scripts/bench_memory_scale.py --size 20000 --embed       # also default (MiniLM) after embed sync

Built stores (with their vectors) and the distractor list are kept in ``bench-results/cache/``
(gitignored) and copied for each run, so a slow build (100k: ~6 min of distractors, ~3 min of
import; embedding 10k took 18 min on this shared machine, so 100k would take hours) is paid once;
``--cache ''`` rebuilds in a temporary directory.

The dev set (``tests/data/memory_devset``: five projects, its questions with their fixed tune/check
split) is remembered into a store whose ``ledger`` project is first padded with distractor memories
up to ``--size`` memories in that one project. Distractors are real text from this machine, reworded
into memory statements by rule (no hand-written content): Debian changelog entries
(``/usr/share/doc/*/changelog*.gz``), docstrings of installed Python modules (the venv and
``/usr/lib/python3*``), and LoCoMo turns of conversations 0-4 (``/work/shared/data``). They are
dated across the same days as the dev set, so recency does not separate them. Bulk load goes through
``Memory.import_lines`` (batched transactions); vectors through the scorer's ``sync`` batch path.

Every question is asked of the small store (the dev set alone) and the padded one, by cavemem
(lexical and, with ``--embed``, the default MiniLM scorer) and by plain SQLite FTS5 BM25 over the same
rows. The headline rows are the ledger questions (the scaled project); the other projects are a
control. Metrics as ``bench_memory_devset.py``: recall@5, MRR, no-hit answerable, off-topic refused,
plus in-process recall p50/p95 (warm: one recall before timing). Off-topic hits are broken down by
the source of the top hit, since a LoCoMo chat turn may really answer a personal question.
"""

from __future__ import annotations

import argparse
import ast
import gzip
import hashlib
import json
import os
import re
import sqlite3
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_memory_devset as dev  # noqa: E402  (the dev set's split, scorer and FTS5 baseline)

RESULTS = dev.REPO / "bench-results" / "bench_memory_scale.json"
CACHE = dev.REPO / "bench-results" / "cache"  # gitignored (bench-results/)
TARGET_P95_MS = 30.0  # in-process recall at 100k (issue 10 item 7)
LOCOMO = Path("/work/shared/data/locomo/locomo-dev.json")
PROJECT = "ledger"
_SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_CODEY = re.compile(r"[{}<>\[\]=`|\\$#@]|::|->|\.\w+\(")


def _h(s: str) -> int:
    return int.from_bytes(hashlib.sha256(s.encode()).digest()[:4], "big")


def _clean(s: str) -> str | None:
    """A prose sentence fit to be a memory, or None (code, fragments, boilerplate)."""
    s = " ".join(s.split()).strip(" -*+")
    if not 35 <= len(s) <= 220 or len(s.split()) < 6 or _CODEY.search(s):
        return None
    letters = sum(c.isalpha() or c == " " for c in s)
    return s if letters / len(s) > 0.85 else None


def changelog_memories():
    """``<pkg> <version>`` changelog entries → 'We upgraded … ; its changelog says: …'."""
    head = re.compile(r"^(\S+) \(([^)]+)\)")
    for path in sorted(Path("/usr/share/doc").glob("*/changelog*.gz")):
        try:
            text = gzip.open(path, "rt", errors="replace").read(400_000)
        except OSError:
            continue
        pkg, ver, entry = path.parent.name, "", []
        debian = "Debian" in path.name
        for line in text.splitlines() + [""]:
            m = head.match(line) if debian else None
            if m:
                pkg, ver = m.group(1), m.group(2)
            if line.lstrip().startswith(("* ", "- ", "+ ")) or not line.strip():
                if entry:
                    s = _clean(" ".join(entry))
                    if s:
                        yield "changelog", _reword_change(pkg, ver, s)
                entry = [line.lstrip()[2:]] if line.strip() else []
            elif entry and line.startswith(" "):
                entry.append(line.strip())


def _reword_change(pkg: str, ver: str, s: str) -> str:
    low, ver = s[0].lower() + s[1:], ver or "the packaged version"
    forms = (f"We upgraded {pkg} to {ver}; its changelog says: {s.rstrip('.')}.",
             f"Note for {pkg} {ver}: {s.rstrip('.')}.",
             f"I checked the {pkg} {ver} release notes: {low.rstrip('.')}.")
    return forms[_h(pkg + ver + s) % 3]


def docstring_memories():
    """Docstring sentences of installed modules → 'In <module>, <name>: …'."""
    roots = [Path(p) for p in sys.path if "site-packages" in p] + sorted(Path("/usr/lib").glob("python3*"))
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            if "test" in path.name:
                continue
            try:
                tree = ast.parse(path.read_text(errors="replace"))
            except (SyntaxError, ValueError, OSError, RecursionError):
                continue
            mod = path.stem if path.stem != "__init__" else path.parent.name
            for node in ast.walk(tree):
                if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef, ast.Module)):
                    doc = ast.get_docstring(node)
                    if not doc:
                        continue
                    name = getattr(node, "name", mod)
                    for s in _SENT.split(doc.split("\n\n")[0])[:2]:
                        s = _clean(s)
                        if s:
                            yield "docstring", _reword_doc(mod, name, s)


def _reword_doc(mod: str, name: str, s: str) -> str:
    low = s[0].lower() + s[1:]
    forms = (f"In {mod}, {name}: {s}", f"Remember that {name} in {mod} does this: {low}",
             f"I looked at {mod}.{name}; the docs say {low}")
    return forms[_h(mod + name + s) % 3]


def locomo_memories():
    """LoCoMo turns (conversations 0-4) → '<speaker> told me …' (first person, by rule)."""
    for conv in json.loads(LOCOMO.read_text()):
        c = conv["conversation"]
        for key, turns in c.items():
            if not key.startswith("session_") or not isinstance(turns, list):
                continue
            for t in turns:
                s = " ".join(t.get("text", "").split())
                if len(s) >= 25:
                    forms = (f"{t['speaker']} told me: {s}", f"In a chat, {t['speaker']} said {s}")
                    yield "locomo", forms[_h(s) % 2]


SOURCES = {"locomo": locomo_memories, "changelog": changelog_memories, "docstring": docstring_memories}


def distractors(n: int, sources=tuple(SOURCES)) -> list[tuple[str, str]]:
    """``n`` distinct (source, text), interleaved across sources so any prefix is mixed."""
    out, seen = [], set()
    gens = [SOURCES[s]() for s in sources]
    while gens and len(out) < n:
        for g in list(gens):
            item = next(g, None)
            if item is None:
                gens.remove(g)
            elif item[1] not in seen:
                seen.add(item[1])
                out.append(item)
    if len(out) < n:
        raise SystemExit(f"only {len(out)} distinct distractors on this machine (asked for {n})")
    return out[:n]


def build_store(path: str, mems, pad, embed: bool):
    """Import the padding, then remember the dev set as bench_memory_devset does. Returns (Memory, keys_of, facts)."""
    from cavemem import Memory

    os.environ["CAVEMAN_EMBED"] = "1" if embed else "0"
    m = Memory(path, clock=lambda: dev.NOW, cwd=os.path.dirname(path), scorers=None if embed else ())
    t0 = time.perf_counter()
    span = (dev.NOW - dev.BASE).days + 30
    lines = (json.dumps({"text": t, "project": PROJECT,
                         "created_at": (dev.BASE + timedelta(days=_h(t) % span - 30)).strftime("%Y-%m-%dT%H:%M:%SZ")})
             for _, t in pad)
    rep = m.import_lines(lines)
    facts = {"import_s": round(time.perf_counter() - t0, 1), "imported": rep.imported}
    id_of = {}
    t0 = time.perf_counter()
    for mem in mems:
        at = dev.BASE + timedelta(days=mem["day"])
        if "explicit" in mem:
            rec = m.supersede(dev._current(m, id_of[mem["explicit"]]), mem["text"])
        else:
            rec = m.remember(mem["text"], project=mem["project"], at=at)
        id_of[mem["key"]] = rec.id
    facts["remember_devset_s"] = round(time.perf_counter() - t0, 1)
    keys_of = dev.version_keys(m, id_of)
    if embed:
        t0 = time.perf_counter()
        for s in m.scorers:
            if hasattr(s, "sync"):
                facts["embed_sync"] = s.sync()
        facts["embed_sync_s"] = round(time.perf_counter() - t0, 1)
    return m, keys_of, facts


def cached_distractors(cache: Path | None, n: int, sources) -> list:
    """:func:`distractors`, kept as JSON in ``cache`` (finding 100k of them takes ~6 min here)."""
    path = cache / f"scale-distractors-{n}-{'-'.join(sources)}.json" if cache else None
    if path is not None and path.exists():
        return [tuple(x) for x in json.loads(path.read_text())]
    pad = distractors(n, sources)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(pad))
    return pad


def cached_store(cache: Path, mems, pad, embed: bool, sources: str):
    """:func:`build_store` once per (padding, scorer) into ``cache``, then a private copy of it per run:
    embedding a 100k store takes hours here (10k took 18 min), so it is done at most once."""
    import shutil

    digest = hashlib.sha256(json.dumps([len(pad), sources, embed, [t for _, t in pad[:50]]]).encode()).hexdigest()[:12]
    folder = cache / f"scale-store-{len(pad)}-{'embed' if embed else 'lexical'}-{digest}"
    if not (folder / "facts.json").exists():
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True, mode=0o700)
        m, keys_of, facts = build_store(str(folder / "mem.db"), mems, pad, embed)
        m.close()
        (folder / "keys_of.json").write_text(json.dumps({k: sorted(v) for k, v in keys_of.items()}))
        (folder / "facts.json").write_text(json.dumps(facts))
    work = Path(tempfile.mkdtemp(prefix="memscale-"))
    for item in folder.iterdir():
        if item.name.startswith("mem.db"):
            (shutil.copytree if item.is_dir() else shutil.copy2)(item, work / item.name)
    from cavemem import Memory

    os.environ["CAVEMAN_EMBED"] = "1" if embed else "0"
    m = Memory(str(work / "mem.db"), clock=lambda: dev.NOW, cwd=str(work), scorers=None if embed else ())
    keys_of = {k: set(v) for k, v in json.loads((folder / "keys_of.json").read_text()).items()}
    return m, keys_of, dict(json.loads((folder / "facts.json").read_text()), cached=str(folder))


def ask(m, keys_of, qs, source_of) -> tuple[dict, list, dict]:
    """Every question through ``Memory.recall``: results as dev.score wants, latencies, top-hit source of off-topic hits."""
    m.recall("warm up the caches", project=PROJECT, limit=10, now=dev.NOW)
    out, lat, off_src = {}, [], {}
    for q in qs:
        t0 = time.perf_counter()
        res = m.recall(q["q"], project=q["project"], limit=10, now=dev.NOW)
        lat.append((time.perf_counter() - t0) * 1000)
        out[q["id"]] = [(sorted(keys_of.get(h["id"], {f"?{h['id']}"})), q["project"]) for h in res["hits"]]
        if q["kind"] == "offtopic" and res["hits"]:
            src = source_of.get(res["hits"][0]["text"], "devset")
            off_src[src] = off_src.get(src, 0) + 1
            off_src.setdefault("examples", []).append([q["q"], src, res["hits"][0]["text"][:120]])
    return out, lat, off_src


def fts5(mems, pad, qs):
    """Plain FTS5 BM25 over the same rows (the dev set's baseline, fed the padding too); mean ms per query."""
    rows = list(mems) + [{"key": f"pad{i}", "project": PROJECT, "text": t} for i, (_, t) in enumerate(pad)]
    t0 = time.perf_counter()
    dev.run_fts5(rows, [])  # the build alone, subtracted below: the figure is per query
    build = time.perf_counter() - t0
    t0 = time.perf_counter()
    out = dev.run_fts5(rows, qs)
    return out, max(0.0, time.perf_counter() - t0 - build) * 1000 / max(1, len(qs))


def pct(lat, p):
    s = sorted(lat)
    return round(s[min(len(s) - 1, int(len(s) * p))], 2)


def row(res, qs, mems, lat=None, off_src=None):
    ledger = [q for q in qs if q["project"] == PROJECT]
    r = {"ledger": dev.score(res, ledger, mems), "all": dev.score(res, qs, mems)}
    if lat is not None:
        led = [t for t, q in zip(lat, qs) if q["project"] == PROJECT]
        r["latency_ms"] = {"p50": pct(lat, 0.5), "p95": pct(lat, 0.95), "ledger_p50": pct(led, 0.5), "ledger_p95": pct(led, 0.95)}
    if off_src is not None:
        r["offtopic_top_hit_source"] = off_src
    return r


def print_table(table):
    cols = [("recall_at_5", "r@5"), ("mrr", "MRR"), ("no_hit_answerable", "no-hit"), ("offtopic_refused", "off-ref")]
    print(f"{'system':<34}{'scope':<8}{'split':<7}" + "".join(f"{c:>8}" for _, c in cols) + f"{'p50ms':>8}{'p95ms':>8}")
    for name, r in table.items():
        for scope in ("ledger", "all"):
            for split in ("tune", "check"):
                cells = "".join(f"{r[scope][split][k]:>8.3f}" for k, _ in cols)
                lat = r.get("latency_ms", {})
                pre = "ledger_" if scope == "ledger" else ""
                tail = f"{lat.get(pre + 'p50', ''):>8}{lat.get(pre + 'p95', ''):>8}" if lat else ""
                print(f"{name:<34}{scope:<8}{split:<7}{cells}{tail}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=100_000, help="memories in the padded project")
    ap.add_argument("--embed", action="store_true", help="also the default scorer (MiniLM), after embed sync")
    ap.add_argument("--sources", default=",".join(SOURCES),
                    help="distractor sources (LoCoMo chat turns really speak of some off-topic subjects)")
    ap.add_argument("--no-lexical", action="store_true", help="with --embed: skip the CAVEMAN_EMBED=0 rows")
    ap.add_argument("--out", type=Path, default=RESULTS)
    ap.add_argument("--cache", type=Path, default=CACHE,
                    help="built stores (with their vectors) and distractors are kept here and reused; '' to rebuild")
    args = ap.parse_args()
    args.cache = args.cache if str(args.cache) else None
    mems = [json.loads(x) for x in (dev.DATA_DIR / "memories.jsonl").read_text().splitlines() if x.strip()]
    qs = [json.loads(x) for x in (dev.DATA_DIR / "questions.jsonl").read_text().splitlines() if x.strip()]
    own = sum(1 for x in mems if x["project"] == PROJECT)
    t0 = time.perf_counter()
    pad = cached_distractors(args.cache, max(0, args.size - own), tuple(x for x in args.sources.split(",") if x))
    source_of = {t: s for s, t in pad}
    mix = {s: sum(1 for x, _ in pad if x == s) for s in ("changelog", "docstring", "locomo")}
    print(f"{len(pad)} distractors ({mix}) in {time.perf_counter() - t0:.0f} s; {len(qs)} questions")
    table, facts = {}, {}
    modes = ([] if args.no_lexical and args.embed else [("lexical", False)]) + ([("default (MiniLM)", True)] if args.embed else [])
    for label, embed in modes:
        for size, padding in (("small", []), (f"{args.size / 1000:g}k", pad)):
            m, keys_of, f = cached_store(args.cache, mems, padding, embed, args.sources) if args.cache else \
                build_store(os.path.join(tempfile.mkdtemp(prefix="memscale-"), "mem.db"), mems, padding, embed)
            res, lat, off_src = ask(m, keys_of, qs, source_of)
            m.close()
            name = f"cavemem {label} {size}"
            table[name], facts[name] = row(res, qs, mems, lat, off_src), f
            srcs = {k: v for k, v in off_src.items() if k != "examples"}
            print(f"{name}: {f}, latency {table[name]['latency_ms']}, off-topic top-hit sources {srcs}", flush=True)
    for size, padding in (("small", []), (f"{args.size / 1000:g}k", pad)):
        res, per_q = fts5(mems, padding, qs)
        table[f"FTS5 BM25 (plain) {size}"] = row(res, qs, mems)
        facts[f"FTS5 BM25 (plain) {size}"] = {"mean_query_ms": round(per_q, 2)}
    print_table(table)
    load = [round(x, 1) for x in os.getloadavg()]
    print(f"target: in-process recall p95 <= {TARGET_P95_MS:g} ms with {args.size / 1000:g}k memories in one project "
          f"(the ledger rows); load average now {load} on {os.cpu_count()} cores")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"size": args.size, "distractors": mix, "table": table, "facts": facts, "load": load,
                                    "target_p95_ms": TARGET_P95_MS}, indent=1))


if __name__ == "__main__":
    main()
