"""cavemem.digest: the same SHA-256 as hashlib on both sides of the OpenSSL cut-over, and the hot
commands' ids and handles unchanged (content-addressed names must never move)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

from cavemem import digest


def test_digest_matches_hashlib_below_and_above_the_cut():
    for n in (0, 1, 55, 56, 64, 1000, digest.BIG - 1, digest.BIG, digest.BIG + 1, 3 * digest.BIG):
        data = os.urandom(n)
        h = digest.sha256(data)
        assert h.digest() == hashlib.sha256(data).digest() and h.hexdigest() == hashlib.sha256(data).hexdigest()
        h.update(b"more")
        assert h.hexdigest() == hashlib.sha256(data + b"more").hexdigest()


def test_small_inputs_do_not_load_openssl():
    code = "import sys; from cavemem.digest import sha256; print(sha256(b'abc').hexdigest(), '_hashlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True).stdout.decode().split()
    assert out == [hashlib.sha256(b"abc").hexdigest(), "False"]


def test_memory_ids_and_recovery_handles_are_the_sha256_names():
    from cavemem.memory.fts import project_token
    from cavemem.memory.ids import memory_id
    from cavemem.store.ccr import handle_for

    assert memory_id("we use PostgreSQL 16", "main") == "mem_" + hashlib.sha256(b"main\x00we use PostgreSQL 16").hexdigest()[:16]
    assert handle_for(b"x" * (digest.BIG + 5)) == "ccr_" + hashlib.sha256(b"x" * (digest.BIG + 5)).hexdigest()[:32]
    assert project_token("main") == "p" + hashlib.sha256(b"main").hexdigest()[:16]
