"""One reading of an on/off environment switch, shared by every feature that has one."""

from __future__ import annotations

import os

_ON = ("1", "true", "yes", "on")
_OFF = ("0", "false", "no", "off")


def env_switch(name: str) -> bool | None:
    """``name`` set to 1/true/yes/on → True, 0/false/no/off → False, unset or anything else → None."""
    value = os.environ.get(name, "").strip().lower()
    if value in _ON:
        return True
    if value in _OFF:
        return False
    return None
