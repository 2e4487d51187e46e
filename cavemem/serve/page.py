"""The web page: a server-rendered list (works without script, fast on a big store) that
``static/app.js`` turns into search, edit, forget, bulk forget and review. No inline script, no
CDN: the CSRF token reaches the script through a ``<meta>`` tag.
"""

from __future__ import annotations

import html
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse

from ..errors import CaveError
from .api import _qint, confidences, list_filters
from .security import SESSION_COOKIE, SESSION_SECONDS

PAGE_SIZE = 50
KIND_CHOICES = ("", "fact", "preference", "decision", "note")


def esc(value) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _row(rec, conf: float = 1.0) -> str:
    tags = "".join(f'<span class="tag">{esc(t)}</span>' for t in rec.tags)
    kind = f'<span class="kind">{esc(rec.kind)}</span>' if rec.kind else ""
    low = f'<span class="conf" title="confidence">conf {conf:.2f}</span>' if conf < 1 else ""
    return (f'<li class="mem" tabindex="0" data-id="{esc(rec.id)}"><div class="meta"><time>{esc(rec.created_at[:16])}</time>'
            f'<span class="proj">{esc(rec.project or "global")}</span>{kind}{tags}{low}</div>'
            f'<div class="text">{esc(rec.text[:600])}</div></li>')


def timeline(records, conf: dict | None = None) -> str:
    """Memories grouped under one heading per day, newest first (``conf``: seq -> confidence)."""
    out, day, conf = [], None, conf or {}
    for rec in records:
        if rec.created_at[:10] != day:
            if day is not None:
                out.append("</ul>")
            day = rec.created_at[:10]
            out.append(f'<h3 class="day">{esc(day)}</h3><ul class="mems">')
        out.append(_row(rec, conf.get(rec.seq, 1.0)))
    if day is not None:
        out.append("</ul>")
    return "".join(out) or '<p class="empty">No memories match.</p>'


def _filters_form(q) -> str:
    def field(name, label, kind="text"):
        return (f'<label>{label}<input name="{name}" type="{kind}" value="{esc(q.get(name, ""))}"'
                f' autocomplete="off"></label>')

    def conf(name, label):
        return (f'<label>{label}<input name="{name}" type="number" min="0" max="1" step="0.05" inputmode="decimal"'
                f' value="{esc(q.get(name, ""))}" class="num"></label>')

    kinds = "".join(f'<option value="{k}"{" selected" if q.get("kind", "") == k else ""}>{k or "any kind"}</option>'
                    for k in KIND_CHOICES)
    return ('<form id="filters" method="get" action="/" role="search">'
            + field("project", "project") + f'<label>kind<select name="kind">{kinds}</select></label>'
            + field("tag", "tag") + field("since", "since", "date") + field("until", "until", "date")
            + conf("min_confidence", "min conf") + conf("max_confidence", "max conf")
            + '<button type="submit">Filter</button></form>')


async def index(request: Request):
    """The list page (filters and pagination in the query string)."""
    svc = request.app.state.service
    csrf = request.scope.get("state", {}).get("csrf", "")
    try:
        f = list_filters(request)
        f["project"] = f["project"] or "*"
        offset = _qint(request, "offset", 0, 10**12)
        cursor = request.query_params.get("cursor") or None

        def run(m):
            page = m.page(limit=PAGE_SIZE, offset=offset, cursor=cursor, **f)
            return page, confidences(m, page["memories"])

        page, conf = await svc.read(run)
        records, total, offset = page["memories"], page["count"], page["offset"]
    except CaveError as err:
        page, records, total, offset, conf = {}, [], 0, 0, {}
        notice = f'<p class="error" role="alert">{esc(err.message)}</p>'
    else:
        notice = ""
    # the pager links by cursor (an index seek at any depth; a deep offset walks every row before it)
    q = {k: v for k, v in request.query_params.items() if k not in ("offset", "cursor")}
    nav = []
    if page.get("newer"):
        nav.append(f'<a href="/?{esc(urlencode({**q, "cursor": page["newer"]}))}" rel="prev">← newer</a>')
    if page.get("older"):
        nav.append(f'<a href="/?{esc(urlencode({**q, "cursor": page["older"]}))}" rel="next">older →</a>')
    shown = f"{offset + 1}–{offset + len(records)} of {total}" if records else f"0 of {total}"
    body = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="csrf-token" content="{esc(csrf)}"><title>cavemem</title>
<link rel="icon" href="/static/icon.svg"><link rel="stylesheet" href="/static/app.css"><script src="/static/app.js" defer></script></head>
<body><header><h1>cavemem</h1>
<form id="search" role="search"><input id="q" name="q" type="search" placeholder="Recall… (press / to focus)"
 aria-label="recall query" autocomplete="off"><button type="submit">Recall</button></form>
<nav class="tabs"><button data-tab="browse" class="on">Browse</button><button data-tab="bulk">Bulk forget</button>
<button data-tab="review">Review</button><a href="/docs">API</a></nav></header>
<main><section id="hits" hidden aria-live="polite"></section>
<section id="browse" class="tab">{_filters_form(q)}{notice}<p class="count" id="count">{shown}</p>
<div id="timeline">{timeline(records, conf)}</div><p class="pager">{" ".join(nav)}</p></section>
<section id="bulk" class="tab" hidden><h2>Bulk forget</h2>
<form id="bulkform"><label>project<input name="project" autocomplete="off"></label>
<label>tag<input name="tag" autocomplete="off"></label><label>before<input name="before" type="date"></label>
<button type="submit">Preview</button></form><p id="bulkpreview" aria-live="polite"></p>
<button id="bulkgo" class="danger" hidden>Forget them</button></section>
<section id="review" class="tab" hidden><h2>Review</h2><div id="reviewbody">Loading…</div></section>
<aside id="detail" hidden aria-label="memory"></aside></main>
<footer>keys: <kbd>/</kbd> search · <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>Enter</kbd> open · <kbd>e</kbd> edit ·
<kbd>Esc</kbd> close · review: <kbd>a</kbd> accept · <kbd>x</kbd> forget</footer></body></html>"""
    return HTMLResponse(body)


async def login(request: Request):
    """Exchange a one-time login code for a session cookie."""
    got = request.app.state.sessions.redeem(request.query_params.get("code", ""))
    if got is None:
        return HTMLResponse("<!doctype html><title>cavemem</title><p>This login link is used or expired. "
                            "Restart <code>cavemem serve</code> for a new one.</p>", status_code=401)
    sid, _ = got
    resp = RedirectResponse("/", status_code=303)
    resp.set_cookie(SESSION_COOKIE, sid, max_age=SESSION_SECONDS, httponly=True, samesite="strict", path="/")
    return resp


def openapi(routes) -> dict:
    """A small OpenAPI 3 document built from the API routes and their docstrings."""
    paths: dict = {}
    for r in routes:
        for method in sorted(m for m in (r.methods or ()) if m != "HEAD"):
            paths.setdefault(r.path, {})[method.lower()] = {
                "summary": (r.endpoint.__doc__ or "").strip().splitlines()[0] if r.endpoint.__doc__ else "",
                "security": [{"bearer": []}],
                "responses": {"200": {"description": "JSON"}, "4XX": {"description": '{"error": "cave_…", "message": …}'}},
            }
    return {"openapi": "3.1.0", "info": {"title": "cavemem", "version": "1"}, "paths": paths,
            "components": {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}}}


async def openapi_json(request: Request):
    return JSONResponse(request.app.state.openapi)


async def docs(request: Request):
    """Human-readable API docs (rendered here: no CDN-hosted Swagger UI)."""
    rows = []
    for path, ops in request.app.state.openapi["paths"].items():
        for method, op in ops.items():
            rows.append(f"<tr><td><code>{method.upper()}</code></td><td><code>{esc(path)}</code></td><td>{esc(op['summary'])}</td></tr>")
    return HTMLResponse(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">'
        '<title>cavemem API</title><link rel="icon" href="/static/icon.svg"><link rel="stylesheet" href="/static/app.css"></head><body><main class="docs">'
        "<h1>cavemem API <small>v1</small></h1><p>Every call needs <code>Authorization: Bearer &lt;token&gt;</code> "
        "(the token is in <code>$CAVEMAN_HOME/serve.token</code>). Errors are the CLI's "
        '<code>{"error": "cave_…", "message": …}</code>. Machine-readable: <a href="/openapi.json">/openapi.json</a>. '
        "MCP over streamable HTTP: <code>/mcp</code>.</p>"
        f"<table><thead><tr><th>method</th><th>path</th><th>what</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
        "</main></body></html>")
