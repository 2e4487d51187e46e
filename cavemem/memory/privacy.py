"""What never reaches the memory store: ``<private>`` spans, our own injected context, and secrets.

Applied to every text before it is stored (remember, supersede, import of new lines):

1. ``<private>…</private>`` spans are removed (tags are case-insensitive; an unclosed
   ``<private>`` hides everything after it). This cannot be turned off.
2. ``<cavemem-context>…</cavemem-context>`` blocks — what ``recall --format context`` prints for
   an agent — are removed too, so an agent that echoes its prompt back into memory does not
   store recalled memories a second time.
3. Secrets are replaced by typed placeholders such as ``[REDACTED:aws_access_key_id]``: cloud and
   SaaS API keys and tokens, JWTs, PEM private keys, bearer/basic credentials, passwords in URLs
   and ``password=`` style assignments. ``redact=False`` (CLI ``--no-redact``) opts out of this
   step only.

Every pattern is bounded (no nested unbounded quantifiers), so a 1 MB single line costs
milliseconds, not minutes.
"""

from __future__ import annotations

import re
from collections.abc import Callable

PLACEHOLDER = "[REDACTED:{}]"

_OPEN = re.compile(r"<(private|cavemem-context)\s*>", re.I)
_CLOSE = re.compile(r"</(private|cavemem-context)\s*>", re.I)


def strip_private(text: str) -> tuple[str, int]:
    """Remove private spans and injected context blocks. Returns (text, spans removed)."""
    if "<" not in text:
        return text, 0
    out: list[str] = []
    pos = 0
    removed = 0
    while True:
        m = _OPEN.search(text, pos)
        if m is None:
            break
        out.append(text[pos : m.start()])
        removed += 1
        close = re.compile(r"</" + re.escape(m.group(1)) + r"\s*>", re.I).search(text, m.end())
        if close is None:
            pos = len(text)
            break
        pos = close.end()
    out.append(text[pos:])
    result = "".join(out)
    # a stray closing tag with no opening one carries no content; drop the tag itself
    result, stray = _CLOSE.subn("", result)
    return result, removed + stray


# -- secret patterns ----------------------------------------------------------------------------
# (kind, compiled regex, group holding the secret or 0 for the whole match, optional value check)

_Rule = tuple[str, "re.Pattern[str]", int, Callable[[str], bool] | None]


def _looks_secret(value: str) -> bool:
    """For ``password: value`` forms without quotes: a value worth hiding, not an English word."""
    if len(value) < 6 or value.startswith(("[REDACTED:", "$", "{{", "<", "%", "***")):
        return False
    has_digit = any(c.isdigit() for c in value)
    has_symbol = any(not c.isalnum() for c in value)
    mixed = any(c.isupper() for c in value) and any(c.islower() for c in value)
    return has_digit or has_symbol or mixed


def _not_placeholder(value: str) -> bool:
    v = value.strip()
    return bool(v) and not v.startswith(("[REDACTED:", "${", "$(", "{{", "<", "%(")) and set(v) - set("*xX.-_ ") != set()


_KEY_WORDS = (
    r"password|passwd|pwd|passphrase|secret|client[_-]?secret|secret[_-]?key|api[_-]?key|apikey"
    r"|access[_-]?token|auth[_-]?token|refresh[_-]?token|private[_-]?token|token"
)
# The key word itself (``db_password``, ``GITHUB_TOKEN`` and ``api-key`` all end in one), not
# preceded by a letter or digit, so the scan starts at a literal word instead of at every position.
_KEY = r"(?i:(?<![A-Za-z0-9])(?:" + _KEY_WORDS + r"))"

_RULES: list[_Rule] = [
    (
        "private_key",
        re.compile(
            r"-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY[ A-Z]{0,10}-----[\s\S]{0,65536}?-----END[ A-Z0-9]{0,40}PRIVATE KEY[ A-Z]{0,10}-----"
        ),
        0,
        None,
    ),
    (  # a key block that was cut off before its END line: hide the header and the body after it
        "private_key",
        re.compile(r"-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY[ A-Z]{0,10}-----(?:[A-Za-z0-9+/=:,\- \t\r\n]|\\n){0,65536}"),
        0,
        None,
    ),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{8,4096}"), 0, None),
    (
        "url_password",
        re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}://[^\s:/@\"'<>]{1,256}:([^\s@/\"'<>]{1,256})@"),
        1,
        _not_placeholder,
    ),
    (
        "aws_access_key_id",
        re.compile(r"(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)[A-Z0-9]{16}(?![A-Z0-9])"),
        0,
        None,
    ),
    (
        "aws_secret_access_key",
        re.compile(
            r"(?i)aws.{0,20}?(?:secret|private).{0,20}?[\"']?\s{0,5}[:=]\s{0,5}[\"']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"
        ),
        1,
        None,
    ),
    ("github_token", re.compile(r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}\b"), 0, None),
    ("github_token", re.compile(r"\bgithub_pat_[A-Za-z0-9_]{22,255}"), 0, None),
    ("gitlab_token", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,255}"), 0, None),
    ("anthropic_api_key", re.compile(r"\bsk-ant-[A-Za-z0-9_-]{20,255}"), 0, None),
    ("openai_api_key", re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,255}"), 0, None),
    ("slack_token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,255}"), 0, None),
    ("slack_webhook", re.compile(r"https://hooks\.slack\.com/services/[A-Za-z0-9/_-]{20,200}"), 0, None),
    ("stripe_key", re.compile(r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,255}\b"), 0, None),
    ("stripe_webhook_secret", re.compile(r"\bwhsec_[A-Za-z0-9]{24,255}\b"), 0, None),
    ("google_api_key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])"), 0, None),
    ("npm_token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b"), 0, None),
    ("pypi_token", re.compile(r"\bpypi-AgE[A-Za-z0-9_-]{50,1024}"), 0, None),
    ("huggingface_token", re.compile(r"\bhf_[A-Za-z0-9]{34,40}\b"), 0, None),
    ("digitalocean_token", re.compile(r"\bdo[por]_v1_[a-f0-9]{64}\b"), 0, None),
    ("sendgrid_api_key", re.compile(r"\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}\b"), 0, None),
    ("twilio_api_key", re.compile(r"\bSK[0-9a-fA-F]{32}\b"), 0, None),
    ("shopify_token", re.compile(r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b"), 0, None),
    ("telegram_bot_token", re.compile(r"\b\d{8,10}:AA[A-Za-z0-9_-]{33}\b"), 0, None),
    (
        "azure_storage_key",
        re.compile(r"(?i)\bAccountKey\s{0,5}=\s{0,5}([A-Za-z0-9+/]{40,100}={0,2})"),
        1,
        None,
    ),
    (
        "bearer_token",
        re.compile(r"(?i)\bbearer\s{1,5}([A-Za-z0-9._~+/-]{16,4096}=*)"),
        1,
        lambda v: any(c.isdigit() for c in v) or any(not c.isalnum() for c in v),
    ),
    ("basic_auth", re.compile(r"(?i)\bauthorization\s{0,5}:\s{0,5}basic\s{1,5}([A-Za-z0-9+/]{8,1024}={0,2})"), 1, None),
    # password / token assignments: quoted values, KEY=value (no spaces) and secret-looking rest
    (
        "password",
        re.compile(_KEY + r"[\"']?(\s{0,5}[:=]\s{0,5})(?:\"([^\"\r\n]{1,512})\"|'([^'\r\n]{1,512})'|([^\s\"'`,;]{1,512}))"),
        -1,
        None,
    ),
]


def _password_value(m: re.Match) -> tuple[int, bool]:
    """(group holding the value, worth hiding?) for the combined assignment rule."""
    for group in (2, 3):
        if m.group(group) is not None:
            return group, _not_placeholder(m.group(group))
    value = m.group(4)
    if m.group(1) == "=":  # KEY=value, the shell/env-file form: always a value
        return 4, _not_placeholder(value)
    return 4, _looks_secret(value)


def redact(text: str) -> tuple[str, dict[str, int]]:
    """Replace secrets with ``[REDACTED:<kind>]``. Returns (text, {kind: count})."""
    found: dict[str, int] = {}
    low = text.lower()
    active = _active_kinds(text, low)
    for kind, rx, group, check in _RULES:
        if kind not in active:
            continue

        def sub(m: re.Match, kind=kind, group=group, check=check) -> str:
            if group < 0:
                group, keep = _password_value(m)
                if not keep:
                    return m.group(0)
            else:
                value = m.group(group)
                if value is None or (check is not None and not check(value)):
                    return m.group(0)
            found[kind] = found.get(kind, 0) + 1
            if group == 0:
                return PLACEHOLDER.format(kind)
            start, end = m.span(group)
            whole = m.group(0)
            base = m.start(0)
            return whole[: start - base] + PLACEHOLDER.format(kind) + whole[end - base :]

        text = rx.sub(sub, text)
    return text, found


# Cheap substring guards: most texts contain none of these, so most rules never run their regex.
# Guards in lower case are checked against the lower-cased text.
_GUARDS: dict[str, tuple[str, ...]] = {
    "private_key": ("PRIVATE KEY",),
    "jwt": ("eyJ",),
    "url_password": ("://",),
    "aws_access_key_id": ("AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AIPA", "ANPA", "ANVA", "AROA", "APKA", "ASCA"),
    "github_token": ("gh", "github_pat_"),
    "gitlab_token": ("glpat-",),
    "anthropic_api_key": ("sk-ant-",),
    "openai_api_key": ("sk-",),
    "slack_token": ("xox",),
    "slack_webhook": ("hooks.slack.com",),
    "stripe_key": ("_live_", "_test_"),
    "stripe_webhook_secret": ("whsec_",),
    "google_api_key": ("AIza",),
    "npm_token": ("npm_",),
    "pypi_token": ("pypi-",),
    "huggingface_token": ("hf_",),
    "digitalocean_token": ("_v1_",),
    "sendgrid_api_key": ("SG.",),
    "twilio_api_key": ("SK",),
    "shopify_token": ("shp",),
    "telegram_bot_token": (":AA",),
}
_LOWER_GUARDS: dict[str, tuple[str, ...]] = {
    "aws_secret_access_key": ("aws",),
    "azure_storage_key": ("accountkey",),
    "bearer_token": ("bearer",),
    "basic_auth": ("basic",),
}


_KEY_WORD_HINTS = ("pass", "pwd", "secret", "key", "token")
_FLAT_GUARDS = [(g, kind) for kind, gs in _GUARDS.items() for g in gs]
_FLAT_LOWER_GUARDS = [(g, kind) for kind, gs in _LOWER_GUARDS.items() for g in gs]


def _active_kinds(text: str, low: str) -> set[str]:
    """Rules worth running on this text: plain substring checks, no regex."""
    active = {kind for g, kind in _FLAT_GUARDS if g in text}
    active.update(kind for g, kind in _FLAT_LOWER_GUARDS if g in low)
    if ("=" in text or ":" in text) and any(h in low for h in _KEY_WORD_HINTS):
        active.add("password")
    return active


def clean(text: str, *, redact_secrets: bool = True) -> tuple[str, dict[str, int], int]:
    """The full pipeline: (stored text, secrets redacted by kind, private spans removed)."""
    text, spans = strip_private(text)
    kinds: dict[str, int] = {}
    if redact_secrets:
        text, kinds = redact(text)
    return text, kinds, spans
