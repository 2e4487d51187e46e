"""The Typer app (``cavemem.cli.app``): rich help, shell completion, ``help CMD`` — built from the
same :class:`~cavemem.cli.args.Command` declarations the fast path parses with.

One source of truth: every command module declares its options once (``fn.COMMAND``). The fast
path (:mod:`cavemem.cli.main`) parses those declarations with :mod:`cavemem.cli.args` in a few
milliseconds; this module turns each declaration into a typed Typer function (one parameter per
option/argument, the same types, choices and help) that calls the same ``run(opts)``. A parity
test (``tests/test_cli_app.py``) proves both accept and reject the same argument lists.

Typer is imported only here, and only for help, completion and ``help CMD`` — never on a hot
command's path.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Callable, Optional

import typer

from .. import __version__
from .args import Arg, Command, Opt
from .main import COMMANDS, PANELS

CONTEXT = {"help_option_names": ["-h", "--help"]}


def load(name: str) -> Callable:
    """The ``run(opts)`` (or ``run(argv)``) function behind a command name."""
    module_name, _, attr = COMMANDS[name][0].partition(":")
    return getattr(importlib.import_module(module_name), attr)


def _parser(opt: Opt) -> Callable | None:
    """The declared choices / converter as a Typer parser, failing with the fast path's wording."""
    if not opt.choices and opt.type in (str, int, float):
        return None

    def parse(value):
        if not isinstance(value, str):
            return value
        if opt.choices and value not in opt.choices:
            raise typer.BadParameter(f"must be one of {', '.join(opt.choices)} (got {value!r})")
        if opt.type is str:
            return value
        try:
            return opt.type(value)
        except (TypeError, ValueError):
            raise typer.BadParameter(f"expects {opt.type.__name__}, got {value!r}") from None

    return parse


def _option_param(opt: Opt) -> inspect.Parameter:
    decls = [opt.name] + ([opt.short] if opt.short else [])
    if opt.is_flag:
        annotation, default = bool, bool(opt.default)
    elif opt.repeat:
        annotation, default = Optional[list[str]], None
    else:
        annotation = Optional[opt.type if opt.type in (int, float) else str]
        default = opt.default
    kwargs = {"help": _plain(opt.help), "show_default": False}
    parser = None if opt.is_flag else _parser(opt)
    if parser is not None:
        kwargs["parser"] = parser
        if not opt.repeat:
            annotation = Optional[str] if opt.type is str else Optional[object]
    if opt.metavar:
        kwargs["metavar"] = opt.metavar
    info = typer.Option(default, *decls, **kwargs)
    return inspect.Parameter(_py_name(opt.dest), inspect.Parameter.KEYWORD_ONLY, default=info, annotation=annotation)


def _arg_param(arg: Arg) -> inspect.Parameter:
    required = not (arg.optional or arg.many)
    annotation = Optional[list[str]] if arg.many else (str if required else Optional[str])
    info = typer.Argument(... if required else None, help=_plain(arg.help), metavar=arg.name.upper(), show_default=False)
    return inspect.Parameter(_py_name(arg.name), inspect.Parameter.KEYWORD_ONLY, default=info, annotation=annotation)


def _py_name(dest: str) -> str:
    """A keyword such as ``global`` becomes ``global_`` in the signature (and back in ``opts``)."""
    import keyword

    return dest + "_" if keyword.iskeyword(dest) else dest


def typed_function(spec: Command, run: Callable) -> Callable:
    """A function whose signature is ``spec`` (what Typer reads) and whose body calls ``run(opts)``."""
    params = [_option_param(o) for o in spec.options] + [_arg_param(a) for a in spec.args]
    many = {a.name for a in spec.args if a.many} | {o.dest for o in spec.options if o.repeat}

    def invoke(**values):
        back = {_py_name(k): k for k in [o.dest for o in spec.options] + [a.name for a in spec.args]}
        opts = {back[k]: ([] if back[k] in many and v is None else v) for k, v in values.items()}
        raise typer.Exit(run(opts))

    invoke.__signature__ = inspect.Signature(params)
    invoke.__doc__ = _plain(spec.summary + (f"\n\n{spec.epilog}" if spec.epilog else ""))
    return invoke


def _plain(text: str) -> str:
    """Help text shown as written: ``[embed]`` is an extra's name, not rich markup."""
    return text.replace("[", "\\[")


def _raw_function(name: str, run: Callable) -> Callable:
    """Commands with verbs of their own (toon, pixel, hook, …) get their argument list as given."""

    def invoke(ctx: typer.Context):
        raise typer.Exit(run(list(ctx.args)))

    invoke.__doc__ = COMMANDS[name][1]
    return invoke


def _version(value: bool):
    if value:
        typer.echo(f"cavemem {__version__}")
        raise typer.Exit(0)


def build_app() -> typer.Typer:
    app = typer.Typer(
        name="cavemem",
        help="Recoverable context compression and durable memory for AI coding agents.\n\n"
        "stdout carries only the payload; reports and errors are one JSON line on stderr.",
        context_settings=CONTEXT,
        rich_markup_mode="rich",
        no_args_is_help=True,
        add_completion=True,
    )

    @app.callback()
    def _root(version: bool = typer.Option(False, "--version", "-V", callback=_version, is_eager=True,
                                           help="print the version and exit")):
        """cavemem — recoverable context compression and durable memory."""

    for name, (_, summary) in COMMANDS.items():
        try:
            run = load(name)
        except ImportError:
            continue  # an extra that is not installed: the fast path reports it when asked
        spec = getattr(run, "COMMAND", None)
        panel = PANELS.get(name, "Tools")
        if spec is not None:
            app.command(name, short_help=_plain(summary), rich_help_panel=panel, context_settings=CONTEXT)(typed_function(spec, run))
        else:
            settings = {"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []}
            app.command(name, help=_plain(summary), rich_help_panel=panel, context_settings=settings)(_raw_function(name, run))
    return app


def click_command(app: typer.Typer | None = None):
    """The command group Typer builds (its parser is what ``make_context`` runs)."""
    return typer.main.get_command(app or build_app())


def run_app(argv: list[str], prog: str = "cavemem") -> int:
    """Run the Typer app on ``argv``; usage errors become one JSON line (``cave_invalid_arguments``, exit 2)."""
    from ..errors import CaveError
    from . import io

    group = click_command(__getattr__("app"))
    try:
        rc = group.main(args=list(argv), prog_name=prog, standalone_mode=False)
    except typer.Exit as done:
        return done.exit_code
    except typer.Abort:
        return 130
    except typer.TyperException as err:  # usage errors (exit 2) and other Typer-side failures
        message = err.format_message().replace("\n", " ")
        code = "cave_invalid_arguments" if getattr(err, "exit_code", 1) == 2 else "cave_internal"
        return io.report_error(CaveError(code, f"{prog}: {message}"))
    return rc if isinstance(rc, int) else 0


_APP: typer.Typer | None = None


def __getattr__(name: str):
    """``cavemem.cli.app.app``: the Typer app, built on first use (it imports every command module)."""
    global _APP
    if name == "app":
        if _APP is None:
            _APP = build_app()
        return _APP
    raise AttributeError(name)
