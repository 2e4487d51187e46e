"""A small, fast argument parser for cavemem's commands.

argparse/typer cost 10–170 ms of start-up; hot commands (detect, compress, recall …) must start
in a few milliseconds, so every command declares a :class:`Command` and parses with this. Bad
arguments raise ``CaveError("cave_invalid_arguments")``; ``--help``/``-h`` raises :class:`HelpRequested`
carrying the rendered help text.
"""

from __future__ import annotations

from ..errors import CaveError


class HelpRequested(Exception):
    def __init__(self, text: str):
        super().__init__(text)
        self.text = text


class Opt:
    """An option: ``--name VALUE`` (or a boolean flag when ``metavar`` is empty)."""

    def __init__(self, name: str, short: str = "", metavar: str = "", help: str = "", repeat: bool = False,
                 default: object = None, choices=(), type: type = str):  # noqa: A002
        self.name, self.short, self.metavar, self.help = name, short, metavar, help
        self.repeat, self.default, self.type = repeat, default, type
        self._choices = choices  # a tuple, or a function giving one (read only when needed)

    @property
    def choices(self) -> tuple:
        return tuple(self._choices() if callable(self._choices) else self._choices)

    @property
    def dest(self) -> str:
        return self.name.lstrip("-").replace("-", "_")

    @property
    def is_flag(self) -> bool:
        return not self.metavar


class Arg:
    """A positional argument; ``many`` swallows every remaining positional."""

    def __init__(self, name: str, help: str = "", optional: bool = False, many: bool = False):  # noqa: A002
        self.name, self.help, self.optional, self.many = name, help, optional, many


class Command:
    """A command's declaration: what it accepts and the help text rendered from that."""

    def __init__(self, prog: str, summary: str, options: list | None = None, args: list | None = None, epilog: str = ""):
        self.prog, self.summary, self.epilog = prog, summary, epilog
        self.options: list[Opt] = list(options or [])
        self.args: list[Arg] = list(args or [])

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
                raise CaveError("cave_invalid_arguments", f"{self.prog}: unknown option {name}{_did_you_mean(name, by_name)}")
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


def _did_you_mean(word: str, choices) -> str:
    import difflib

    close = difflib.get_close_matches(word, [c for c in choices if c.startswith("--")], n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


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


def parse_verb(argv: list[str], group: Command, verbs: dict[str, Command]) -> tuple[str, dict]:
    """``cavemem <group> <verb> …`` (``group.prog`` names the group): help for the group itself,
    a missing or unknown verb as ``cave_invalid_arguments``, else ``(verb, its parsed options)``."""
    if argv and argv[0] in ("-h", "--help", "help"):
        raise HelpRequested(group.help_text())
    choices = " or ".join(verbs)
    if not argv:
        raise CaveError("cave_invalid_arguments", f"{group.prog}: missing verb ({choices}); see {group.prog} --help")
    spec = verbs.get(argv[0])
    if spec is None:
        raise CaveError("cave_invalid_arguments", f"{group.prog}: unknown verb {argv[0]!r} (use {choices})")
    return argv[0], spec.parse(argv[1:])
