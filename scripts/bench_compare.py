#!/usr/bin/env python3
"""Side-by-side benchmark: cavemem vs the Headroom peer on real payload folders.

    python scripts/bench_compare.py [FOLDER ...] [--no-peer] [--out bench-results/NAME.json]
    python scripts/bench_compare.py --corpus [--split tune|check|all] [--kinds K,..] [--limit N] [--jobs N] [--no-peer]

``--corpus`` (issue 9) runs both engines with auto-detection on ``fixtures/`` and on the real
corpus (``corpus/manifest.json``, built by ``scripts/make_corpus.py``), grades them with the
rule-based probes of ``cavemem.evals.factprobes`` and prints per-kind tables for fixtures,
tune and check plus the detection confusion matrix; see ``scripts/bench_corpus.py``.

Default folders: ``../shared/corpus/caveman-evals`` (the caveman engine's 17 eval fixtures) and
cavemem's own ``fixtures/``. Each folder's ``manifest.yaml`` gives every file its forced type and
query (files are taken in manifest order). For each file, one fresh process per tool (like a CLI
call):

- **cavemem**: ``cavemem compress [--type T] [--query Q]`` then, when a recovery handle is
  reported, ``cavemem retrieve HANDLE`` — recovery is byte-exact when the retrieved bytes (or the
  pass-through output) equal the input exactly;
- **Headroom**: the peer wrapper ``headroom_compress.py FILE --hint H [--query Q]`` in its own
  venv (``--mode best``: auto-detection and the hinted strategy, fewest tokens wins). The hint is
  the content type cavemem routes the file to.

Tokens are o200k_base on both sides. A *fact* is a value the manifest grades for presence
(``contains``, ``recall_keys`` must_contain, probe values) that occurs in the original and is
not one of caveman's own output markers; each tool's output is checked for it byte for byte.
Wall time is the whole process (start-up included); for cavemem it is the compress call only.
Besides the raw token savings, totals show the savings "without losing a fact": a file whose
output lost any graded fact counts as saving nothing there.

The peer venv is built by ``../shared/peers/setup.sh`` (it installs into
``~/.cache/cavemem-peer/venv``, or ``$HEADROOM_VENV``). Without it the script runs cavemem
alone and says why. Results are printed as a table and written as JSON to ``bench-results/``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
DEFAULT_FOLDERS = [SHARED / "corpus" / "caveman-evals", REPO / "fixtures"]
PEER_SCRIPT = SHARED / "peers" / "headroom_compress.py"
PEER_VENV = Path(os.environ.get("HEADROOM_VENV", Path.home() / ".cache" / "cavemem-peer" / "venv"))

# cavemem content type -> Headroom wrapper hint
PEER_HINT = {
    "json": "json", "toon": "json", "toolschema": "json", "toolschema-annotations": "json", "a11y": "json",
    "log": "log", "repetition": "log", "terminal": "terminal", "code": "code", "diff": "diff",
    "search-result": "search", "html": "html", "tabular": "tabular", "config": "config", "text": "text",
}


@dataclass
class ToolRun:
    tokens_before: int = 0
    tokens_after: int = 0
    seconds: float = 0.0
    facts_kept: list[str] = field(default_factory=list)
    facts_lost: list[str] = field(default_factory=list)
    error: str = ""
    byte_exact: bool | None = None  # cavemem only
    detail: str = ""


@dataclass
class Row:
    folder: str
    name: str
    file: str
    content_type: str
    query: str
    facts: list[str]
    cavemem: ToolRun
    headroom: ToolRun | None


def cli(name: str) -> list[str]:
    exe = Path(sys.executable).parent / name
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "cavemem" if name == "cavemem" else "cavemem.cli.engine_cli"]


def manifest_entries(folder: Path):
    sys.path.insert(0, str(REPO))
    from cavemem.evals.manifest import parse_manifest

    return parse_manifest((folder / "manifest.yaml").read_bytes()).fixtures


def facts_of(fx, original: bytes) -> list[str]:
    values = [p.value for p in fx.probes]
    for g in fx.graders:
        if g.type == "contains" and g.value:
            values.append(g.value)
        elif g.type == "recall_keys":
            from cavemem.evals.graders import string_list_of

            values += string_list_of((g.options or {}).get("must_contain"))
    seen, out = set(), []
    for v in values:
        if v and v not in seen and "caveman" not in v.lower() and v.encode() in original:
            seen.add(v)
            out.append(v)
    return out


def check_facts(run: ToolRun, facts: list[str], output: bytes) -> None:
    for f in facts:
        (run.facts_kept if f.encode() in output else run.facts_lost).append(f)


def run_cavemem(path: Path, ctype: str, query: str, facts: list[str], env: dict) -> tuple[ToolRun, str]:
    data = path.read_bytes()
    args = cli("cavemem") + ["compress"]
    if ctype:
        args += ["--type", ctype]
    if query:
        args += ["--query", query]
    t0 = time.perf_counter()
    proc = subprocess.run(args, input=data, capture_output=True, env=env, timeout=300)
    seconds = time.perf_counter() - t0
    run = ToolRun(seconds=seconds)
    try:
        report = json.loads(proc.stderr.decode().strip().splitlines()[-1])
    except (ValueError, IndexError):
        run.error = f"compress exit {proc.returncode}: {proc.stderr[-300:]!r}"
        return run, ""
    run.tokens_before, run.tokens_after = report["tokens_before"], report["tokens_after"]
    handle = report.get("recovery_handle", "")
    if handle:
        back = subprocess.run(cli("cavemem") + ["retrieve", handle], capture_output=True, env=env, timeout=120)
        run.byte_exact = back.returncode == 0 and back.stdout == data
    else:
        run.byte_exact = proc.stdout == data
    run.detail = report.get("method", "") or "pass-through"
    check_facts(run, facts, proc.stdout)
    return run, report["content_type"]


def run_headroom(path: Path, hint: str, query: str, facts: list[str]) -> ToolRun:
    args = [str(PEER_VENV / "bin" / "python"), str(PEER_SCRIPT), str(path), "--hint", hint]
    if query:
        args += ["--query", query]
    t0 = time.perf_counter()
    proc = subprocess.run(args, capture_output=True, timeout=600)
    run = ToolRun(seconds=time.perf_counter() - t0)
    try:
        report = json.loads(proc.stderr.decode().strip().splitlines()[-1])
    except (ValueError, IndexError):
        run.error = f"peer exit {proc.returncode}: {proc.stderr[-300:]!r}"
        return run
    run.tokens_before, run.tokens_after = report["tokens_before"], report["tokens_after"]
    run.detail = f"{report.get('selected')}:{report.get('strategy')}"
    check_facts(run, facts, proc.stdout)
    return run


def peer_status() -> str:
    """'' when the peer can run, else why not."""
    if not PEER_SCRIPT.is_file():
        return f"peer wrapper not found at {PEER_SCRIPT}"
    if not (PEER_VENV / "bin" / "python").exists():
        return f"peer venv missing at {PEER_VENV} (build it with {SHARED / 'peers' / 'setup.sh'})"
    return ""


def saved(before: int, after: int) -> float:
    return (before - after) / before if before else 0.0


def summarize(rows: list[Row], with_peer: bool) -> dict:
    def total(sel, tool):
        runs = [getattr(r, tool) for r in sel if getattr(r, tool) is not None]
        b = sum(x.tokens_before for x in runs)
        a = sum(x.tokens_after for x in runs)
        # savings that cost no graded fact: a file whose output lost a fact counts as unsaved
        a_safe = sum(x.tokens_before if x.facts_lost else x.tokens_after for x in runs)
        return {
            "tokens_before": b, "tokens_after": a, "saved": saved(b, a), "saved_fact_safe": saved(b, a_safe),
            "facts_kept": sum(len(x.facts_kept) for x in runs), "facts_total": sum(len(x.facts_kept) + len(x.facts_lost) for x in runs),
            "seconds": sum(x.seconds for x in runs),
        }

    out = {}
    for folder in sorted({r.folder for r in rows}) + ["ALL"]:
        sel = [r for r in rows if folder in ("ALL", r.folder)]
        entry = {"files": len(sel), "cavemem": total(sel, "cavemem")}
        entry["cavemem"]["byte_exact"] = sum(1 for r in sel if r.cavemem.byte_exact)
        if with_peer:
            entry["headroom"] = total(sel, "headroom")
            entry["margin_points"] = 100 * (entry["cavemem"]["saved"] - entry["headroom"]["saved"])
            entry["facts_lost_by_cavemem_kept_by_headroom"] = [
                f"{r.name}: {f}" for r in sel for f in r.cavemem.facts_lost if f in r.headroom.facts_kept
            ]
        out[folder] = entry
    return out


def print_table(rows: list[Row], summary: dict, with_peer: bool) -> None:
    head = ["file", "type", "tokens", "cavemem", "saved", "exact", "facts", "s"]
    if with_peer:
        head += ["headroom", "saved", "facts", "s"]
    lines = [head]
    for r in rows:
        c = r.cavemem
        line = [
            f"{Path(r.folder).name}/{r.file}", r.content_type, str(c.tokens_before), str(c.tokens_after),
            f"{saved(c.tokens_before, c.tokens_after) * 100:.1f}%", "yes" if c.byte_exact else "NO",
            f"{len(c.facts_kept)}/{len(r.facts)}", f"{c.seconds:.2f}",
        ]
        if with_peer:
            h = r.headroom
            line += [str(h.tokens_after), f"{saved(h.tokens_before, h.tokens_after) * 100:.1f}%", f"{len(h.facts_kept)}/{len(r.facts)}", f"{h.seconds:.2f}"]
        lines.append(line)
    widths = [max(len(x[i]) for x in lines) for i in range(len(head))]
    for x in lines:
        print("  ".join(v.ljust(w) if i < 2 else v.rjust(w) for i, (v, w) in enumerate(zip(x, widths))))
    print()
    for folder, s in summary.items():
        c = s["cavemem"]
        msg = (
            f"{Path(folder).name if folder != 'ALL' else 'ALL'} ({s['files']} files): cavemem {c['tokens_before']} -> "
            f"{c['tokens_after']} ({c['saved'] * 100:.1f}% saved; {c['saved_fact_safe'] * 100:.1f}% without losing a fact), "
            f"byte-exact {c['byte_exact']}/{s['files']}, "
            f"facts {c['facts_kept']}/{c['facts_total']}, {c['seconds']:.1f}s"
        )
        if with_peer:
            h = s["headroom"]
            msg += (
                f" | headroom {h['tokens_after']} ({h['saved'] * 100:.1f}% saved; {h['saved_fact_safe'] * 100:.1f}% without"
                f" losing a fact), facts {h['facts_kept']}/{h['facts_total']},"
                f" {h['seconds']:.1f}s | margin {s['margin_points']:+.1f} points"
            )
            lost = s["facts_lost_by_cavemem_kept_by_headroom"]
            msg += f" | facts only Headroom kept: {len(lost)}"
        print(msg)
        if with_peer:
            for item in s["facts_lost_by_cavemem_kept_by_headroom"]:
                print(f"    only Headroom kept: {item}")


def main() -> int:
    if "--corpus" in sys.argv[1:]:
        from bench_corpus import main_corpus  # scripts/bench_corpus.py: the corpus mode (issue 9)

        return main_corpus(sys.argv[1:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="*", type=Path, help="folders with manifest.yaml (default: caveman-evals and fixtures/)")
    ap.add_argument("--no-peer", action="store_true", help="run cavemem only")
    ap.add_argument("--out", type=Path, help="JSON output path (default: bench-results/bench-<time>.json)")
    args = ap.parse_args()

    folders = args.folders or [f for f in DEFAULT_FOLDERS if (f / "manifest.yaml").is_file()]
    why_no_peer = "disabled with --no-peer" if args.no_peer else peer_status()
    with_peer = not why_no_peer
    if not with_peer:
        print(f"Headroom peer not run: {why_no_peer}. Running cavemem only.", file=sys.stderr)

    home = tempfile.mkdtemp(prefix="cavemem-bench-")
    os.chmod(home, 0o700)
    env = dict(os.environ, CAVEMAN_HOME=home)
    env.pop("CAVEMAN_CCR_DB", None)
    rows: list[Row] = []
    for folder in folders:
        for fx in manifest_entries(folder):
            path = folder / fx.file
            facts = facts_of(fx, path.read_bytes())
            cav, ctype = run_cavemem(path, fx.type, fx.query, facts, env)
            peer = run_headroom(path, PEER_HINT.get(ctype, "auto"), fx.query, facts) if with_peer else None
            rows.append(Row(str(folder), fx.name, fx.file, ctype, fx.query, facts, cav, peer))
            print(f"  {fx.name}: cavemem {cav.tokens_before}->{cav.tokens_after}"
                  + (f", headroom ->{peer.tokens_after}" if peer else ""), file=sys.stderr)

    summary = summarize(rows, with_peer)
    print_table(rows, summary, with_peer)
    out = args.out or REPO / "bench-results" / f"bench-{time.strftime('%Y%m%d-%H%M%S')}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(
        {"peer": "headroom-ai (best mode)" if with_peer else None, "peer_missing_reason": why_no_peer or None,
         "summary": summary, "rows": [asdict(r) for r in rows]}, indent=1, ensure_ascii=False))
    print(f"\nwrote {out}")
    failed = [r.name for r in rows if r.cavemem.error or not r.cavemem.byte_exact]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
