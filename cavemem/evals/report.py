"""The eval report: JSON in the reference's exact field order (spec engine-core §8.3) and a
readable table for people.

Field order, omitted-when-empty fields and Go float formatting are part of the contract: CI
scripts written for ``caveman-engine evals run`` parse this JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..gocompat import go_text, marshal
from .probes import ProbeResult, ProbeSummary


def eval_ratio(before: int, after: int) -> float:
    """0 when nothing was saved (or nothing was there), else the share saved."""
    if before <= 0 or after >= before:
        return 0.0
    return (before - after) / before


_WORD_RE = None


def count_words(data: bytes) -> int:
    """G11: each maximal run of letters (L*) or decimal digits (Nd) is one word."""
    global _WORD_RE
    if _WORD_RE is None:
        import regex

        _WORD_RE = regex.compile(r"[\p{L}\p{Nd}]+")
    return sum(1 for _ in _WORD_RE.finditer(go_text(data)))


@dataclass
class FixtureReport:
    name: str
    content_type: str
    tokens_before: int
    tokens_after: int
    ratio: float  # the engine's ratio
    words_before: int
    words_after: int
    basis: str
    byte_recoverable: bool
    failures: list[str] = field(default_factory=list)
    probes: list[ProbeResult] = field(default_factory=list)
    probe_summary: ProbeSummary | None = None  # set whenever the fixture declared probes

    @property
    def passed(self) -> bool:
        return not self.failures

    @property
    def word_ratio(self) -> float:
        return eval_ratio(self.words_before, self.words_after)

    def to_obj(self) -> dict:
        obj: dict = {
            "name": self.name,
            "content_type": self.content_type,
            "tokens_before": self.tokens_before,
            "tokens_after": self.tokens_after,
            "ratio": float(self.ratio),
            "words_before": self.words_before,
            "words_after": self.words_after,
            "word_ratio": self.word_ratio,
            "basis": self.basis,
            "passed": self.passed,
            "byte_recoverable": self.byte_recoverable,
        }
        if self.failures:
            obj["failures"] = list(self.failures)
        if self.probes:
            obj["probes"] = [p.to_obj() for p in self.probes]
        if self.probe_summary is not None:
            obj["probe_summary"] = self.probe_summary.to_obj()
        return obj


@dataclass
class Report:
    fixtures: list[FixtureReport] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(f.passed for f in self.fixtures)

    @property
    def tokens_before(self) -> int:
        return sum(f.tokens_before for f in self.fixtures)

    @property
    def tokens_after(self) -> int:
        return sum(f.tokens_after for f in self.fixtures)

    @property
    def words_before(self) -> int:
        return sum(f.words_before for f in self.fixtures)

    @property
    def words_after(self) -> int:
        return sum(f.words_after for f in self.fixtures)

    def probe_totals(self) -> ProbeSummary:
        total = ProbeSummary()
        for f in self.fixtures:
            if f.probe_summary is not None:
                total.merge_summary(f.probe_summary)
        return total

    def to_obj(self) -> dict:
        return {
            "passed": self.passed,
            "tokens_before": self.tokens_before,
            "tokens_after": self.tokens_after,
            "token_ratio": eval_ratio(self.tokens_before, self.tokens_after),
            "words_before": self.words_before,
            "words_after": self.words_after,
            "word_ratio": eval_ratio(self.words_before, self.words_after),
            "probes": self.probe_totals().to_obj(),
            "fixtures": [f.to_obj() for f in self.fixtures] if self.fixtures else None,
        }

    def to_json(self) -> str:
        """2-space indented, HTML-escaped (G5), Go float formatting; no trailing newline."""
        return marshal(self.to_obj(), indent="  ", sort_keys=False)


def gate_json(passed: bool, checks: list[dict]) -> str:
    """The second object of ``caveman-engine evals run``: keys sorted, empty ``detail`` omitted."""
    rows = []
    for c in checks:
        row = {"name": str(c.get("name", "")), "passed": bool(c.get("passed"))}
        detail = c.get("detail")
        if detail:
            row["detail"] = str(detail)
        rows.append(row)
    return marshal({"passed": passed, "pixel_density_gate": rows}, indent="  ", sort_keys=True)


def render_table(report: Report, gate: list[dict] | None) -> str:
    """A readable summary: one line per fixture, its failures indented below, then totals."""
    header = ("fixture", "type", "tokens", "saved", "probes", "result")
    rows = [header]
    for f in report.fixtures:
        probes = ""
        if f.probe_summary is not None:
            s = f.probe_summary
            probes = f"{s.retained}/{s.total} shown" + (f", {s.lost} lost" if s.lost else "")
        rows.append(
            (
                f.name,
                f.content_type,
                f"{f.tokens_before}→{f.tokens_after}",
                f"{f.ratio * 100:.1f}%",
                probes,
                "pass" if f.passed else "FAIL",
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    lines = []
    for idx, r in enumerate(rows):
        lines.append("  ".join(c.ljust(w) if i in (0, 1, 4) else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip())
        if idx > 0:
            for failure in report.fixtures[idx - 1].failures:
                lines.append("    - " + failure)
    n_fail = sum(1 for f in report.fixtures if not f.passed)
    ratio = eval_ratio(report.tokens_before, report.tokens_after)
    lines.append("")
    lines.append(
        f"{len(report.fixtures) - n_fail}/{len(report.fixtures)} fixtures passed; "
        f"tokens {report.tokens_before}→{report.tokens_after} ({ratio * 100:.1f}% saved, inferred o200k_base)"
    )
    totals = report.probe_totals()
    if totals.total:
        lines.append(f"probes: {totals.retained} retained, {totals.recoverable} recoverable, {totals.lost} lost of {totals.total}")
    if gate is None:
        lines.append("pixel density gate: not available in this install (no checks run)")
    else:
        failed = [c for c in gate if not c.get("passed")]
        lines.append(f"pixel density gate: {len(gate) - len(failed)}/{len(gate)} checks passed")
        for c in failed:
            lines.append(f"    - {c.get('name')}: {c.get('detail') or 'failed'}")
    return "\n".join(lines) + "\n"
