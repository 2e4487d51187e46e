#!/usr/bin/env python3
"""Peak memory of detection alone on 64 MiB inputs (issue 9: the 64 MiB cap, peak RSS <= 6x the
input for the whole compress; detection's share should stay near 1x).

    python scripts/bench_detect_rss.py [--mib 64] [--kinds config,text,log,json]

Each input is the largest *tune* corpus file of a kind, repeated up to the size and cut at a line
(JSON: its documents joined into one array), written to a temporary file; a fresh interpreter
imports cavemem, reads it, and reports the peak RSS that ``detect`` adds over the loaded input
(reading may leave a high-water mark that hides up to ~1x) and, from a second traced run, the
peak of the Python heap it allocates (``x input`` is that one).
Run it from a checkout (``PYTHONPATH=<tree>`` to measure another one beside it).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "corpus"
CHILD = """
import resource, sys, time, tracemalloc
from pathlib import Path
from cavemem.engine.detect import detect
import cavemem.formats.configs, cavemem.formats.settings, cavemem.formats.tables  # imports before the baseline
data = Path(sys.argv[1]).read_bytes()
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter()
kind = detect(data)
secs = time.perf_counter() - t
extra = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base
tracemalloc.start()  # a second run, traced: the heap detection allocates at its peak
detect(data)
heap = tracemalloc.get_traced_memory()[1]
print(kind, len(data), extra * 1024, round(secs, 2), heap)
"""


def largest_tune(kind: str, manifest: Path) -> Path:
    entries = [e for e in json.loads(manifest.read_text())["entries"] if e["kind"] == kind and e["split"] == "tune"]
    best = max(entries, key=lambda e: e["bytes"])
    return CORPUS / "generated" / best["file"]


def build(kind: str, size: int, manifest: Path) -> bytes:
    src = largest_tune(kind, manifest).read_bytes()
    if kind == "json":
        doc = src.strip()
        n = max(1, size // (len(doc) + 1))
        return b"[" + b",".join([doc] * n) + b"]"
    data = (src if src.endswith(b"\n") else src + b"\n") * (size // len(src) + 1)
    return data[: data.rfind(b"\n", 0, size) + 1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mib", type=int, default=64)
    ap.add_argument("--kinds", default="config,text,log,json")
    ap.add_argument("--manifest", type=Path, default=CORPUS / "manifest.json")
    args = ap.parse_args()
    print(f"{'kind':<8} {'detected':<10} {'input MiB':>9} {'RSS over input':>15} {'heap peak MiB':>14} {'x input':>8} {'seconds':>8}")
    # the child runs outside the checkout so that PYTHONPATH (or this checkout) picks the tree measured
    env = dict(os.environ, PYTHONPATH=os.environ.get("PYTHONPATH", str(REPO)))
    for kind in args.kinds.split(","):
        with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as f:
            f.write(build(kind, args.mib << 20, args.manifest))
        try:
            out = subprocess.run([sys.executable, "-c", CHILD, f.name], capture_output=True, text=True, check=True,
                                 cwd=tempfile.gettempdir(), env=env).stdout.split()
        finally:
            os.unlink(f.name)
        got, size, extra, secs, heap = out[0], int(out[1]), int(out[2]), float(out[3]), int(out[4])
        print(f"{kind:<8} {got:<10} {size / 2**20:>9.1f} {extra / 2**20:>15.1f} {heap / 2**20:>14.1f} {heap / size:>8.2f} {secs:>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
