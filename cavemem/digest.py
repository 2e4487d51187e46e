"""SHA-256 for the hot CLI paths, without loading OpenSSL for small inputs.

``import hashlib`` loads ``_hashlib`` and with it libcrypto — about 11 M instructions and 190
page faults in every short ``cavemem`` process — to hash a few hundred bytes (a memory id, a
recovery handle, a project token). CPython's own SHA-256 module (``_sha256``; ``_sha2`` from 3.12)
gives the same digest from a small extension. It is about 5× slower per byte than OpenSSL
(135 vs 644 MB/s on the bench machine), so inputs of :data:`BIG` bytes or more, where that costs
more than loading OpenSSL, still go to ``hashlib``; so does an interpreter built without it.
"""

from __future__ import annotations

BIG = 256 * 1024


def sha256(data: bytes = b""):
    """A ``hashlib.sha256``-compatible hash object over ``data`` (same digest either way)."""
    if len(data) < BIG:
        ctor = _builtin()
        if ctor is not None:
            return ctor(data)
    import hashlib

    return hashlib.sha256(data)


def _builtin():
    try:
        from _sha256 import sha256 as ctor  # CPython <= 3.11
    except ImportError:
        try:
            from _sha2 import sha256 as ctor  # CPython 3.12+
        except ImportError:
            return None
    return ctor
