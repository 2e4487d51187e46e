"""``cavemem``: the friendly CLI. Dispatches by hand so hot commands start fast.

Each command lives in a module exposing ``COMMAND`` (a :class:`~cavemem.cli.args.Command`) and
``run(opts: dict) -> int``; only the module of the command being run is imported. Errors are one
JSON line on stderr (``{"error": code, "message": …}``) with the code's exit status.
"""

from __future__ import annotations

from ..errors import CaveError
from . import io

# name -> (module, one-line summary). Order is the order shown in --help.
COMMANDS: dict[str, tuple[str, str]] = {
    "compress": ("cavemem.cli.commands.engine:compress", "compress stdin; stdout = smaller payload, stderr = JSON report"),
    "retrieve": ("cavemem.cli.commands.engine:retrieve", "print the exact original behind a recovery handle"),
    "detect": ("cavemem.cli.commands.engine:detect", "print the detected content type of stdin"),
    "simulate": ("cavemem.cli.commands.engine:simulate", "dry-run compress: print what it would save, store nothing"),
    "stats": ("cavemem.cli.commands.engine:stats", "recovery-store totals by content type"),
    "registry": ("cavemem.cli.commands.engine:registry", "the compressor capability manifest"),
}

# Commands provided by later modules register here (module path, summary); absent modules are
# reported as unavailable rather than crashing the CLI.
COMMANDS.update(
    {
        "toon": ("cavemem.cli.commands.toon:cavemem_command", "TOON encode/decode with a round-trip proof"),
        "evals": ("cavemem.cli.commands.evals:cavemem_command", "run graded eval fixtures (CI gate)"),
        "pixel": ("cavemem.cli.commands.pixel:cavemem_command", "render text to PNG pages / simulate request transforms"),
        "remember": ("cavemem.cli.commands.memory:remember", "store a memory (raw text first; idempotent)"),
        "recall": ("cavemem.cli.commands.memory:recall", "ranked memories for a query, packed under a token budget"),
        "supersede": ("cavemem.cli.commands.memory:supersede", "replace a memory, keeping its history"),
        "history": ("cavemem.cli.commands.memory:history", "a memory's versions, oldest to current"),
        "forget": ("cavemem.cli.commands.memory:forget", "delete memories (by id, project, date or tag)"),
        "list": ("cavemem.cli.commands.memory:list_", "list memories"),
        "show": ("cavemem.cli.commands.memory:show", "show one memory"),
        "export": ("cavemem.cli.commands.memory:export", "write memories as JSON lines"),
        "import": ("cavemem.cli.commands.memory:import_", "read memories from JSON lines (dedup)"),
        "mcp": ("cavemem.mcp.server:command", "serve memory + engine tools over MCP (stdio)"),
        "hook": ("cavemem.cli.commands.hook:command", "Claude Code hooks (session-start, user-prompt, stop, install)"),
        "embed": ("cavemem.cli.commands.embed:embed_command", "semantic recall on/off for the memory store ([embed] extra)"),
        "serve": ("cavemem.cli.commands.serve:serve", "local HTTP API + web page + MCP over HTTP ([serve] extra)"),
        "sessions": ("cavemem.cli.commands.capture:sessions", "archived Claude Code sessions (list, show ID [--raw])"),
        "review": ("cavemem.cli.commands.capture:review", "captured memories to accept, edit or reject"),
        "doctor": ("cavemem.cli.commands.doctor:run", "check store health, capture, hooks and semantic recall; exit 0 when healthy"),
        "migrate": ("cavemem.cli.commands.migrate:run", "copy the stores between SQLite and PostgreSQL, verified (resumable)"),
    }
)


# Help panels for the Typer app's rich help (cavemem --help).
PANELS: dict[str, str] = {
    **{n: "Engine" for n in ("compress", "retrieve", "detect", "simulate", "stats", "registry")},
    **{n: "Memory" for n in ("remember", "recall", "supersede", "history", "forget", "list", "show", "export", "import")},
}

# Handed to the Typer app (rich help, completion); never on a hot command's path.
TYPER_FIRST = ("--install-completion", "--show-completion")


def suggest(word: str, choices) -> str:
    """`` (did you mean 'x'?)`` for a near miss, else ``""`` (difflib is stdlib and cheap)."""
    import difflib

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def top_help() -> str:
    from .. import __version__

    width = max(len(n) for n in COMMANDS)
    lines = [
        f"cavemem {__version__} — recoverable context compression and durable memory for AI agents",
        "",
        "usage: cavemem <command> [options]   (cavemem <command> --help for details)",
        "",
        "commands:",
    ]
    lines += [f"  {name:<{width}}  {summary}" for name, (_, summary) in COMMANDS.items()]
    lines += [
        "",
        "Contract: stdout carries only the payload; reports and errors are one JSON line on stderr.",
        "Files live in ~/.caveman (CAVEMAN_HOME moves it; CAVEMAN_CCR_DB moves the recovery store).",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    defer_inspect()
    datetime_from_c()
    io.run_and_exit(run, argv, COMMANDS)


DEFERRED = ("inspect", "copy")


def defer_inspect() -> None:
    """Run the stdlib modules of :data:`DEFERRED` only when something uses one of their names.

    ``dataclasses`` imports ``inspect`` (with ``ast``, ``dis``, ``tokenize``: about a quarter of a
    hot command's start-up, counted in instructions) only to write a signature docstring for a
    dataclass that has none — the hot paths' dataclasses all have one — and ``copy`` (with
    ``weakref``: 3.7 M instructions) only for ``asdict``/``astuple``, which short commands never call.
    A stand-in module answers ``import inspect`` and loads the real one on the first attribute it
    lacks (``importlib.util.LazyLoader`` cannot: importing reads ``__spec__``)."""
    import sys
    import types

    class _Deferred(types.ModuleType):
        def __getattr__(self, name: str):
            import importlib

            if sys.modules.get(self.__name__) is self:
                del sys.modules[self.__name__]
            real = importlib.import_module(self.__name__)
            self.__dict__.update(real.__dict__)
            return getattr(real, name)

    for module in DEFERRED:
        if module not in sys.modules:
            sys.modules[module] = _Deferred(module)


def datetime_from_c() -> None:
    """On CPython 3.11, ``import datetime`` is the C ``_datetime`` module, as it is from 3.12 on.

    3.11's ``datetime.py`` defines every class in Python (2,600 lines: 4.6 M instructions and
    120 page faults of each hot command, which import it through ``sqlite3``) and then replaces
    them all with ``from _datetime import *``; 3.12 imports ``_datetime`` first and the Python
    version only without it. The C module has every public name, so the classes, their
    ``__module__`` (``datetime``, for pickle) and every result are the same."""
    import sys

    if sys.version_info[:2] != (3, 11) or "datetime" in sys.modules:
        return
    try:
        import _datetime
    except ImportError:  # an interpreter without the C module: the Python one as usual
        return
    sys.modules["datetime"] = _datetime


def run(argv: list[str]) -> int:
    from .args import HelpRequested

    import os

    if os.environ.get("_CAVEMEM_COMPLETE") or (argv and argv[0] in TYPER_FIRST):
        return _typer(argv)
    if not argv or argv[0] in ("-h", "--help"):
        return _typer(["--help"]) if _rich_help_wanted() else _plain_help()
    if argv[0] == "help":
        if len(argv) > 1 and argv[1] in COMMANDS:
            return run([argv[1], "--help"])
        if len(argv) > 1:
            return io.report_error(CaveError("cave_unknown_command", f"unknown command {argv[1]!r}{suggest(argv[1], COMMANDS)}; see cavemem --help"))
        return _plain_help()
    if argv[0] in ("-V", "--version"):
        from .. import __version__

        io.write_stdout(f"cavemem {__version__}\n".encode())
        return 0
    name, rest = argv[0], argv[1:]
    if name != "migrate" and any(a == "--db" or a.startswith("--db=") for a in rest):
        from ..store.backend import take_db_option

        rest = take_db_option(rest)  # the store URL, for every memory / engine command
    entry = COMMANDS.get(name)
    if entry is None:
        return io.report_error(CaveError("cave_unknown_command", f"unknown command {name!r}{suggest(name, COMMANDS)}; see cavemem --help"))
    target = entry[0]
    module_name, _, attr = target.partition(":")
    import importlib

    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        return io.report_error(CaveError("cave_internal", f"{name}: not available in this install ({exc})"))
    command = getattr(module, attr)
    if hasattr(command, "COMMAND") and any(a in ("-h", "--help") for a in rest) and _rich_help_wanted():
        return _typer([name, "--help"])
    try:
        opts = command.COMMAND.parse(rest) if hasattr(command, "COMMAND") else rest
        return command(opts)
    except HelpRequested as h:
        io.write_stdout(h.text.encode())
        return 0
    except CaveError as err:
        return io.report_error(err)


def _plain_help() -> int:
    io.write_stdout(top_help().encode())
    return 0


def _rich_help_wanted() -> bool:
    """Rich (Typer) help on a terminal; the plain text help for pipes and scripts (stable, fast)."""
    import os

    return io.stdout_is_tty() and os.environ.get("CAVEMAN_PLAIN_HELP", "") == ""


def _typer(argv: list[str]) -> int:
    try:
        from .app import run_app
    except ImportError as exc:  # typer missing from a broken install: the fast path still works
        return io.report_error(CaveError("cave_internal", f"rich help and completion need typer ({exc})"))
    return run_app(argv)
