"""``cavemem toon encode|decode`` and ``caveman-engine toon encode|decode``.

Both read stdin (64 MiB cap) and write only the payload to stdout, with no added newline, so
``toon encode | toon decode`` is a byte-exact pipeline for compact, key-sorted JSON.

- ``caveman-engine`` keeps the reference contract (spec engine-core §7): a missing verb is a
  usage fatal *before* stdin is read, an unknown verb the same fatal *after* it; failures print
  the reference's exact sentence and exit 1.
- ``cavemem`` follows the cavemem contract: arguments are checked before stdin is read, errors
  are one JSON line on stderr (``cave_not_toon_encodable`` / ``cave_invalid_toon``, exit 1;
  bad arguments ``cave_invalid_arguments``, exit 2) and the message says *why*. The default is
  standard TOON v4 through python-toon (input key order, canonical numbers, any delimiter; all
  516 official conformance cases pass through this command); ``--dialect caveman`` is the
  key-sorted form with verbatim number literals that ``caveman-engine toon`` speaks.
"""

from __future__ import annotations

from cavemem.cli import io
from cavemem.cli.args import Arg, Command, Opt, parse_verb, positive_int
from cavemem.errors import CaveError

ENGINE_USAGE = "usage: caveman-engine toon encode|decode"


def engine_main(argv: list[str]) -> int:
    """``caveman-engine toon …`` (raises :class:`~cavemem.cli.io.Fatal`)."""
    from cavemem.cli.io import Fatal, read_stdin_or_fatal
    from cavemem.toon import codec

    if not argv:
        raise Fatal(ENGINE_USAGE)
    data = read_stdin_or_fatal()
    verb = argv[0]
    if verb == "encode":
        try:
            out = codec.encode_json(data).encode("utf-8")
        except codec.NotEncodable:
            raise Fatal("toon encode: " + codec.ENCODE_ERROR) from None
    elif verb == "decode":
        try:
            out = codec.decode_json(data)
        except codec.InvalidToon:
            raise Fatal("toon decode: " + codec.DECODE_ERROR) from None
    else:
        raise Fatal(ENGINE_USAGE)
    io.write_stdout(out)
    return 0


# -- cavemem toon ------------------------------------------------------------------------------

TOON_HELP = Command(
    "cavemem toon",
    "TOON: JSON re-encoded as compact, indentation-based text for models, with a round-trip\n"
    "proof — output is written only when decoding it gives back the exact same JSON value.\n"
    "\n"
    "verbs:\n"
    "  encode    JSON on stdin -> TOON on stdout\n"
    "  decode    TOON on stdin -> compact JSON on stdout\n"
    "\n"
    "Both speak standard TOON v4 by default; --dialect caveman is caveman-engine's form.",
    [],
    [Arg("verb", "encode or decode (each has its own --help)")],
    epilog=(
        "examples:\n"
        "  cavemem toon encode < hikes.json > hikes.toon\n"
        "  cavemem toon decode < hikes.toon\n"
        "  cavemem toon encode --help"
    ),
)
_DIALECT = Opt(
    "--dialect", metavar="D", choices=("standard", "caveman"),
    help="standard (default, TOON v4) or caveman (keys sorted, number literals verbatim)",
)
_STANDARD = Opt("--standard", help="same as --dialect standard (the default; kept for old scripts)")

ENCODE = Command(
    "cavemem toon encode",
    "Encode the JSON on stdin as TOON. The default is standard TOON v4 (input key order,\n"
    "canonical numbers; a number a double cannot carry fails rather than change). The caveman\n"
    "form (--dialect caveman) sorts keys, keeps every number literal as written and only accepts\n"
    "objects, scalar arrays and uniform tables of flat objects. Anything not losslessly\n"
    "encodable fails with cave_not_toon_encodable and the JSON should be kept as is.",
    [
        _DIALECT,
        _STANDARD,
        Opt("--delimiter", metavar="D", choices=("comma", "tab", "pipe"), help="cell delimiter (standard only)"),
        Opt("--indent", metavar="N", type=positive_int, help="spaces per level (standard only; default 2)"),
    ],
)

DECODE = Command(
    "cavemem toon decode",
    "Decode the TOON on stdin to compact JSON. The default reads any standard TOON v4 document\n"
    "(strict mode; keys in document order, numbers as their canonical values). --dialect caveman\n"
    "reads the caveman form strictly (keys sorted, numbers verbatim, HTML-safe escaping).",
    [
        _DIALECT,
        _STANDARD,
        Opt("--indent", metavar="N", type=positive_int, help="spaces per level (standard only; default 2)"),
        Opt("--lenient", help="standard only: turn off strict checks (counts, indentation, blank lines)"),
    ],
)

VERBS = {"encode": ENCODE, "decode": DECODE}


def cavemem_command(argv: list[str]) -> int:
    """``cavemem toon <verb> …``: the dispatcher passes the raw argv (no ``COMMAND``)."""
    verb, opts = parse_verb(argv, TOON_HELP, VERBS)
    caveman = opts.get("dialect") == "caveman"
    if caveman and opts.get("standard"):
        raise CaveError("cave_invalid_arguments", f"cavemem toon {verb}: --standard and --dialect caveman conflict")
    if caveman and (opts.get("delimiter") or opts.get("indent") or opts.get("lenient")):
        raise CaveError("cave_invalid_arguments", f"cavemem toon {verb}: --delimiter, --indent and --lenient apply to standard TOON only, not --dialect caveman")
    data = io.read_stdin()
    out = _encode(data, opts, caveman) if verb == "encode" else _decode(data, opts, caveman)
    io.write_stdout(out)
    return 0


def _encode(data: bytes, opts: dict, caveman: bool) -> bytes:
    from cavemem.toon import codec

    try:
        if caveman:
            text = codec.encode_json(data)
        else:
            text = codec.encode_json_standard(data, delimiter=opts["delimiter"] or "comma", indent=opts["indent"] or 2)
    except codec.NotEncodable as exc:
        raise CaveError("cave_not_toon_encodable", f"not losslessly TOON-encodable ({exc.reason}); keep JSON") from None
    return text.encode("utf-8")


def _decode(data: bytes, opts: dict, caveman: bool) -> bytes:
    from cavemem.toon import codec, standard

    try:
        if caveman:
            return codec.decode_json(data)
        return standard.decode_to_json(data, strict=not opts.get("lenient"), indent=opts.get("indent") or 2)
    except codec.InvalidToon as exc:
        raise CaveError("cave_invalid_toon", f"not valid TOON: {exc.reason}") from None
    except standard.StandardError as exc:
        raise CaveError("cave_invalid_toon", f"not valid TOON: {exc}") from None
