"""Strict YAML / TOML / INI classification shared by detection and the config compressor
(spec engine-core §2.9). A file is config only when its lines overwhelmingly look like keys,
assignments and sections; prose or block scalars make it "not config"."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..gocompat import trim_space

_BLOCK_SCALAR = re.compile(r":[ \t]*[|>][0-9+-]?[ \t]*(#.*)?$")
_SECTION = re.compile(r"\[[A-Za-z0-9_.:\"' -]+\]([ \t]*[#;].*)?")
_ASSIGN = re.compile(r"[A-Za-z0-9_.-]+[ \t]*=[ \t]*\S.*")
_YAML_KEY = re.compile(r"(- )?[A-Za-z0-9_.-]+[ \t]*:.*")


@dataclass
class ConfigShape:
    kind: str  # "yaml" | "ini" (TOML and INI share one shape)
    yaml_keys: int
    assignments: int
    sections: int
    prose: int


_LAST: tuple[bytes, ConfigShape | None] | None = None


def classify(data: bytes) -> ConfigShape | None:
    """The config shape of ``data`` or None. The last answer is remembered: detection and then
    the config compressor classify the same payload, and the YAML parse dominates the cost."""
    global _LAST
    last = _LAST
    if last is not None and last[0] == data:
        return last[1]
    shape = _classify(data)
    _LAST = (data, shape)
    return shape


def _classify(data: bytes) -> ConfigShape | None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not trim_space(text):
        return None
    keys = assigns = sections = prose = 0
    block_scalar = False
    for raw in text.split("\n"):
        line = trim_space(raw)
        if not line or line[0] in "#;":
            continue
        if _BLOCK_SCALAR.search(line):
            block_scalar = True
        if _SECTION.fullmatch(line):
            sections += 1
        elif _ASSIGN.fullmatch(line):
            assigns += 1
        elif _YAML_KEY.fullmatch(line):
            keys += 1
        elif line.startswith("- "):
            continue
        else:
            prose += 1
    significant = keys + assigns + sections + prose
    if significant == 0:
        return None
    if sections >= 2 and assigns >= 4 and prose == 0 and '"""' not in text and "'''" not in text:
        return ConfigShape("ini", keys, assigns, sections, prose)
    if keys >= 6 and keys * 2 >= significant and prose * 4 <= significant and not block_scalar:
        if _yaml_parses(text):
            return ConfigShape("yaml", keys, assigns, sections, prose)
    return None


def _yaml_parses(text: str) -> bool:
    return yaml_valid(text)


def yaml_valid(text: str) -> bool:
    """yaml.v3's notion of valid YAML: at least one document, no parse error, and no duplicate
    key in any mapping (PyYAML alone accepts duplicates; the config compressor's output gate
    needs the strict form). Composes nodes only — building Python objects is the slow part."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        docs = 0
        for root in yaml.compose_all(text, Loader=loader):
            docs += 1
            if root is not None and _has_duplicate_key(root):
                return False
    except Exception:  # YAMLError, RecursionError, anything: doubt means invalid
        return False
    return docs >= 1


def _has_duplicate_key(root) -> bool:
    import yaml

    stack, seen_nodes = [root], set()
    while stack:
        node = stack.pop()
        if id(node) in seen_nodes:  # aliases share nodes
            continue
        seen_nodes.add(id(node))
        if isinstance(node, yaml.MappingNode):
            keys = set()
            for key_node, value_node in node.value:
                if isinstance(key_node, yaml.ScalarNode):
                    key = (key_node.tag, key_node.value)
                    if key in keys and key_node.tag != "tag:yaml.org,2002:merge":
                        return True
                    keys.add(key)
                stack.append(key_node)
                stack.append(value_node)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
    return False


def line_count(data: bytes) -> int:
    body = data[:-1] if data.endswith(b"\n") else data
    return body.count(b"\n") + 1


def looks_config(data: bytes) -> bool:
    return classify(data) is not None and line_count(data) >= 12
