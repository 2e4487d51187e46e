"""Distil the static token table (``data/static-minilm.bin``) from int8 all-MiniLM-L6-v2 (offline, once).

    python -m cavemem.embed.distill      # needs the [embed] extra; rewrites data/static-minilm.bin

Model2Vec-style: every WordPiece token of the shipped vocabulary goes through the model alone
(``[CLS] token [SEP]``, mean-pooled like a sentence), the 30k vectors are centred and reduced by
PCA to :data:`DIM` dimensions, weighted by a Zipf estimate of the token's frequency (the vocabulary
is roughly frequency-ordered: frequent tokens say little, as in SIF weighting) and stored as int8
with one float32 scale per row. A sentence is then the normalised mean of its tokens' rows — no
model at recall time, just a table lookup (see :mod:`.static`). The table is derived from
all-MiniLM-L6-v2 (Apache-2.0, ``data/LICENSE-Apache-2.0.txt``, ``data/NOTICE.txt``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

DIM = 256
OUT = Path(__file__).parent / "data" / "static-minilm.bin"
MAGIC = b"CMSTATIC1"


def distil(out: Path = OUT, dim: int = DIM) -> dict:
    import numpy as np

    from .embedder import Embedder
    from .wordpiece import TOKENIZER_PATH

    vocab = json.loads(TOKENIZER_PATH.read_text(encoding="utf-8"))["model"]["vocab"]
    n = max(vocab.values()) + 1
    emb = Embedder(threads=2).load()
    raw = np.zeros((n, 384), dtype=np.float32)
    ids = np.arange(n, dtype=np.int64)
    for start in range(0, n, 512):
        chunk = ids[start : start + 512]
        batch = np.stack([np.full_like(chunk, 101), chunk, np.full_like(chunk, 102)], axis=1)
        feeds = {"input_ids": batch, "attention_mask": np.ones_like(batch), "token_type_ids": np.zeros_like(batch)}
        hidden = emb._session.run(None, feeds)[0]
        raw[start : start + len(chunk)] = hidden.mean(axis=1)
    regular = np.array([not (t.startswith("[unused") or t in ("[PAD]",)) for t, _ in sorted(vocab.items(), key=lambda kv: kv[1])])
    mean = raw[regular].mean(axis=0)
    centred = raw - mean
    _, _, vt = np.linalg.svd(centred[regular], full_matrices=False)
    reduced = centred @ vt[:dim].T
    rank = np.arange(n, dtype=np.float64) + 1
    weight = np.log1p(rank / 1000.0)  # Zipf: frequency ~ 1/rank, weight grows with rarity
    reduced *= weight[:, None].astype(np.float32)
    reduced[~regular] = 0
    scale = np.abs(reduced).max(axis=1) / 127.0
    scale[scale == 0] = 1.0
    q = np.clip(np.round(reduced / scale[:, None]), -127, 127).astype(np.int8)
    with open(out, "wb") as fh:
        fh.write(MAGIC + np.array([n, dim], dtype="<u4").tobytes())
        fh.write(scale.astype("<f4").tobytes())
        fh.write(q.tobytes())
    return {"tokens": n, "dim": dim, "bytes": out.stat().st_size}


if __name__ == "__main__":
    print(distil(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT))
