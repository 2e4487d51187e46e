"""``cavemem embed status|enable|sync|disable``: semantic recall for the memory store.

Semantic recall is on by default. ``enable`` undoes ``disable`` and embeds every memory now;
``sync`` embeds what recall has not embedded yet (after a bulk ``cavemem import``, whose memories
wait un-embedded) and drops forgotten ones, with a progress bar on a terminal; ``disable`` switches
the store off and deletes its vectors. ``status`` never loads the model. The store is opened
through :class:`cavemem.Memory` like every other memory command.
"""

from __future__ import annotations

import os
import time

from cavemem.cli import io
from cavemem.cli.args import Arg, Command, Opt, command

SYNC_CHUNK = 1024  # memories embedded between progress updates


def _report(obj: dict, human: str, as_json: bool) -> None:
    io.write_stdout(((io.json_line(obj) if as_json else human.rstrip("\n")) + "\n").encode())


@command(
    Command(
        "cavemem embed",
        "Local semantic recall (int8 MiniLM on onnxruntime, fully offline; on by default).\n"
        "  status   is it usable and on, how many memories have vectors\n"
        "  enable   switch it back on for the memory store and embed every memory now\n"
        "  sync     embed memories recall has not embedded yet (e.g. after cavemem import)\n"
        "  disable  switch it off for the store and delete the vectors",
        [Opt("--json", help="print one JSON object")],
        [Arg("action", "status, enable, sync or disable", optional=True)],
        epilog="CAVEMAN_EMBED=0 turns it off everywhere, CAVEMAN_EMBED=1 makes it required.\n"
        "Weights: CAVEMAN_MEM_FUSION='extra.semantic=0.6'; CAVEMAN_EMBED_TUNING='floor=0.2,vouch=0.6,top_k=40'.",
    )
)
def embed_command(opts: dict) -> int:
    from cavemem import Memory
    from cavemem.errors import invalid_arguments

    action = opts["action"] or "status"
    if action not in ("status", "enable", "sync", "disable"):
        raise invalid_arguments(f"cavemem embed: unknown action {action!r} (status, enable, sync, disable)")
    memory = Memory(scorers=())
    try:
        handler = {"status": _status, "disable": _disable}.get(action, _sync)
        obj, human = handler(memory, action)
        _report(obj, human, opts["json"])
        return 0
    finally:
        memory.close()


def _status(memory, _action) -> tuple[dict, str]:
    from cavemem.embed import sidecar_dir, status

    path = memory.store.path
    rep = status(path)
    rep["index"] = sidecar_dir(path)
    rep["memories"] = memory.store.read("SELECT count(*) FROM memories")[0][0]
    if rep["installed"] and ("://" in path or os.path.isfile(os.path.join(sidecar_dir(path), "manifest.json"))):
        from cavemem.embed.vectors import VectorIndex

        rep["vectors"] = len(VectorIndex(sidecar_dir(path)))
    else:
        rep["vectors"] = 0
    installed = "yes" if rep["installed"] else f"no — {rep['install']} (missing {', '.join(rep['missing'])})"
    lines = [
        f"semantic recall: {'ON' if rep['enabled'] else 'off'}",
        f"dependencies: {installed}",
        f"on for {path}: {'yes' if rep['switched_on'] else 'no (cavemem embed enable, or unset CAVEMAN_EMBED=0)'}",
        f"vectors: {rep['vectors']} of {rep['memories']} memory versions"
        + (" (the rest are embedded by the next recall or cavemem embed sync)" if rep["vectors"] < rep["memories"] else ""),
    ]
    return rep, "\n".join(lines)


def _disable(memory, _action) -> tuple[dict, str]:
    from cavemem.embed import set_disabled, sidecar_dir

    if "://" in memory.store.path:  # a PostgreSQL store: there is no sidecar directory to hold the marker
        from cavemem.errors import CaveError

        raise CaveError("cave_invalid_arguments", "cavemem embed disable: a PostgreSQL store has no sidecar for the "
                        "switch; set CAVEMAN_EMBED=0 instead")
    set_disabled(memory.store.path, True)
    index = sidecar_dir(memory.store.path)
    return {"enabled": False, "index": index}, f"semantic recall off for this store; vectors deleted from {index}"


def _sync(memory, action) -> tuple[dict, str]:
    """Embed everything pending (a bulk job: the cores, an optimised session from the start)."""
    from cavemem.cli.progress import on_terminal
    from cavemem.embed import require_installed, set_disabled
    from cavemem.embed.embedder import Embedder
    from cavemem.embed.scorer import SemanticScorer

    require_installed()
    if action == "enable":
        set_disabled(memory.store.path, False)
    embedder = Embedder(threads=max(1, min(4, os.cpu_count() or 1)), quick_runs=0)
    scorer = SemanticScorer(memory.store, required=True, embedder=embedder)
    started = time.perf_counter()
    total = {"removed": 0, "added": 0}
    with on_terminal("embedding") as bar:
        while True:
            step = scorer.sync(SYNC_CHUNK)
            total["removed"] += step["removed"]
            total["added"] += step["added"]
            if bar is not None:
                bar(total["added"], total["added"] + step["pending"], "memories")
            if step["pending"] == 0:
                break
    if not scorer.index.exists():
        scorer.index.create()
    result = dict(total, enabled=True, pending=0, vectors=len(scorer.index),
                  seconds=round(time.perf_counter() - started, 3))
    human = (f"semantic recall on: {result['vectors']} vectors ({result['added']} embedded, "
             f"{result['removed']} dropped) in {result['seconds']:.1f} s")
    return result, human
