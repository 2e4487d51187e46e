"""Scorer plugins: how optional rankers (the ``[embed]`` extra's semantic vectors) join memory.

Memory never imports a plugin package. A plugin registers itself here — the API layer
(:func:`cavemem.__getattr__` for ``Memory``) registers the built-in ones — and memory only
asks the registry: which scorers are on for this store, build one, and drop derived data of
forgotten memories.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

TYPE_CHECKING = False  # typing's own flag without importing typing (12 M instructions of a hot CLI command)
if TYPE_CHECKING:
    from typing import Protocol
else:
    Protocol = object  # the class below documents the interface; only type checkers check it


class ScorerPlugin(Protocol):
    """What memory needs of an optional scorer package."""

    name: str

    def default_for(self, db_path: str | None) -> bool:
        """Whether a :class:`~cavemem.memory.api.Memory` over ``db_path`` uses it by default (cheap)."""

    def create(self, store):
        """A :class:`~cavemem.memory.rank.ExtraScorer` over ``store`` (may import heavy modules)."""

    def forget(self, db_path: str | None, memory_ids: list[str], neighbour_ids: Callable[[], Iterable[str]]) -> dict:
        """Drop derived data of forgotten memories; never raises (``{"warnings": [...]}`` instead)."""


_PLUGINS: dict[str, ScorerPlugin] = {}


def register(plugin: ScorerPlugin) -> None:
    """Add (or replace) a plugin under its name."""
    _PLUGINS[plugin.name] = plugin


def get(name: str) -> ScorerPlugin | None:
    return _PLUGINS.get(name)


def names() -> list[str]:
    return list(_PLUGINS)


def defaults_for(db_path: str | None) -> tuple[str, ...]:
    """Names of the registered plugins switched on for this store."""
    return tuple(name for name, p in _PLUGINS.items() if p.default_for(db_path))


def forget_everywhere(db_path: str | None, memory_ids: list[str], neighbour_ids) -> dict:
    """Every plugin's ``forget``, merged (warnings concatenated)."""
    out: dict = {}
    for p in _PLUGINS.values():
        for key, value in p.forget(db_path, memory_ids, neighbour_ids).items():
            out[key] = out.get(key, []) + value if key == "warnings" else value
    return out
