"""Secrets recognised by what stands next to them, not by their own shape.

``password=…``, ``password: …`` in config, a password given in a sentence ("the VPN password is
Tr0ub4dor&3"), command-line credentials (``curl -u``, ``docker login -p``, ``mysql -p…``),
passwords inside URLs, ``Authorization`` headers, high-entropy strings after secret words, and the
second half of a credential pair (the AWS secret beside its key id, the Twilio token beside its
account SID), updates in prose ("the password is now …") and a random value right after a
provider's name (gitleaks' semi-generic rules: ``datadog: 5u4o…``; MIT, see LICENSE-gitleaks.txt).
Values are vetted so prose ("the password is required"), paths ("pwd: /home/me"), placeholders
(``${DB_PASSWORD}``), numbers, commit ids and slugs stay.

Every pattern starts at a literal word and has bounded quantifiers only: linear time.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from .secret_rules import Lazy

# (kind, regex, value check, lower-case guards); the secret is group ``v`` (or ``v2``)
Rule = tuple[str, Lazy, Callable[[re.Match], bool], tuple[str, ...]]

_WORDS = (
    r"pass(?:word|wd|phrase)?|pwd|secret|secrets|client[_-]?secret|secret[_-]?key|api[_-]?key|apikey"
    r"|auth[_-]?key|access[_-]?key|account[_-]?key|private[_-]?key|client[_-]?key|signing[_-]?key"
    r"|pw|psw|passcode|pin[_ -]?code|(?:door|alarm|gate|lock|garage|safe|keypad)[_ ]code|(?:totp|2fa|mfa|otp)[ _-]?(?:seed|secret|key)|storepass|keypass|encryption[_-]?key|master[_-]?key|license[_-]?key|app[_-]?key|service[_-]?key|credentials?"
    r"|access[_-]?token|auth[_-]?token|refresh[_-]?token|private[_-]?token|session[_-]?token|sas[_-]?token"
    r"|bot[_-]?token|token|contrase[ñn]a|passwort|mot[_ ]de[_ ]passe"
)
# a key word starting a name part (``db_password``, ``GITHUB_TOKEN``, ``x-api-key``), with up to
# three more name parts after it (``SECRET_KEY_BASE``) — vetted by _SUFFIX_STOP
_KEY = r"(?i:(?<![A-Za-z0-9])(?:" + _WORDS + r"))(?P<suffix>(?:[_-][A-Za-z0-9]{1,20}|[A-Z][a-z0-9]{1,20}){0,3})"
_SUFFIX_STOP = frozenset(
    "id ids file path dir hash hashed length len min max policy env name names type count limit prefix field "
    "header regex pattern expiry expires ttl timeout version size format mode label hint reset rotation ref "
    "arn location store manager provider budget budgets usage url endpoint uri kind input required enabled "
    "strength chars rules check validator digest algorithm alg salt iterations".split()
)
# English words that follow "password is / password:" without being one
_PROSE_STOP = frozenset(
    "required optional wrong incorrect invalid expired empty missing correct weak strong long short fine rotated "
    "changed unset hashed encrypted stored needed mandatory sensitive secret hidden known unknown same different "
    "ignored configurable deprecated generated random blank null none okay default there gone leaked compromised "
    "visible masked redacted shared cached string integer number boolean provided supplied configured managed "
    "rotating expiring removed revoked disabled enabled omitted placeholder example changeme? nothing something "
    "correctly properly never always already still being stored. through using within inside".split()
)


def entropy(s: str) -> float:
    """Shannon entropy in bits per character."""
    counts: dict[str, int] = {}
    for c in s:
        counts[c] = counts.get(c, 0) + 1
    n = len(s)
    return -sum(k / n * math.log2(k / n) for k in counts.values())


_CALL = re.compile(r"[A-Za-z_][\w.]{0,80}\([^\s()]{0,200}\)")
_YAML_TAG = re.compile(r"![A-Za-z][\w:]{0,30}")
_DIGEST = re.compile(r"(?i)(?:sha(?:1|224|256|384|512)|md5|blake2[bs]?)[:-]")


def placeholder(v: str) -> bool:
    """Template and reference forms that name a secret without holding it."""
    v = v.strip()
    if not v or v.startswith(("[REDACTED:", "${", "$(", "{{", "<", "%(", "$", "os.environ", "process.env", "env(")):
        return True
    if not set(v) - set("*xX.-_ #"):
        return True
    if _CALL.fullmatch(v) or _YAML_TAG.fullmatch(v) or _DIGEST.match(v):
        return True  # code (``os.getcwd()``), a YAML tag (``!vault``), a digest (``SHA256:…``)
    return v.lower() in {"null", "none", "nil", "true", "false", "undefined", "''", '""', "n/a", "tbd", "todo"}


_DRIVE = re.compile(r"[A-Za-z]:\\")
_NUMBER = re.compile(r"[v:]?\d{1,12}(?:[.:]\d{1,12}){0,4}[a-z]{0,3}")


def path_like(v: str) -> bool:
    """``/home/me``, ``~/x``, ``./x``, ``C:\\x``: a location, not a credential."""
    return v.startswith(("/", "~/", "./", "../")) or _DRIVE.match(v) is not None


def _numberish(v: str) -> bool:
    """Plain numbers, versions and ports (``8080``, ``3.11.7``, ``v2.1``, ``:443``)."""
    return _NUMBER.fullmatch(v) is not None


def value_group(m: re.Match) -> tuple[str, str]:
    """(name, text) of the group holding the secret."""
    v = m.group("v")
    if v is None and "v2" in m.re.groupindex:
        return "v2", m.group("v2")
    return "v", v


_PARTS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+")


def _suffix_ok(m: re.Match) -> bool:
    suffix = m.group("suffix") or ""
    return not any(part.lower() in _SUFFIX_STOP for part in _PARTS.findall(suffix))  # snake, kebab, camel


def looks_secret(v: str, *, strong: bool = False) -> bool:
    """A value worth hiding. ``strong``: a bare value right after the word, so demand more."""
    if len(v) < 6 or placeholder(v) or path_like(v) or _numberish(v) or "://" in v:
        return False
    if v.isalpha() and (v.islower() or v.isupper()):
        return False
    digit = not v.isalpha() and any(c.isdigit() for c in v)
    symbol = not v.isalnum()
    mixed = not v.islower() and not v.isupper()
    alpha = not v.isdigit()
    if strong:
        return len(v) >= 8 and alpha and digit and (symbol or mixed)
    return digit or symbol or mixed


def _assign_value(m: re.Match) -> bool:
    """``KEY = value`` / ``KEY: value``: quoted and ``=`` values are values; bare ``:`` ones vetted."""
    if not _suffix_ok(m):
        return False
    v = value_group(m)[1]
    if placeholder(v) or path_like(v):
        return False
    if m.group("q") or "=" in m.group("op"):
        return True
    if m.group("bol") is not None and v.isalpha() and v.lower() not in _PROSE_STOP:
        return len(v) >= 6  # ``password: swordfish`` as a config line: a value
    return looks_secret(v)


_SUBJECT_STOP = _SUFFIX_STOP | frozenset(
    "manager managers fingerprint fingerprints rotation prompt prompts field fields strength vault flow page screen "
    "form dialog storage scheme schema generator server service reset policy policies requirement requirements".split()
)


def _about_something_else(m: re.Match) -> bool:
    """"password manager is Bitwarden", "key fingerprint SHA256:…": the first word after the key
    word names another thing, and the value belongs to that thing."""
    between = m.string[m.end("suffix") : m.start("v")].split()
    return bool(between) and between[0].lower().strip(":=") in _SUBJECT_STOP


_PASS_WORD = Lazy(r"(?i)(?:pass(?:word|wd|phrase|code)?|pwd|pw|psw|pin[_ -]?code|(?:door|alarm|gate|lock|garage|safe|keypad)[_ ]code|contrase[ñn]a|passwort)")


def _pass_word(m: re.Match) -> bool:
    """The key word names a password (not a token or key): a digits-only or lowercase value counts."""
    return _PASS_WORD.match(m.group(0).lstrip(" \t-")) is not None or _PASS_WORD.search(m.group(0)[: m.start("suffix") - m.start(0)]) is not None


def _plain_password(v: str) -> bool:
    """``84736251``, ``hunter22xx``: digits only (4+), or letters with 2+ digits (6+ chars)."""
    if v.isdigit():
        return len(v) >= 4
    return v.isalnum() and len(v) >= 6 and sum(c.isdigit() for c in v) >= 2 and sum(c.isalpha() for c in v) >= 3


def _prose_value(m: re.Match) -> bool:
    v = m.group("v").rstrip(".!?)")
    if placeholder(m.group("v")) or not _suffix_ok(m) or v.lower() in _PROSE_STOP or _about_something_else(m):
        return False
    if looks_secret(v) or (_pass_word(m) and _plain_password(v)):
        return True
    end = m.string[m.end("v") : m.end("v") + 2]
    at_end = end == "" or end[:1] in ".!\n;)" and (len(end) < 2 or end[1] in " \n\"'")
    return v.isalpha() and len(v) >= 6 and at_end  # "the root password is tangerine."


def _strong(m: re.Match) -> bool:
    v = m.group("v").rstrip(".!?)")
    if placeholder(m.group("v")) or not _suffix_ok(m) or v.lower() in _PROSE_STOP:
        return False
    if looks_secret(v, strong=True):
        return True
    word = m.group(0)[: m.start("suffix") - m.start(0)].lower()
    return word != "pass" and _pass_word(m) and _plain_password(v) and not v.isdigit()  # "pass py311 to tox": a verb


def _pair_value(m: re.Match) -> bool:
    """``login: admin / Xk9!…``: the half after the slash is a password only when it is shaped like one.
    A plain word there ("Keychain / Keystore", "Profile / Security", "Redis / Postgres") names an
    alternative: a capital letter alone is not the mixed case of a password."""
    v = m.group("v").rstrip(".!?)")
    return not v.isalpha() and looks_secret(v) and not v.startswith("/")


_CONSTANT = Lazy(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z]+(?:_[a-z]+)+")  # a setting's name


def _quoted(m: re.Match) -> bool:
    """``password 'hunter2'``, ``the passphrase is "correct horse battery"``: quoted after the word."""
    v = m.group("v").strip()
    if len(v) < 4 or placeholder(v) or not _suffix_ok(m) or path_like(v) or _CONSTANT.fullmatch(v):
        return False
    return v.lower() not in _PROSE_STOP | _SUBJECT_STOP


def _named_after(m: re.Match) -> bool:
    """``I use Qm4!vT9xLp as the password``: the value comes first."""
    v = m.group("v").strip("\"'`")
    return looks_secret(v) and not v.lower().startswith(("http", "www."))


def _not_placeholder(m: re.Match) -> bool:
    v = m.group("v")
    return not placeholder(v) and not path_like(v)


def _url_password(m: re.Match) -> bool:
    v = m.group("v")
    return not placeholder(v) and not re.match(r"\d{1,5}(?:/|$)", v)  # host:port/path, not a password


def _high_entropy(m: re.Match) -> bool:
    v = m.group("v").rstrip(".")
    if placeholder(v) or path_like(v) or "://" in v or _about_something_else(m):
        return False
    if re.fullmatch(r"[0-9a-fA-F]{32,512}", v):
        return entropy(v) >= 3.0
    return len(v) >= 20 and any(c.isdigit() for c in v) and any(c.isalpha() for c in v) and entropy(v) >= 3.7


def _bearer(m: re.Match) -> bool:
    v = m.group("v")
    return any(c.isdigit() for c in v) or any(not c.isalnum() for c in v)


# provider names of gitleaks' semi-generic rules (config/gitleaks.toml): a value right after one is theirs
PROVIDERS = (
    "adafruit", "adobe", "airtable", "algolia", "alibaba", "aliyun", "asana", "atlassian", "confluence", "jira", "beamer",
    "bitbucket", "bittrex", "meraki", "cloudflare", "codecov", "cohere", "coinbase", "confluent", "contentful", "datadog",
    "discord", "droneci", "dropbox", "etsy", "facebook", "fastly", "finicity", "finnhub", "flickr", "freshbooks", "gitter",
    "gocardless", "heroku", "hubspot", "intercom", "jfrog", "artifactory", "bintray", "kraken", "kucoin", "launchdarkly",
    "linkedin", "looker", "mailchimp", "mailgun", "mattermost", "messagebird", "netlify", "newrelic", "new_relic", "nytimes",
    "okta", "plaid", "privateai", "rapidapi", "sendbird", "sentry", "snyk", "sonar", "squarespace", "sumo", "sumologic",
    "telegram", "travis", "twitch", "twitter", "typeform", "yandex", "zendesk",
)


def _provider_value(m: re.Match) -> bool:
    """A random value (or a UUID: Heroku, HubSpot keys) named by its provider, not an id or URL."""
    v = m.group("v").rstrip(".")
    between = m.string[m.end("suffix") : m.start("v")]
    if not _suffix_ok(m) or placeholder(v) or path_like(v) or "://" in v or v.lower() in _PROSE_STOP:
        return False
    if any(w.lower() in _NAMED for w in between.split()) or _wordy(v):
        return False  # "okta group 00g…", "algolia index products_v2": an object's name or id
    assigned = any(c in between for c in "=:")
    if _UUID.fullmatch(v):
        return assigned
    if _HEX.fullmatch(v):  # not "sentry release 3f9c…", "heroku deploy <sha>": a commit or digest
        return assigned or not (len(v) <= 12 or len(v) in (40, 64))
    return any(c.isdigit() for c in v) and any(c.isalpha() for c in v) and entropy(v) >= 3.5


_HEX = Lazy(r"[0-9a-fA-F]+")
_NAMED = _SUBJECT_STOP | frozenset(
    "group groups index domain app apps zone ticket page issue release deploy user users chat handle org project team "
    "channel workspace site account tenant space board region cluster instance bucket dashboard monitor host".split()
)
_WORD_PART = Lazy(r"[A-Za-z][a-z]{2,}")


def _wordy(v: str) -> bool:
    """Two or more words joined by ``-_./``: a slug or host name (``acme-shop-prod-2024``)."""
    parts = re.split(r"[-_./|]", v)
    return len(parts) >= 2 and sum(1 for p in parts if _WORD_PART.fullmatch(p)) >= 2
_UUID = Lazy(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


HINTS = ("pass", "pw", "psw", "pin", " code", "secret", "key", "token", "credential", "totp", "otp", "2fa", "mfa", "contrase", "mot de", "mot_de")
_Q = r"(?P<q>[\"'`])"
_VAL = r"(?P<v>[^\s\"'`,;]{1,512}+)"
_FILL = r"(?:[ \t]{1,3}+(?!(?:is|was|are|to|as|now)\b)[A-Za-z][\w.-]{0,23}+){0,5}?"  # possessive: no re-splitting
# words between the link and the value of an update ("is now …", "was changed to …", "it's now …")
_ADV = r"(?:(?:it'?s|it is|now|still|currently|(?:set|changed|reset|updated|rotated) to)\s{1,3}+){0,2}"

RULES: list[Rule] = [
    ("aws_secret_access_key", Lazy(r"(?i)aws.{0,20}?(?:secret|private).{0,20}?[\"']?\s{0,5}[:=]\s{0,5}[\"']?(?P<v>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"), lambda m: True, ("aws",)),
    ("url_password", Lazy(r"\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}://[^\s:/@\"'<>]{0,256}:(?P<v>[^\s@\"'<>]{1,256})@(?=[A-Za-z0-9\[])"), _url_password, ("://",)),
    ("basic_auth", Lazy(r"(?i)\bauthorization\s{0,5}[:=]\s{0,5}[\"']?basic\s{1,5}(?P<v>[A-Za-z0-9+/]{8,1024}={0,2})"), lambda m: True, ("basic",)),
    ("bearer_token", Lazy(r"(?i)\bbearer\s{1,5}(?P<v>[A-Za-z0-9._~+/-]{16,4096}=*)"), _bearer, ("bearer",)),
    ("cli_credential", Lazy(r"(?<![\w-])(?:-u|--user)(?:\s{1,5}|=)[\"']?(?P<v>[^\s:\"'\[$]{1,256}:[^\s\"']{1,256})"), _not_placeholder, ("-u", "--user")),
    ("cli_credential", Lazy(r"(?i)\b(?:docker|podman|nerdctl|buildah|skopeo|helm)\s{1,5}(?:registry\s{1,5})?login\b[^\n]{0,200}?\s(?:-p|--password)(?:\s{1,5}|=)[\"']?(?P<v>[^\s\"']{1,512})"), _not_placeholder, ("login",)),
    ("cli_credential", Lazy(r"\b(?:mysql|mysqldump|mariadb|mysqladmin)\b[^\n]{0,200}?\s-p(?P<v>[^\s\"']{1,256})"), _not_placeholder, ("mysql", "mariadb")),
    ("cli_credential", Lazy(r"\bmongo(?:sh|dump|restore|import|export)?\b[^\n]{0,200}?\s(?:-p|--password)\s{1,3}[\"']?(?P<v>[^\s\"']{1,256})"), _not_placeholder, ("mongo",)),
    ("cli_credential", Lazy(r"\bredis-cli\b[^\n]{0,200}?\s(?:-a|--pass)\s{1,3}[\"']?(?P<v>[^\s\"']{1,256})"), _not_placeholder, ("redis-cli",)),
    ("cli_credential", Lazy(r"\bhtpasswd\s{1,5}-[A-Za-z]{0,4}b[A-Za-z]{0,4}\s{1,5}[^\s]{1,256}\s{1,5}[^\s]{1,256}\s{1,5}[\"']?(?P<v>[^\s\"']{1,256})"), _not_placeholder, ("htpasswd",)),
    # NAME=value env vars whose name ends in a key word (PGPASSWORD, MYSQLPWD, CFTOKEN)
    ("password", Lazy(r"(?<![A-Za-z0-9])[A-Z][A-Z0-9]{1,20}(?:PASSWORD|PASSWD|PASS|PWD|SECRET|TOKEN|APIKEY)(?P<suffix>)\s{0,3}[:=]\s{0,3}[\"']?(?P<v>[^\s\"'`,;]{1,512})"), _not_placeholder, ("pass", "pwd", "secret", "token", "apikey")),
    # name/value pairs: k8s env entries, .NET <add key=… value=…/>
    ("password", Lazy(r"(?i)\b(?:name|key)\s{0,3}[:=]\s{0,3}[\"']?[\w.-]{0,40}?(?:pass|pwd|secret|token|key)[\w.-]{0,40}[\"']?[\s,]{1,40}value\s{0,3}[:=]\s{0,3}[\"']?(?P<v>[^\s\"'<>]{1,512})"), _not_placeholder, ("value",)),
    # user and password given together in prose ("login: admin / Xk9!…", "creds are bob:Xk9!…")
    ("password", Lazy(r"(?i)\b(?:login|logins|creds?|credentials|account|wifi|wi-fi|ssid)\b(?:[ \t]{1,3}+[\w-]{1,24}+){0,8}?[\s:=(]{1,4}[\w.@+-]{1,64}[ \t]{0,2}[/:][ \t]{0,2}(?P<v>[^\s,;\"']{6,128})"),
     _pair_value, ("login", "cred", "account", "wifi", "wi-fi", "ssid")),
    ("cli_credential", Lazy(r"(?<![\w-])-(?:storepass|keypass|srcstorepass|deststorepass|passin|passout)\s{1,3}(?:pass:)?[\"']?(?P<v>[^\s\"']{1,256})"), _not_placeholder, ("pass",)),
    ("cli_credential", Lazy(r"\brabbitmqctl\s{1,5}(?:add_user|change_password)\s{1,5}[^\s]{1,256}\s{1,5}[\"']?(?P<v>[^\s\"']{1,256})"), _not_placeholder, ("rabbitmqctl",)),
    ("cli_credential", Lazy(r"\becho\s{1,3}(?:-n\s{1,3})?[\"']?(?P<v>[^\s\"'|]{1,256})[\"']?\s{0,3}\|\s{0,3}[^\n|]{0,80}--password-stdin"), _not_placeholder, ("password-stdin",)),
    ("cli_credential", Lazy(r"\bsshpass\s{1,5}-p\s{0,5}[\"']?(?P<v>[^\s\"']{1,256})"), _not_placeholder, ("sshpass",)),
    ("cli_credential", Lazy(r"(?i)(?<![\w-])--(?:password|passwd|pass|token|api-key|apikey|secret|client-secret|auth-token|access-token)(?:\s{1,5}|=)[\"']?(?P<v>[^\s\"']{1,512})"),
     lambda m: _not_placeholder(m) and not m.group("v").startswith("-"), ("--",)),
    # KEY = value, KEY: value, "KEY": "value" (config files, env files, code)
    ("password", Lazy(r"(?P<bol>^[ \t]{0,40}[-]?[ \t]{0,4})?" + _KEY + r"[\"']?(?P<op>\s{0,5}(?::=|=>|[:=])\s{0,5})(?:" + _Q + r"(?P<v>[^\"'`\r\n]{1,512})[\"'`]|(?P<v2>[^\s\"'`,;]{1,512}))", re.M), _assign_value, HINTS),
    ("password", Lazy(r"(?i)<[\w.:-]{0,40}?(?:password|passwd|secret|token|api[_-]?key)[\w.-]{0,20}>(?P<v>[^<\r\n]{1,512})</"), _not_placeholder, HINTS),
    # the word, a few words, a link ("is", "was", "to", ":") and the value: a password in a sentence
    ("password", Lazy(_KEY + _FILL + r"(?:[ \t]{1,3}+(?:is|was|are|to|as|now|->|=>|=):?|[ \t]{0,3}+:)\s{1,3}+" + _ADV + r"[\"'`]?" + _VAL), _prose_value, HINTS),
    ("password", Lazy(_KEY + r"\s{1,3}[\"'`]?" + _VAL), _strong, HINTS),
    ("password", Lazy(_KEY + r"(?:[ \t]{1,3}+(?:is|was|=|:))?[ \t]{1,3}+(?P<q>[\"'`])(?P<v>[^\"'`\r\n]{1,128}+)(?P=q)"), _quoted, HINTS),
    ("password", Lazy(r"(?i)(?<![^\s(])[\"'`]?(?P<v>[^\s\"'`]{6,128}+)[\"'`]?[ \t]{1,3}(?:as|is|was)[ \t]{1,3}(?:the|my|our|its|his|her|their)?[ \t]{0,3}(?:new[ \t]{1,3})?(?:password|passphrase|pwd|passcode)\b(?P<suffix>)(?=[ \t]{0,2}(?:[.,;:!?)\n]|$|(?:for|on|of|to|and|here|now)\b))"), _named_after, ("password", "passphrase", "pwd", "passcode")),
    # a long random string after a secret word ("the API key 3f9c…", "token: 9Xk…")
    ("high_entropy_secret", Lazy(r"(?i:(?<![A-Za-z0-9])(?:keys?|secrets?|tokens?|credentials?|apikey|passwords?)(?P<suffix>))" + _FILL + r"(?:[ \t]{1,3}+(?:is|was|are|to|as))?[\s:=]{1,5}+" + _ADV + r"[\"'`]?(?P<v>[A-Za-z0-9+/_.=-]{20,512}+)"), _high_entropy, HINTS),
    # a provider's name beside a random value, no key word needed (gitleaks' semi-generic rules)
    ("provider_secret", Lazy(r"(?i:(?<![A-Za-z0-9])(?:" + "|".join(PROVIDERS) + r"))(?P<suffix>(?:[_-][A-Za-z0-9]{1,20}){0,3})"
     r"(?:[ \t]{1,3}+[A-Za-z][\w-]{0,15}+)?[ \t]{0,3}(?:=>|:=|[:=]|(?<=[ \t]))[ \t]{0,3}[\"'`]?(?P<v>[A-Za-z0-9+/_.=|-]{16,512}+)"), _provider_value, PROVIDERS),
]

ALL_GUARDS = frozenset(g for rule in RULES for g in rule[3])
