"""Redaction: cavemem's own rules beside detect-secrets, in one run.

Measures what decides the choice: the start-up cost each adds to a cold process (paired A/B
against the same process without it, median of the per-pair differences; budget 30 ms on a cold
``remember``), throughput on realistic text, and coverage on tests/data/secrets (leaks on the
secret cases, false positives on the look-alikes, per tune/check split).

    .venv/bin/python scripts/bench_redaction.py [--pairs 15]

A third column runs the rules as they were before this work (``--previous``, a git revision).
Writes bench-results/redaction.json. detect-secrets is optional (``pip install detect-secrets``);
without it only cavemem's column is printed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "secrets"
BASE = "import cavemem.memory.api"
OURS = BASE + "\nfrom cavemem.memory import privacy\nprivacy.redact('password=Qm4!vT9xLp')"
THEIRS = (
    BASE + "\nfrom detect_secrets.core.scan import scan_line\nfrom detect_secrets.settings import default_settings\n"
    "with default_settings():\n    list(scan_line('password=Qm4!vT9xLp'))"
)


def split_of(case_id: str) -> str:
    return "tune" if hashlib.sha256(case_id.encode()).digest()[0] < int(0.6 * 256) else "check"


def load(name: str) -> list[dict]:
    return [json.loads(x) for x in (DATA / name).read_text(encoding="utf-8").splitlines() if x.strip()]


def run_once(code: str) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
    return time.perf_counter() - t0


def startup(code: str, pairs: int) -> dict:
    """Median of (with - without) over alternating pairs: noise on a shared CPU cancels out."""
    diffs = []
    for _ in range(pairs):
        base, with_ = run_once(BASE), run_once(code)
        diffs.append((with_ - base) * 1000)
    return {"added_ms_median": round(statistics.median(diffs), 1), "added_ms_p90": round(sorted(diffs)[int(0.9 * len(diffs)) - 1], 1)}


INPROC = (
    "import time, cavemem.memory.api\nt0 = time.perf_counter()\nfrom cavemem.memory import privacy\n"
    "privacy.clean('staging password=Qm4!vT9xLp and the api key is 3f9c2a7b')\nprint((time.perf_counter() - t0) * 1000)"
)
INPROC_THEIRS = (
    "import time, cavemem.memory.api\nt0 = time.perf_counter()\nfrom detect_secrets.core.scan import scan_line\n"
    "from detect_secrets.settings import default_settings\nwith default_settings():\n"
    "    list(scan_line('staging password=Qm4!vT9xLp and the api key is 3f9c2a7b'))\nprint((time.perf_counter() - t0) * 1000)"
)


def in_process(code: str, runs: int) -> float:
    """Import + first redaction timed inside fresh processes (median ms): no interpreter start-up noise."""
    out = [float(subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, capture_output=True, text=True).stdout) for _ in range(runs)]
    return round(statistics.median(out), 1)


def ours_detect(text: str) -> list[str]:
    from cavemem.memory.privacy import redact

    out, _ = redact(text)
    return [] if out == text else [out]


def theirs_findings(text: str) -> list[str]:
    from detect_secrets.core.scan import scan_line
    from detect_secrets.settings import default_settings

    from detect_secrets.plugins.high_entropy_strings import Base64HighEntropyString, HexHighEntropyString

    # scan_line applies no entropy limit; use the plugins' defaults (base64 4.5, hex 3.0) as a scan would
    limits = {"Base64 High Entropy String": (Base64HighEntropyString(), 4.5), "Hex High Entropy String": (HexHighEntropyString(), 3.0)}
    found = []
    with default_settings():
        for line in text.splitlines() or [text]:
            for s in scan_line(line):
                plugin, limit = limits.get(s.type, (None, 0))
                if plugin is None or plugin.calculate_shannon_entropy(s.secret_value or "") > limit:
                    found.append(s.secret_value or "")
    return found


def previous_redact(rev: str):
    """``redact`` of cavemem's privacy rules at git revision ``rev`` (the rules before this work).

    The rules became a small package (``privacy`` importing ``secret_context`` / ``secret_rules``
    relatively), so the revision's files are loaded as a package of their own beside the current one."""
    import importlib
    import tempfile

    def show(path: str) -> bytes:
        return subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, check=True).stdout

    names = subprocess.run(["git", "ls-tree", "--name-only", rev, "cavemem/memory/"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    root = Path(tempfile.mkdtemp())
    package = root / f"previous_rules_{rev}"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name in names:
        base = name.rsplit("/", 1)[-1]
        if base == "privacy.py" or (base.startswith("secret_") and base.endswith(".py")):
            (package / base).write_bytes(show(name))
    sys.path.insert(0, str(root))
    try:
        return importlib.import_module(f"{package.name}.privacy").redact
    finally:
        sys.path.remove(str(root))


def _redactor(tool: str):
    if tool.startswith("cavemem@"):
        return previous_redact(tool.split("@", 1)[1])
    from cavemem.memory.privacy import redact

    return redact


def coverage(secrets: list[dict], looks: list[dict], tool: str) -> dict:
    out = {}
    for part in ("tune", "check"):
        cs = [c for c in secrets if split_of(c["id"]) == part]
        ls = [c for c in looks if split_of(c["id"]) == part]
        if tool.startswith("cavemem"):
            redact = _redactor(tool)
            leaks = sum(1 for c in cs if any(v in redact(c["text"])[0] for v in c["secrets"]))
            fps = sum(1 for c in ls if redact(c["text"])[0] != c["text"])
        else:  # a case is caught when every secret overlaps a reported value
            leaks = 0
            for c in cs:
                vals = theirs_findings(c["text"])
                if not all(any(f and (f in v or v in f) for f in vals) for v in c["secrets"]):
                    leaks += 1
            fps = sum(1 for c in ls if theirs_findings(c["text"]))
        out[part] = {"cases": len(cs), "leaks": leaks, "lookalikes": len(ls), "false_positives": fps}
    return out


def throughput(texts: list[str], tool: str) -> float:
    """MB of text per second, the case texts and look-alikes repeated to ~1 MB."""
    redact = _redactor(tool) if tool.startswith("cavemem") else None
    blob = texts * max(1, 1_000_000 // sum(len(t) for t in texts))
    mb = sum(len(t.encode()) for t in blob) / 1e6
    t0 = time.perf_counter()
    for t in blob:
        redact(t) if redact is not None else theirs_findings(t)
    return round(mb / (time.perf_counter() - t0), 2)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=15)
    ap.add_argument("--previous", default="2dd066d", help="git revision of the rules before this work (a baseline column)")
    args = ap.parse_args()
    secrets = load("secrets.jsonl")
    looks = [c for f in sorted(DATA.glob("lookalikes*.jsonl")) for c in load(f.name)]  # + lookalikes_alternatives ("Keychain / Keystore")
    texts = [c["text"] for c in secrets + looks]
    try:
        import detect_secrets  # noqa: F401

        tools = ["cavemem", "detect-secrets"]
    except ImportError:
        tools = ["cavemem"]
    tools.append(f"cavemem@{args.previous}")
    results = {}
    for tool in tools:
        results[tool] = {
            "startup": startup(OURS if tool == "cavemem" else THEIRS, args.pairs) if "@" not in tool else {"added_ms_median": "-", "added_ms_p90": "-"},
            "import_and_first_redact_ms": in_process(INPROC if tool == "cavemem" else INPROC_THEIRS, args.pairs) if "@" not in tool else "-",
            "throughput_mb_s": throughput(texts, tool),
            "coverage": coverage(secrets, looks, tool),
        }
    print(f"{'':18}{'start-up +ms (p50/p90)':>24}{'in-proc ms':>11}{'MB/s':>8}{'leaks tune':>12}{'leaks check':>13}{'FP tune':>9}{'FP check':>10}")
    for tool, r in results.items():
        s, c = r["startup"], r["coverage"]
        print(f"{tool:18}{s['added_ms_median']:>14} / {s['added_ms_p90']:<7}{r['import_and_first_redact_ms']:>11}{r['throughput_mb_s']:>8}"
              f"{c['tune']['leaks']:>6}/{c['tune']['cases']:<5}{c['check']['leaks']:>7}/{c['check']['cases']:<5}"
              f"{c['tune']['false_positives']:>4}/{c['tune']['lookalikes']:<4}{c['check']['false_positives']:>5}/{c['check']['lookalikes']:<4}")
    out = ROOT / "bench-results"
    out.mkdir(exist_ok=True)
    (out / "redaction.json").write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
