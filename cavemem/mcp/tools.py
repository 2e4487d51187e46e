"""The cavemem MCP tools: names, schemas, and what each call does — without the MCP SDK.

Kept apart from :mod:`.server` so the tool logic is plain Python (testable, reusable by another
transport) and the SDK stays behind ``cavemem mcp``. Tools follow the Go cavemem's MCP contract
(spec pixel-and-mem.md B8): names ``cavemem_*``, ``{"type":"object","properties":…,"required":…}``
schemas with the reference descriptions, a success payload as compact sorted-key JSON text, and an
error payload ``{"error":"cave_…","message":…}`` with ``isError: true``. On top of the five memory
tools, ``cavemem_compress`` and ``cavemem_retrieve`` expose the engine.

Arguments are validated here, not by the SDK, so a bad call gets the reference's
``cave_invalid_arguments`` message instead of a pydantic dump. Every memory tool goes through the
public :class:`cavemem.Memory` API; engine tools through :class:`cavemem.engine.core.Engine`.
"""

from __future__ import annotations

import base64
import json
import math
import threading
from dataclasses import dataclass, field

from ..errors import CaveError, tool_failure_code

MAX_RESULT_BYTES = 16 * 1024 * 1024  # a bigger tool result becomes cave_payload_too_large
MAX_COMPRESS_BYTES = 64 * 1024 * 1024  # the CLI's stdin cap applies to compress too


class ToolFailure(Exception):
    """A tool error with the code the client sees."""

    def __init__(self, code: str, message: str, cause: str | None = None):
        super().__init__(message)
        self.code, self.message, self.cause = code, message, cause

    def payload(self) -> dict:
        out = {"error": self.code, "message": self.message}
        if self.cause and self.cause != self.code:
            out["cause"] = self.cause
        return out


@dataclass
class ToolSpec:
    name: str
    description: str
    properties: dict
    required: list
    annotations: dict = field(default_factory=dict)

    @property
    def input_schema(self) -> dict:
        return {"type": "object", "properties": self.properties, "required": list(self.required)}


def _str(desc: str) -> dict:
    return {"type": "string", "description": desc}


_READ_ONLY = {"readOnlyHint": True, "openWorldHint": False}
_PROJECT = _str("Project scope (default: the git root name of the server's working directory; '*' = every project).")

SPECS: list[ToolSpec] = [
    ToolSpec(
        "cavemem_remember",
        "Store a durable memory for recall in a later session. Returns the memory id. Idempotent: "
        "remembering identical text twice stores it once.",
        {
            "text": _str("The memory to store."),
            "project": _PROJECT,
            "kind": {"type": "string", "enum": ["fact", "preference", "decision", "note"], "description": "What kind of memory this is."},
            "tags": {"type": "array", "items": {"type": "string"}, "description": "Labels to filter and forget by."},
            "topic": _str("A short topic line."),
        },
        ["text"],
        {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False},
    ),
    ToolSpec(
        "cavemem_recall",
        "Recall stored memories relevant to a query. Ranking is fused: BM25 over the words plus context, "
        "session, date and recency signals (and meaning, when semantic vectors are on), behind a refusal "
        "gate (an off-topic query recalls nothing). Hits are packed within a token budget; each is compressed for "
        "injection with its inferred token cost and a recovery_handle for the full original (an oversized "
        "hit returns a head plus its handle).",
        {
            "query": _str("What to recall."),
            "limit": {"type": "integer", "description": "Max hits (default 5)."},
            "token_budget": {
                "type": "integer",
                "minimum": 0,
                "default": 2000,
                "description": "Aggregate inferred-token cap (default 2000; explicit 0 disables the cap).",
            },
            "project": _PROJECT,
        },
        ["query"],
        _READ_ONLY,
    ),
    ToolSpec(
        "cavemem_supersede",
        "Replace one current memory with a corrected version. Normal recall stops returning the old fact; "
        "history remains available.",
        {"id": _str("Current memory id to replace."), "text": _str("Corrected memory text.")},
        ["id", "text"],
        {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": False, "openWorldHint": False},
    ),
    ToolSpec(
        "cavemem_history",
        "Return oldest-to-newest versions for a memory supersession chain.",
        {"id": _str("Any memory id in the chain.")},
        ["id"],
        _READ_ONLY,
    ),
    ToolSpec(
        "cavemem_forget",
        "Delete a stored memory by id.",
        {"id": _str("The memory id to forget.")},
        ["id"],
        {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": True, "openWorldHint": False},
    ),
    ToolSpec(
        "cavemem_compress",
        "Compress a large tool output (log, JSON, table, code, diff, search hits, HTML, config, terminal "
        "capture) for the context window. The original is stored first; the result carries a "
        "recovery_handle whenever anything was dropped. Token figures are inferred o200k counts.",
        {
            "data": _str("The text to compress."),
            "type": _str("Force a content type (json, log, code, …); omit to detect."),
            "query": _str("Keep what is relevant to this query (query-aware compressors)."),
        },
        ["data"],
        {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False},
    ),
    ToolSpec(
        "cavemem_retrieve",
        "Return the exact original behind a recovery handle (ccr_…, ccr://…, <<ccr:…>>). With a query, "
        "only the matching records/rows/lines when that is shorter.",
        {
            "handle": _str("The recovery handle from compress or recall."),
            "query": _str("Narrow the original to units matching this query."),
        },
        ["handle"],
        _READ_ONLY,
    ),
    ToolSpec(
        "cavemem_list",
        "List stored memories, newest first, in a project (plus global ones), optionally by kind or tag.",
        {
            "project": _PROJECT,
            "kind": _str("Only memories of this kind (fact, preference, decision, note, …)."),
            "tag": _str("Only memories carrying this tag."),
            "limit": {"type": "integer", "minimum": 0, "description": "Max memories (default 20; 0 = all)."},
        },
        [],
        _READ_ONLY,
    ),
    ToolSpec(
        "cavemem_show",
        "Return one memory with all its fields.",
        {"id": _str("The memory id.")},
        ["id"],
        _READ_ONLY,
    ),
    ToolSpec(
        "cavemem_export",
        "Export memories as JSON lines (every stored version, lossless) for backup or another store.",
        {"project": _str("Only this project (default: every project).")},
        [],
        _READ_ONLY,
    ),
    ToolSpec(
        "cavemem_stats",
        "Counts of the memory store (by project and kind, sizes, time span) and of the recovery store.",
        {},
        [],
        _READ_ONLY,
    ),
]
SPEC_BY_NAME = {s.name: s for s in SPECS}


# -- argument checks ------------------------------------------------------------------------------


def _text_arg(args: dict, key: str) -> str | None:
    value = args.get(key)
    return value if isinstance(value, str) else None


def _opt_str(args: dict, key: str, verb: str) -> str | None:
    value = args.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ToolFailure("cave_invalid_arguments", f"{verb}: {key} must be a string")
    return value


def _opt_int(args: dict, key: str, verb: str, message: str | None = None) -> int | None:
    value = args.get(key)
    if value is None:
        return None
    bad = isinstance(value, bool) or not isinstance(value, (int, float))
    if not bad and isinstance(value, float):
        bad = not math.isfinite(value) or value != int(value)  # NaN / Infinity are not counts
    if bad or value < 0 or value > MAX_INT_ARG:
        raise ToolFailure("cave_invalid_arguments", message or f"{verb}: {key} must be a non-negative integer")
    return int(value)


MAX_INT_ARG = 2**53  # beyond any count a tool takes; keeps huge integers out of SQLite and str()
INVALID_MARK = "__cavemem_invalid_arguments__"  # set by the stdio filter (server.py) for lines it had to defuse


def argument_problem(value, depth: int = 0) -> str | None:
    """Why ``value`` (a tool's arguments) cannot be handled, or None: a lone surrogate (cannot
    be UTF-8 on the wire or in the store), a non-finite or oversized number, or nesting past 32."""
    if depth > 32:
        return "arguments are nested too deeply"
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return "a string argument contains a lone surrogate (not valid Unicode text)"
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return "a number argument is NaN or infinite"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**30:
        return "an integer argument is too large"
    if isinstance(value, dict):
        items = [*value.keys(), *value.values()]
    elif isinstance(value, (list, tuple)):
        items = value
    else:
        return None
    for item in items:
        why = argument_problem(item, depth + 1)
        if why:
            return why
    return None


def _required_id(args: dict, verb: str) -> str:
    mem_id = _text_arg(args, "id")
    if not mem_id:
        raise ToolFailure("cave_invalid_arguments", f"{verb}: missing id")
    return mem_id


def _dump(record) -> dict:
    """A Memory API result (dict, record with ``to_dict`` or attributes) as a JSON-ready dict."""
    if isinstance(record, dict):
        return record
    if hasattr(record, "to_dict"):
        return record.to_dict()
    return dict(vars(record))


def _failure(verb: str, exc: CaveError) -> ToolFailure:
    if exc.code in ("cave_memory_too_large", "cave_invalid_arguments"):
        return ToolFailure(exc.code, exc.message)
    return ToolFailure(tool_failure_code(verb), exc.message, cause=exc.code)


# -- the tools ------------------------------------------------------------------------------------


class Tools:
    """Holds the open Memory and Engine for one server; calls run one at a time."""

    def __init__(self, memory=None, engine=None):
        self._memory = memory
        self._engine = engine
        self._lock = threading.Lock()

    def memory(self):
        if self._memory is None:
            from .. import Memory

            self._memory = Memory()
        return self._memory

    def engine(self):
        if self._engine is None:
            from ..engine.core import Engine
            from ..store.ccr import budget_from_env

            budget_from_env()
            self._engine = Engine()
        return self._engine

    def close(self) -> None:
        for obj in (self._memory, self._engine):
            close = getattr(obj, "close", None)
            if close is not None:
                try:
                    close()
                except Exception:  # noqa: BLE001 - closing at exit is best effort
                    pass

    def call(self, name: str, args) -> tuple[bool, str]:
        """Run tool ``name``; returns (is_error, compact JSON text). Never raises."""
        if not isinstance(args, dict):
            args = {}
        handler = getattr(self, "_" + name.removeprefix("cavemem_"), None) if name in SPEC_BY_NAME else None
        if handler is None:
            return True, _json({"error": "cave_unknown_tool", "message": f"unknown tool: {name}"})
        why = args.get(INVALID_MARK) if isinstance(args.get(INVALID_MARK), str) else argument_problem(args)
        if why:
            return True, _json({"error": "cave_invalid_arguments", "message": f"{name.removeprefix('cavemem_')}: {why}"})
        try:
            with self._lock:
                payload = handler(args)
        except ToolFailure as failure:
            return True, _json(failure.payload())
        except CaveError as exc:  # handlers let store errors through: cave_<verb>_failed here
            return True, _json(_failure(name.removeprefix("cavemem_"), exc).payload())
        except Exception as exc:  # noqa: BLE001 - a bug must not take the server down
            return True, _json({"error": "cave_tool_panicked", "message": f"{name}: {type(exc).__name__}: {exc}"})
        text = _json(payload)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # stored text with a lone surrogate: the wire needs valid UTF-8
            text = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
        if len(text.encode("utf-8")) > MAX_RESULT_BYTES:
            return True, _json({"error": "cave_payload_too_large", "message": f"{name}: result exceeds {MAX_RESULT_BYTES} bytes"})
        return False, text

    # memory -------------------------------------------------------------------------------------
    def _remember(self, args: dict) -> dict:
        text = _text_arg(args, "text")
        if text is None:
            raise ToolFailure("cave_invalid_arguments", "remember: invalid arguments")
        tags = args.get("tags") or ()
        if isinstance(tags, str):
            tags = (tags,)
        if not isinstance(tags, (list, tuple)) or not all(isinstance(t, str) for t in tags):
            raise ToolFailure("cave_invalid_arguments", "remember: tags must be a list of strings")
        kind = _opt_str(args, "kind", "remember")
        rec = self.memory().remember(
            text, project=_opt_str(args, "project", "remember"), kind=kind or None, tags=tuple(tags),
            topic=_opt_str(args, "topic", "remember") or None,
        )
        out = _dump(rec)
        result = {"basis": "inferred", "id": out["id"], "created_at": out.get("created_at", "")}
        for key in ("status", "merged_into", "redacted"):
            if out.get(key):
                result[key] = out[key]
        return result

    def _recall(self, args: dict) -> dict:
        query = _text_arg(args, "query")
        if not query or not query.strip():
            raise ToolFailure("cave_invalid_arguments", "recall: missing query")
        limit = _opt_int(args, "limit", "recall")
        budget = _opt_int(args, "token_budget", "recall", "token_budget must be a non-negative integer")
        kwargs = {"limit": limit or 5, "token_budget": 2000 if budget is None else budget}
        project = _opt_str(args, "project", "recall")
        if project is not None:
            kwargs["project"] = project
        result = self.memory().recall(query, **kwargs)
        return dict(result)

    def _supersede(self, args: dict) -> dict:
        mem_id, text = _text_arg(args, "id"), _text_arg(args, "text")
        if not mem_id or text is None:
            raise ToolFailure("cave_invalid_arguments", "supersede: missing id or text")
        rec = self.memory().supersede(mem_id, text)
        out = _dump(rec)
        return {"basis": "inferred", "id": out["id"], "created_at": out.get("created_at", ""),
                "supersedes": out.get("supersedes", mem_id)}

    def _history(self, args: dict) -> dict:
        mem_id = _required_id(args, "history")
        chain = self.memory().history(mem_id)
        if isinstance(chain, dict):
            return chain
        return {"basis": "inferred", "history": [_dump(r) for r in chain]}

    def _forget(self, args: dict) -> dict:
        mem_id = _required_id(args, "forget")
        result = self.memory().forget(mem_id)
        if isinstance(result, dict):
            return result
        return {"forgotten": bool(result)}

    def _list(self, args: dict) -> dict:
        limit = _opt_int(args, "limit", "list")
        records = self.memory().list(project=_opt_str(args, "project", "list"), kind=_opt_str(args, "kind", "list"),
                                     tag=_opt_str(args, "tag", "list"), limit=20 if limit is None else (limit or 10**9))
        return {"basis": "inferred", "memories": [_dump(r) for r in records]}

    def _show(self, args: dict) -> dict:
        return {"memory": _dump(self.memory().show(_required_id(args, "show")))}

    def _export(self, args: dict) -> dict:
        return {"lines": list(self.memory().export(project=_opt_str(args, "project", "export")))}

    def _stats(self, args: dict) -> dict:
        out = {"memory": self.memory().stats()}
        try:
            out["recovery_store"] = self.engine().stats()
        except CaveError as exc:
            out["recovery_store"] = {"error": exc.code, "message": exc.message}
        return out

    # engine -------------------------------------------------------------------------------------
    def _compress(self, args: dict) -> dict:
        data = _text_arg(args, "data")
        if data is None:
            raise ToolFailure("cave_invalid_arguments", "compress: missing data")
        raw = data.encode("utf-8", "surrogatepass")
        if len(raw) > MAX_COMPRESS_BYTES:
            raise ToolFailure("cave_input_too_large", f"compress: data exceeds {MAX_COMPRESS_BYTES} bytes")
        ctype = _opt_str(args, "type", "compress")
        res = self.engine().compress(raw, type=None if ctype in (None, "", "auto") else ctype,
                                     query=_opt_str(args, "query", "compress") or "")
        out = {
            "output": res.output.decode("utf-8", "replace"),
            "content_type": res.content_type,
            "tokens_before": res.tokens_before,
            "tokens_after": res.tokens_after,
            "ratio": res.ratio,
            "basis": "inferred",
        }
        if res.recovery_handle:
            out["recovery_handle"] = res.recovery_handle
        if res.error:
            out["warning"] = res.error  # stored nothing, so passed the input through
        return out

    def _retrieve(self, args: dict) -> dict:
        handle = _text_arg(args, "handle")
        if not handle or not handle.strip():
            raise ToolFailure("cave_invalid_arguments", "retrieve: missing handle")
        query = _opt_str(args, "query", "retrieve") or ""
        try:  # recall hits' handles live in the same recovery store as compress results
            original = self.engine().retrieve(handle.strip(), query)
        except CaveError as exc:
            raise ToolFailure(exc.code, exc.message) from exc
        try:
            return {"original": original.decode("utf-8"), "bytes": len(original)}
        except UnicodeDecodeError:
            return {"original": base64.b64encode(original).decode("ascii"), "encoding": "base64", "bytes": len(original)}


def _json(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
