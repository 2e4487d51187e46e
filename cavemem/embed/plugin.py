"""The ``embed`` scorer plugin: registers semantic vectors into memory's ranking (stdlib only here)."""

from __future__ import annotations

from . import default_scorers, forget_vectors


class EmbedPlugin:
    name = "embed"

    def default_for(self, db_path: str | None) -> bool:
        return bool(default_scorers(db_path))

    def create(self, store):
        from .scorer import SemanticScorer

        return SemanticScorer(store)

    def forget(self, db_path, memory_ids, neighbour_ids) -> dict:
        return forget_vectors(db_path, memory_ids, neighbour_ids)

    def encoder(self):
        """The process's MiniLM sentence embedder (memory/capture/classify.py judges sentences with it)."""
        from .embedder import shared_embedder

        return shared_embedder()


def register() -> None:
    """Plug ``embed`` (MiniLM, the extra) and ``static`` (the shipped table) into memory (idempotent)."""
    from ..memory import plugins

    if plugins.get("embed") is None:
        plugins.register(EmbedPlugin())
    if plugins.get("static") is None:
        from .static_plugin import StaticPlugin

        plugins.register(StaticPlugin())
