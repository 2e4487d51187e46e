"""The ranking's knobs and the types it exchanges with extra scorers (see :mod:`.rank`).

Kept apart from the ranker so that scorers and adapters can name them without the pipeline."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields, replace

from ..errors import CaveError
from .store import Filter, MemoryStore

TYPE_CHECKING = False  # typing's own flag without importing typing (12 M instructions of a hot CLI command)
if TYPE_CHECKING:
    from typing import Protocol, runtime_checkable
else:
    class _Members(type):
        """``isinstance`` by members, as ``typing.runtime_checkable`` checks a protocol."""

        def __instancecheck__(cls, obj) -> bool:
            names = [*cls.__dict__.get("__annotations__", {}), *(k for k, v in cls.__dict__.items() if callable(v) and k[0] != "_")]
            return all(hasattr(obj, name) for name in names)

    Protocol = _Members("Protocol", (), {})

    def runtime_checkable(cls):
        return cls


@dataclass(frozen=True)
class RankConfig:
    """Ranking knobs. Defaults were chosen by measurement (see the module docstring)."""

    candidates: int = 60
    prune_df: float = 0.05
    match_cap: int = 2000
    widen_below: int = 10
    lexical: float = 1.0
    coverage: float = 0.3
    context: float = 0.3
    session: float = 1.6
    recency: float = 0.05
    half_life_days: float = 30.0
    date: float = 0.3
    date_term_weight: float = 0.3
    neighbor_seeds: int = 10
    min_coverage: float = 0.35
    min_coverage_known: float = 0.25  # the gate when every content word is a word the store has
    # with a working extra scorer the gate is joint: its best score + these × coverage / known ≥ its threshold
    gate_coverage: float = 0.2
    gate_known: float = 0.05
    # lexical / coverage / expansion weights while an extra scorer works (meaning then leads; see
    # _joint_gate). extra_lexical 0.7 -> 0.4 with extra_expansion 0.15 -> 0.25, chosen on the tune
    # splits: dev set r@5 .884 -> .892, MRR .764 -> .770; LoCoMo conv 0-2 turn r@10 83.8 -> 84.9%,
    # session r@5 92.4 -> 93.0%; the dev set padded to 7k / 10k (scripts/bench_memory_gate.py),
    # ledger r@5 .671 / .671 unchanged, MRR .545 -> .548 / .546 -> .557. extra_lexical 0.4 alone cost
    # 10k r@5 (.643), 0.5 too (.657); with extra_coverage 0.5 instead it cost 7k (.657)
    extra_lexical: float = 0.4
    extra_coverage: float = 0.3
    # with meaning on, the lexical weight is scaled by (best coverage) ** this: a query whose words
    # barely match any memory ('billing' alone of 'which database engine does billing use') gets
    # little say from BM25, whose max-normalised score would otherwise give its best match a full 1.
    # 1 chosen on both tune splits: dev set r@5 .877 -> .884, MRR .722 -> .764; LoCoMo conv 0-2
    # turn r@10 83.6 -> 83.8%, session r@5 91.9 -> 92.4% (2 did more on the dev set but cost LoCoMo 0.8)
    lexical_confidence: float = 1.0
    hit_floor: float = 0.0
    location_note: float = 0.5  # with meaning on: a where-the-code note's score among the first hits is this lower unless asked where (see rank_head)
    expansion_terms: int = 5
    expansion_docs: int = 3
    expansion_weight: float = 0.15
    extra_expansion: float = 0.25  # expansion_weight while an extra scorer works (see extra_lexical)
    expansion_head: int = 1
    session_slots: float = 0.3  # share of the last hits kept for sessions not among the earlier ones
    extra_slots: float = 0.1  # share of the last hits kept for an extra scorer's own best hits
    typo_fix: int = 1  # 0 turns typo correction of unknown query words off
    initialisms: int = 1  # 0: no query terms spelled from the initials of its phrases (see acronym.py)
    extras: tuple[tuple[str, float], ...] = ()  # (scorer name, weight) overrides

    def with_overrides(self, spec: str | dict) -> "RankConfig":
        """``"lexical=1,context=0.2"`` or a dict; unknown keys are an error."""
        if isinstance(spec, str):
            pairs = {}
            for part in spec.split(","):
                if not part.strip():
                    continue
                key, sep, value = part.partition("=")
                if not sep:
                    raise CaveError("cave_invalid_config", f"fusion setting {part.strip()!r} needs key=value")
                pairs[key.strip()] = value.strip()
            spec = pairs
        known = {f.name: f for f in fields(self) if f.name != "extras"}
        changes: dict = {}
        extras = dict(self.extras)
        for key, value in spec.items():
            if key.startswith("extra."):
                extras[key[len("extra.") :]] = float(value)
                continue
            f = known.get(key)
            if f is None:
                raise CaveError("cave_invalid_config", f"unknown fusion setting {key!r} (known: {', '.join(sorted(known))})")
            try:
                changes[key] = int(value) if f.type == "int" else float(value)
            except (TypeError, ValueError):
                raise CaveError("cave_invalid_config", f"fusion setting {key} must be a number, got {value!r}") from None
        if extras:
            changes["extras"] = tuple(sorted(extras.items()))
        return replace(self, **changes)

    def extra_weight(self, scorer: "ExtraScorer") -> float:
        return dict(self.extras).get(scorer.name, scorer.weight)


def config_from_env(base: RankConfig | None = None) -> RankConfig:
    base = base or RankConfig()
    spec = os.environ.get("CAVEMAN_MEM_FUSION", "")
    return base.with_overrides(spec) if spec.strip() else base


@dataclass
class RankContext:
    """What an extra scorer may look at."""

    store: MemoryStore
    where: Filter
    pool: set[int]  # lexical candidates so far
    limit: int
    now_us: int


@runtime_checkable
class ExtraScorer(Protocol):
    """A pluggable signal fused with the lexical ones (for example local semantic vectors).

    ``scores`` returns ``{seq: score in [0, 1]}`` for memories matching ``ctx.where`` — its own top
    hits (which join the candidate pool even without lexical overlap) and/or re-scores of
    ``ctx.pool``. A query whose best score reaches ``threshold`` counts as on-topic even when the
    lexical gate would refuse it."""

    name: str
    weight: float
    threshold: float

    def scores(self, query: str, ctx: RankContext) -> dict[int, float]: ...


@dataclass
class Ranked:
    """One memory's fused score and the signals it came from."""
    seq: int
    score: float
    lexical: float = 0.0
    coverage: float = 0.0
    signals: dict[str, float] = field(default_factory=dict)
