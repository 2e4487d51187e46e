#!/usr/bin/env python3
"""Top-k recall ids of the dev set and LoCoMo 0-4, to prove a speed change left ranking alone.

    python scripts/bench_recall_ids.py --out A.json      # in the old tree
    python scripts/bench_recall_ids.py --out B.json      # in the new tree
    python scripts/bench_recall_ids.py --compare A.json B.json

Each question's hits are written as the first 12 hex digits of the sha256 of the hit's text
(memory ids differ between builds), best first, with semantic recall on (MiniLM; vectors built
by ``embed sync`` first). Two modes per question set: ``long`` (one process answers every
question, so after a few queries the optimised session serves, as in ``serve`` or MCP) and
``cold`` (every query embedded by a process's first session, as a CLI ``recall`` is). Off-topic
questions are asked too: a refusal is an empty list. ``--compare`` prints how many questions
have the same ids in the same order, and the first differences.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def _key(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _answers(m, asks, cold: bool) -> dict:
    """``asks``: (question id, query, recall kwargs). ``cold``: the embedder never leaves its first session."""
    from cavemem.embed.embedder import Embedder

    m.scorers[0]._embedder = Embedder(quick_runs=10**9 if cold else 4)  # a fresh process's embedder
    out = {}
    for qid, query, kwargs in asks:
        out[qid] = [_key(h["text"]) for h in m.recall(query, **kwargs)["hits"]]
    return out


def devset(modes) -> dict:
    import bench_memory_devset as dev

    from cavemem import Memory

    mems, qs = dev.build_set()
    tmp = tempfile.mkdtemp(prefix="ids-devset-")
    m = Memory(os.path.join(tmp, "mem.db"), clock=lambda: dev.NOW, cwd=tmp, scorers=["embed"])
    id_of = {}
    for mem in mems:
        if "explicit" in mem:
            rec = m.supersede(dev._current(m, id_of[mem["explicit"]]), mem["text"])
        else:
            rec = m.remember(mem["text"], project=mem["project"], at=dev.BASE + dev.timedelta(days=mem["day"]))
        id_of[mem["key"]] = rec.id
    m.scorers[0].sync()
    asks = [(q["id"], q["q"], {"project": q["project"], "limit": 10, "now": dev.NOW}) for q in qs]
    out = {mode: _answers(m, asks, mode == "cold") for mode in modes}
    m.close()
    return out


def locomo(modes) -> dict:
    import bench_memory as bm

    path = bm.LOCOMO if bm.LOCOMO.exists() else Path("/work/shared/data/locomo/locomo-dev.json")
    convs = bm.load_locomo(path)
    work = Path(tempfile.mkdtemp(prefix="ids-locomo-"))
    os.chmod(work, 0o700)
    m, _, _ = bm.build_memory_store(convs, str(work / "mem.db"), cwd=str(work), scorers=["embed"])
    m.scorers[0].sync()
    asks = [(f"{c['id']}/{i}", q["q"], {"project": c["id"], "limit": 10, "now": c["last"]})
            for c in convs for i, q in enumerate(c["questions"])]
    asks += [(f"offtopic/{c['id']}/{i}", q, {"project": c["id"], "limit": 10, "now": c["last"]})
             for c in convs for i, q in enumerate(bm.offtopic_questions())]
    out = {mode: _answers(m, asks, mode == "cold") for mode in modes}
    m.close()
    return out


def compare(a_path: Path, b_path: Path) -> int:
    a, b = json.loads(a_path.read_text()), json.loads(b_path.read_text())
    differ = 0
    for part in sorted(set(a) & set(b)):
        for mode in sorted(set(a[part]) & set(b[part])):
            qa, qb = a[part][mode], b[part][mode]
            same = [q for q in qa if qa[q] == qb.get(q)]
            top5 = [q for q in qa if qa[q][:5] == qb.get(q, [])[:5]]
            print(f"{part:7s} {mode:5s}: {len(same)}/{len(qa)} questions with identical top-10 ids, "
                  f"{len(top5)}/{len(qa)} identical top-5")
            for q in [q for q in qa if qa[q] != qb.get(q)][:5]:
                print(f"   {q}: {qa[q]} vs {qb.get(q)}")
            differ += len(qa) - len(same)
    return 1 if differ else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path)
    ap.add_argument("--compare", nargs=2, type=Path)
    ap.add_argument("--modes", default="long,cold")
    ap.add_argument("--skip-locomo", action="store_true")
    args = ap.parse_args()
    if args.compare:
        raise SystemExit(compare(*args.compare))
    home = Path(tempfile.mkdtemp(prefix="ids-home-"))
    os.chmod(home, 0o700)
    os.environ["CAVEMAN_HOME"] = str(home)
    for var in ("CAVEMAN_EMBED", "CAVEMAN_MEM_DB", "CAVEMAN_CCR_DB", "CAVEMAN_EMBED_TUNING", "CAVEMAN_MEM_FUSION"):
        os.environ.pop(var, None)
    modes = args.modes.split(",")
    out = args.out or REPO / "bench-results" / "bench_recall_ids.json"
    out.parent.mkdir(exist_ok=True)
    result = {"devset": devset(modes)}
    out.write_text(json.dumps(result, sort_keys=True) + "\n")  # kept if LoCoMo fails
    if not args.skip_locomo:
        result["locomo"] = locomo(modes)
        out.write_text(json.dumps(result, sort_keys=True) + "\n")
    print(f"wrote {out}: " + ", ".join(f"{p} {m} {len(v)}" for p, d in result.items() for m, v in d.items()))


if __name__ == "__main__":
    main()
