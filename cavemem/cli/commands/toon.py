"""``cavemem toon encode|decode`` and ``caveman-engine toon encode|decode``.

Both read stdin (64 MiB cap) and write only the payload to stdout, with no added newline, so
``toon encode | toon decode`` is a byte-exact pipeline for compact, key-sorted JSON.

- ``caveman-engine`` keeps the reference contract (spec engine-core §7): a missing verb is a
  usage fatal *before* stdin is read, an unknown verb the same fatal *after* it; failures print
  the reference's exact sentence and exit 1.
- ``cavemem`` follows the cavemem contract: arguments are checked before stdin is read, errors
  are one JSON line on stderr (``cave_not_toon_encodable`` / ``cave_invalid_toon``, exit 1;
  bad arguments ``cave_invalid_arguments``, exit 2) and the message says *why*. ``--standard``
  switches to standard TOON v4 through python-toon (input key order, canonical numbers, any
  delimiter).
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
    "  decode    TOON on stdin -> compact JSON on stdout (keys sorted, numbers verbatim)",
    [],
    [Arg("verb", "encode or decode (each has its own --help)")],
    epilog=(
        "examples:\n"
        "  cavemem toon encode < hikes.json > hikes.toon\n"
        "  cavemem toon decode < hikes.toon\n"
        "  cavemem toon encode --help"
    ),
)
_STANDARD_HELP = "standard TOON v4 via python-toon (keeps key order; any TOON v4 reader can decode it)"

ENCODE = Command(
    "cavemem toon encode",
    "Encode the JSON on stdin as TOON. The default (caveman) form sorts keys, keeps every number\n"
    "literal as written and only accepts objects, scalar arrays and uniform tables of flat\n"
    "objects; anything else (duplicate keys, nested rows, mixed arrays) fails with\n"
    "cave_not_toon_encodable and the JSON should be kept as is.",
    [
        Opt("--standard", help=_STANDARD_HELP),
        Opt("--delimiter", metavar="D", choices=("comma", "tab", "pipe"), help="cell delimiter (with --standard)"),
        Opt("--indent", metavar="N", type=positive_int, help="spaces per level (with --standard; default 2)"),
    ],
)

DECODE = Command(
    "cavemem toon decode",
    "Decode the TOON on stdin to compact JSON (keys sorted, numbers verbatim, HTML-safe\n"
    "escaping). The default reads the caveman form strictly; --standard reads any TOON v4\n"
    "document (numbers become their canonical values).",
    [Opt("--standard", help="read standard TOON v4 via python-toon (strict mode)")],
)

VERBS = {"encode": ENCODE, "decode": DECODE}


def cavemem_command(argv: list[str]) -> int:
    """``cavemem toon <verb> …``: the dispatcher passes the raw argv (no ``COMMAND``)."""
    verb, opts = parse_verb(argv, TOON_HELP, VERBS)
    if verb == "encode" and not opts["standard"] and (opts["delimiter"] or opts["indent"]):
        raise CaveError("cave_invalid_arguments", "cavemem toon encode: --delimiter and --indent need --standard")
    data = io.read_stdin()
    out = _encode(data, opts) if verb == "encode" else _decode(data, opts)
    io.write_stdout(out)
    return 0


def _encode(data: bytes, opts: dict) -> bytes:
    from cavemem.toon import codec

    try:
        if opts["standard"]:
            text = codec.encode_json_standard(data, delimiter=opts["delimiter"] or "comma", indent=opts["indent"] or 2)
        else:
            text = codec.encode_json(data)
    except codec.NotEncodable as exc:
        raise CaveError("cave_not_toon_encodable", f"not losslessly TOON-encodable ({exc.reason}); keep JSON") from None
    return text.encode("utf-8")


def _decode(data: bytes, opts: dict) -> bytes:
    from cavemem.toon import codec

    try:
        return codec.decode_json_standard(data) if opts["standard"] else codec.decode_json(data)
    except codec.InvalidToon as exc:
        raise CaveError("cave_invalid_toon", f"not valid TOON: {exc.reason}") from None
