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

The patterns live in ``secret_rules`` (provider token formats) and ``secret_context`` (secrets
known by the words around them). Every pattern is bounded and PEM blocks are found in one
linear pass, so a 1 MB line or 9k ``BEGIN PRIVATE KEY`` lines cost milliseconds, not seconds.
"""

from __future__ import annotations

import re

from . import secret_context, secret_rules

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


# -- secrets -----------------------------------------------------------------------------------

_PEM_BEGIN = re.compile(r"-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_PEM_END = re.compile(r"-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----")
# what a cut-off key body is made of (base64, headers, escaped newlines): hidden after the header
_PEM_BODY = re.compile(r"(?:[A-Za-z0-9+/=:,\- \t\r\n]|\\n){0,65536}")
_MAX_KEY = 65536


def _private_keys(text: str, found: dict[str, int]) -> str:
    """PEM private key blocks, BEGIN through END (or through the body if cut off).

    One left-to-right pass: the next END is searched once and reused while it lies ahead, so
    thousands of BEGIN lines without an END cost a linear scan, not one scan each."""
    out: list[str] = []
    pos = 0
    end_m: re.Match | None = None
    no_end_after = len(text) + 1  # no END exists at or after this offset
    while True:
        m = _PEM_BEGIN.search(text, pos)
        if m is None:
            break
        if (end_m is None or end_m.start() < m.end()) and m.end() < no_end_after:
            end_m = _PEM_END.search(text, m.end())
            if end_m is None:
                no_end_after = m.end()
        if end_m is not None and end_m.start() >= m.end() and end_m.start() - m.end() <= _MAX_KEY:
            stop = end_m.end()
        else:
            stop = _PEM_BODY.match(text, m.end()).end()
        out.append(text[pos : m.start()])
        out.append(PLACEHOLDER.format("private_key"))
        found["private_key"] = found.get("private_key", 0) + 1
        pos = stop
    out.append(text[pos:])
    return "".join(out)


_AWS_SECRET = re.compile(r"(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{40}(?![A-Za-z0-9+/=])")
_ALIBABA_SECRET = secret_rules.Lazy(r"(?<![A-Za-z0-9+/=])[A-Za-z0-9]{30}(?![A-Za-z0-9+/=])")
_TWILIO_SID = re.compile(r"\bAC[0-9a-f]{32}\b")
_HEX32 = re.compile(r"(?<![0-9A-Za-z])[0-9a-f]{32}(?![0-9A-Za-z])")
# key id kind found, a word that names the provider, the secret half's kind and shape
_KEY_PAIRS = (
    ("aws_access_key_id", "aws", "aws_secret_access_key", _AWS_SECRET),
    ("gcs_hmac_access_id", "hmac", "gcs_hmac_secret", _AWS_SECRET),
    ("alibaba_access_key_id", "aliyun", "alibaba_secret_key", _ALIBABA_SECRET),
)


def _mixed(v: str) -> bool:
    return any(c.isupper() for c in v) and any(c.islower() for c in v) and any(c.isdigit() for c in v)


def _pairs(text: str, low: str, found: dict[str, int]) -> str:
    """The other half of a credential pair: a bare random secret of the provider's shape in a
    text that names the provider or holds its key id (AWS, GCS HMAC, Alibaba); a Twilio auth
    token beside its account SID."""
    for id_kind, word, kind, rx in _KEY_PAIRS:
        if id_kind not in found and word not in low:
            continue

        def half(m: re.Match, kind: str = kind) -> str:
            if not _mixed(m.group(0)):
                return m.group(0)
            found[kind] = found.get(kind, 0) + 1
            return PLACEHOLDER.format(kind)

        text = rx.sub(half, text)
    if "AC" in text and _TWILIO_SID.search(text):
        for kind, rx in (("twilio_account_sid", _TWILIO_SID), ("twilio_auth_token", _HEX32)):
            text, n = rx.subn(PLACEHOLDER.format(kind), text)
            if n:
                found[kind] = found.get(kind, 0) + n
    return text


_PLACED = re.compile(r"\[redacted:[a-z0-9_]{1,40}\]")


def _substitute(text: str, kind: str, rx: re.Pattern[str], group, check, found: dict[str, int]) -> str:
    """Replace ``group`` of every match of ``rx`` (0 = the whole match) that passes ``check``."""

    def sub(m: re.Match) -> str:
        if check is not None and not check(m):
            return m.group(0)
        name = secret_context.value_group(m)[0] if group is None else group
        if m.group(name) is None or "[REDACTED:" in m.group(name):  # already hidden: keeps redact idempotent
            return m.group(0)
        found[kind] = found.get(kind, 0) + 1
        if name == 0:
            return PLACEHOLDER.format(kind)
        start, end = m.span(name)
        base = m.start(0)
        whole = m.group(0)
        return whole[: start - base] + PLACEHOLDER.format(kind) + whole[end - base :]

    return rx.sub(sub, text)


def redact(text: str) -> tuple[str, dict[str, int]]:
    """Replace secrets with ``[REDACTED:<kind>]``. Returns (text, {kind: count}).

    A placeholder can give a later rule new context (``x-[REDACTED:…]--token v``), so passes
    repeat until one finds nothing (at most 3; a text without secrets takes one): the result is
    a fixed point and redacting it again changes nothing."""
    total: dict[str, int] = {}
    for _ in range(3):
        text, found = _redact_once(text)
        for k, n in found.items():
            total[k] = total.get(k, 0) + n
        if not found:
            break
    return text, total


def _redact_once(text: str) -> tuple[str, dict[str, int]]:
    """One pass. Order: PEM blocks, fixed-format provider tokens (their kind is the most
    specific), the other halves of credential pairs, then secrets known by their context."""
    found: dict[str, int] = {}
    if "PRIVATE KEY" in text:
        text = _private_keys(text, found)
    for kind, rx, group in secret_rules.active_rules(text, text.lower()):
        text = _substitute(text, kind, rx, group, None, found)
    low = text.lower()
    text = _pairs(text, low, found)
    low = text.lower()
    probe = _PLACED.sub(" ", low) if "[redacted:" in low else low  # our placeholders hold key words
    hints = {g for g in secret_context.ALL_GUARDS if g in probe}
    for kind, rx, check, guards in secret_context.RULES:
        if hints.intersection(guards):
            text = _substitute(text, kind, rx, None, check, found)
            low = text.lower()
    return text, found


def clean_fields(fields: dict[str, object]) -> tuple[dict[str, object], dict[str, int]]:
    """Redact the metadata stored beside the text (topic, tags, entity, files, session): strings
    and lists of strings; ``None`` stays ``None``. Returns (fields, {kind: count})."""
    found: dict[str, int] = {}
    out: dict[str, object] = {}

    def one(value: str) -> str:
        cleaned, kinds = redact(value)
        for k, n in kinds.items():
            found[k] = found.get(k, 0) + n
        return cleaned

    for name, value in fields.items():
        if isinstance(value, str):
            out[name] = one(value)
        elif value is None or not hasattr(value, "__iter__"):
            out[name] = value  # not text: left for the model's own type check
        else:
            out[name] = [one(v) if isinstance(v, str) else v for v in value]
    return out, found


def clean(text: str, *, redact_secrets: bool = True) -> tuple[str, dict[str, int], int]:
    """The full pipeline: (stored text, secrets redacted by kind, private spans removed)."""
    text, spans = strip_private(text)
    kinds: dict[str, int] = {}
    if redact_secrets:
        text, kinds = redact(text)
    return text, kinds, spans
