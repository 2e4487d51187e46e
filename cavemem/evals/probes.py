"""Retention probes (spec engine-core §8.4): did a fact survive compression?

A probe names a fact (``value``) and what kind of fact it is (``dimension``). It is
``retained`` when the compressed output still shows it, ``recoverable`` when it is gone from the
view but the exact original can be retrieved, and ``lost`` otherwise. Values are reported only as
SHA-256 digests so reports never echo fixture contents.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from ..gocompat import trim_space
from .manifest import Probe

RETAINED = "retained"
RECOVERABLE = "recoverable"
LOST = "lost"


@dataclass
class ProbeResult:
    dimension: str
    value_sha256: str
    state: str

    def to_obj(self) -> dict:
        return {"dimension": self.dimension, "value_sha256": self.value_sha256, "state": self.state}


@dataclass
class Tally:
    total: int = 0
    retained: int = 0
    recoverable: int = 0
    lost: int = 0

    def add(self, state: str) -> None:
        self.total += 1
        setattr(self, state, getattr(self, state) + 1)

    def merge(self, other: Tally) -> None:
        self.total += other.total
        self.retained += other.retained
        self.recoverable += other.recoverable
        self.lost += other.lost

    def to_obj(self) -> dict:
        return {"total": self.total, "retained": self.retained, "recoverable": self.recoverable, "lost": self.lost}


@dataclass
class ProbeSummary(Tally):
    by_dimension: dict[str, Tally] = field(default_factory=dict)

    def record(self, dimension: str, state: str) -> None:
        self.add(state)
        self.by_dimension.setdefault(dimension, Tally()).add(state)

    def merge_summary(self, other: ProbeSummary) -> None:
        self.merge(other)
        for dim, tally in other.by_dimension.items():
            self.by_dimension.setdefault(dim, Tally()).merge(tally)

    def to_obj(self) -> dict:
        obj = super().to_obj()
        if self.by_dimension:  # a Go map: keys sorted
            obj["by_dimension"] = {k: self.by_dimension[k].to_obj() for k in sorted(self.by_dimension, key=lambda s: s.encode())}
        return obj


def evaluate(probes: list[Probe], output: bytes, byte_recoverable: bool) -> tuple[list[ProbeResult], ProbeSummary, list[str]]:
    """Check every probe against ``output``. Returns (results, summary, failure strings)."""
    results: list[ProbeResult] = []
    summary = ProbeSummary()
    failures: list[str] = []
    for i, probe in enumerate(probes):
        if not probe.value:
            failures.append(f"retention probe {i} has empty value")
            continue
        dimension = trim_space(probe.dimension) or "unspecified"
        value = probe.value.encode("utf-8", "surrogateescape")
        if value in output:
            state = RETAINED
        elif byte_recoverable:
            state = RECOVERABLE
        else:
            state = LOST
        results.append(ProbeResult(dimension, "sha256:" + hashlib.sha256(value).hexdigest(), state))
        summary.record(dimension, state)
        if state == LOST:
            failures.append(f"retention probe {dimension} was lost")
    return results, summary, failures
