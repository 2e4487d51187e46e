#!/usr/bin/env python3
"""Train the capture sentence classifier (cavemem/memory/capture/classify.py) from the TUNE transcript sets.

    python scripts/train_capture_classifier.py --cv          # cross-validated figures, per threshold
    python scripts/train_capture_classifier.py --write       # train on all tune files, write the weights

Data: every tests/data/transcripts/*.jsonl in gold.json and gold_voices.json except the held-out sets
(fresh6-8, never read here) and the voices check part (vcheck: never trained on; ``--check`` scores it
per threshold with one model trained on every tune file — the cut-off and default are chosen there). Each sentence of user / assistant conversation text that the classifier judges
(:func:`classify.rows_of`) is a sample; it is positive when it holds every ``must`` word of one of
its file's gold items (that item's kind is its kind), negative otherwise. Model: L2 logistic
regression in numpy over the MiniLM vector and :func:`classify.features`, positives weighted to
balance the classes. Folds: sha256(file name)[0] % 5. ``--cv`` reports, per threshold, the
classifier alone (sentence level) and the whole capture pipeline (bench_capture's scoring) with
rules alone beside rules + classifier, each file scored with the model trained without its fold.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))
DATA = REPO / "tests" / "data" / "transcripts"
HELD_OUT = ("fresh6", "fresh7", "fresh8")
FOLDS = 5


def split_name(g: dict) -> str:
    return "fresh" if g.get("fresh") else g.get("split") or "hash"


CHECK = ("vcheck",)  # the voices sets' check part (build_voices.py): never trained on; --check reads its totals


def tune_files() -> dict:
    import bench_capture as bench

    return {n: g for n, g in bench.load_gold().items() if split_name(g) not in HELD_OUT + CHECK}


def check_files() -> dict:
    import bench_capture as bench

    return {n: g for n, g in bench.load_gold().items() if split_name(g) in CHECK}


def fold_of(name: str) -> int:
    return hashlib.sha256(name.encode()).digest()[0] % FOLDS


def samples(files: dict) -> list[dict]:
    from cavemem.memory.capture import classify, transcript

    out = []
    for name, g in sorted(files.items()):
        msgs = transcript.read_from(str(DATA / name)).messages
        for msg, s in classify.rows_of(msgs):
            low = s.lower()
            item = next((it for it in g["gold"] if all(w.lower() in low for w in it["must"])), None)
            out.append({"file": name, "role": msg.type, "text": s, "label": int(item is not None),
                        "kind": item["kind"] if item else None, "item": item["id"] if item else None})
    return out


def design(rows: list[dict], vectors):
    import numpy as np

    from cavemem.memory.capture import classify

    return np.hstack([vectors, np.asarray([classify.features(r["role"], r["text"]) for r in rows], dtype=np.float32)])


def fit(x, y, l2: float = 1.0, iters: int = 400, lr: float = 0.5):
    """Weighted L2 logistic regression by full-batch gradient descent (small data: seconds)."""
    import numpy as np

    pos = max(1.0, float(y.sum()))
    sw = np.where(y > 0, (len(y) - pos) / pos, 1.0)
    sw = sw / sw.mean()
    w, b = np.zeros(x.shape[1], dtype=np.float64), 0.0
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-(x @ w + b)))
        g = (p - y) * sw
        w -= lr * (x.T @ g / len(y) + l2 * w / len(y))
        b -= lr * float(g.mean())
    return w, b


def model_of(rows: list[dict], vectors, l2: float, iters: int = 400) -> dict:
    import numpy as np

    x, y = design(rows, vectors), np.asarray([r["label"] for r in rows], dtype=np.float64)
    w, b = fit(x, y, l2, iters)
    cents = {}
    for kind in ("decision", "preference", "bugfix", "fact"):
        v = vectors[[i for i, r in enumerate(rows) if r["kind"] == kind]]
        if len(v):
            c = v.mean(axis=0)
            cents[kind] = [round(float(t), 5) for t in c / max(1e-9, float(np.linalg.norm(c)))]
    return {"w": [round(float(t), 6) for t in w], "b": round(b, 6), "centroids": cents}


def embed_all(rows: list[dict], cache: str | None):
    import numpy as np

    if cache and os.path.exists(cache):
        got = np.load(cache)
        if got.shape[0] == len(rows):
            return got
    from cavemem.embed.embedder import Embedder

    vec = Embedder(threads=2).embed([r["text"] for r in rows])
    if cache:
        np.save(cache, vec)
    return vec


def sentence_cv(rows, vectors, files, l2, thresholds, iters=400) -> tuple[dict, dict]:
    """Per-fold models, and the classifier alone per threshold: gold items with a positive sentence, sentence precision."""
    import numpy as np

    from cavemem.memory.capture import classify

    models, probs = {}, np.zeros(len(rows))
    for k in range(FOLDS):
        train = [i for i, r in enumerate(rows) if fold_of(r["file"]) != k]
        test = [i for i, r in enumerate(rows) if fold_of(r["file"]) == k]
        models[k] = model_of([rows[i] for i in train], vectors[train], l2, iters)
        p = classify.scores(models[k], [(rows[i]["role"], rows[i]["text"]) for i in test], vectors[test])
        probs[test] = p
    return models, alone_table(probs, rows, files, thresholds)


class CachedEmbedder:
    """The shipped encoder, each sentence embedded once per process (the pipeline runs once per threshold)."""

    def __init__(self):
        self.inner, self.seen = None, {}

    def embed(self, texts):
        import numpy as np

        todo = [t for t in dict.fromkeys(texts) if t not in self.seen]
        if todo:
            if self.inner is None:
                from cavemem.embed.embedder import Embedder

                self.inner = Embedder(threads=2)
            self.seen.update(zip(todo, self.inner.embed(todo)))
        return np.asarray([self.seen[t] for t in texts], dtype=np.float32)


EMBEDDER = CachedEmbedder()
OPTIONS: dict = {}  # --no-sane: let the proposals skip the rules' vetoes (classify._may_add); written with --write


def pipeline_cv(models: dict, files: dict, threshold: float | None, veto: float | None) -> dict:
    """bench_capture's scoring over ``files``, each captured with the model of its fold (``models`` keyed
    by fold; one model under every key for --check); ``threshold`` None: rules alone. Only the projects of
    ``files`` run through the store (with their other sessions, so cross-session updates still count)."""
    import bench_capture as bench

    from cavemem.memory.capture import classify, pipeline

    current: dict = {}
    orig_capture, orig_load, orig_enabled, orig_augment = pipeline.capture_transcript, classify.load, classify.enabled, classify.augment

    def capture(mem, path, **kw):
        current["fold"] = fold_of(os.path.basename(path))
        return orig_capture(mem, path, **kw)

    def load(path=None):
        m = dict(models[current["fold"]])
        m.update(threshold=threshold, veto=veto, **OPTIONS)
        return m

    pipeline.capture_transcript, classify.load = capture, load
    classify.enabled = lambda db_path: threshold is not None
    classify.augment = lambda messages, found, **kw: orig_augment(messages, found, embedder=EMBEDDER, **kw)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            os.environ["CAVEMAN_HOME"] = tmp
            per = bench.run_devset("rules", tmp, projects={g["project"] for g in files.values()})["files"]
    finally:
        pipeline.capture_transcript, classify.load, classify.enabled, classify.augment = orig_capture, orig_load, orig_enabled, orig_augment
    per = {n: v for n, v in per.items() if n in files}
    return bench.summarise(per, None)


def provenance(files: dict) -> dict:
    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    return {"trained_by": "scripts/train_capture_classifier.py", "commit": commit,
            "files": {n: hashlib.sha256((DATA / n).read_bytes()).hexdigest()[:16] for n in sorted(files)},
            "gold_sha256": hashlib.sha256((DATA / "gold.json").read_bytes()).hexdigest()[:16],
            "voices_gold_sha256": hashlib.sha256((DATA / "gold_voices.json").read_bytes()).hexdigest()[:16],
            "held_out_never_read": list(HELD_OUT), "check_never_trained": list(CHECK),
            "labels": "positive: a sentence holding every `must` word of one of its file's gold items; else negative"}


def pipeline_table(models: dict, files: dict, table: dict, ths: list[float], veto: float | None, label: str) -> dict:
    """Rules alone, then rules + classifier at each threshold, over ``files``; printed and returned."""
    out = {"rules": pipeline_cv(models, files, None, None)}
    base = out["rules"]
    print(f"{label}: {'setting':24} {'recall':>7} {'prec':>6} {'stored':>6} {'noise':>5} {'updates':>7} | classifier alone: items, precision")
    print(f"{label}: {'rules alone':24} {base['recall']:>7.1%} {base['precision']:>6.1%} {base['stored']:>6} {base['noise']:>5} {base['updates']:>7}")
    for t in ths:
        s = pipeline_cv(models, files, t, veto)
        a = table[t]
        print(f"{label}: {'rules+clf t=%g veto=%s' % (t, veto):24} {s['recall']:>7.1%} {s['precision']:>6.1%} {s['stored']:>6} "
              f"{s['noise']:>5} {s['updates']:>7} | {a['items']} {a['recall']:.1%}, {a['precision']:.1%} of {a['flagged']}")
        out[f"t={t}"] = {"pipeline": s, "alone": a}
    return out


def alone_table(probs, rows: list[dict], files: dict, ths: list[float]) -> dict:
    """The classifier alone per threshold: gold items with a positive sentence, sentence precision."""
    n_items = sum(len(g["gold"]) for g in files.values())
    table = {}
    for t in ths:
        on = [p >= t for p in probs]
        hit = {(r["file"], r["item"]) for r, o in zip(rows, on) if o and r["label"]}
        tp = sum(1 for r, o in zip(rows, on) if o and r["label"])
        table[t] = {"items": f"{len(hit)}/{n_items}", "recall": len(hit) / n_items, "flagged": int(sum(on)),
                    "precision": tp / max(1, int(sum(on)))}
    return table


def check_run(rows, vectors, args, ths: list[float]) -> dict:
    """--check: one model trained on every tune file, judged on the check part (vcheck) only."""
    from cavemem.memory.capture import classify

    model = model_of(rows, vectors, args.l2, args.iters)
    files = check_files()
    crows = samples(files)
    cvec = embed_all(crows, args.cache.replace(".npy", "-check.npy") if args.cache else None)
    probs = classify.scores(model, [(r["role"], r["text"]) for r in crows], cvec)
    print(f"check: {len(files)} files, {len(crows)} sentences, {sum(r['label'] for r in crows)} positive")
    return pipeline_table({k: model for k in range(FOLDS)}, files, alone_table(probs, crows, files, ths), ths, args.veto, "check")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cv", action="store_true")
    ap.add_argument("--check", action="store_true", help="train on all tune files, score the check part (vcheck) per threshold")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--alone", action="store_true", help="with --cv: the classifier alone only (no capture pipeline runs)")
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--iters", type=int, default=400, help="gradient steps")
    ap.add_argument("--threshold", type=float, default=0.9, help="the threshold --write ships (decided on --cv / --check)")
    ap.add_argument("--veto", type=float, default=None, help="veto rule candidates (<= 0.6 confidence) scoring below this")
    ap.add_argument("--thresholds", default="0.5,0.7,0.8,0.9,0.95,0.98")
    ap.add_argument("--cache", default=None, help="an .npy file to keep the sentence vectors in between runs")
    ap.add_argument("--no-sane", action="store_true", help="let chatter / goodbyes / momentary status through")
    args = ap.parse_args()
    OPTIONS.update(sane=not args.no_sane)
    files = tune_files()
    rows = samples(files)
    vectors = embed_all(rows, args.cache)
    print(f"{len(files)} tune files, {len(rows)} sentences, {sum(r['label'] for r in rows)} positive")
    ths = [float(t) for t in args.thresholds.split(",")]
    out = {}
    if args.cv:
        models, table = sentence_cv(rows, vectors, files, args.l2, ths, args.iters)
        if args.alone:
            for t in ths:
                print(f"t={t}: classifier alone {table[t]['items']} items ({table[t]['recall']:.1%}), "
                      f"precision {table[t]['precision']:.1%} of {table[t]['flagged']} flagged")
            return 0
        out["cv"] = pipeline_table(models, files, table, ths, args.veto, "tune cv")
    if args.check:
        out["check"] = check_run(rows, vectors, args, ths)
    if out:
        Path(REPO / "bench-results").mkdir(exist_ok=True)
        (REPO / "bench-results" / "train_capture_classifier_cv.json").write_text(json.dumps(out, indent=1))
    if args.write:
        write_model(rows, vectors, files, args)
    return 0


def write_model(rows, vectors, files: dict, args) -> None:
    from cavemem.memory.capture import classify

    model = model_of(rows, vectors, args.l2, args.iters)
    model.update(threshold=args.threshold, veto=args.veto, l2=args.l2, iters=args.iters, **OPTIONS, features=["minilm-384", "user", "question",
                 "specific", "first-person", "log-words"], provenance=provenance(files),
                 samples={"sentences": len(rows), "positive": sum(r["label"] for r in rows)})
    classify.WEIGHTS.parent.mkdir(exist_ok=True)
    classify.WEIGHTS.write_text(json.dumps(model, separators=(",", ":")) + "\n")
    print(f"wrote {classify.WEIGHTS.relative_to(REPO)} ({classify.WEIGHTS.stat().st_size} bytes)")


if __name__ == "__main__":
    raise SystemExit(main())
