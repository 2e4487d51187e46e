"""A small, fast argument parser for cavemem's commands.

argparse/typer cost 10–170 ms of start-up; hot commands (detect, compress, recall …) must start
in a few milliseconds, so every command declares a :class:`Command` and parses with this. Bad
arguments raise ``CaveError("cave_invalid_arguments")``; ``--help``/``-h`` raises :class:`HelpRequested`
carrying the rendered help text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import CaveError


class HelpRequested(Exception):
    def __init__(self, text: str):
        super().__init__(text)
        self.text = text


@dataclass
class Opt:
    name: str  # "--type"
    short: str = ""  # "-t"
    metavar: str = ""  # empty = boolean flag
    help: str = ""
    repeat: bool = False  # collect every occurrence into a list
    default: object = None
    choices: tuple[str, ...] = ()
    type: type = str

    @property
    def dest(self) -> str:
        return self.name.lstrip("-").replace("-", "_")

    @property
    def is_flag(self) -> bool:
        return not self.metavar


@dataclass
class Arg:
    name: str
    help: str = ""
    optional: bool = False
    many: bool = False  # swallow every remaining positional


@dataclass
class Command:
    prog: str
    summary: str
    options: list[Opt] = field(default_factory=list)
    args: list[Arg] = field(default_factory=list)
    epilog: str = ""

    def help_text(self) -> str:
        usage = [self.prog]
        if self.options:
            usage.append("[options]")
        for a in self.args:
            token = a.name.upper() + ("…" if a.many else "")
            usage.append(f"[{token}]" if a.optional else token)
        lines = ["usage: " + " ".join(usage), "", self.summary]
        if self.args:
            lines += ["", "arguments:"]
            for a in self.args:
                lines.append(f"  {a.name.upper():<22} {a.help}")
        lines += ["", "options:"]
        for o in self.options + [Opt("--help", "-h", help="show this help and exit")]:
            flag = (o.short + ", " if o.short else "    ") + o.name + (" " + o.metavar if o.metavar else "")
            extra = f" (one of: {', '.join(o.choices)})" if o.choices else ""
            lines.append(f"  {flag:<26} {o.help}{extra}")
        if self.epilog:
            lines += ["", self.epilog.rstrip()]
        return "\n".join(lines) + "\n"

    def parse(self, argv: list[str]) -> dict:
        """Parse ``argv`` into a dict keyed by option dest / argument name."""
        by_name: dict[str, Opt] = {}
        for o in self.options:
            by_name[o.name] = o
            if o.short:
                by_name[o.short] = o
        out: dict[str, object] = {}
        for o in self.options:
            out[o.dest] = [] if o.repeat else (False if o.is_flag and o.default is None else o.default)
        positionals: list[str] = []
        i = 0
        only_positional = False
        while i < len(argv):
            tok = argv[i]
            i += 1
            if only_positional or tok == "-" or not tok.startswith("-"):
                positionals.append(tok)
                continue
            if tok == "--":
                only_positional = True
                continue
            if tok in ("-h", "--help"):
                raise HelpRequested(self.help_text())
            name, eq, inline = tok.partition("=")
            opt = by_name.get(name)
            if opt is None:
                raise CaveError("cave_invalid_arguments", f"{self.prog}: unknown option {name}")
            if opt.is_flag:
                if eq:
                    raise CaveError("cave_invalid_arguments", f"{self.prog}: option {name} takes no value")
                out[opt.dest] = True
                continue
            if eq:
                value = inline
            else:
                if i >= len(argv):
                    raise CaveError("cave_invalid_arguments", f"{self.prog}: option {name} needs a value ({opt.metavar})")
                value = argv[i]
                i += 1
            if opt.choices and value not in opt.choices:
                raise CaveError(
                    "cave_invalid_arguments",
                    f"{self.prog}: {name} must be one of {', '.join(opt.choices)} (got {value!r})",
                )
            if opt.type is not str:
                try:
                    value = opt.type(value)
                except (TypeError, ValueError):
                    raise CaveError(
                        "cave_invalid_arguments", f"{self.prog}: {name} expects {opt.type.__name__}, got {value!r}"
                    ) from None
            if opt.repeat:
                out[opt.dest].append(value)
            else:
                out[opt.dest] = value
        for a in self.args:
            if a.many:
                out[a.name] = positionals
                positionals = []
            elif positionals:
                out[a.name] = positionals.pop(0)
            elif a.optional:
                out[a.name] = None
            else:
                raise CaveError("cave_invalid_arguments", f"{self.prog}: missing argument {a.name.upper()}")
        if positionals:
            raise CaveError("cave_invalid_arguments", f"{self.prog}: unexpected argument {positionals[0]!r}")
        return out


def non_negative_int(value: str) -> int:
    n = int(value)
    if n < 0:
        raise ValueError(value)
    return n


non_negative_int.__name__ = "a non-negative integer"


def positive_int(value: str) -> int:
    n = int(value)
    if n <= 0:
        raise ValueError(value)
    return n


positive_int.__name__ = "a positive integer"


def command(spec: Command):
    """Decorator: attach ``spec`` to a ``run(opts) -> int`` function as ``.COMMAND``."""

    def wrap(fn):
        fn.COMMAND = spec
        return fn

    return wrap
