#!/usr/bin/env python3
"""The refusal gate across store sizes: the dev set asked of its own store and of one padded to N.

    nice python scripts/bench_memory_gate.py --size 7000 --sources changelog,docstring
    nice python scripts/bench_memory_gate.py --size 10000            # LoCoMo chat turns too

Like ``bench_memory_scale.py --embed`` (same distractors, same dates, the dev set's fixed
tune/check split, the ``ledger`` project padded), but the distractors' vectors are embedded once
into ``--cache`` (MiniLM, the index's recipe: a memory without a session is its own window) and
written straight into each store's sidecar, so a gate or fusion change is measured on a 10k store
in minutes instead of re-embedding it every run. Every question goes through ``Memory.recall`` with
the default scorer; the ledger questions are the scaled figures, the small store all projects.
Plain MiniLM cosine (the same cached vectors) and plain FTS5 BM25 over the same rows are printed
beside each store. Set ``CAVEMAN_MEM_FUSION`` / ``CAVEMAN_EMBED_TUNING`` to try other settings.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_memory_devset as dev  # noqa: E402
import bench_memory_scale as scale  # noqa: E402


def cached_vectors(texts: list[str], path: Path):
    import numpy as np

    from cavemem.embed.embedder import Embedder

    if path.exists():
        got = np.load(path)
        if len(got) == len(texts):
            return got
    vectors = Embedder(threads=int(os.environ.get("CAVEMAN_EMBED_THREADS", "1") or 1)).embed(texts)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.save(path, vectors)
    return vectors


def build(directory: str, mems, pad: list[str], vec_of: dict):
    """The padded store with its sidecar filled from ``vec_of`` (text -> vector); the few memories
    whose stored text differs (redacted, merged) are embedded by the scorer's own sync."""
    os.environ["CAVEMAN_EMBED"] = "1"
    from cavemem import Memory

    m = Memory(os.path.join(directory, "mem.db"), clock=lambda: dev.NOW, cwd=directory)
    span = (dev.NOW - dev.BASE).days + 30
    m.import_lines(json.dumps({"text": t, "project": scale.PROJECT, "created_at": (
        dev.BASE + timedelta(days=scale._h(t) % span - 30)).strftime("%Y-%m-%dT%H:%M:%SZ")}) for t in pad)
    id_of = {}
    for mem in mems:
        if "explicit" in mem:
            rec = m.supersede(dev._current(m, id_of[mem["explicit"]]), mem["text"])
        else:
            rec = m.remember(mem["text"], project=mem["project"], at=dev.BASE + timedelta(days=mem["day"]))
        id_of[mem["key"]] = rec.id
    keys_of = dev.version_keys(m, id_of)
    rows = [(i, vec_of[t]) for i, t in m.store.read("SELECT id, text FROM memories") if t in vec_of]
    sem = next(s for s in m.scorers if hasattr(s, "sync"))
    import numpy as np

    sem.index.add([i for i, _ in rows], np.array([v for _, v in rows]))
    sem.sync()
    return m, keys_of


def plain_cosine(mems, pad: list[str], qs, vec_of: dict) -> dict:
    """The plain MiniLM cosine baseline over the same rows and vectors: every memory (old versions
    too, as ``bench_memory_devset.run_cosine``) plus the padding in the padded project."""
    import numpy as np

    from cavemem.embed.embedder import Embedder

    rows = [(x["key"], x["project"], x["text"]) for x in mems] + [(None, scale.PROJECT, t) for t in pad]
    matrix = np.array([vec_of[t] for _, _, t in rows], dtype=np.float32)
    projects = np.array([p for _, p, _ in rows])
    qv = Embedder(threads=int(os.environ.get("CAVEMAN_EMBED_THREADS", "1") or 1)).embed([q["q"] for q in qs])
    out = {}
    for q, v in zip(qs, qv):
        sims = np.where(projects == q["project"], matrix @ v, -9.0)
        out[q["id"]] = [([rows[i][0] or f"pad{i}"], rows[i][1]) for i in np.argsort(-sims)[:10]]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=10_000)
    ap.add_argument("--sources", default=",".join(scale.SOURCES))
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "cavemem-gate-bench")
    ap.add_argument("--out", type=Path, default=dev.REPO / "bench-results" / "bench_memory_gate.json")
    args = ap.parse_args()
    mems = [json.loads(x) for x in (dev.DATA_DIR / "memories.jsonl").read_text().splitlines() if x.strip()]
    qs = [json.loads(x) for x in (dev.DATA_DIR / "questions.jsonl").read_text().splitlines() if x.strip()]
    own = sum(1 for x in mems if x["project"] == scale.PROJECT)
    pad = [t for _, t in scale.distractors(max(0, args.size - own), tuple(s for s in args.sources.split(",") if s))]
    tag = f"{args.sources.replace(',', '+')}-{len(pad)}"
    vec_of = dict(zip(pad, cached_vectors(pad, args.cache / f"pad-{tag}.npy")))
    vec_of.update(zip([x["text"] for x in mems], cached_vectors([x["text"] for x in mems], args.cache / "devset.npy")))
    table = {}
    for label, padding in (("small", []), (f"{args.size / 1000:g}k {args.sources}", pad)):
        m, keys_of = build(tempfile.mkdtemp(prefix="memgate-"), mems, padding, vec_of)
        res, lat, _ = scale.ask(m, keys_of, qs, {})
        m.close()
        table[label] = scale.row(res, qs, mems, lat)
        # the plain baselines beside it, on the same rows (cosine: the same vectors)
        short = label.split()[0]
        table[f"{short} MiniLM cosine (plain)"] = scale.row(plain_cosine(mems, padding, qs, vec_of), qs, mems)
        table[f"{short} FTS5 BM25 (plain)"] = scale.row(scale.fts5(mems, [("pad", t) for t in padding], qs)[0], qs, mems)
    scale.print_table(table)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"size": args.size, "sources": args.sources, "table": table,
                                    "fusion": os.environ.get("CAVEMAN_MEM_FUSION", "")}, indent=1))


if __name__ == "__main__":
    main()
