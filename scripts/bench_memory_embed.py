#!/usr/bin/env python3
"""Semantic recall benchmark: LoCoMo with and without the ``[embed]`` scorer, off-topic refusal,
embedding throughput, and a grid that picks the scorer's defaults.

    python scripts/bench_memory_embed.py            # measure with the current defaults
    python scripts/bench_memory_embed.py --tune     # grid (weight, ref_rank, extra_slots; then vouch);
                                                    # chosen on conversations 0-2, checked on 3-4
    python scripts/bench_memory_embed.py --scale 100000   # also vector search at 100k

The table reports every LoCoMo figure for all 760 questions and turn/session recall for the
tuning (0-2) and check (3-4) conversations apart. Embedding throughput counts memories: each
takes two embeddings (its text and its session window).

Same store, questions and metrics as ``scripts/bench_memory.py`` (it imports that script's
loaders and scorers): every LoCoMo turn is remembered through ``Memory.remember``; questions of
categories 1-4 are recalled with limit 10 and the default 2000-token budget. The semantic index is
built once (``SemanticScorer.sync``, timed: that is the embedding throughput), then recall runs
with ``Memory(scorers=[scorer])``. Off-topic: the 50 questions of
``scripts/bench_memory_offtopic.txt`` in every conversation must recall nothing — the semantic
scorer can vouch for a query the lexical gate refuses, so this guards the ``vouch`` threshold.

Writes a table and ``bench-results/bench_memory_embed.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_memory as bm  # noqa: E402

REPO = bm.REPO
RESULTS = REPO / "bench-results" / "bench_memory_embed.json"
TARGETS = {"turn_recall_at_10": 0.85, "offtopic_no_hits": 0.95}


class CachingEmbedder:
    """The shared embedder with a memo, so a grid embeds each question once."""

    def __init__(self, inner):
        self.inner = inner
        self.memo: dict[str, object] = {}

    def embed(self, texts):
        return self.inner.embed(texts)

    def embed_one(self, text: str):
        v = self.memo.get(text)
        if v is None:
            v = self.memo[text] = self.inner.embed_one(text)
        return v


def make_scorer(m, embedder, **tuning):
    from cavemem.embed.scorer import SemanticConfig, SemanticScorer

    return SemanticScorer(m.store, config=SemanticConfig(**tuning), embedder=embedder, required=True)


def with_scorer(m, config, scorer):
    """A Memory over the same store that fuses ``scorer`` (bench_memory's evals take a Memory)."""
    from cavemem import Memory

    return Memory(store=m.store, rank_config=config, cwd=m.cwd, scorers=[scorer] if scorer else [])


def tune(m, convs, turns_of, config, embedder) -> dict:
    """Grid on conversations 0-2 (ranking only), checked on 3-4. Returns the chosen tuning.
    The semantic weight and the share of extra slots are fusion settings (RankConfig), the rest
    the scorer's own."""
    tune_c, check_c = convs[:3], convs[3:]
    results = []
    for weight in (0.35, 0.7, 1.0):
        for extra_slots in (0.1, 0.2):
            for ref_rank in (20, 50):
                tuning = {"weight": weight, "floor": 0.2, "ref_rank": ref_rank, "top_k": 40, "neighbors": 0.0, "vouch": 0.45}
                cfg = config.with_overrides({"extra_slots": extra_slots})
                s = make_scorer(m, embedder, **tuning)
                a = bm.summarize(bm.eval_ranker(with_scorer(m, cfg, s), tune_c, turns_of, cfg))
                results.append({**tuning, "extra_slots": extra_slots,
                                "tune_r10": a["turn_recall_at_10"], "tune_s5": a["session_recall_at_5"]})
                print(f"  {tuning} extra_slots {extra_slots}  r@10 {a['turn_recall_at_10']:.3f}  "
                      f"s@5 {a['session_recall_at_5']:.3f}", flush=True)
    results.sort(key=lambda r: -(r["tune_r10"] + r["tune_s5"]))
    best = {k: results[0][k] for k in ("weight", "floor", "ref_rank", "top_k", "neighbors")}
    cfg = config.with_overrides({"extra_slots": results[0]["extra_slots"]})
    vouch_rows = []
    for vouch in (0.4, 0.45, 0.5, 0.55, 0.6, 2.0):
        s = make_scorer(m, embedder, **best, vouch=vouch)
        a = bm.summarize(bm.eval_ranker(with_scorer(m, cfg, s), tune_c, turns_of, cfg))
        off = bm.offtopic_ranker(m, tune_c, cfg, [s])
        vouch_rows.append({"vouch": vouch, "tune_r10": a["turn_recall_at_10"], "offtopic_no_hits": off})
        print(f"  vouch {vouch}: r@10 {a['turn_recall_at_10']:.3f}  off-topic no hits {off:.3f}", flush=True)
    ok = [r for r in vouch_rows if r["offtopic_no_hits"] >= 0.97] or vouch_rows[-1:]
    best["vouch"] = max(ok, key=lambda r: (r["tune_r10"], r["vouch"]))["vouch"]  # ties: the more cautious
    s = make_scorer(m, embedder, **best)
    check = bm.summarize(bm.eval_ranker(with_scorer(m, cfg, s), check_c, turns_of, cfg))
    lexical_check = bm.summarize(bm.eval_ranker(m, check_c, turns_of, config))
    print(f"chosen {best}, extra_slots {results[0]['extra_slots']}: check r@10 {check['turn_recall_at_10']:.3f} "
          f"s@5 {check['session_recall_at_5']:.3f} (lexical {lexical_check['turn_recall_at_10']:.3f})")
    return {"chosen": best, "extra_slots": results[0]["extra_slots"], "grid": results[:10], "vouch": vouch_rows,
            "check_r10": check["turn_recall_at_10"], "check_s5": check["session_recall_at_5"],
            "check_r10_lexical": lexical_check["turn_recall_at_10"]}


def vector_scale(n: int) -> dict:
    """Sidecar search latency at ``n`` random unit vectors (the model is not needed for this)."""
    import numpy as np

    from cavemem.embed.vectors import VectorIndex

    rng = np.random.default_rng(0)
    m = rng.standard_normal((n, 384)).astype(np.float32)
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    d = tempfile.mkdtemp(prefix="cavemem-vec-")
    ix = VectorIndex(os.path.join(d, "mem.db.vectors"))
    t0 = time.perf_counter()
    ix.add([f"mem_{i:016x}" for i in range(n)], m)
    build = time.perf_counter() - t0
    fresh = VectorIndex(ix.dir)
    t0 = time.perf_counter()
    fresh.search(m[0], 10)
    first = (time.perf_counter() - t0) * 1000
    lat = []
    for i in range(200):
        t0 = time.perf_counter()
        fresh.search(m[i], 40)
        lat.append((time.perf_counter() - t0) * 1000)
    lat.sort()
    t0 = time.perf_counter()
    fresh.add([f"mem_{n + 1:016x}"], m[:1])
    append = (time.perf_counter() - t0) * 1000
    return {"vectors": n, "build_s": round(build, 2), "first_search_ms": round(first, 2),
            "search_p50_ms": round(lat[100], 2), "search_p95_ms": round(lat[190], 2), "append_one_ms": round(append, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--locomo", type=Path, default=bm.LOCOMO)
    ap.add_argument("--tune", action="store_true")
    ap.add_argument("--scale", type=int, default=0, help="also time vector search over N vectors")
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args()

    from cavemem.embed import require_installed
    from cavemem.embed.embedder import shared_embedder
    from cavemem.embed.scorer import SemanticConfig
    from cavemem import Memory
    from cavemem.memory.rank import config_from_env

    require_installed()
    config = config_from_env()
    convs = bm.load_locomo(args.locomo)
    work = Path(tempfile.mkdtemp(prefix="cavemem-locomo-embed-"))
    os.chmod(work, 0o700)
    os.environ["CAVEMAN_HOME"] = str(work)
    for var in ("CAVEMAN_MEM_DB", "CAVEMAN_CCR_DB", "CAVEMAN_EMBED"):
        os.environ.pop(var, None)
    print(f"remembering {sum(len(c['turns']) for c in convs)} LoCoMo turns …", flush=True)
    m, turns_of, store_stats = bm.build_memory_store(convs, str(work / "mem.db"), rank_config=config, cwd=str(work),
                                                     scorers=())
    t0 = time.perf_counter()
    embedder = shared_embedder().load()
    load_s = time.perf_counter() - t0
    cached = CachingEmbedder(embedder)
    t0 = time.perf_counter()
    synced = make_scorer(m, cached).sync()
    sync_s = time.perf_counter() - t0
    print(f"embedded {synced['added']} memories in {sync_s:.1f} s ({synced['added'] / sync_s:.0f}/s; model load {load_s:.2f} s)")

    result: dict = {"generated": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                    "store": store_stats,
                    "embedding": {"memories": synced["added"], "seconds": round(sync_s, 2),
                                  "per_s": round(synced["added"] / sync_s, 1), "model_load_s": round(load_s, 2)}}
    if args.tune:
        result["tuning"] = tune(m, convs, turns_of, config, cached)
        tuning = result["tuning"]["chosen"]
        config = config.with_overrides({"extra_slots": result["tuning"]["extra_slots"]})
    else:
        tuning = {}
    semantic = SemanticConfig(**tuning) if tuning else SemanticConfig()
    result["semantic_config"] = vars(semantic)
    result["fusion_config"] = {k: v for k, v in vars(config).items()}

    print("recalling (lexical, then with embeddings) …", flush=True)
    lexical_rows = bm.eval_memory(m, convs, turns_of)
    lexical = bm.summarize(lexical_rows)
    me = with_scorer(m, config, make_scorer(m, cached, **vars(semantic)))
    # query embedding time is part of the latency: measure it without the memo
    me.scorers[0]._embedder = embedder
    embed_rows = bm.eval_memory(me, convs, turns_of)
    hybrid = bm.summarize(embed_rows)
    result["locomo"] = {"cavemem": lexical, "cavemem_embed": hybrid}
    result["splits"] = {"lexical": bm.split_summaries(convs, lexical_rows), "embed": bm.split_summaries(convs, embed_rows)}
    off_lex = bm.eval_offtopic(m, convs)
    off_emb = bm.eval_offtopic(me, convs)
    result["offtopic"] = {"lexical": off_lex["no_hits"], "embed": off_emb["no_hits"], "embed_leaks": off_emb["leaks"]}
    if args.scale:
        print(f"vector search over {args.scale:,} vectors …", flush=True)
        result["vectors"] = vector_scale(args.scale)
    result["targets"] = TARGETS
    result["targets_met"] = {
        "turn_recall_at_10": hybrid["turn_recall_at_10"] >= TARGETS["turn_recall_at_10"],
        "offtopic_no_hits": off_emb["no_hits"] >= TARGETS["offtopic_no_hits"],
    }

    print(f"\nLoCoMo dev ({hybrid['questions']} questions, categories 1-4, {store_stats['turns']} turns)")
    print(f"{'metric':<26}{'lexical':>14}{'with [embed]':>14}")
    for key, label, fmt in (
        ("turn_recall_at_1", "turn recall@1", bm.pct), ("turn_recall_at_5", "turn recall@5", bm.pct),
        ("turn_recall_at_10", "turn recall@10", bm.pct), ("all_evidence_at_10", "all evidence@10", bm.pct),
        ("session_recall_at_5", "session recall@5", bm.pct),
        ("tokens_per_question", "tokens / question", lambda v: f"{v:.0f}"),
        ("tokens_max", "tokens max", lambda v: f"{v:.0f}"),
        ("latency_p50_ms", "latency p50 (ms)", lambda v: f"{v:.1f}"),
        ("latency_p95_ms", "latency p95 (ms)", lambda v: f"{v:.1f}"),
        ("refused", "refused (no hits)", bm.pct),
    ):
        print(f"{label:<26}{fmt(lexical[key]):>14}{fmt(hybrid[key]):>14}")
    for split in ("tune", "check"):
        lex_s, emb_s = result["splits"]["lexical"][split], result["splits"]["embed"][split]
        print(f"{'turn r@10 ' + bm.SPLIT_NAMES[split]:<26}{bm.pct(lex_s['turn_recall_at_10']):>14}{bm.pct(emb_s['turn_recall_at_10']):>14}")
        print(f"{'session r@5 ' + bm.SPLIT_NAMES[split]:<26}{bm.pct(lex_s['session_recall_at_5']):>14}{bm.pct(emb_s['session_recall_at_5']):>14}")
    print(f"{'off-topic: no hits':<26}{bm.pct(off_lex['no_hits']):>14}{bm.pct(off_emb['no_hits']):>14}")
    print("turn recall@10 by category (embed): " + ", ".join(
        f"cat{k} {bm.pct(v)}" for k, v in hybrid["turn_recall_at_10_by_category"].items()))
    print(f"semantic config: {vars(semantic)}; fusion extra_slots {config.extra_slots}")
    e = result["embedding"]
    print(f"embedding: {e['memories']} memories in {e['seconds']} s ({e['per_s']}/s), model load {e['model_load_s']} s")
    if "vectors" in result:
        v = result["vectors"]
        print(f"vectors: {v['vectors']:,} · search p50 {v['search_p50_ms']} ms p95 {v['search_p95_ms']} ms "
              f"(first {v['first_search_ms']} ms) · append one {v['append_one_ms']} ms · build {v['build_s']} s")
    print("targets: " + ", ".join(f"{k} {'OK' if ok else 'MISSED'}" for k, ok in result["targets_met"].items()))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2, default=str) + "\n")
    print(f"wrote {args.out.relative_to(REPO) if args.out.is_relative_to(REPO) else args.out}")


if __name__ == "__main__":
    main()
