"""``caveman-engine``: the reference engine's exact CLI contract (spec engine-core §7).

Argument forms, plain-text fatal messages (``message\\n`` on stderr, exit 1), the usage line and
JSON field order match the Go binary so tools written for it can call cavemem instead. The only
intended difference: an unavailable recovery store passes the input through with
``"error":"cave_ccr_unavailable"`` (exit 0) instead of aborting the pipeline.
"""

from __future__ import annotations

from ..errors import CaveError
from . import io
from .io import Fatal, read_stdin_or_fatal

USAGE = (
    "caveman-engine compress | detect | retrieve <handle> | stats | registry | toon encode|decode"
    " | pixel render|simulate | evals run [--fixtures DIR]"
)

# Subcommands implemented outside this module: name -> "module:function(argv) -> int".
EXTERNAL = {
    "toon": "cavemem.cli.commands.toon:engine_main",
    "evals": "cavemem.cli.commands.evals:engine_main",
    "pixel": "cavemem.cli.commands.pixel:engine_main",
}


def main(argv: list[str] | None = None) -> None:
    io.run_and_exit(_run_reporting_fatal, argv, (*_COMMANDS, *EXTERNAL))


def _run_reporting_fatal(argv: list[str]) -> int:
    try:
        return run(argv)
    except Fatal as f:
        io.write_stderr_line(f.message)
        return f.code


def run(argv: list[str]) -> int:
    if not argv or argv[0] in ("help", "--help", "-h"):
        io.write_stderr_line(USAGE)
        return 0
    cmd, rest = argv[0], argv[1:]
    handler = _COMMANDS.get(cmd)
    if handler is not None:
        return handler(rest)
    target = EXTERNAL.get(cmd)
    if target is not None:
        import importlib

        module, _, fn = target.partition(":")
        try:
            mod = importlib.import_module(module)
        except ImportError:
            raise Fatal(f"{cmd}: not available in this build") from None
        return getattr(mod, fn)(rest)
    io.write_stderr_line(f"unknown caveman-engine subcommand: {cmd}")
    return 2


def check_store_config() -> None:
    """Refuse to start on a bad CAVEMAN_CCR_MAX_BYTES before reading any input."""
    from ..store.ccr import budget_from_env

    try:
        budget_from_env()
    except CaveError as exc:
        raise Fatal(f"cannot open recovery store: {exc.message}") from None


def _compress(argv: list[str]) -> int:
    ctype = ""
    i = 0
    while i < len(argv):
        if argv[i] == "--type":
            if i + 1 >= len(argv):
                raise Fatal("usage: caveman-engine compress [--type <content-type>]")
            ctype = argv[i + 1]
            i += 2
            continue
        raise Fatal(f"unknown compress flag: {argv[i]}")
    if ctype == "auto":
        ctype = ""
    data = read_stdin_or_fatal()
    check_store_config()
    from ..engine.core import Engine

    res = Engine().compress(data, type=ctype or None)
    emit_compress_result(data, res)
    return 0


def emit_compress_result(data: bytes, res) -> None:
    """stdout = output bytes; stderr = one report line. A store failure is re-checked to be a
    true pass-through before anything is printed (the boundary consistency check)."""
    if res.error:
        if res.output != data or not res.passed_through or res.tokens_after != res.tokens_before:
            raise Fatal(f"compress: unsafe recovery failure result: {res.error}")
    try:
        io.write_stdout(res.output)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise Fatal(f"compress: write stdout: {exc}") from None
    try:
        io.write_stderr_line(res.to_json())
    except OSError as exc:
        raise Fatal(f"compress: write report: {exc}") from None


def _detect(argv: list[str]) -> int:
    data = read_stdin_or_fatal()
    from ..engine.detect import detect

    io.write_stdout((detect(data) + "\n").encode())
    return 0


def _open_engine():
    check_store_config()
    from ..engine.core import Engine

    engine = Engine()
    try:
        engine.store()
    except CaveError as exc:
        raise Fatal(f"cannot open recovery store: {exc.message}") from None
    return engine


def _retrieve(argv: list[str]) -> int:
    if not argv:
        raise Fatal("usage: caveman-engine retrieve <handle> [query]")
    engine = _open_engine()
    try:
        data = engine.retrieve(argv[0], argv[1] if len(argv) > 1 else "")
    except CaveError as exc:
        raise Fatal(f"retrieve: {exc.message}") from None
    io.write_stdout(data)
    return 0


def _stats(argv: list[str]) -> int:
    engine = _open_engine()
    from ..gocompat import marshal

    try:
        summary = engine.stats()
    except CaveError as exc:
        raise Fatal(f"stats: {exc.message}") from None
    io.write_stdout((marshal(summary, indent="  ", sort_keys=False) + "\n").encode())
    return 0


def _registry(argv: list[str]) -> int:
    from ..engine.registry import default_registry
    from ..gocompat import marshal

    try:
        manifest = default_registry().manifest()
    except Exception as exc:
        raise Fatal(f"registry: {exc}") from None
    io.write_stdout((marshal(manifest, sort_keys=False) + "\n").encode())
    return 0


_COMMANDS = {
    "compress": _compress,
    "detect": _detect,
    "retrieve": _retrieve,
    "stats": _stats,
    "registry": _registry,
}
