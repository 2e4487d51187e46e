"""Provider token formats: the fixed-prefix secrets a scanner recognises by shape alone.

Covers the plugin list of ``detect-secrets`` (AWS, Azure storage/SAS, Artifactory, Discord, GitHub,
GitLab, JWT, Mailchimp, NPM, OpenAI, PyPI, SendGrid, Slack, Square, Stripe, Telegram, Twilio) plus
the newer formats it misses (Sentry, Resend, Mapbox, Adyen, Mailgun, age, Vault, Doppler, …), and
every fixed-prefix format of gitleaks' rule list (1Password, Alibaba, Bedrock, ClickHouse, Dynatrace,
GitLab's dozen prefixes, PlanetScale, RubyGems, Teams webhooks, …). Patterns adapted from gitleaks'
``config/gitleaks.toml`` are used under its MIT licence, kept in ``LICENSE-gitleaks.txt`` beside this file.
We match them ourselves instead of importing detect-secrets: its import alone costs ~140 ms, over
the 30 ms budget of a cold ``remember`` (``scripts/bench_redaction.py`` measures both).

Each rule is (kind, regex, group holding the secret or 0 for the whole match, guards). A rule's
regex only runs when one of its guard substrings is in the text, so most texts run none. Every
quantifier is bounded and every pattern starts at a literal prefix: the cost is linear in the text.
"""

from __future__ import annotations

import re

_B = r"(?<![A-Za-z0-9_+/=.-])"  # a token start: not inside a longer token (base64 blobs, hashes)
_E = r"(?![A-Za-z0-9_-])"

_AWS_PREFIXES = ("AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AIPA", "ANPA", "ANVA", "AROA", "APKA", "ASCA")

# (kind, pattern, group, guards)
_TABLE: list[tuple[str, str, int, tuple[str, ...]]] = [
    ("jwt", r"\beyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{8,4096}", 0, ("eyJ",)),
    ("aws_access_key_id", r"(?<![A-Z0-9])(?:A3T[A-Z0-9]|" + "|".join(_AWS_PREFIXES) + r")[A-Z0-9]{16}(?![A-Z0-9])", 0, _AWS_PREFIXES + ("A3T",)),
    ("github_token", r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}\b", 0, ("gh",)),
    ("github_token", r"\bgithub_pat_[A-Za-z0-9_]{22,255}", 0, ("github_pat_",)),
    ("gitlab_token", r"\bgl(?:pat|dt|rt|ptt|ft|soat|cbt|ffct|imt|agent|oas)-[A-Za-z0-9_-]{20,255}", 0, ("gl",)),
    ("gitlab_token", r"\bGR1348941[A-Za-z0-9_-]{20,64}", 0, ("GR1348941",)),
    ("gitlab_token", r"\b_gitlab_session=([0-9a-z]{32})\b", 1, ("_gitlab_session=",)),
    ("anthropic_api_key", r"\bsk-ant-[A-Za-z0-9_-]{20,255}", 0, ("sk-ant-",)),
    ("openai_api_key", r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,255}", 0, ("sk-",)),
    ("slack_token", r"\bxox[abposre]-[A-Za-z0-9-]{10,255}", 0, ("xox",)),
    ("slack_webhook", r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{20,200}", 0, ("hooks.slack.com",)),
    ("stripe_key", r"\b(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,255}\b", 0, ("_live_", "_test_", "_prod_")),
    ("stripe_webhook_secret", r"\bwhsec_[A-Za-z0-9+/=]{24,255}", 0, ("whsec_",)),
    ("google_api_key", r"\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])", 0, ("AIza",)),
    ("google_oauth_secret", r"\bGOCSPX-[A-Za-z0-9_-]{24,40}", 0, ("GOCSPX-",)),
    ("google_oauth_token", r"\bya29\.[A-Za-z0-9_-]{20,2048}", 0, ("ya29.",)),
    ("npm_token", r"\bnpm_[A-Za-z0-9]{36}\b", 0, ("npm_",)),
    ("pypi_token", r"\bpypi-AgE[A-Za-z0-9_-]{50,1024}", 0, ("pypi-",)),
    ("huggingface_token", r"\bhf_[A-Za-z0-9]{34,40}\b", 0, ("hf_",)),
    ("digitalocean_token", r"\bdo[por]_v1_[a-f0-9]{64}\b", 0, ("_v1_",)),
    ("sendgrid_api_key", r"\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}\b", 0, ("SG.",)),
    ("twilio_api_key", r"\bSK[0-9a-fA-F]{32}\b", 0, ("SK",)),
    ("shopify_token", r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b", 0, ("shp",)),
    ("telegram_bot_token", r"\b\d{8,10}:AA[A-Za-z0-9_-]{33}\b", 0, (":AA",)),
    ("sentry_token", r"\bsntry[su]_[A-Za-z0-9+/=_-]{30,2048}", 0, ("sntry",)),
    ("sentry_dsn", r"https?://([0-9a-f]{32})(?::[0-9a-f]{32})?@[A-Za-z0-9.-]{0,100}sentry\.io", 1, ("sentry",)),
    ("resend_api_key", r"\bre_[A-Za-z0-9]{8,12}_[A-Za-z0-9]{16,40}\b", 0, ("re_",)),
    ("mapbox_token", r"\bsk\.eyJ[A-Za-z0-9_-]{20,400}\.[A-Za-z0-9_-]{16,100}", 0, ("sk.eyJ",)),
    ("adyen_api_key", _B + r"AQE[A-Za-z0-9]{3}[A-Za-z0-9+/=._-]{50,600}", 0, ("AQE",)),
    ("mailgun_api_key", r"\bkey-[0-9a-f]{32}\b", 0, ("key-",)),
    ("mailchimp_api_key", r"\b[0-9a-f]{32}-us[0-9]{1,2}\b", 0, ("-us",)),
    ("discord_bot_token", _B + r"[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}" + _E, 0, (".",)),
    ("discord_webhook", r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d{15,22}/[A-Za-z0-9_-]{50,100}", 0, ("discord",)),
    ("square_token", r"\bsq0(?:atp|csp|idp)-[0-9A-Za-z_-]{22,60}", 0, ("sq0",)),
    ("square_token", r"\bEAAA[A-Za-z0-9_-]{60}" + _E, 0, ("EAAA",)),
    ("age_secret_key", r"AGE-SECRET-KEY-1[0-9A-Z]{58}", 0, ("AGE-SECRET-KEY-",)),
    ("artifactory_token", _B + r"AKCp[A-Za-z0-9]{60,80}" + _E, 0, ("AKCp",)),
    ("artifactory_token", _B + r"cmVmdGtuOjAxOj[A-Za-z0-9]{40,80}" + _E, 0, ("cmVmdGtuOjAxOj",)),
    ("docker_hub_token", r"\bdckr_pat_[A-Za-z0-9_-]{24,40}", 0, ("dckr_pat_",)),
    ("vault_token", r"\bhv[sbr]\.[A-Za-z0-9_-]{24,255}", 0, ("hvs.", "hvb.", "hvr.")),
    ("doppler_token", r"\bdp\.(?:st|pt|ct|sa|scim|audit)\.[A-Za-z0-9_.-]{40,60}", 0, ("dp.",)),
    ("postman_api_key", r"\bPMAK-[0-9a-f]{24}-[0-9a-f]{34}\b", 0, ("PMAK-",)),
    ("linear_api_key", r"\blin_(?:api|oauth)_[A-Za-z0-9]{40}\b", 0, ("lin_",)),
    ("notion_token", r"\b(?:ntn_[A-Za-z0-9]{40,50}|secret_[A-Za-z0-9]{43})\b", 0, ("ntn_", "secret_")),
    ("databricks_token", r"\bdapi[0-9a-f]{32}(?:-\d)?\b", 0, ("dapi",)),
    ("grafana_token", r"\b(?:glsa_[A-Za-z0-9]{32}_[0-9a-f]{8}|glc_[A-Za-z0-9+/=]{32,400})", 0, ("glsa_", "glc_")),
    ("newrelic_api_key", r"\b(?:NRAK-[A-Z0-9]{27}|NRJS-[a-f0-9]{19}|NRII-[A-Za-z0-9-]{32})\b", 0, ("NRAK-", "NRJS-", "NRII-")),
    ("atlassian_token", r"\bATATT3[A-Za-z0-9_=-]{100,300}", 0, ("ATATT3",)),
    ("supabase_token", r"\bsbp_[0-9a-f]{40}\b", 0, ("sbp_",)),
    ("netlify_token", r"\bnfp_[A-Za-z0-9]{36,40}\b", 0, ("nfp_",)),
    ("pulumi_token", r"\bpul-[0-9a-f]{40}\b", 0, ("pul-",)),
    ("terraform_token", r"\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,90}", 0, (".atlasv1.",)),
    ("fly_token", r"\b(?:fo1_[A-Za-z0-9_-]{40,48}|fm1[ar]_[A-Za-z0-9+/]{100,4096}={0,3}|fm2_[A-Za-z0-9+/]{100,4096}={0,3})", 0, ("fo1_", "fm1", "fm2_")),
    ("groq_api_key", r"\bgsk_[A-Za-z0-9]{48,56}\b", 0, ("gsk_",)),
    ("xai_api_key", r"\bxai-[A-Za-z0-9]{70,90}\b", 0, ("xai-",)),
    ("replicate_token", r"\br8_[A-Za-z0-9]{37}\b", 0, ("r8_",)),
    ("perplexity_api_key", r"\bpplx-[A-Za-z0-9]{40,56}\b", 0, ("pplx-",)),
    ("heroku_api_key", r"\bHRKU-[A-Za-z0-9_-]{40,70}", 0, ("HRKU-",)),
    ("azure_client_secret", _B + r"[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}" + _E, 0, ("Q~",)),
    ("azure_storage_key", r"(?i)\bAccountKey\s{0,5}=\s{0,5}([A-Za-z0-9+/]{40,100}={0,2})", 1, ("ccountkey",)),
    ("azure_sas_key", r"(?i)\bSharedAccessKey\s{0,5}=\s{0,5}([A-Za-z0-9+/%]{20,100}(?:={0,2}|(?:%3D){0,2}))", 1, ("haredaccesskey",)),
    ("azure_sas_signature", r"[?&;]sig=([A-Za-z0-9%+/]{20,200}(?:={0,2}|(?:%3D){0,2}))", 1, ("sig=",)),
    ("slack_token", r"\bxapp-\d-[A-Z0-9]{8,12}-\d{8,14}-[a-f0-9]{32,80}\b", 0, ("xapp-",)),
    # -- from gitleaks' rule list (config/gitleaks.toml, MIT: see LICENSE-gitleaks.txt) ---------
    ("onepassword_secret_key", r"\bA3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\b", 0, ("A3-",)),
    ("onepassword_token", r"\bops_eyJ[A-Za-z0-9+/]{250,8192}={0,3}", 0, ("ops_eyJ",)),
    ("adobe_client_secret", r"\bp8e-[A-Za-z0-9]{32}\b", 0, ("p8e-",)),
    ("airtable_token", r"\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}\b", 0, ("pat",)),
    ("alibaba_access_key_id", r"\bLTAI[A-Za-z0-9]{20}\b", 0, ("LTAI",)),
    ("aws_bedrock_api_key", r"\b(?:ABSK[A-Za-z0-9+/]{109,269}={0,2}|bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/=]{0,4096})", 0, ("ABSK", "bedrock-api-key-")),
    ("clickhouse_api_secret", r"\b4b1d[A-Za-z0-9]{38}\b", 0, ("4b1d",)),
    ("clojars_token", r"(?i)\bCLOJARS_[a-z0-9]{60}\b", 0, ("clojars_",)),
    ("cloudflare_origin_ca_key", r"\bv1\.0-[a-f0-9]{24}-[a-f0-9]{146}\b", 0, ("v1.0-",)),
    ("defined_networking_token", r"\bdnkey-[A-Za-z0-9=_-]{26}-[A-Za-z0-9=_-]{52}", 0, ("dnkey-",)),
    ("duffel_token", r"\bduffel_(?:test|live)_[A-Za-z0-9_=-]{43}", 0, ("duffel_",)),
    ("dynatrace_token", r"\bdt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}", 0, ("dt0c01.",)),
    ("easypost_token", r"\bEZ[AT]K[A-Za-z0-9]{54}\b", 0, ("EZAK", "EZTK")),
    ("facebook_token", r"\bEAA[MC][A-Za-z0-9]{100,1024}", 0, ("EAAM", "EAAC")),
    ("facebook_token", r"\b\d{15,16}(?:\||%7C)[0-9A-Za-z_-]{27,40}(?![0-9A-Za-z_-])", 0, ("|", "%7C")),
    ("flutterwave_key", r"\bFLW(?:SECK|PUBK)_TEST-[a-hA-H0-9]{12}(?:[a-hA-H0-9]{20}-X)?", 0, ("FLWSECK", "FLWPUBK")),
    ("frameio_token", r"\bfio-u-[A-Za-z0-9_=-]{64}", 0, ("fio-u-",)),
    ("grafana_token", r"\beyJrIjoi[A-Za-z0-9]{70,400}={0,3}", 0, ("eyJrIjoi",)),
    ("huggingface_token", r"\bapi_org_[A-Za-z]{34}\b", 0, ("api_org_",)),
    ("infracost_token", r"\bico-[A-Za-z0-9]{32}\b", 0, ("ico-",)),
    ("intra42_secret", r"\bs-s4t2(?:ud|af)-[a-f0-9]{64}\b", 0, ("s-s4t2",)),
    ("maxmind_license_key", r"\b[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk\b", 0, ("_mmk",)),
    ("teams_webhook", r"https://[a-z0-9-]{1,60}\.webhook\.office\.com/webhookb2/[A-Za-z0-9@/_-]{40,400}", 0, ("webhook.office.com",)),
    ("octopus_api_key", r"\bAPI-[A-Z0-9]{26}\b", 0, ("API-",)),
    ("openshift_token", r"\bsha256~[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])", 0, ("sha256~",)),
    ("planetscale_token", r"\bpscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,64}", 0, ("pscale_",)),
    ("prefect_token", r"\bpnu_[A-Za-z0-9]{36}\b", 0, ("pnu_",)),
    ("readme_api_key", r"\brdme_[a-z0-9]{70}\b", 0, ("rdme_",)),
    ("rubygems_token", r"\brubygems_[a-f0-9]{48}\b", 0, ("rubygems_",)),
    ("scalingo_token", r"\btk-us-[A-Za-z0-9_-]{48}", 0, ("tk-us-",)),
    ("sendinblue_api_key", r"\bxkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}\b", 0, ("xkeysib-",)),
    ("settlemint_token", r"\bsm_[aps]at_[A-Za-z0-9]{16}\b", 0, ("sm_",)),
    ("shippo_token", r"\bshippo_(?:live|test)_[a-fA-F0-9]{40}\b", 0, ("shippo_",)),
    ("sourcegraph_token", r"\bsgp_(?:(?:[a-fA-F0-9]{16}|local)_)?[a-fA-F0-9]{40}\b", 0, ("sgp_",)),
    ("slack_token", r"\bxoxe\.xox[bp]-\d-[A-Za-z0-9]{163,166}", 0, ("xoxe.",)),
    ("typeform_token", r"\btfp_[A-Za-z0-9_.=-]{59}", 0, ("tfp_",)),
    ("harness_api_key", r"\b(?:pat|sat)\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}\b", 0, ("pat.", "sat.")),
    ("dropbox_token", r"\bsl\.[A-Za-z0-9_=-]{135,1400}", 0, ("sl.",)),
    ("twitter_bearer_token", r"\bA{22}[A-Za-z0-9%]{80,100}\b", 0, ("A" * 22,)),
    ("plaid_token", r"\baccess-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", 0, ("access-",)),
    ("gcs_hmac_access_id", r"\bGOOG1[A-Z0-9]{50,70}\b", 0, ("GOOG1",)),
    ("yandex_token", r"\b(?:t1\.[A-Za-z0-9_-]{20,512}={0,2}\.[A-Za-z0-9_-]{86}={0,2}|AQVN[A-Za-z0-9_-]{35,38}(?![A-Za-z0-9_-]))", 0, ("t1.", "AQVN")),
]

# case-insensitive guards: these rules use (?i) and are checked against the lower-cased text
_LOWER = {"azure_storage_key", "azure_sas_key", "clojars_token"}



class Lazy:
    """A regex compiled on first use: compiling all ~105 patterns up front would cost a cold
    ``remember`` ~40 ms, while a typical text triggers the guards of none or a few."""

    __slots__ = ("pattern", "flags", "_rx")

    def __init__(self, pattern: str, flags: int = 0):
        self.pattern, self.flags, self._rx = pattern, flags, None

    @property
    def rx(self) -> re.Pattern[str]:
        if self._rx is None:
            self._rx = re.compile(self.pattern, self.flags)
        return self._rx

    def sub(self, repl, text: str) -> str:
        return self.rx.sub(repl, text)

    def finditer(self, text: str):
        return self.rx.finditer(text)

    def fullmatch(self, text: str):
        return self.rx.fullmatch(text)

    def match(self, text: str):
        return self.rx.match(text)

    def search(self, text: str):
        return self.rx.search(text)


RULES: list[tuple[str, Lazy, int]] = [(k, Lazy(p), g) for k, p, g, _ in _TABLE]
# flat (guard, rule index) lists: one ``in`` per guard, no per-rule generator
_FLAT = [(g, i) for i, (k, _, _, gs) in enumerate(_TABLE) if k not in _LOWER for g in gs]
_FLAT_LOWER = [(g, i) for i, (k, _, _, gs) in enumerate(_TABLE) if k in _LOWER for g in gs]


def active_rules(text: str, low: str) -> list[tuple[str, Lazy, int]]:
    """The rules whose guard substring occurs in the text (a substring check, no regex), in table order."""
    hit = {i for g, i in _FLAT if g in text}
    hit.update(i for g, i in _FLAT_LOWER if g in low)
    return [RULES[i] for i in sorted(hit)]
