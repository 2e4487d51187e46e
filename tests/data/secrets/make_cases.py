"""Writes secrets.jsonl and lookalikes.jsonl: synthetic, format-valid secrets (random, never real
keys) in the sentences and config lines people write, and innocuous strings shaped like them.

Run ``python tests/data/secrets/make_cases.py`` to regenerate (fixed seed: the output is stable).
Each secret case: {"id", "kind", "text", "secrets": [values that must never be stored]}.
The look-alikes' second batch (l062 on) was written after the rules were first run and 7 of its
41 were flagged (17%); the fixes it prompted (code calls, YAML tags, digests, "password manager
is …") were made on both splits, so for those cases only the first batch is an unseen figure.
"""

from __future__ import annotations

import base64
import json
import random
import string
from pathlib import Path

R = random.Random(20261201)
HERE = Path(__file__).parent
AN = string.ascii_letters + string.digits
UP = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"
B64 = AN + "+/"


def rnd(n: int, alphabet: str = AN) -> str:
    while True:
        s = "".join(R.choice(alphabet) for _ in range(n))
        if alphabet is not AN or (any(c.isdigit() for c in s) and any(c.isupper() for c in s) and any(c.islower() for c in s)):
            return s


def b64url(obj: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")


def jwt() -> str:
    return f"{b64url({'alg': 'HS256', 'typ': 'JWT'})}.{b64url({'sub': rnd(8), 'iat': R.randint(10**9, 2 * 10**9)})}.{rnd(43, AN + '_-')}"


def password() -> str:
    return rnd(4, string.ascii_letters) + R.choice("!#%&*@^") + rnd(3, string.digits) + rnd(4)


def aws_id() -> str:
    return "AKIA" + rnd(16, string.ascii_uppercase + "234567")


def aws_secret() -> str:
    return rnd(40, B64)


def pem(kind: str = "RSA ") -> tuple[str, str]:
    body = "\n".join(rnd(64, B64) for _ in range(4))
    return f"-----BEGIN {kind}PRIVATE KEY-----\n{body}\n-----END {kind}PRIVATE KEY-----", body.split("\n")[1]


def cases() -> list[dict]:
    out: list[dict] = []

    def add(kind: str, text: str, *secrets: str) -> None:
        out.append({"id": f"s{len(out):03d}-{kind}", "kind": kind, "text": text, "secrets": list(secrets)})

    # -- the leaks named in the issue ------------------------------------------------------------
    i, s = aws_id(), aws_secret()
    add("aws_pair", f"ci deploy user: access key {i} / secret {s}", i, s)
    i, s = aws_id(), aws_secret()
    add("aws_pair", f"AWS creds for the backup bucket are {i} and {s}, rotate quarterly", i, s)
    i, s = aws_id(), aws_secret()
    add("aws_pair", f"[default]\naws_access_key_id = {i}\naws_secret_access_key = {s}", i, s)
    v = "sntrys_" + b64url({"iat": 1733000000, "url": "https://sentry.io", "org": "acme"}) + "_" + rnd(43, AN + "+/")
    add("sentry_token", f"SENTRY_AUTH_TOKEN for source maps upload: {v}", v)
    v = "sntryu_" + rnd(64, HEX)
    add("sentry_token", f"my personal sentry token is {v}", v)
    v = "re_" + rnd(8) + "_" + rnd(24)
    add("resend_api_key", f"transactional email goes through Resend, key {v}", v)
    v = "sk.eyJ1IjoiYWNtZSIsImEiOiJ" + rnd(20, AN) + "." + rnd(22, AN + "-_")
    add("mapbox_token", f"mapbox secret token (tiles upload) {v}", v)
    v = "AQE" + rnd(3) + rnd(60, AN) + "=-i1" + rnd(40, AN + "=.-")
    add("adyen_api_key", f"ADYEN_API_KEY={v}", v)
    v = "AQE" + rnd(3) + rnd(70, AN) + "." + rnd(30, AN)
    add("adyen_api_key", f"the adyen test merchant uses {v} for checkout", v)
    v = rnd(32, HEX)
    add("hex_key", f"the weather service API key {v} is on the free tier", v)
    v = rnd(40, HEX)
    add("hex_key", f"license key {v} (renew in June)", v)
    v = password()
    add("password_no_sep", f"staging db: user app, password {v}", v)
    v = password()
    add("password_sentence", f"The password for the office wifi is {v} and it changes monthly.", v)
    v = password()
    add("password_sentence", f"I set the grafana admin password to {v} yesterday", v)
    v = rnd(44, B64) + "="
    add("azure_sas_key", f"Endpoint=sb://acme-bus.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={v}", v)
    v = rnd(43, AN).replace("a", "%2B", 1) + "%3D"
    add("azure_sas_signature", f"upload with https://acme.blob.core.windows.net/backups?sv=2022-11-02&ss=b&srt=o&sp=rw&se=2026-12-31&sig={v}", v)
    v = rnd(16)
    add("url_password", f"REDIS_URL=redis://:{v}@cache.internal:6379/0", v)
    v = "swordfish" + R.choice(["lover", "tank", "river"])
    add("password_yaml_lower", f"database:\n  host: db.internal\n  password: {v}\n", v)
    v = "key-" + rnd(32, HEX)
    add("mailgun_api_key", f"mailgun sending key {v}", v)
    v = R.choice("MNO") + rnd(23, AN) + "." + rnd(6, AN + "-_") + "." + rnd(38, AN + "-_")
    add("discord_bot_token", f"DISCORD_TOKEN={v}", v)
    v = R.choice("MNO") + rnd(25, AN) + "." + rnd(6, AN) + "." + rnd(27, AN)
    add("discord_bot_token", f"the bot logs in with token {v}", v)
    u, p = "deploy", password()
    add("cli_credential", f"curl -u {u}:{p} https://ci.internal/api/json", f"{u}:{p}", p)
    v = "sq0atp-" + rnd(22, AN + "-_")
    add("square_token", f"square sandbox access token sq: {v}", v)
    v = "sq0csp-" + rnd(43, AN + "-_")
    add("square_token", f"SQUARE_APP_SECRET={v}", v)
    v = "AGE-SECRET-KEY-1" + rnd(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L")
    add("age_secret_key", f"# created: 2026-11-02\n# public key: age1{rnd(58, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l')}\n{v}", v)
    v = password()
    add("cli_credential", f"docker login -u ci-bot -p {v} registry.acme.dev", v)
    v = rnd(6) + "/" + rnd(8)
    add("url_password", f"psql postgres://report:{v}@analytics.internal:5432/warehouse", v)
    # -- detect-secrets plugin list --------------------------------------------------------------
    for text_fmt in ("export AWS_ACCESS_KEY_ID={}", "the old key {} was disabled in IAM", "aws_access_key_id: {}"):
        v = aws_id()
        add("aws_access_key_id", text_fmt.format(v), v)
    v = rnd(88, B64)
    add("azure_storage_key", f"DefaultEndpointsProtocol=https;AccountName=acmelogs;AccountKey={v}==;EndpointSuffix=core.windows.net", v)
    v = "AKCp" + rnd(69)
    add("artifactory_token", f"artifactory api key for pulls: {v}", v)
    v = rnd(10, string.ascii_lowercase) + rnd(6)
    add("url_password", f"cloudant url https://acme-admin:{v}@acme.cloudant.com", v)
    for pre in ("ghp_", "gho_", "ghs_"):
        v = pre + rnd(36)
        add("github_token", f"GITHUB_TOKEN={v}" if pre == "ghp_" else f"gh token {v} for the release job", v)
    v = "github_pat_11" + rnd(20, UP) + "_" + rnd(59)
    add("github_token", f"fine-grained PAT {v} (repo scope)", v)
    v = "glpat-" + rnd(20, AN + "-_")
    add("gitlab_token", f'gitlab:\n  token: "{v}"', v)
    v = "glrt-" + rnd(20)
    add("gitlab_token", f"register the runner with {v}", v)
    v = "ibm" + rnd(41, AN + "_-")
    add("ibm_api_key", f'IBM_CLOUD_API_KEY="{v}"', v)
    v = rnd(48, HEX)
    add("ibm_cos_hmac", f"cos hmac: access_key_id={rnd(32, HEX)} secret_access_key={v}", v)
    add("jwt", f"Authorization: Bearer {(v := jwt())}", v)
    add("jwt", f"the session cookie was {(v := jwt())}", v)
    v = rnd(32, HEX) + "-us" + str(R.randint(1, 21))
    add("mailchimp_api_key", f"mailchimp newsletter key {v}", v)
    v = "npm_" + rnd(36)
    add("npm_token", f"//registry.npmjs.org/:_authToken={v}", v)
    v = "sk-proj-" + rnd(48, AN + "_-")
    add("openai_api_key", f"OPENAI_API_KEY={v}", v)
    v = "sk-" + rnd(48)
    add("openai_api_key", f"the legacy openai key {v} still works", v)
    v = "sk-ant-api03-" + rnd(80, AN + "_-") + "AA"
    add("anthropic_api_key", f"ANTHROPIC_API_KEY={v}", v)
    v = "pypi-AgEIcHlwaS5vcmc" + rnd(60, AN + "_-")
    add("pypi_token", f"[pypi]\n  username = __token__\n  password = {v}", v)
    v = "SG." + rnd(22, AN + "_-") + "." + rnd(43, AN + "_-")
    add("sendgrid_api_key", f"sendgrid key {v}", v)
    v = "xoxb-" + str(R.randint(10**11, 10**12)) + "-" + str(R.randint(10**11, 10**12)) + "-" + rnd(24)
    add("slack_token", f"slack bot token {v}", v)
    v = "xoxp-" + str(R.randint(10**11, 10**12)) + "-" + rnd(24)
    add("slack_token", f"SLACK_USER_TOKEN={v}", v)
    v = f"https://hooks.slack.com/services/T{rnd(8, UP)}/B{rnd(10, UP)}/{rnd(24)}"
    add("slack_webhook", f"alerts post to {v}", v)
    v = rnd(64, HEX)
    add("softlayer_api_key", f"softlayer_api_key = {v}", v)
    v = "sk_live_" + rnd(24)
    add("stripe_key", f"STRIPE_SECRET_KEY={v}", v)
    v = "rk_test_" + rnd(24)
    add("stripe_key", f"restricted key {v} only reads charges", v)
    v = "whsec_" + rnd(32)
    add("stripe_webhook_secret", f"stripe webhook signing secret {v}", v)
    v = f"{R.randint(10**8, 10**9)}:AA{rnd(33, AN + '_-')}"
    add("telegram_bot_token", f"telegram bot {v}", v)
    v = "SK" + rnd(32, HEX)
    add("twilio_api_key", f"twilio api key sid {v}", v)
    sid, tok = "AC" + rnd(32, HEX), rnd(32, HEX)
    add("twilio_pair", f"TWILIO_ACCOUNT_SID={sid}\nTWILIO_AUTH_TOKEN={tok}", sid, tok)
    sid, tok = "AC" + rnd(32, HEX), rnd(32, HEX)
    add("twilio_pair", f"twilio account {sid} with auth token {tok}", sid, tok)
    for k in ("RSA ", "EC ", "OPENSSH ", ""):
        block, line = pem(k)
        add("private_key", f"deploy key:\n{block}\n", line)
    block, line = pem("RSA ")
    add("private_key", "cut-off paste: " + block.split("-----END")[0][:200], line)
    block, line = pem("")
    add("private_key", json.dumps({"type": "service_account", "private_key": block}), line)
    # -- keyword forms across file types ---------------------------------------------------------
    forms = [
        ("env", "DB_PASSWORD={}"), ("env", "export POSTGRES_PASSWORD='{}'"), ("json", '{{"password": "{}"}}'),
        ("yaml", "  admin_password: {}"), ("toml", 'secret_key = "{}"'), ("ini", "passwd = {}"),
        ("python", 'SECRET_KEY = "{}"'), ("js", "const apiKey = '{}';"), ("xml", "<password>{}</password>"),
        ("netrc", "machine api.acme.dev login bot password {}"), ("properties", "spring.datasource.password={}"),
        ("rails", "SECRET_KEY_BASE={}"), ("django", "DJANGO_SECRET_KEY = '{}'"), ("docker_compose", "      - MYSQL_ROOT_PASSWORD={}"),
        ("k8s", "  client_secret: {}"), ("header", "X-API-Key: {}"), ("cli_flag", "vault login --token {}"),
        ("cli_flag", "./deploy.sh --api-key={}"), ("mysql", "mysql -u root -p{} shop"), ("sshpass", "sshpass -p '{}' ssh pi@10.0.0.7"),
        ("spanish", "la contraseña: {}"), ("colon_sentence", "prod db password: {}"), ("htpasswd", "basic auth password is {} for the preview site"),
        ("sentence_was", "the old root password was {}, now rotated"), ("credentials", "credentials: {}"),
        ("passphrase", "gpg passphrase {}"), ("token_assign", "auth_token={}"), ("access_token", 'access_token: "{}"'),
        ("refresh_token", "refresh_token = {}"), ("encryption_key", "ENCRYPTION_KEY={}"), ("master_key", "the master key is {}"),
    ]
    for name, fmt in forms:
        v = password() if "key" not in fmt.lower() and "token" not in fmt.lower() else rnd(32)
        if name == "xml":
            v = password()
        add("keyword_" + name, fmt.format(v), v)
    # -- other providers ---------------------------------------------------------------------------
    more = [
        ("google_api_key", lambda: "AIza" + rnd(35, AN + "_-"), "maps key {}"),
        ("google_oauth_secret", lambda: "GOCSPX-" + rnd(28, AN + "_-"), "oauth client secret {}"),
        ("google_oauth_token", lambda: "ya29." + rnd(120, AN + "_-"), "gcloud printed {}"),
        ("huggingface_token", lambda: "hf_" + rnd(34), "HF_TOKEN={}"),
        ("digitalocean_token", lambda: "dop_v1_" + rnd(64, HEX), "doctl auth init with {}"),
        ("shopify_token", lambda: "shpat_" + rnd(32, HEX), "shopify admin token {}"),
        ("docker_hub_token", lambda: "dckr_pat_" + rnd(27, AN + "_-"), "docker hub PAT {}"),
        ("vault_token", lambda: "hvs." + rnd(90, AN + "_-"), "VAULT_TOKEN={}"),
        ("doppler_token", lambda: "dp.st.prd." + rnd(40), "doppler service token {}"),
        ("postman_api_key", lambda: "PMAK-" + rnd(24, HEX) + "-" + rnd(34, HEX), "postman key {}"),
        ("linear_api_key", lambda: "lin_api_" + rnd(40), "linear {}"),
        ("notion_token", lambda: "ntn_" + rnd(46), "notion integration {}"),
        ("databricks_token", lambda: "dapi" + rnd(32, HEX), "databricks pat {}"),
        ("grafana_token", lambda: "glsa_" + rnd(32) + "_" + rnd(8, HEX), "grafana service account {}"),
        ("newrelic_api_key", lambda: "NRAK-" + rnd(27, UP), "new relic user key {}"),
        ("atlassian_token", lambda: "ATATT3xFfGF0" + rnd(170, AN + "_-") + "=" + rnd(8, HEX.upper()), "jira api token {}"),
        ("supabase_token", lambda: "sbp_" + rnd(40, HEX), "supabase access token {}"),
        ("netlify_token", lambda: "nfp_" + rnd(36), "NETLIFY_AUTH_TOKEN={}"),
        ("pulumi_token", lambda: "pul-" + rnd(40, HEX), "pulumi login with {}"),
        ("terraform_token", lambda: rnd(14) + ".atlasv1." + rnd(67, AN + "_-"), "terraform cloud token {}"),
        ("fly_token", lambda: "fo1_" + rnd(43, AN + "_-"), "fly deploy token {}"),
        ("groq_api_key", lambda: "gsk_" + rnd(52), "GROQ_API_KEY={}"),
        ("replicate_token", lambda: "r8_" + rnd(37), "replicate {}"),
        ("perplexity_api_key", lambda: "pplx-" + rnd(48), "pplx key {}"),
        ("heroku_api_key", lambda: "HRKU-" + rnd(60, AN + "_-"), "heroku auth {}"),
        ("azure_client_secret", lambda: rnd(3) + "8Q~" + rnd(34, AN + "_~.-"), "azure app registration secret {}"),
        ("sentry_dsn", lambda: f"https://{rnd(32, HEX)}@o{R.randint(10**5, 10**6)}.ingest.sentry.io/{R.randint(10**6, 10**7)}", "SENTRY_DSN={}"),
        ("discord_webhook", lambda: f"https://discord.com/api/webhooks/{R.randint(10**17, 10**18)}/{rnd(68, AN + '_-')}", "build alerts {}"),
        ("basic_auth", lambda: base64.b64encode(f"admin:{password()}".encode()).decode(), "Authorization: Basic {}"),
        ("bearer_token", lambda: rnd(40, AN + "._-"), "curl -H 'Authorization: Bearer {}' https://api.acme.dev"),
        ("url_password", lambda: password().replace("@", "!").replace("#", "!"), "amqp://guest:{}@rabbit.internal:5672/"),
        ("url_password", lambda: rnd(14), "MONGO_URI=mongodb+srv://app:{}@cluster0.abcde.mongodb.net/prod"),
        ("square_token", lambda: "EAAA" + rnd(60, AN + "_-"), "square production token {}"),
        ("slack_token", lambda: f"xapp-1-A{rnd(10, UP)}-{R.randint(10**12, 10**13)}-{rnd(64, HEX)}", "socket mode app token {}"),
        ("age_secret_key", lambda: "AGE-SECRET-KEY-1" + rnd(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"), "sops age key {}"),
        ("mailgun_api_key", lambda: "key-" + rnd(32, HEX), "MAILGUN_API_KEY={}"),
        ("high_entropy_secret", lambda: rnd(40, AN + "_-"), "cloudflare token: {}"),
        ("high_entropy_secret", lambda: rnd(32, HEX), "the datadog api key is {}"),
    ]
    for kind, make, fmt in more:
        v = make()
        add(kind, fmt.format(v), v)
    out.extend(second_batch(len(out)))
    out.extend(third_batch(len(out)))
    out.extend(fourth_batch(len(out)))
    return out


def second_batch(start: int) -> list[dict]:
    """Written after the first results, to probe unseen phrasings: 13 of these 30 leaked before
    the rules they prompted (prose user/password pairs, NAMEPASSWORD env vars, k8s name/value
    entries, redis-cli -a, mongo -p, htpasswd -b, "pw", "passcode", "->")."""
    r = random.Random(7)

    def s(n: int, alphabet: str = AN) -> str:
        return "".join(r.choice(alphabet) for _ in range(n))

    def pw() -> str:
        return s(3, string.ascii_letters) + "#" + s(4, string.digits) + s(3)

    rows: list[tuple[str, str, list[str]]] = []
    for kind, fmt in [
        ("prose_pair", "Login for the staging admin panel: admin / {}"), ("prose_pair", "creds are bob:{} for the ftp box"),
        ("url_password", "ftp://bob:{}@files.acme.dev/upload"), ("env_suffix", "PGPASSWORD={} psql -h db -U app"),
        ("password_sentence", "the wifi pass is {}"), ("password_arrow", "Password -> {}"), ("pw", "DB pw: {}"),
        ("sentence_equals", "sudo password on the build box = {}"), ("k8s_env", '- name: DB_PASS\n  value: "{}"'),
        ("redis_cli", "redis-cli -a {} ping"), ("htpasswd", "htpasswd -b .htpasswd admin {}"),
        ("mongo_cli", "mongo -u root -p {} --authenticationDatabase admin"), ("passcode", "passcode {} for the bridge"),
        ("sentence_was", "I changed my GitHub password to {} today"), ("ansible", "ansible_become_pass: {}"),
        ("psql_url", "psql 'postgresql://app:{}@db:5432/app?sslmode=require'"),
    ]:
        v = pw()
        rows.append((kind, fmt.format(v).replace("\\n", "\n"), [v]))
    for kind, fmt, n in [
        ("env_key", "OPENWEATHER_KEY={}", 32), ("env_token", "export CLOUDFLARE_API_TOKEN={}", 40),
        ("header_token", 'headers = {{"X-Auth-Token": "{}"}}', 24), ("authorization_token", "Authorization: token {}", 36),
        ("url_password", "https://admin:{}@jenkins.acme.dev/job/deploy", 20), ("dotnet_config", '<add key="ApiKey" value="{}" />', 32),
        ("prose_token", "api token for sentry.io is {}", 40), ("passphrase", "the encryption passphrase: {}", 16),
    ]:
        v = s(n)
        rows.append((kind, fmt.format(v), [v]))
    v = "ghp_" + s(36)
    rows.append(("url_token", f"git clone https://{v}@github.com/acme/private.git", [v]))
    v = s(64, HEX)
    rows.append(("hmac_secret", f"HMAC signing secret {v}", [v]))
    v = s(44, B64) + "="
    rows.append(("fernet_key", f"fernet key {v}", [v]))
    v, w = "AKIA" + s(16, string.ascii_uppercase + "234567"), s(40, B64)
    rows.append(("aws_pair", f"aws configure -> {v} {w}", [v, w]))
    v = s(32, HEX)
    rows.append(("nextauth", f"NEXTAUTH_SECRET={v}", [v]))
    return [{"id": f"s{start + i:03d}-{k}", "kind": k, "text": t, "secrets": v} for i, (k, t, v) in enumerate(rows)]


def third_batch(start: int) -> list[dict]:
    """A third probe, written after the second batch's fixes: 8 of its 24 secrets leaked and 0 of
    its 25 look-alikes were flagged before the rules it prompted (camelCase keys, keytool/openssl
    pass flags, rabbitmqctl, echo | --password-stdin, "wifi: ssid / pw", TOTP seeds); one
    ("password changed: it's now …") still leaks and is kept as a known miss, not a case."""
    R = random.Random(99)
    S: list[tuple[str, tuple[str, ...]]] = []

    def r(n: int, a: str = AN) -> str:
        return "".join(R.choice(a) for _ in range(n))

    def pw() -> str:
        return r(2, string.ascii_uppercase) + r(3, string.ascii_lowercase) + R.choice("$%!&") + r(3, string.digits)

    def add(t: str, *secrets: str) -> None:
        S.append((t, secrets))

    v=pw()
    add(f"note to self: vpn pwd {v}",v)
    v=pw()
    add(f"Root PW for the NAS is {v}",v)
    v=pw()
    add(f"gave Sam the jira login (sam.k / {v})",v)
    v=r(40)
    add(f"GITLAB_CI_TOKEN: {v}",v)
    v=r(32,"0123456789abcdef")
    add(f"the segment write key is {v}",v)
    v=pw()
    add(f"password={v};server=db;database=shop",v)
    v=pw()
    add(f"Server=tcp:acme.database.windows.net;User ID=app;Password={v};Encrypt=True",v)
    v=pw()
    add(f"jdbc:postgresql://db:5432/shop?user=app&password={v}",v)
    v=r(48)
    add(f"bot token: {v}",v)
    v=pw()
    add(f'keytool -genkey -storepass {v} -keystore app.jks',v)
    v=pw()
    add(f"openssl pkcs12 -export -passout pass:{v} -out cert.p12",v)
    v=pw()
    add(f"git config credential: https://ci:{v}@git.acme.dev",v)
    v=r(20)
    add(f"the TOTP seed is {v}",v)
    v=pw()
    add(f"user=admin pass={v}",v)
    v="sk_live_"+r(24)
    add(f"moved billing to {v}",v)
    v=r(40,AN+"/+")
    add(f"secretAccessKey: {v}",v)
    v=pw()
    add(f"{{\"username\": \"ops\", \"pass\": \"{v}\"}}",v)
    v=pw()
    add(f"The DB password changed: it's now {v}",v)
    v=r(36)
    add(f"Use bearer {v} for the staging API",v)
    v=pw()
    add(f"wifi: AcmeGuest / {v}",v)
    v=r(24)
    add(f"api-key {v} (sandbox)",v)
    v=pw()
    add(f"--db-password={v}",v)
    v=r(30)
    v="shpat_"+r(32,"0123456789abcdef")
    add(f"X-Shopify-Access-Token: {v}",v)
    v=pw()
    add(f"rabbitmqctl add_user svc {v}",v)
    v=pw()
    add(f"echo '{v}' | docker login -u ci --password-stdin",v)
    rows = [(t, list(v)) for t, v in S if "it's now" not in t]
    return [{"id": f"s{start + i:03d}-batch3", "kind": "batch3", "text": t, "secrets": v} for i, (t, v) in enumerate(rows)]


def fourth_batch(start: int) -> list[dict]:
    """A fourth probe, written from gitleaks' rule list (config/gitleaks.toml, 222 rules) before
    the rules it prompted: the fixed-prefix formats cavemem lacked, provider names beside a
    random value (gitleaks' semi-generic rules), key-id/secret pairs and adverbs in prose
    ("the password is now …")."""
    R = random.Random(4444)
    LO = string.ascii_lowercase + string.digits

    def r(n: int, a: str = AN) -> str:
        while True:
            v = "".join(R.choice(a) for _ in range(n))
            if a is not AN or (any(c.isdigit() for c in v) and any(c.isupper() for c in v) and any(c.islower() for c in v)):
                return v

    def pw() -> str:
        return r(3, string.ascii_uppercase) + r(3, string.ascii_lowercase) + R.choice("$%!&#") + r(3, string.digits)

    def uuid() -> str:
        return "-".join(r(n, HEX) for n in (8, 4, 4, 4, 12))

    fixed = [
        ("1password", lambda: f"A3-{r(6, UP)}-{r(11, UP)}-{r(5, UP)}-{r(5, UP)}-{r(5, UP)}", "1Password secret key {}"),
        ("1password", lambda: "ops_eyJ" + r(260, AN + "+/"), "OP_SERVICE_ACCOUNT_TOKEN={}"),
        ("adobe", lambda: "p8e-" + r(32), "adobe io client secret {}"),
        ("airtable", lambda: "pat" + r(14) + "." + r(64, HEX), "airtable PAT {}"),
        ("alibaba", lambda: "LTAI" + r(20), "aliyun access key id {}"),
        ("aws", lambda: "A3TX" + r(16, string.ascii_uppercase + "234567"), "old key {}"),
        ("bedrock", lambda: "ABSK" + r(120, AN + "+/"), "AWS_BEARER_TOKEN_BEDROCK={}"),
        ("clickhouse", lambda: "4b1d" + r(38), "clickhouse cloud key secret {}"),
        ("clojars", lambda: "CLOJARS_" + r(60, LO), "deploy token {}"),
        ("cloudflare_origin", lambda: "v1.0-" + r(24, HEX) + "-" + r(146, HEX), "origin ca key {}"),
        ("digitalocean", lambda: "doo_v1_" + r(64, HEX), "do oauth {}"),
        ("defined_networking", lambda: "dnkey-" + r(26, LO) + "-" + r(52, LO), "nebula dnkey {}"),
        ("duffel", lambda: "duffel_test_" + r(43), "duffel {}"),
        ("dynatrace", lambda: "dt0c01." + r(24, UP) + "." + r(64, UP), "dynatrace token {}"),
        ("easypost", lambda: "EZAK" + r(54, LO), "easypost {}"),
        ("facebook", lambda: "EAAC" + r(120), "fb page token {}"),
        ("flutterwave", lambda: "FLWSECK_TEST-" + r(32, HEX) + "-X", "flutterwave {}"),
        ("fly", lambda: "fm2_" + r(120, AN + "+/"), "FLY_API_TOKEN={}"),
        ("frameio", lambda: "fio-u-" + r(64, AN + "_-"), "frame.io {}"),
        ("grafana", lambda: "eyJrIjoi" + r(80), "grafana api key {}"),
        ("huggingface_org", lambda: "api_org_" + r(34, string.ascii_letters), "hf org token {}"),
        ("infracost", lambda: "ico-" + r(32), "infracost {}"),
        ("intra42", lambda: "s-s4t2ud-" + r(64, HEX), "42 intra secret {}"),
        ("gitlab", lambda: "glffct-" + r(20), "feature flag client {}"),
        ("gitlab", lambda: "glimt-" + r(25), "incoming mail {}"),
        ("gitlab", lambda: "glagent-" + r(50), "kas agent {}"),
        ("gitlab", lambda: "gloas-" + r(64), "gitlab oauth app secret {}"),
        ("gitlab", lambda: "GR1348941" + r(20), "runner registration {}"),
        ("gitlab", lambda: "_gitlab_session=" + r(32, LO), "cookie {}"),
        ("maxmind", lambda: r(6) + "_" + r(29) + "_mmk", "geoip license {}"),
        ("teams_webhook", lambda: f"https://acme.webhook.office.com/webhookb2/{uuid()}@{uuid()}/IncomingWebhook/{r(32, HEX)}/{uuid()}", "teams alerts {}"),
        ("newrelic", lambda: "NRJS-" + r(19, HEX), "browser key {}"),
        ("newrelic", lambda: "NRII-" + r(32, LO), "insert key {}"),
        ("octopus", lambda: "API-" + r(26, UP), "octopus deploy {}"),
        ("openshift", lambda: "sha256~" + r(43, AN + "_-"), "oc login --token={}"),
        ("planetscale", lambda: "pscale_tkn_" + r(43), "pscale {}"),
        ("planetscale", lambda: "pscale_pw_" + r(43), "DATABASE_URL=mysql://u:{}@aws.connect.psdb.cloud/db"),
        ("prefect", lambda: "pnu_" + r(36), "prefect {}"),
        ("readme", lambda: "rdme_" + r(70, LO), "readme {}"),
        ("rubygems", lambda: "rubygems_" + r(48, HEX), "gem push with {}"),
        ("scalingo", lambda: "tk-us-" + r(48, AN + "_-"), "scalingo {}"),
        ("sendinblue", lambda: "xkeysib-" + r(64, HEX) + "-" + r(16), "brevo {}"),
        ("settlemint", lambda: "sm_pat_" + r(16), "settlemint {}"),
        ("shippo", lambda: "shippo_live_" + r(40, HEX), "shippo {}"),
        ("sourcegraph", lambda: "sgp_" + r(16, HEX) + "_" + r(40, HEX), "src token {}"),
        ("slack", lambda: "xoxe.xoxp-1-" + r(166, UP), "slack config token {}"),
        ("slack", lambda: "xoxe-1-" + r(146, UP), "slack refresh {}"),
        ("typeform", lambda: "tfp_" + r(59, AN + "_-"), "typeform {}"),
        ("vault", lambda: "hvb." + r(140, AN + "_-"), "batch token {}"),
        ("stripe", lambda: "sk_prod_" + r(30), "stripe prod {}"),
        ("harness", lambda: f"pat.{r(22)}.{r(24)}.{r(20)}", "harness {}"),
        ("dropbox", lambda: "sl." + r(135, AN + "_-"), "dropbox short-lived {}"),
        ("twitter", lambda: "A" * 22 + r(90), "twitter bearer {}"),
        ("plaid", lambda: "access-sandbox-" + uuid(), "plaid access token {}"),
        ("gcs_hmac", lambda: "GOOG1E" + r(55, UP), "gcs hmac access id {}"),
        ("sidekiq", lambda: f"https://{r(8, HEX)}:{r(8, HEX)}@gems.contribsys.com/", "source {}"),
        ("facebook_app", lambda: f"{R.randint(10**14, 10**15)}|{r(32, AN + '_-')}", "facebook app token {}"),
    ]
    rows: list[tuple[str, str, list[str]]] = []
    for kind, make, fmt in fixed:
        v = make()
        rows.append((kind, fmt.format(v), [v.split("@")[0].split(":")[-1] if kind == "sidekiq" else v]))
    # provider names beside a value (gitleaks' semi-generic rules): no key word in the name
    for fmt, n, a in [
        ("ALGOLIA_ADMIN={}", 32, HEX), ("datadog: {}", 40, LO), ("heroku = {}", 0, ""), ("cloudflare global {}", 37, HEX),
        ("okta => 00{}", 40, AN), ("CONFLUENT_CLOUD={}", 64, LO), ("TWITCH_CLIENT_SECRET {}", 30, LO),
        ("mattermost bot: {}", 26, LO), ("sumo: {}", 64, AN), ("yandex iam {}", 0, "t1"),
    ]:
        v = uuid() if n == 0 and not a else ("t1." + r(40) + "." + r(86) if a == "t1" else r(n, a))
        rows.append(("semi_generic", fmt.format(v), [v]))
    # key id and secret given together: both halves go
    i, s = "LTAI" + r(20), r(30)
    rows.append(("alibaba_pair", f"aliyun ram user {i} / {s}", [i, s]))
    i, s = "GOOG1E" + r(55, UP), r(40, AN + "+/")
    rows.append(("gcs_hmac_pair", f"gcs interop keys: {i} {s}", [i, s]))
    # adverbs and updates in prose
    for fmt in ["the db password is now {}", "The DB password changed: it's now {}", "the password is still {}",
                "secret is: {}", "password now {}", "the staging password was changed to {}", "new password for the NAS: {}",
                "ssh passphrase is currently {}"]:
        v = pw()
        rows.append(("prose_adverb", fmt.format(v), [v]))
    return [{"id": f"s{start + i:03d}-batch4", "kind": k, "text": t, "secrets": v} for i, (k, t, v) in enumerate(rows)]


LOOKALIKES_3 = ["the vpn pwd prompt times out after 30s","Root PW resets need two approvals","jira login is via SSO now",
 "GITLAB_CI_TOKEN is injected by the runner","the segment write key lives in the settings page","password=; is rejected by the parser",
 "Encrypt=True is required for Azure SQL","jdbc:postgresql://db:5432/shop?user=app&ssl=true","bot token rotation is manual",
 "keytool -list -keystore app.jks","openssl rand -hex 32 generates a secret","git config credential.helper store",
 "TOTP uses 30 second windows","user=admin is the default login","billing moved to Stripe in March","secretAccessKey comes from the IRSA role",
 '{"username": "ops", "role": "admin"}',"The DB password changed last week","bearer tokens are checked by the gateway",
 "wifi: AcmeGuest on floor 3","api-key header is x-api-key","--db-password is read from a file","X-Shopify-Access-Token header is required",
 "rabbitmqctl list_users","docker login -u ci --password-stdin < token.txt"]

LOOKALIKES_4 = ["color: #1e90ff; background: #FAFAFA", "tests/test_api.py::test_login[admin-True] PASSED",
 "pytest -k 'test_token and not slow'", "run 9876543210 failed on ubuntu-latest", "pod web-7c9d8f6b5-x2k4p is CrashLoopBackOff",
 "npm i @types/node@20.11.5", "requires pydantic>=2.6,<3", "API-docs live in docs/api", "pat.txt holds the pattern list",
 "s.length is 24 here", "the heroku dyno restarted at 04:00", "datadog: agent 7.52 installed", "okta => SSO for everyone",
 "ALGOLIA_ADMIN=false in CI", "sumo: logs ship every minute", "the password is now stored in Vault", "password now lives in 1Password",
 "secret is: never commit .env", "The DB password changed: check the vault", "the password is still required on login",
 "new password for the NAS: ask Dana", "access-sandbox flow in the plaid docs", "sk_prod_ keys must never reach the client",
 "sha256~ prefix marks openshift tokens", "LTAI prefix marks alibaba key ids", "GOOG1E ids are gcs hmac keys",
 "AAAAAAAAAA padding in the test fixture", "v1.0-beta of the origin ca tool", "dt0c01 is dynatrace's prefix", "glimt- is a prefix",
 "xoxe tokens rotate every 12h", "4b1d is a hex word", "the okta org id is 00o1abcd in the admin url",
 "ico- files are icons", "tk-us-east-1 is our region tag", "rdme_ prefix for readme keys", "pnu_ tokens come from prefect cloud",
 "we set the password to expire every 90 days", "password changed to a passphrase policy", "The token is now refreshed hourly",
 "the api key is now in the secrets manager", "cloudflare global settings page", "TWITCH_CLIENT_SECRET is set in the dashboard",
 "mattermost bot: posts to #deploys", "confluent cloud: 3 clusters", "yandex iam roles are per folder",
 "image sha256:" + "ab12" * 16, "commit a1b2c3d4e5f60718293a4b5c6d7e8f9012345678 fixed it", "uuid 123e4567-e89b-12d3-a456-426614174000",
 "version 2024.11.3-post1+local", "Bearer authentication headers, see RFC 6750", "Current pwd: /home/ci/work/repo"]

def lookalikes() -> list[dict]:
    png = base64.b64encode(bytes(R.randrange(256) for _ in range(120))).decode()
    items = [
        f"fixed in commit {rnd(40, HEX)}", f"rebased onto {rnd(7, HEX)}", f"git show {rnd(12, HEX)}:src/app.py",
        f"sha256sum: {rnd(64, HEX)}  dist/app.tar.gz", f"md5 {rnd(32, HEX)} matches the mirror",
        f"image digest sha256:{rnd(64, HEX)}", f'"integrity": "sha512-{rnd(86, B64)}=="',
        f"request id {'-'.join(rnd(n, HEX) for n in (8, 4, 4, 4, 12))} in the logs",
        f"tenant uuid {'-'.join(rnd(n, HEX) for n in (8, 4, 4, 4, 12))}",
        f"![logo](data:image/png;base64,{png})", f"favicon data:image/gif;base64,{base64.b64encode(bytes(R.randrange(256) for _ in range(60))).decode()}",
        "we pin node 20.11.1 and python 3.12.4", "bumped to v2.14.3-rc.1", "the api listens on :8443 and metrics on 9090",
        "Bearer authentication headers are required on every request", "use Bearer tokens, not cookies, for the mobile app",
        "Current pwd: /home/dev/projects/shop", "pwd: /srv/app/releases/current", "password: required",
        "the password reset flow sends an email", "password hashing uses argon2id with 64 MB memory",
        "password_hash column is bcrypt", "token budget is 2000 tokens per question", "the key insight is caching at the edge",
        "API keys live in 1Password under Engineering", "rotate the secret every 90 days", "store the token in the keychain",
        "DB_PASSWORD=${DB_PASSWORD}", "password = os.environ['DB_PASSWORD']", 'api_key: "<your-api-key>"', "SECRET_KEY=changeme-in-prod".replace("changeme-in-prod", "${SECRET}"),
        "AKIA is the prefix of long-term AWS access key ids", "jwt tokens start with eyJ", "Stripe publishable key pk_live_ is safe in the browser",
        f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{rnd(43, B64)} dev@laptop", "postgres://app@db.internal:5432/app (auth via IAM)",
        "https://github.com:443/acme/shop/pulls", "see https://example.com/docs/auth?user=bob#login", "mkdir -p build/out && cp -r dist build/out",
        "git push -u origin main", "ls --color=auto", "the password field is a masked input", "token_id = 42 in the seed data",
        "the secret sauce is batching writes", "keyboard shortcuts: ctrl+k opens search", "the primary key is (tenant_id, id)",
        "cache key format: user:{id}:profile", "SELECT * FROM users WHERE api_key_id = 17", "monkey patched the test client",
        "docker login registry.acme.dev uses the credential helper", "curl -u $USER:$TOKEN https://ci.internal",
        f"the build number is {R.randint(10**6, 10**7)} on the main branch", "ports 5432, 6379 and 8080 are open",
        f"trace {rnd(32, HEX)} span {rnd(16, HEX)}", f"etag \"{rnd(32, HEX)}\" unchanged", f"ULID 01J{rnd(23, '0123456789ABCDEFGHJKMNPQRSTVWXYZ')}",
        "the passport photo upload is broken", "keystone tests pass", "session tokens expire after 30 minutes",
        "we use PostgreSQL 16 in production", "Key: Ctrl+Shift+P opens the palette", "secret: see vault path kv/shop/prod",
    ]
    # a second batch, written after the first results (so partly tuned on: see the module doc)
    items += [
        "the token is valid for 24h", "password policy: min 12 chars, one digit", "key: value pairs are parsed by the loader",
        "api_key_header = 'X-API-Key'", "The secret is to keep PRs small.", "token: the lexer emits IDENT tokens",
        "we moved the key rotation job to cron-7", "password_min_length = 12", "SECRET_KEY is read from the environment",
        "the API key was rotated on 2026-11-03", "set the token TTL to 3600s", "keys are sorted with sort_keys=True",
        "passwords must be hashed with bcrypt(cost=12)", "Token counts: prompt 1532, completion 211",
        "the access token expires in 15 minutes", "use --password-stdin with docker login",
        "docker login -u ci --password-stdin registry.acme.dev", "curl -u admin https://jenkins.internal (prompts for the password)",
        "mysql -u root -p shop", "ssh -p 2222 deploy@bastion", "the redis url is redis://cache.internal:6379/0",
        "https://user@github.com/acme/shop.git", "pwd = os.getcwd()", "print(f'key={key}')",
        "the primary key is a UUID v7: 018f3a2e-7b1c-7d3e-9a4b-5c6d7e8f9a0b", "commit key changes: 3f2a9bc",
        "the password is the one in 1Password", "my password manager is Bitwarden", "jwt secret comes from Vault at secret/data/shop/jwt",
        "key-value store: etcd 3.5.12", "api key prefix sk- identifies OpenAI keys", "SECRET_KEY = get_random_secret_key()",
        "password: ${{ secrets.DB_PASSWORD }}", "token: !vault |", "key = hashlib.sha256(data).hexdigest()",
        "the session key tk_7 is just the cache name",
        "ECDSA P-256 public key fingerprint SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s",
        "sha1 da39a3ee5e6b4b0d3255bfef95601890afd80709 of the empty file", "Token budget 4096 / context 128k",
    ]
    items += LOOKALIKES_3  # the third probe's look-alikes, seen before any fix (none was flagged)
    items += LOOKALIKES_4  # written beside the fourth probe, before its rules
    return [{"id": f"l{i:03d}", "text": t} for i, t in enumerate(items)]


if __name__ == "__main__":
    for name, rows in (("secrets.jsonl", cases()), ("lookalikes.jsonl", lookalikes())):
        with open(HERE / name, "w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        print(name, len(rows))
