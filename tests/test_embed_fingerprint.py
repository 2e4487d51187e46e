"""The semantic index's cheap store fingerprint (row count from mem_corpus, highest seq) tracks
the real row count through every write path, so vectors stay in step with the store."""

from __future__ import annotations

import json

from cavemem.embed.scorer import store_fingerprint
from cavemem.memory.api import Memory


def _real(m) -> list[int]:
    row = m.store.read("SELECT count(*), coalesce(max(seq), 0) FROM memories")[0]
    return [int(row[0]), int(row[1])]


def test_fingerprint_follows_remember_merge_supersede_forget_and_import(tmp_path, db_backend):
    m = Memory(db_backend or str(tmp_path / "mem.db"), scorers=())
    seen = [store_fingerprint(m.store)]
    assert seen[0] == _real(m) == [0, 0]
    a = m.remember("the deploy key lives in vault under ops/deploy", project="p")
    m.remember("The deploy key lives in Vault under ops/deploy.", project="p")  # a rewording: merged
    b = m.remember("staging runs on kube-staging-2", project="p")
    seen.append(store_fingerprint(m.store))
    assert seen[-1] == _real(m)
    m.supersede(b.id, "staging moved to kube-staging-3")
    seen.append(store_fingerprint(m.store))
    assert seen[-1] == _real(m)
    m.forget(a.id)
    seen.append(store_fingerprint(m.store))
    assert seen[-1] == _real(m)
    m.import_lines([json.dumps({"text": f"imported note number {i} about kafka lag", "project": "q"}) for i in range(5)])
    seen.append(store_fingerprint(m.store))
    assert seen[-1] == _real(m)
    assert store_fingerprint(m.store) == _real(m)
    assert len({tuple(f) for f in seen}) == len(seen)  # every write moved it
    m.close()
