"""The JSON API under ``/api/v1/``: thin handlers over :class:`cavemem.Memory` and
:class:`cavemem.Engine` — never around them — with the CLI's error codes mapped to HTTP statuses.

Every library call runs on a worker thread under one lock (the store is one SQLite connection;
the MCP mount shares the same lock), so the event loop stays free for other requests.
"""

from __future__ import annotations

import json
import queue
import threading

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse as StarletteJSON
from starlette.responses import Response
from starlette.routing import Route

from .. import fastjson
from ..errors import CaveError
from .security import BodyTooLarge

# CLI error code -> HTTP status (anything unlisted is a 500)
STATUS = {
    "cave_invalid_arguments": 400, "cave_invalid_input": 400, "cave_invalid_config": 400,
    "cave_memory_empty": 400, "cave_unknown_command": 404, "cave_not_toon_encodable": 400,
    "cave_invalid_toon": 400, "cave_memory_not_found": 404, "cave_unknown_handle": 404,
    "cave_memory_too_large": 413, "cave_input_too_large": 413, "cave_memory_conflict": 409,
    "cave_store_locked": 503, "cave_store_unavailable": 503, "cave_ccr_unavailable": 503,
    "cave_embed_unavailable": 503, "cave_ccr_budget_exceeded": 507, "cave_transform_failed": 500,
    "cave_internal": 500,
}
MAX_LIMIT = 500


class JSONResponse(StarletteJSON):
    """Starlette's compact UTF-8 JSON, written by orjson (a 500-row list response: 5.2 -> 1.8 ms here);
    the stdlib for anything orjson refuses."""

    def render(self, content) -> bytes:
        return fastjson.dumps_compact(content).encode("utf-8")


class Service:
    """The Memory and Engine a server process uses. Writes go through ``memory`` under one lock;
    reads (recall, list, show, …) take one of ``readers`` extra Memory instances over the same
    file — each its own SQLite connection, so WAL readers run side by side on several cores."""

    def __init__(self, memory, engine=None, readers: int = 0):
        self.memory = memory
        self._engine = engine
        self.lock = threading.Lock()
        self._pool: queue.SimpleQueue = queue.SimpleQueue()
        self._readers: list = []
        path = getattr(memory.store, "path", ":memory:")
        if readers > 0 and path and path != ":memory:":
            from ..memory.api import Memory

            shared = self.engine()
            for _ in range(readers):
                reader = Memory(path, engine=shared, cwd=memory.cwd, redact=memory.redact, merge=memory.merge,
                                rank_config=memory.rank_config, clock=memory.clock)
                self._readers.append(reader)
                self._pool.put(reader)

    def close(self) -> None:
        for reader in self._readers:
            reader.close()
        self._readers = []

    def engine(self):
        if self._engine is None:
            self._engine = self.memory.engine()
        return self._engine

    async def call(self, fn, *args, **kwargs):
        def locked():
            with self.lock:
                return fn(*args, **kwargs)

        return await run_in_threadpool(locked)

    async def read(self, fn):
        """``fn(memory)`` on a pooled reader (or under the write lock when there is no pool)."""
        if not self._readers:
            return await self.call(fn, self.memory)

        def pooled():
            reader = self._pool.get()
            try:
                return fn(reader)
            finally:
                self._pool.put(reader)

        return await run_in_threadpool(pooled)


def error_response(err: CaveError) -> JSONResponse:
    return JSONResponse(err.to_json(), status_code=STATUS.get(err.code, 500))


def bad(message: str) -> CaveError:
    return CaveError("cave_invalid_arguments", message)


def body_text(body: dict, action: str) -> str:
    """The request's ``"text"`` field, which every write of a memory's text requires."""
    text = body.get("text")
    if not isinstance(text, str):
        raise bad(f"{action}: text must be a string")
    return text


async def read_body(request: Request) -> bytes:
    """The raw body, or ``cave_input_too_large`` when it passes the route's cap (see :mod:`.security`)."""
    try:
        return await request.body()
    except BodyTooLarge as exc:
        raise CaveError("cave_input_too_large", f"request body over {exc.args[0]} bytes") from None


async def read_json(request: Request) -> dict:
    raw = await read_body(request)
    try:
        body = json.loads(raw or b"{}")
    except ValueError as exc:
        raise bad(f"request body is not JSON: {exc}") from None
    if not isinstance(body, dict):
        raise bad("request body must be a JSON object")
    return body


def _opt(body: dict, key: str, kind=str):
    value = body.get(key)
    if value is None:
        return None
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise bad(f"{key} must be an integer")
    if kind is str and not isinstance(value, str):
        raise bad(f"{key} must be a string")
    if kind is bool and not isinstance(value, bool):
        raise bad(f"{key} must be true or false")
    if kind is list and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        raise bad(f"{key} must be a list of strings")
    return value


def _qint(request: Request, key: str, default: int, hi: int = MAX_LIMIT) -> int:
    raw = request.query_params.get(key)
    if raw in (None, ""):
        return default
    if not raw.isdigit():
        raise bad(f"{key} must be a non-negative integer")
    return min(int(raw), hi)


def _qbool(request: Request, key: str) -> bool:
    return request.query_params.get(key, "").lower() in ("1", "true", "yes", "on")


def list_filters(request: Request) -> dict:
    """List filters from the query string; confidence bounds are checked by the library (0–1)."""
    q = request.query_params
    return dict(project=q.get("project") or None, since=q.get("since") or None, until=q.get("until") or None,
                tag=q.get("tag") or None, kind=q.get("kind") or None, include_superseded=_qbool(request, "include_superseded"),
                min_confidence=q.get("min_confidence") or None, max_confidence=q.get("max_confidence") or None)


def confidences(memory, records) -> dict:
    """seq -> confidence for the ``records`` that have capture metadata (the rest are 1.0)."""
    from ..memory.capture.review import meta_by_seq

    return {seq: meta[0] for seq, meta in meta_by_seq(memory.store, [r.seq for r in records]).items()}


def handler(fn):
    """Turn CaveError into the CLI's JSON error with an HTTP status."""

    async def endpoint(request: Request):
        try:
            return await fn(request, request.app.state.service)
        except CaveError as err:
            return error_response(err)

    endpoint.__name__ = fn.__name__
    endpoint.__doc__ = fn.__doc__
    return endpoint


# -- memories ------------------------------------------------------------------------------------
@handler
async def remember(request, svc):
    """Store a memory: {"text", "project", "session", "topic", "tags", "files", "kind", "entity", "at"}."""
    from ..memory import render

    body = await read_json(request)
    text = body_text(body, "remember")
    kwargs = {k: _opt(body, k) for k in ("project", "session", "topic", "kind", "entity", "at")}
    kwargs.update(tags=tuple(_opt(body, "tags", list) or ()), files=tuple(_opt(body, "files", list) or ()))
    rec = await svc.call(svc.memory.remember, text, **kwargs)
    status = 201 if rec.extra.get("status", "new") != "existing" else 200
    return JSONResponse(render.remember_json(rec), status_code=status)


@handler
async def list_memories(request, svc):
    """Newest first: ?project (\"*\" = all) &kind &tag &since &until &min_confidence &max_confidence
    &include_superseded &limit &offset, or &cursor (a page's "older" / "newer" cursor: an index seek,
    where a deep offset walks every row before it)."""
    f = list_filters(request)
    limit, offset = _qint(request, "limit", 20), _qint(request, "offset", 0, 10**12)
    cursor = request.query_params.get("cursor") or None

    def run(m):
        page = m.page(limit=limit, offset=offset, cursor=cursor, **f)
        records = page["memories"]
        conf = confidences(m, records)
        return {"count": page["count"], "limit": limit, "offset": page["offset"],
                "memories": [{**r.to_dict(with_extra=False), "confidence": conf.get(r.seq, 1.0)} for r in records],
                "older": page["older"], "newer": page["newer"]}

    return JSONResponse(await svc.read(run))


@handler
async def show(request, svc):
    """One memory version by id."""
    rec = await svc.read(lambda m: m.show(request.path_params["mem_id"]))
    return JSONResponse(rec.to_dict(with_extra=False))


@handler
async def history(request, svc):
    """Every version of a memory's chain, oldest to current."""
    chain = await svc.read(lambda m: m.history(request.path_params["mem_id"]))
    return JSONResponse({"basis": "inferred", "history": [r.to_dict(with_extra=False) for r in chain]})


@handler
async def supersede(request, svc):
    """Replace a current memory with {"text"}; the old version stays in history (edit = supersede)."""
    from ..memory import render

    body = await read_json(request)
    text = body_text(body, "supersede")
    rec = await svc.call(svc.memory.supersede, request.path_params["mem_id"], text)
    return JSONResponse(render.remember_json(rec), status_code=201)


@handler
async def forget_one(request, svc):
    """Hard-delete one version (?dry_run=1 reports only)."""
    mem_id = request.path_params["mem_id"]
    out = await svc.call(svc.memory.forget, mem_id, dry_run=_qbool(request, "dry_run"))
    if not out.get("forgotten") and not out.get("dry_run"):
        raise CaveError("cave_memory_not_found", f"memory {mem_id} not found")
    return JSONResponse(out)


@handler
async def forget_bulk(request, svc):
    """Bulk forget: {"project", "before", "tag", "all_projects", "dry_run"}; dry_run defaults to true."""
    body = await read_json(request)
    dry = _opt(body, "dry_run", bool)
    kwargs = dict(project=_opt(body, "project"), before=_opt(body, "before"), tag=_opt(body, "tag"),
                  all_projects=bool(_opt(body, "all_projects", bool)), dry_run=True if dry is None else dry)
    return JSONResponse(await svc.call(svc.memory.forget, **kwargs))


@handler
async def recall(request, svc):
    """Ranked hits: {"query", "project", "limit", "token_budget", "since", "until"} -> the CLI's --json."""
    body = await read_json(request)
    query = body.get("query")
    if not isinstance(query, str):
        raise bad("recall: query must be a string")
    kwargs = {k: _opt(body, k) for k in ("project", "since", "until")}
    for key in ("limit", "token_budget"):
        if body.get(key) is not None:
            kwargs[key] = _opt(body, key, int)
    if _opt(body, "include_superseded", bool):
        kwargs["include_superseded"] = True
    return JSONResponse(await svc.read(lambda m: m.recall(query, **kwargs)))


@handler
async def stats(request, svc):
    """Counts by project and kind, bytes, time range."""
    return JSONResponse(await svc.read(lambda m: m.stats()))


@handler
async def export(request, svc):
    """Every stored version as JSON lines (?project for one project)."""
    project = request.query_params.get("project") or None
    lines = await svc.read(lambda m: list(m.export(project=project)))
    return Response("".join(line if line.endswith("\n") else line + "\n" for line in lines),
                    media_type="application/x-ndjson")


@handler
async def import_(request, svc):
    """Import JSON lines (the export format); bad lines are reported, not fatal."""
    raw = await read_body(request)
    report = await svc.call(svc.memory.import_lines, raw.splitlines(), redact=False if _qbool(request, "no_redact") else None)
    return JSONResponse(report.to_dict(), status_code=200 if not report.errors else 207)


# -- engine --------------------------------------------------------------------------------------
@handler
async def compress(request, svc):
    """Compress the raw request body (?type &query &mode); JSON report with output and recovery_handle."""
    data = await read_body(request)
    q = request.query_params
    kwargs = {k: q[k] for k in ("type", "query", "mode") if q.get(k)}
    res = await svc.call(lambda: svc.engine().compress(data, **kwargs))
    out = res.to_dict()
    out["output"] = res.output.decode("utf-8", "replace")
    return JSONResponse(out)


@handler
async def retrieve(request, svc):
    """The exact original bytes behind a recovery handle (?query narrows)."""
    handle = request.path_params["handle"]
    data = await svc.call(svc.engine().retrieve, handle, request.query_params.get("query", ""))
    return Response(data, media_type="application/octet-stream")


@handler
async def login_link(request, svc):
    """A fresh one-time login link for the web page (token callers only)."""
    if request.scope.get("state", {}).get("auth") != "token":
        raise bad("login links are minted with the bearer token only")
    code = request.app.state.sessions.new_code()
    return JSONResponse({"url": f"{request.app.state.base_url}/login?code={code}"})


ROUTES = [
    Route("/api/v1/memories", remember, methods=["POST"]),
    Route("/api/v1/memories", list_memories, methods=["GET"]),
    Route("/api/v1/memories/{mem_id}", show, methods=["GET"]),
    Route("/api/v1/memories/{mem_id}", forget_one, methods=["DELETE"]),
    Route("/api/v1/memories/{mem_id}/history", history, methods=["GET"]),
    Route("/api/v1/memories/{mem_id}/supersede", supersede, methods=["POST"]),
    Route("/api/v1/forget", forget_bulk, methods=["POST"]),
    Route("/api/v1/recall", recall, methods=["POST"]),
    Route("/api/v1/stats", stats, methods=["GET"]),
    Route("/api/v1/export", export, methods=["GET"]),
    Route("/api/v1/import", import_, methods=["POST"]),
    Route("/api/v1/compress", compress, methods=["POST"]),
    Route("/api/v1/retrieve/{handle:path}", retrieve, methods=["GET"]),
    Route("/api/v1/login-link", login_link, methods=["POST"]),
]
