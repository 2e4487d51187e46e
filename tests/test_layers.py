"""The layer rule, enforced: adapters (cli/, mcp/, hooks/, serve/) sit on top; nothing below imports them,
and memory never names its optional scorer packages (they register into memory.plugins)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "cavemem"
ADAPTERS = ("cli", "mcp", "hooks", "serve")


def _imports(path: Path, root: Path = ROOT) -> list[tuple[str, int]]:
    rel = path.relative_to(root)
    pkg = ["cavemem", *rel.parts[:-1]]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(pkg[: len(pkg) - node.level + 1] + [node.module or ""]).strip(".") if node.level else (node.module or "")
            out.append((base, node.lineno))
            out += [(f"{base}.{a.name}", node.lineno) for a in node.names]
    return out


def _feature_modules():
    for path in sorted(ROOT.rglob("*.py")):
        top = path.relative_to(ROOT).parts[0]
        if top in ADAPTERS or top == "__main__.py":
            continue
        yield path


def _offences(path: Path, forbidden: tuple[str, ...], root: Path = ROOT) -> list[str]:
    for mod, line in _imports(path, root):
        if any(mod == f or mod.startswith(f + ".") for f in forbidden):
            return [f"{path.relative_to(root)}:{line} imports {mod}"]
    return []


def test_no_feature_module_imports_an_adapter():
    forbidden = tuple(f"cavemem.{a}" for a in ADAPTERS)
    bad = [b for p in _feature_modules() for b in _offences(p, forbidden)]
    assert bad == []


@pytest.mark.parametrize("lower,upper", [("memory", "cavemem.embed"), ("store", "cavemem.memory"), ("store", "cavemem.engine"),
                                         ("compressors", "cavemem.engine"), ("compressors", "cavemem.store"),
                                         ("compressors", "cavemem.memory")])
def test_lower_layers_do_not_import_upper_ones(lower, upper):
    bad = [b for p in sorted((ROOT / lower).rglob("*.py")) for b in _offences(p, (upper,))]
    assert bad == []


def test_the_rule_sees_an_upward_import(tmp_path):
    """The checker itself works: a relative import of the CLI from a feature package is caught."""
    (tmp_path / "memory").mkdir()
    probe = tmp_path / "memory" / "probe.py"
    probe.write_text("import os\nfrom ..cli import io\n")
    assert _offences(probe, ("cavemem.cli",), tmp_path) == ["memory/probe.py:2 imports cavemem.cli"]
    probe.write_text("from .store import x\n")
    assert _offences(probe, ("cavemem.cli",), tmp_path) == []
