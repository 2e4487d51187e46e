"""Two names joined by a slash after a credential word ("Login tokens go in (Keychain / Keystore)")
are alternatives, not a user and a password; a real password after the slash is still hidden."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cavemem.memory.privacy import redact

CASES = Path(__file__).parent / "data" / "secrets" / "lookalikes_alternatives.jsonl"
ALTERNATIVES = [json.loads(x)["text"] for x in CASES.read_text(encoding="utf-8").splitlines() if x.strip()]


@pytest.mark.parametrize("text", ALTERNATIVES)
def test_alternatives_after_a_credential_word_stay(text):
    assert redact(text) == (text, {})


@pytest.mark.parametrize("text,secret", [
    ("login: admin / S3cr3t!xQ for the staging panel", "S3cr3t!xQ"),
    ("wifi: HomeNet5G / Tr0ub4dor&3", "Tr0ub4dor&3"),
    ("creds are bob:Xk9!pLm2vQ, rotate them monthly", "Xk9!pLm2vQ"),
    ("Login tokens go in the Keychain; the test account is qa@acme.io / Winter2026!", "Winter2026!"),
])
def test_a_password_after_the_slash_is_still_hidden(text, secret):
    out, kinds = redact(text)
    assert secret not in out and kinds
