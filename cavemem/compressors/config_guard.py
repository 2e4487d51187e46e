"""The config compressor's guard: no setting disappears unless the same line stays visible.

The redundancy gate judges a line by its vocabulary, which is right for logs and wrong for
settings: ``init.author.name = ""`` is "covered" by ``init-author-name = ""``, ``ring1_addr =
10.1.0.2`` by ``ring0_addr = 10.0.0.1`` (digit runs are masked), and ``remote-control:`` by the
comment ``# Remote control config section.`` — each time a key or value the agent needs is gone
(issue 9). So after the gate, every dropped setting line whose exact text (blanks trimmed) no
visible line shows is kept again. Digits are not masked here (masking them lost keys again on
the corpus); numbered stanzas such as ``feature_17:`` blocks are folded by the family stage,
whose marker names every one. Comments, blank lines and YAML block-scalar prose stay droppable;
elided family members (``blocked``) are left to the family marker.
"""

from __future__ import annotations

import re

from ..formats.configs import SECTION_HEADER
from ..gocompat import trim_space
from .config_stanzas import is_comment

# A YAML mapping entry (``key:``, ``"key":``, ``- key: v``), a sequence item (``- value``), or an
# INI-style ``key = value`` (a config file embedded in a block scalar: a ConfigMap's ``data: |``).
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


def keep_unseen_settings(lines: list[str], keep: list[bool], yaml: bool, blocked: list[bool] | None = None) -> None:
    """Keep (in place) every dropped setting line whose trimmed text no visible line shows."""
    seen = {trim_space(lines[i]) for i, k in enumerate(keep) if k}
    for i, line in enumerate(lines):
        if keep[i] or (blocked is not None and blocked[i]):
            continue
        t = trim_space(line)
        if t not in seen and is_setting(line, yaml):
            keep[i] = True
            seen.add(t)
