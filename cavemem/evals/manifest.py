"""``manifest.yaml`` parsing with the reference's typing rules (spec engine-core §8.1).

The reference decodes the manifest into Go structs with yaml.v3, so:

- a string field takes any scalar as its *source text* (``value: 1.50`` is ``"1.50"``);
- ``min``/``max`` take YAML ints or floats; anything else is a type error;
- ``reference`` and ``options`` keep YAML's own types, and **int vs float matters** (``%v`` of
  ``503`` is ``503``; a ``min_recall: 1`` is an int);
- unknown keys are ignored; a type mismatch or a duplicate key fails with ``parse manifest: …``.

Scalars resolve with the YAML 1.2 core schema yaml.v3 uses (``yes`` is a string, ``1e6`` a
float, dates stay strings), not PyYAML's YAML 1.1 defaults.

One deliberate change from the reference (quirk engine-core §9.6 #2): the reference treats any
``mode`` other than ``record`` — including typos — as compress. Here ``""``/``compress`` mean
compress, ``record`` means record, and any other value is a manifest error, so a typo never
silently grades the wrong thing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

MODE_COMPRESS = "compress"
MODE_RECORD = "record"


class ManifestError(Exception):
    """The manifest cannot be parsed; the message starts with ``parse manifest:``."""


@dataclass
class Grader:
    type: str = ""
    min: float = 0.0
    max: float = 0.0
    value: str = ""
    reference: object = None
    options: dict | None = None


@dataclass
class Probe:
    dimension: str = ""
    value: str = ""


@dataclass
class QualityTask:
    question: str = ""
    graders: list[Grader] = field(default_factory=list)


@dataclass
class Fixture:
    name: str = ""
    file: str = ""
    type: str = ""
    mode: str = ""
    query: str = ""
    probes: list[Probe] = field(default_factory=list)
    graders: list[Grader] = field(default_factory=list)
    quality_graders: list[Grader] = field(default_factory=list)
    quality_task: QualityTask = field(default_factory=QualityTask)

    @property
    def engine_mode(self) -> str:
        return MODE_RECORD if self.mode == MODE_RECORD else MODE_COMPRESS


@dataclass
class Manifest:
    fixtures: list[Fixture] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# YAML 1.2 core-schema loader


def _loader_class():
    import yaml

    class CoreLoader(yaml.SafeLoader):
        """SafeLoader with yaml.v3's scalar resolution (YAML 1.2 core schema)."""

    CoreLoader.yaml_implicit_resolvers = {}
    resolvers = [
        ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", list("~nN") + [""]),
        ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
        ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", list("-+0123456789")),
        (
            "tag:yaml.org,2002:float",
            r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
            r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
            list("-+0123456789."),
        ),
        ("tag:yaml.org,2002:merge", r"^(?:<<)$", ["<"]),
    ]
    for tag, pattern, first in resolvers:
        CoreLoader.add_implicit_resolver(tag, re.compile(pattern), first)
    # timestamps are not resolved (yaml.v3 keeps them as strings in untyped values)
    return CoreLoader


_LOADER = None


def _loader(text: str):
    global _LOADER
    if _LOADER is None:
        _LOADER = _loader_class()
    return _LOADER(text)


_GO_TYPE = {
    "str": "string",
    "float": "float64",
    "seq": "[]T",
    "map": "struct",
}


def _short_tag(node) -> str:
    tag = node.tag or ""
    if tag.startswith("tag:yaml.org,2002:"):
        return "!!" + tag[len("tag:yaml.org,2002:") :]
    return tag


class _Decoder:
    """Walks a composed YAML node tree into the manifest dataclasses, collecting type errors
    the way yaml.v3 does (all of them, then one error)."""

    def __init__(self, loader):
        self.loader = loader
        self.errors: list[str] = []

    def fail(self, node, want: str) -> None:
        value = ""
        if _short_tag(node) in ("!!str", "!!int", "!!float", "!!bool") and hasattr(node, "value"):
            value = f" `{node.value}`"
        self.errors.append(f"line {node.start_mark.line + 1}: cannot unmarshal {_short_tag(node)}{value} into {want}")

    # -- scalar kinds ------------------------------------------------------------------------
    @staticmethod
    def is_null(node) -> bool:
        import yaml

        return isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:null"

    def string(self, node) -> str:
        import yaml

        if node is None or self.is_null(node):
            return ""
        if isinstance(node, yaml.ScalarNode):
            return node.value
        self.fail(node, "string")
        return ""

    def float_(self, node) -> float:
        import yaml

        if node is None or self.is_null(node):
            return 0.0
        if isinstance(node, yaml.ScalarNode) and node.tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float"):
            return float(self.loader.construct_object(node, deep=True))
        self.fail(node, "float64")
        return 0.0

    def any_(self, node):
        if node is None:
            return None
        return self.loader.construct_object(node, deep=True)

    def mapping(self, node, want: str) -> dict | None:
        """``{key text: value node}`` for a mapping node; None (with an error) otherwise."""
        import yaml

        if node is None or self.is_null(node):
            return {}
        if not isinstance(node, yaml.MappingNode):
            self.fail(node, want)
            return None
        out = {}
        for knode, vnode in node.value:
            key = knode.value if isinstance(knode, yaml.ScalarNode) else ""
            out[key] = vnode
        return out

    def sequence(self, node, want: str) -> list:
        import yaml

        if node is None or self.is_null(node):
            return []
        if not isinstance(node, yaml.SequenceNode):
            self.fail(node, want)
            return []
        return list(node.value)

    def options(self, node) -> dict | None:
        import yaml

        if node is None or self.is_null(node):
            return None
        if not isinstance(node, yaml.MappingNode):
            self.fail(node, "map[string]interface {}")
            return None
        out = {}
        for knode, vnode in node.value:
            key = knode.value if isinstance(knode, yaml.ScalarNode) else str(self.any_(knode))
            out[key] = self.any_(vnode)
        return out

    # -- structures --------------------------------------------------------------------------
    def grader(self, node) -> Grader:
        m = self.mapping(node, "evals.Grader") or {}
        return Grader(
            type=self.string(m.get("type")),
            min=self.float_(m.get("min")),
            max=self.float_(m.get("max")),
            value=self.string(m.get("value")),
            reference=self.any_(m.get("reference")),
            options=self.options(m.get("options")),
        )

    def graders(self, node) -> list[Grader]:
        return [self.grader(n) for n in self.sequence(node, "[]evals.Grader")]

    def probe(self, node) -> Probe:
        m = self.mapping(node, "evals.Probe") or {}
        return Probe(dimension=self.string(m.get("dimension")), value=self.string(m.get("value")))

    def fixture(self, node) -> Fixture:
        m = self.mapping(node, "evals.Fixture") or {}
        qt = self.mapping(m.get("quality_task"), "evals.QualityTask") or {}
        return Fixture(
            name=self.string(m.get("name")),
            file=self.string(m.get("file")),
            type=self.string(m.get("type")),
            mode=self.string(m.get("mode")),
            query=self.string(m.get("query")),
            probes=[self.probe(n) for n in self.sequence(m.get("probes"), "[]evals.Probe")],
            graders=self.graders(m.get("graders")),
            quality_graders=self.graders(m.get("quality_graders")),
            quality_task=QualityTask(question=self.string(qt.get("question")), graders=self.graders(qt.get("graders"))),
        )


def _check_duplicate_keys(node) -> None:
    """yaml.v3 rejects a mapping that defines a key twice; PyYAML silently keeps the last."""
    import yaml

    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, yaml.MappingNode):
            seen: dict[str, int] = {}
            for knode, vnode in n.value:
                if isinstance(knode, yaml.ScalarNode):
                    if knode.value in seen:
                        raise ManifestError(
                            f"parse manifest: yaml: line {knode.start_mark.line + 1}: mapping key "
                            f'"{knode.value}" already defined at line {seen[knode.value]}'
                        )
                    seen[knode.value] = knode.start_mark.line + 1
                stack.append(vnode)
        elif isinstance(n, yaml.SequenceNode):
            stack.extend(n.value)


def _problem(exc) -> str:
    """One line describing a YAML error (PyYAML's own text spans several lines)."""
    return " ".join(str(exc).split())


def parse_manifest(data: bytes | str) -> Manifest:
    """Parse manifest bytes. Raises :class:`ManifestError`."""
    import yaml

    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    try:
        loader = _loader(text)
    except yaml.YAMLError as exc:  # e.g. control characters the YAML reader refuses
        raise ManifestError(f"parse manifest: yaml: {_problem(exc)}") from None
    try:
        try:
            root = loader.get_single_node()
        except yaml.MarkedYAMLError as exc:
            line = exc.problem_mark.line + 1 if exc.problem_mark else 0
            raise ManifestError(f"parse manifest: yaml: line {line}: {exc.problem}") from None
        except yaml.YAMLError as exc:
            raise ManifestError(f"parse manifest: yaml: {_problem(exc)}") from None
        if root is None:
            return Manifest()
        _check_duplicate_keys(root)
        dec = _Decoder(loader)
        top = dec.mapping(root, "evals.Manifest")
        fixtures: list[Fixture] = []
        if top is not None:
            fixtures = [dec.fixture(n) for n in dec.sequence(top.get("fixtures"), "[]evals.Fixture")]
        if dec.errors:
            raise ManifestError("parse manifest: yaml: unmarshal errors:\n  " + "\n  ".join(dec.errors))
    except RecursionError:
        raise ManifestError("parse manifest: yaml: document nested too deeply") from None
    finally:
        loader.dispose()
    for fx in fixtures:
        if fx.mode not in ("", MODE_COMPRESS, MODE_RECORD):
            from .gofmt import quote

            raise ManifestError(
                f"parse manifest: fixture {quote(fx.name)}: unknown mode {quote(fx.mode)} (use compress or record)"
            )
    return Manifest(fixtures)
