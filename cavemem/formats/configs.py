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


def classify(data: bytes) -> ConfigShape | None:
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
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        docs = list(yaml.load_all(text, Loader=loader))
    except Exception:  # yaml.YAMLError, recursion, anything: doubt means no
        return False
    return len(docs) >= 1


def line_count(data: bytes) -> int:
    body = data[:-1] if data.endswith(b"\n") else data
    return body.count(b"\n") + 1


def looks_config(data: bytes) -> bool:
    return classify(data) is not None and line_count(data) >= 12
