"""Registry: content type -> compressor, plus the capability manifest computed from it.

Entries name their module lazily ("module:Class"), so a CLI call imports only the compressor it
routes to. The manifest (spec engine-core §7.2) is derived from the registered entries, never
written by hand.
"""

from __future__ import annotations

import importlib
import _thread
from dataclasses import dataclass

from ..compressors import safety
from ..digest import sha256

ALL_KINDS = ["artifact", "history", "skill", "tool_result"]


@dataclass(frozen=True)
class Entry:
    """One routing line: content type, the compressor's import path, auto or force-only."""
    content_type: str
    target: str  # "package.module:ClassName"
    auto: bool = True  # reachable by Detect (False = force-only via --type)
    in_manifest: bool = True
    segment_kinds: tuple[str, ...] = tuple(ALL_KINDS)


# One line per compressor. Detect never routes to the force-only ones.
DEFAULT_ENTRIES: tuple[Entry, ...] = (
    Entry("json", "cavemem.compressors.json_strategy:JSONStrategy"),  # CAVE_ENGINE_TOON=elision: elision only
    Entry("log", "cavemem.compressors.log:LogCompressor"),
    Entry("code", "cavemem.compressors.code:CodeCompressor"),
    Entry("diff", "cavemem.compressors.diff:DiffCompressor"),
    Entry("search-result", "cavemem.compressors.search_result:SearchResultCompressor"),
    Entry("text", "cavemem.compressors.text:TextCompressor"),
    Entry("html", "cavemem.compressors.html:HTMLCompressor"),
    Entry("tabular", "cavemem.compressors.tabular:TabularCompressor"),
    Entry("config", "cavemem.compressors.config:ConfigCompressor"),
    Entry("toolschema", "cavemem.compressors.toolschema:ToolSchemaCompressor", auto=False, segment_kinds=("tool_schema",)),
    Entry("toolschema-annotations", "cavemem.compressors.toolschema_annotations:ToolSchemaAnnotationsCompressor", auto=False, in_manifest=False),
    Entry("toon", "cavemem.compressors.toon:TOONCompressor", auto=False),
    Entry("a11y", "cavemem.compressors.a11y:AXTreeCompressor", auto=False, segment_kinds=("artifact", "tool_result")),
    Entry("repetition", "cavemem.compressors.repetition:RepetitionCompressor", auto=False, segment_kinds=("history", "tool_result")),
    Entry("terminal", "cavemem.compressors.terminal:TerminalCompressor"),
)


class Registry:
    def __init__(self, entries=DEFAULT_ENTRIES):
        self._entries: dict[str, Entry] = {}
        for e in entries:  # a later registration replaces an earlier one
            self._entries[e.content_type] = e
        self._instances: dict[str, object] = {}
        self._lock = _thread.allocate_lock()

    def entries(self) -> list[Entry]:
        return list(self._entries.values())

    def types(self) -> list[str]:
        return list(self._entries)

    def register(self, entry: Entry, instance=None) -> None:
        with self._lock:
            self._entries[entry.content_type] = entry
            self._instances.pop(entry.content_type, None)
            if instance is not None:
                self._instances[entry.content_type] = instance

    def get(self, content_type: str):
        """The compressor instance for ``content_type``, or None if none is registered."""
        inst = self._instances.get(content_type)
        if inst is not None:
            return inst
        entry = self._entries.get(content_type)
        if entry is None:
            return None
        with self._lock:
            inst = self._instances.get(content_type)
            if inst is None:
                module_name, _, cls_name = entry.target.partition(":")
                cls = getattr(importlib.import_module(module_name), cls_name)
                inst = cls()
                self._instances[content_type] = inst
        return inst

    # -- capability manifest -----------------------------------------------------------------
    def capabilities(self) -> list[dict]:
        caps = []
        for e in self._entries.values():
            if not e.in_manifest:
                continue
            cls = safety.lookup(self.get(e.content_type).safety_class)
            if cls is None:
                raise ValueError("compressors: unknown safety class")
            caps.append(
                {
                    "transform_id": f"caveman.engine.{e.content_type}.v1",
                    "implementation_version": "1",
                    "safety_classes": [cls.name],
                    "deterministic": True,
                    "recovery": "exact_ccr",
                    "eligible_segment_kinds": list(e.segment_kinds),
                    "requires_eval": True,
                    "not_smaller_fallback": "original",
                    "provenance": {"kind": "native", "source_manifest_sha256": None},
                    "conformance_digest": sha256(f"caveman.engine.{e.content_type}:v1".encode()).hexdigest(),
                }
            )
        caps.sort(key=lambda c: c["transform_id"].encode())
        return caps

    def manifest(self) -> dict:
        import json

        caps = self.capabilities()
        digest = sha256(json.dumps(caps, separators=(",", ":")).encode()).hexdigest()
        return {"schema_version": 1, "registry_sha256": digest, "capabilities": caps}


_DEFAULT: Registry | None = None


def default_registry() -> Registry:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Registry()
    return _DEFAULT
