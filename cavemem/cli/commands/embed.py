"""``cavemem embed status|enable|sync|disable``: switch semantic recall on or off for a store.

``enable`` creates the store's sidecar index and embeds every memory (recall then fuses meaning
with the lexical signals); ``sync`` catches up after a bulk import; ``disable`` deletes the
sidecar. Asking for any of them without the ``[embed]`` extra fails with the install hint
(``cave_embed_unavailable``). ``status`` never loads the model.
"""

from __future__ import annotations

import time

from cavemem.cli import io
from cavemem.cli.args import Arg, Command, Opt, command


def _report(obj: dict, human: str, as_json: bool) -> None:
    io.write_stdout(((io.json_line(obj) if as_json else human.rstrip("\n")) + "\n").encode())


def _open_store():
    from cavemem.memory.store import open_memory_store

    return open_memory_store()


@command(
    Command(
        "cavemem embed",
        "Local semantic recall (the [embed] extra: int8 MiniLM on onnxruntime, fully offline).\n"
        "  status   is it installed, switched on, how many memories have vectors\n"
        "  enable   switch it on for the memory store and embed every memory\n"
        "  sync     embed memories added since (e.g. after cavemem import); drop forgotten ones\n"
        "  disable  switch it off and delete the vectors",
        [Opt("--json", help="print one JSON object")],
        [Arg("action", "status, enable, sync or disable", optional=True)],
        epilog="CAVEMAN_EMBED=1 forces it on (without a sidecar), CAVEMAN_EMBED=0 off.\n"
        "Weights: CAVEMAN_MEM_FUSION='extra.semantic=0.6'; CAVEMAN_EMBED_TUNING='floor=0.2,vouch=0.6,top_k=40'.",
    )
)
def embed_command(opts: dict) -> int:
    from cavemem.embed import require_installed, sidecar_dir, status
    from cavemem.errors import invalid_arguments

    action = opts["action"] or "status"
    as_json = opts["json"]
    if action not in ("status", "enable", "sync", "disable"):
        raise invalid_arguments(f"cavemem embed: unknown action {action!r} (status, enable, sync, disable)")
    store = _open_store()
    try:
        path = store.path
        if action == "status":
            rep = status(path)
            rep["index"] = sidecar_dir(path)
            rep["memories"] = store.read("SELECT count(*) FROM memories")[0][0]
            if rep["installed"] and rep["switched_on"]:
                from cavemem.embed.vectors import VectorIndex

                ix = VectorIndex(sidecar_dir(path))
                rep["vectors"] = len(ix) if ix.exists() else 0
            lines = [
                f"semantic recall: {'ON' if rep['enabled'] else 'off'}",
                f"extra installed: {'yes' if rep['installed'] else 'no — ' + rep['install'] + ' (missing ' + ', '.join(rep['missing']) + ')'}",
                f"switched on for {path}: {'yes' if rep['switched_on'] else 'no (cavemem embed enable)'}",
            ]
            if "vectors" in rep:
                lines.append(f"vectors: {rep['vectors']} of {rep['memories']} memory versions")
            _report(rep, "\n".join(lines), as_json)
            return 0
        if action == "disable":
            import shutil

            shutil.rmtree(sidecar_dir(path), ignore_errors=True)
            _report({"enabled": False, "index": sidecar_dir(path)}, f"semantic recall off; deleted {sidecar_dir(path)}", as_json)
            return 0
        require_installed()
        from cavemem.embed.scorer import SemanticScorer

        from cavemem.embed.embedder import Embedder

        import os

        # a bulk job: use the cores (a recall's single query embeds on one thread)
        scorer = SemanticScorer(store, required=True, embedder=Embedder(threads=max(1, min(4, os.cpu_count() or 1))))
        started = time.perf_counter()
        if action == "enable":
            scorer.index.create()
        result = scorer.sync(None)
        result.update({"enabled": True, "vectors": len(scorer.index), "seconds": round(time.perf_counter() - started, 3)})
        _report(
            result,
            f"semantic recall on: {result['vectors']} vectors ({result['added']} embedded, {result['removed']} dropped) "
            f"in {result['seconds']:.1f} s",
            as_json,
        )
        return 0
    finally:
        store.close()
