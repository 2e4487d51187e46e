"""``caveman-engine evals run`` (the reference contract, §7.3) and ``cavemem evals run``.

``caveman-engine evals run [--fixtures DIR]`` prints the report JSON, then a second JSON object
``{"passed": …, "pixel_density_gate": […]}`` and exits 1 when any fixture or gate check failed.
``passed`` there is the whole verdict (report and gate), i.e. exactly "exit status 0".

``cavemem evals run [--fixtures DIR] [--json]`` is the friendly form:

- stdout: a readable table when stdout is a terminal, otherwise (or with ``--json``) the report
  JSON alone (the same object as the engine's first one), so it pipes into ``jq``;
- stderr: a progress bar only when stderr is a terminal; on failure one JSON error line
  (``cave_evals_failed``, exit 1); a broken fixture directory is ``cave_invalid_input`` (65);
- with no ``--fixtures`` both forms run cavemem's own bundled set (``fixtures/`` of the repo,
  shipped in the package).

The pixel density gate comes from ``cavemem.pixel.gate.density_gate_checks()``. When the pixel
package is not installed no checks are run and none are invented: the gate list is empty.
"""

from __future__ import annotations

from cavemem.cli import io, progress
from cavemem.cli.args import Arg, Command, Opt, command
from cavemem.errors import CaveError

ENGINE_USAGE = "usage: caveman-engine evals run [--fixtures DIR]"


def density_gate() -> list[dict] | None:
    """The pixel package's density-gate checks, or None when that package is not installed."""
    try:
        from cavemem.pixel.gate import density_gate_checks
    except ImportError:
        return None
    return list(density_gate_checks())


def gate_passed(checks: list[dict] | None) -> bool:
    return all(bool(c.get("passed")) for c in checks or [])


def _run(fixtures_dir: str | None, bar=None):
    from cavemem.evals.runner import run_bundled, run_dir

    if fixtures_dir:
        return run_dir(fixtures_dir, progress=bar)
    return run_bundled(progress=bar)


def engine_main(argv: list[str]) -> int:
    from cavemem.cli.io import Fatal
    from cavemem.evals.report import gate_json
    from cavemem.evals.runner import EvalError

    if argv == ["run"]:
        fixtures_dir = None
    elif len(argv) == 3 and argv[0] == "run" and argv[1] == "--fixtures" and argv[2]:
        fixtures_dir = argv[2]
    else:
        raise Fatal(ENGINE_USAGE)
    try:
        report = _run(fixtures_dir)
    except EvalError as exc:
        raise Fatal(f"evals: {exc}") from None
    try:
        checks = density_gate()
    except Exception as exc:  # a broken gate is a harness error, never a silent pass
        raise Fatal(f"evals: pixel density gate: {exc}") from None
    passed = report.passed and gate_passed(checks)
    io.write_stdout((report.to_json() + "\n" + gate_json(passed, checks or []) + "\n").encode())
    return 0 if passed else 1


@command(
    Command(
        "cavemem evals",
        "Run graded eval fixtures through the engine (the compression CI gate).\n"
        "Each fixture is compressed, its facts probed and its graders checked; the exit status\n"
        "is 1 when any grader or pixel density-gate check fails.",
        [
            Opt("--fixtures", "-f", "DIR", "a fixture directory with manifest.yaml (default: cavemem's own set)"),
            Opt("--json", help="print the report JSON (default when stdout is not a terminal)"),
        ],
        [Arg("action", "run")],
        epilog="example: cavemem evals run --fixtures ../shared/corpus/caveman-evals",
    )
)
def cavemem_command(opts: dict) -> int:
    from cavemem.evals.report import render_table
    from cavemem.evals.runner import EvalError

    if opts["action"] != "run":
        raise CaveError("cave_invalid_arguments", f"cavemem evals: unknown action {opts['action']!r} (use: run)")
    try:
        with progress.on_terminal("evals") as bar:
            report = _run(opts["fixtures"], bar=bar)
    except EvalError as exc:
        raise CaveError("cave_invalid_input", f"evals: {exc}") from None
    try:
        checks = density_gate()
    except Exception as exc:
        raise CaveError("cave_internal", f"evals: pixel density gate: {exc}") from None
    if opts["json"] or not io.stdout_is_tty():
        io.write_stdout((report.to_json() + "\n").encode())
    else:
        io.write_stdout(render_table(report, checks).encode())
    problems = []
    failed = [f.name for f in report.fixtures if not f.passed]
    if failed:
        problems.append(f"{len(failed)} of {len(report.fixtures)} fixtures failed: {', '.join(failed)}")
    failed_checks = [str(c.get("name")) for c in checks or [] if not c.get("passed")]
    if failed_checks:
        problems.append(f"pixel density gate failed: {', '.join(failed_checks)}")
    if problems:
        return io.report_error(CaveError("cave_evals_failed", "; ".join(problems)))
    return 0
