"""Running a fixture directory through the engine (spec engine-core §8.2).

Fixture files are **confined** to the fixture directory: a name must be a clean slash path
(no ``..``, no empty or ``.`` segments, no leading/trailing ``/``), and after resolving every
symlink the file must still lie inside the resolved root. Anything else aborts the whole run —
an eval run never reads outside the folder it was pointed at, and never reports on a partial set.

All fixtures share one engine over one in-memory recovery store, so a fixture's handle can be
retrieved (that is how ``byte_recoverable`` is proven) and nothing touches ``~/.caveman``.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Callable

from .gofmt import quote
from .graders import Subject, grade
from .manifest import Fixture, ManifestError, parse_manifest
from .probes import ProbeSummary, evaluate
from .report import FixtureReport, Report, count_words

MANIFEST = "manifest.yaml"

Progress = Callable[[int, int, str], None]  # (done, total, fixture name)


class EvalError(Exception):
    """A harness error: the run is aborted and no report is produced."""


def go_error(exc: OSError, op: str = "", path: str = "") -> str:
    """An OSError the way Go prints a *PathError: ``open /x: no such file or directory``."""
    msg = exc.strerror or str(exc)
    msg = msg[:1].lower() + msg[1:]
    op = op or "open"
    path = path or (exc.filename if exc.filename is not None else "")
    return f"{op} {path}: {msg}" if path else msg


def valid_slash_path(name: str) -> bool:
    """io/fs.ValidPath: a relative, clean, slash-separated path ('.' alone is not a file)."""
    if not name or name == ".":
        return False
    if name.startswith("/") or name.endswith("/"):
        return False
    return all(seg not in ("", ".", "..") for seg in name.split("/"))


def _read_regular_file(path: str) -> bytes:
    """Read a file that was just resolved, refusing a symlink swapped in since (O_NOFOLLOW) and
    anything but a regular file (O_NONBLOCK: opening a FIFO must not hang the run)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(21, "is a directory", path)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(22, "not a regular file", path)
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def load_dir(root: str | os.PathLike, *, allow_empty: bool = False) -> list[tuple[Fixture, bytes]]:
    """Resolve, parse and read every fixture of ``root`` (all reads happen before any run)."""
    try:
        resolved = Path(os.path.realpath(os.fspath(root), strict=True))
    except OSError as exc:
        raise EvalError(f"resolve fixture directory: {go_error(exc, 'lstat')}") from None
    manifest_path = resolved / MANIFEST
    try:
        if os.path.islink(manifest_path):  # only files inside DIR are read (issue 15 item 7)
            real = os.path.realpath(manifest_path, strict=True)
            if os.path.dirname(real) != str(resolved) and not real.startswith(str(resolved) + os.sep):
                raise OSError(1, "manifest is a symlink out of the fixture directory", str(manifest_path))
            manifest_path = Path(real)
        raw = _read_regular_file(str(manifest_path))
    except OSError as exc:
        raise EvalError(f"read manifest: {go_error(exc, 'open', str(manifest_path))}") from None
    try:
        manifest = parse_manifest(raw)
    except ManifestError as exc:
        raise EvalError(str(exc)) from None
    if not manifest.fixtures and not allow_empty:
        raise EvalError("manifest has no fixtures")
    loaded: list[tuple[Fixture, bytes]] = []
    for fx in manifest.fixtures:
        if not valid_slash_path(fx.file):
            raise EvalError(f"invalid fixture path {quote(fx.file)}")
        joined = resolved.joinpath(*fx.file.split("/"))
        try:
            real = Path(os.path.realpath(joined, strict=True))
        except OSError as exc:
            raise EvalError(f"read fixture {quote(fx.file)}: {go_error(exc, 'lstat')}") from None
        rel = os.path.relpath(real, resolved)
        if rel == ".." or rel.startswith(".." + os.sep):
            raise EvalError(f"fixture path escapes root: {quote(fx.file)}")
        try:
            data = _read_regular_file(str(real))
        except OSError as exc:
            raise EvalError(f"read fixture {quote(fx.file)}: {go_error(exc, 'read' if isinstance(exc, IsADirectoryError) else 'open', str(real))}") from None
        loaded.append((fx, data))
    return loaded


def new_engine():
    """One engine over a fresh in-memory recovery store (default 512 MiB budget)."""
    from ..engine.core import Engine
    from ..store.ccr import open_ccr

    return Engine(store=open_ccr(":memory:"))


def run_fixture(engine, fx: Fixture, data: bytes) -> FixtureReport:
    res = engine.compress(data, type=fx.type or None, query=fx.query, mode=fx.engine_mode)
    if res.error:
        raise EvalError(f"compress fixture {quote(fx.name)}: {res.error}")
    output = res.output
    recoverable = output == data
    if res.recovery_handle:
        try:
            recoverable = engine.retrieve(res.recovery_handle) == data
        except Exception:
            recoverable = False
    subject = Subject(
        input=data,
        output=output,
        ratio=res.ratio,
        content_type=res.content_type,
        method=res.method,
        passed_through=res.passed_through,
    )
    probe_results, summary, failures = evaluate(fx.probes, output, recoverable)
    if not fx.graders:
        failures.append("no graders configured")
    for g in fx.graders:
        verdict = grade(g, subject)
        if not verdict.passed:
            failures.append(verdict.reason)
    return FixtureReport(
        name=fx.name,
        content_type=res.content_type,
        tokens_before=res.tokens_before,
        tokens_after=res.tokens_after,
        ratio=res.ratio,
        words_before=count_words(data),
        words_after=count_words(output),
        basis=res.basis,
        byte_recoverable=recoverable,
        failures=failures,
        probes=probe_results,
        probe_summary=summary if fx.probes else None,
    )


def run_fixtures(loaded: list[tuple[Fixture, bytes]], *, engine=None, progress: Progress | None = None) -> Report:
    own_engine = engine is None
    engine = engine or new_engine()
    report = Report()
    total = len(loaded)
    try:
        for i, (fx, data) in enumerate(loaded):
            if progress:
                progress(i, total, fx.name)
            report.fixtures.append(run_fixture(engine, fx, data))
        if progress:
            progress(total, total, "")
    finally:
        if own_engine:
            engine.close()
    return report


def run_dir(root: str | os.PathLike, *, progress: Progress | None = None, engine=None) -> Report:
    """RunDir: the fixtures of ``root`` (an empty manifest is an error)."""
    return run_fixtures(load_dir(root), engine=engine, progress=progress)


def bundled_fixtures_dir() -> Path:
    """cavemem's own eval set: ``fixtures/`` of the source tree, shipped in the package as
    ``cavemem/evals/fixtures`` (a symlink to it in the repo, real files in a built wheel)."""
    return Path(__file__).resolve().parent / "fixtures"


def run_bundled(*, progress: Progress | None = None, engine=None) -> Report:
    """The embedded run: the bundled set; an empty fixture list passes with ``fixtures: null``."""
    return run_fixtures(load_dir(bundled_fixtures_dir(), allow_empty=True), engine=engine, progress=progress)


__all__ = ["EvalError", "ProbeSummary", "bundled_fixtures_dir", "load_dir", "run_bundled", "run_dir", "run_fixtures", "valid_slash_path"]
