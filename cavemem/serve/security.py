"""Who may talk to ``cavemem serve``: the bearer token, browser sessions, Host/Origin checks,
body caps and security headers — one pure-ASGI middleware in front of every route.

Why each check exists: the token stops other local users and programs; the Host check stops DNS
rebinding (a hostile page resolving its own name to 127.0.0.1); the Origin / Sec-Fetch-Site check
and the CSRF header stop cross-site requests riding a logged-in browser; the body caps keep one
request from filling memory. Secrets (token, login codes, session ids) are never logged.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import os
import secrets
import time
from http.cookies import SimpleCookie

from .. import paths
from ..errors import CaveError

LOOPBACK = ("127.0.0.1", "::1", "localhost")
TOKEN_ENV = "CAVEMAN_SERVE_TOKEN"
TOKEN_FILE = "serve.token"
SESSION_COOKIE = "cavemem_session"
CSRF_HEADER = b"x-csrf-token"
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
KIB, MIB = 1024, 1024 * 1024
# A memory is capped at 256 KiB of UTF-8 by the library; JSON escaping can grow it ~6x, so
# memory bodies get 2 MiB and the library's own check reports the exact limit.
BODY_CAPS = {"/api/v1/compress": 64 * MIB, "/api/v1/import": 64 * MIB, "/mcp": 64 * MIB}
DEFAULT_BODY_CAP = 2 * MIB
SESSION_SECONDS = 12 * 3600
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"cache-control", b"no-store"),
]
# reachable without credentials: the login exchange, the static assets and the liveness probe
# (no data in them; the Host and Origin checks still apply)
PUBLIC_PREFIXES = ("/login", "/static/", "/favicon.ico", "/healthz")


def is_loopback(host: str) -> bool:
    return host.strip("[]") in LOOPBACK or host.startswith("127.")


def token_path() -> str:
    return os.path.join(paths.home_dir(), TOKEN_FILE)


def load_token(*, create: bool = True) -> tuple[str, str]:
    """``(token, source)``: ``CAVEMAN_SERVE_TOKEN`` when set, else ``$CAVEMAN_HOME/serve.token``
    (created 0600 with 32 random bytes on first use)."""
    env = os.environ.get(TOKEN_ENV, "").strip()
    if env:
        if len(env) < 16:
            raise CaveError("cave_invalid_config", f"{TOKEN_ENV} must be at least 16 characters")
        return env, "env"
    path = token_path()
    try:
        with open(path, encoding="ascii") as fh:
            token = fh.read().strip()
        if token:
            os.chmod(path, 0o600)
            return token, "file"
    except FileNotFoundError:
        pass
    except (OSError, UnicodeDecodeError) as exc:
        raise CaveError("cave_invalid_config", f"serve: cannot read {path}: {exc}") from None
    if not create:
        raise CaveError("cave_invalid_config", f"serve: no token at {path}")
    paths.ensure_private_dir(paths.home_dir())
    token = secrets.token_urlsafe(32)
    paths.write_private_file(path, (token + "\n").encode("ascii"))
    return token, "file"


def check_bind(host: str, token_source: str) -> None:
    """Loopback always; any other address only with a token the user set on purpose."""
    if is_loopback(host):
        return
    if token_source != "env":
        raise CaveError(
            "cave_invalid_arguments",
            f"serve: refusing to listen on {host} (not loopback) without an explicit token; "
            f"set {TOKEN_ENV} to a secret of 16+ characters",
        )


CODES_DIR = "serve.codes"  # one-time login codes, one file each (see Sessions)


class Sessions:
    """Browser sessions that every worker process of one server accepts, with no shared memory.

    A one-time login code is a file ``$CAVEMAN_HOME/serve.codes/<sha256(code)>`` holding its expiry;
    redeeming unlinks it, and only one process's unlink can succeed, so a code works once whichever
    worker gets it. A session id is ``expiry.nonce.mac``, signed with a key derived from the bearer
    token and the launch ``salt`` (so a new token or a restart ends every session), and its CSRF
    token is derived from it: any worker checks both without asking the others."""

    def __init__(self, token: str, salt: str, code_dir: str | None = None):
        self._key = hmac.new(token.encode(), b"cavemem serve session\0" + salt.encode(), hashlib.sha256).digest()
        self.code_dir = code_dir or os.path.join(paths.home_dir(), CODES_DIR)

    def new_code(self, ttl: float = 600.0) -> str:
        code = secrets.token_urlsafe(24)
        paths.ensure_private_dir(self.code_dir, "cave_store_unavailable")
        now = time.time()
        for name in os.listdir(self.code_dir):  # drop expired codes (a handful of small files)
            if len(name) == 64 and self._expiry(os.path.join(self.code_dir, name)) < now:
                with contextlib.suppress(OSError):
                    os.unlink(os.path.join(self.code_dir, name))
        path = self._code_path(code)
        staging = f"{path}.{secrets.token_hex(4)}"  # written whole, then renamed: never seen half-written
        paths.write_private_file(staging, repr(now + ttl).encode("ascii"), sync=False)
        os.replace(staging, path)
        return code

    def redeem(self, code: str) -> tuple[str, str] | None:
        """``(session id, csrf)`` for a live code, used up by this call; None otherwise."""
        if not code:
            return None
        path = self._code_path(code)
        expiry = self._expiry(path)
        try:
            os.unlink(path)  # the one process whose unlink succeeds owns the code
        except OSError:
            return None
        if expiry < time.time():
            return None
        body = f"{int(time.time() + SESSION_SECONDS)}.{secrets.token_urlsafe(16)}"
        sid = f"{body}.{self._mac('session', body)}"
        return sid, self._mac("csrf", sid)

    def csrf_for(self, sid: str | None) -> str | None:
        """The session's CSRF token when ``sid`` is a live session signed by this server, else None."""
        body, dot, mac = (sid or "").rpartition(".")
        if not dot or not hmac.compare_digest(mac, self._mac("session", body)):
            return None
        expiry = body.partition(".")[0]
        if not expiry.isdigit() or int(expiry) < time.time():
            return None
        return self._mac("csrf", sid)

    def _mac(self, purpose: str, value: str) -> str:
        digest = hmac.new(self._key, f"{purpose}\0{value}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")

    def _code_path(self, code: str) -> str:
        return os.path.join(self.code_dir, hashlib.sha256(code.encode("utf-8", "replace")).hexdigest())

    @staticmethod
    def _expiry(path: str) -> float:
        try:
            with open(path, "rb") as fh:
                return float(fh.read(64))
        except (OSError, ValueError):
            return 0.0


def _headers(scope) -> dict[bytes, bytes]:
    return {k.lower(): v for k, v in scope.get("headers", [])}


def _cookie(headers: dict, name: str) -> str | None:
    raw = headers.get(b"cookie")
    if not raw:
        return None
    jar = SimpleCookie()
    try:
        jar.load(raw.decode("latin-1"))
    except Exception:
        return None
    morsel = jar.get(name)
    return morsel.value if morsel else None


class Guard:
    """The ASGI middleware: Host, Origin, auth, CSRF, body cap, headers — in that order."""

    def __init__(self, app, *, token: str, sessions: Sessions, host: str, port: int, extra_hosts=()):
        self.app, self.token, self.sessions = app, token.encode(), sessions
        names = {"127.0.0.1", "localhost", "[::1]"}
        for name in (host, *extra_hosts) if not is_loopback(host) else ():
            names.add(name.lower() if ":" not in name else f"[{name.strip('[]')}]")
        self.hosts = {n.encode() for n in names} | {f"{n}:{port}".encode() for n in names}
        self.origins = {b"http://" + h for h in self.hosts}

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = _headers(scope)
        path, method = scope.get("path", "/"), scope.get("method", "GET")
        problem = self._problem(headers, path, method, scope)
        if problem is not None:
            if problem[0] == 401 and path == "/" and method == "GET":
                return await _reject(send, *problem, html=LOGIN_HINT)
            return await _reject(send, *problem)
        cap = BODY_CAPS.get(path, DEFAULT_BODY_CAP)
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > cap):
            return await _reject(send, 413, "cave_input_too_large", f"request body over {cap} bytes")
        return await self.app(scope, _capped(receive, cap), _with_headers(send))

    def _problem(self, headers, path, method, scope):
        if headers.get(b"host", b"").lower() not in self.hosts:
            return 400, "cave_invalid_arguments", "unexpected Host header (DNS rebinding protection)"
        origin = headers.get(b"origin")
        if origin is not None and origin.lower() not in self.origins:
            return 403, "cave_invalid_arguments", "cross-origin request refused"
        if headers.get(b"sec-fetch-site", b"") == b"cross-site":
            return 403, "cave_invalid_arguments", "cross-site request refused"
        if path.startswith(PUBLIC_PREFIXES):
            return None
        auth = headers.get(b"authorization", b"")
        if auth[:7].lower() == b"bearer ":
            if hmac.compare_digest(auth[7:].strip(), self.token):
                scope.setdefault("state", {})["auth"] = "token"
                return None
            return 401, "cave_invalid_arguments", "bad bearer token"
        sid = _cookie(headers, SESSION_COOKIE)
        csrf = self.sessions.csrf_for(sid)
        if csrf is None:
            return 401, "cave_invalid_arguments", "missing credentials: Authorization: Bearer <serve.token> or the login link"
        if method in UNSAFE and not hmac.compare_digest(headers.get(CSRF_HEADER, b""), csrf.encode()):
            return 403, "cave_invalid_arguments", "missing or bad X-CSRF-Token header"
        scope.setdefault("state", {}).update(auth="session", csrf=csrf)
        return None


LOGIN_HINT = ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>cavemem: log in</title></head><body>"
              "<p>Not logged in. Open the one-time login link that <code>cavemem serve</code> printed when it started "
              "(restart it for a new one).</p></body></html>")


async def _reject(send, status: int, code: str, message: str, html: str | None = None) -> None:
    body = (html or json.dumps({"error": code, "message": message})).encode()
    kind = b"text/html; charset=utf-8" if html else b"application/json"
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", kind), (b"content-length", str(len(body)).encode())]
                + SECURITY_HEADERS})
    await send({"type": "http.response.body", "body": body})


class BodyTooLarge(Exception):
    pass


def _capped(receive, cap: int):
    seen = 0

    async def wrapped():
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > cap:
                raise BodyTooLarge(cap)
        return message

    return wrapped


def _with_headers(send):
    async def wrapped(message):
        if message["type"] == "http.response.start":
            have = {k.lower() for k, _ in message.get("headers", [])}
            message = dict(message)
            message["headers"] = list(message.get("headers", [])) + [h for h in SECURITY_HEADERS if h[0] not in have]
        await send(message)

    return wrapped
