"""The config compressor's guard: no setting disappears unless the same line stays visible.

The redundancy gate judges a line by its vocabulary, which is right for logs and wrong for
settings: ``init.author.name = ""`` is "covered" by ``init-author-name = ""``, ``ring1_addr:
10.0.0.2`` by ``ring0_addr: 10.0.0.1`` (digit runs are masked), and ``remote-control:`` by the
comment ``# Remote control config section.`` — each time a key or a value the agent asks for
is gone (issue 9: block configs such as strongSwan, corosync or Nagios objects lost a fifth of
their keys). So after the gate, every dropped setting line whose shape (its text with blanks
trimmed and digit runs masked, as the spec's classes mask them) no visible line shows is kept
again: only numbered repeats of a shown line (``feature_17: rollout: 17``) stay elided. Comments, blank lines and YAML block-scalar prose stay
droppable; elided family members (``blocked``) are left to the family marker, which names them.
"""

from __future__ import annotations

import re

from ..formats.configs import SECTION_HEADER
from ..gocompat import trim_space
from .config_stanzas import is_comment

# A YAML mapping entry (``key:``, ``"key":``, ``- key: v``), a sequence item (``- value``), or an
# INI-style ``key = value`` (a config file embedded in a block scalar: a ConfigMap's ``data: |``).
_DIGITS = re.compile(r"[0-9]+")
EXACT = True
_YAML_SETTING = re.compile(r"""(?:-(?:[\t ]|$)[\t ]*)?(?:[^\s#'"\[\]{},&*!|>%@`:][^:#]{0,200}?|"[^"\n]{0,200}"|'[^'\n]{0,200}')[\t ]*:(?:[\t ]|$)|-(?:[\t ]|$)|[A-Za-z_][\w.-]*[\t ]*=""")


def is_setting(line: str, yaml: bool) -> bool:
    """A line that states a setting: in YAML a mapping entry or list item (block-scalar prose is
    not one); in TOML/INI and block-config dialects every line that is neither blank, a comment
    nor a ``[section]`` header (the marker hiding a header names it)."""
    t = trim_space(line)
    if not t or is_comment(line, not yaml):
        return False
    if not yaml:
        return SECTION_HEADER.fullmatch(line) is None  # a hidden section is named by its marker
    return _YAML_SETTING.match(t) is not None


def shape(line: str) -> str:
    """A line's text with blanks trimmed and every digit run as ``#``: ``rollout: 17`` and
    ``rollout: 0`` are one shape (the spec's numbered-line class), ``ring0_addr`` and
    ``ring1_addr`` too — but not ``init.author.name`` and ``init-author-name``."""
    return trim_space(line) if EXACT else _DIGITS.sub("#", trim_space(line))


def keep_unseen_settings(lines: list[str], keep: list[bool], yaml: bool, blocked: list[bool] | None = None) -> None:
    """Keep (in place) every dropped setting line whose shape no visible line shows."""
    seen = {shape(lines[i]) for i, k in enumerate(keep) if k}
    for i, line in enumerate(lines):
        if keep[i] or (blocked is not None and blocked[i]):
            continue
        t = shape(line)
        if t not in seen and is_setting(line, yaml):
            keep[i] = True
            seen.add(t)
