"""The ``static`` scorer plugin: meaning-aware recall in a plain install (numpy + a shipped table).

Opt-in for now (``CAVEMAN_STATIC=1``, or ``Memory(scorers=["static"])``): on by default it would
make every ``recall`` import numpy, which the hot-path import test forbids, and on the
coding-agent dev set it answers 83% of the real questions at 95% off-topic refusal where MiniLM
answers 97% — not enough to meet the issue's gate on its own. Never on when the ``[embed]``
MiniLM scorer is on for the store (the better model wins). Vectors live in their own sidecar,
``<db>.static-vectors/`` (same format as the MiniLM one, another model identity), kept in step
lazily before each recall like the MiniLM sidecar, and dropped right away on ``forget``.
Calibration (``floor``/``vouch``) differs from MiniLM's because static cosines run higher; it
was chosen on the tune split of ``scripts/bench_memory_devset.py`` (see ``STATIC_CONFIG``).
"""

from __future__ import annotations

import importlib.util
import os


ENV_SWITCH = "CAVEMAN_STATIC"
ENV_TUNING = "CAVEMAN_STATIC_TUNING"


def sidecar(db_path: str) -> str:
    return db_path + ".static-vectors"


def numpy_present() -> bool:
    try:
        return importlib.util.find_spec("numpy") is not None
    except (ImportError, ValueError):
        return False


def static_config():
    from .scorer import SemanticConfig

    base = SemanticConfig(weight=0.35, floor=0.25, vouch=0.52, ref_rank=20, top_k=40, backfill=100_000,
                          feedback=0.3, feedback_docs=3, probe_weight=0.0)
    spec = os.environ.get(ENV_TUNING, "")
    return base.with_overrides(spec) if spec.strip() else base


def make_scorer(store):
    from .scorer import SemanticScorer

    class StaticScorer(SemanticScorer):
        """:class:`SemanticScorer` over the static table and its own sidecar."""

        @property
        def embedder(self):
            if self._embedder is None:
                from .static import shared_static

                self._embedder = shared_static()
            return self._embedder

        @property
        def index(self):
            if self._index is None:
                from .distill import DIM
                from .static import INDEX_MODEL
                from .vectors import VectorIndex

                self._index = VectorIndex(sidecar(self.store.path), dim=DIM, model=INDEX_MODEL)
            return self._index

    return StaticScorer(store, config=static_config(), required=False)


class StaticPlugin:
    name = "static"

    def default_for(self, db_path: str | None) -> bool:
        if not db_path or db_path == ":memory:":
            return False
        if os.environ.get(ENV_SWITCH, "").strip().lower() not in ("1", "true", "yes", "on"):
            return False
        from . import default_scorers

        return not default_scorers(db_path) and numpy_present()

    def create(self, store):
        return make_scorer(store)

    def forget(self, db_path, memory_ids, neighbour_ids) -> dict:
        """Drop the forgotten memories' static vectors (and their neighbours', re-embedded at the
        next recall); without numpy the sidecar is deleted. Never raises."""
        if not db_path or db_path == ":memory:" or not os.path.isdir(sidecar(db_path)):
            return {}
        try:
            if not numpy_present():
                import shutil

                shutil.rmtree(sidecar(db_path), ignore_errors=True)
                return {}
            from .distill import DIM
            from .static import INDEX_MODEL
            from .vectors import VectorIndex

            index = VectorIndex(sidecar(db_path), dim=DIM, model=INDEX_MODEL)
            gone = list(memory_ids)
            removed = index.remove(gone)
            refresh = [i for i in (neighbour_ids() if callable(neighbour_ids) else neighbour_ids) if i not in set(gone)]
            if refresh:
                index.remove(refresh)
            return {"static_vectors_deleted": removed} if removed else {}
        except Exception as exc:  # noqa: BLE001 - forgetting must not fail over derived data
            return {"warnings": [f"static vectors of forgotten memories not removed ({exc})"]}



