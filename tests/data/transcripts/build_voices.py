"""Builds the "voices" capture sets: more labelled tune data, in writing styles unlike the first tune sets.

Run ``python tests/data/transcripts/build_voices.py`` to regenerate ``v-*.jsonl`` and
``gold_voices.json`` (same Claude Code line format and labelling as ``build_devset.py``, whose
``build`` it uses). The conversations (``sessions_voices_*.py``) were written on 2026-12-02 by the
capture helper in deliberately different voices — terse, chatty, typo-ridden, non-native English
(German, Russian, Spanish, French, Japanese, Hindi, Chinese, Portuguese speakers), decisions given as
answers to the assistant's questions, reversals within a session, updates across sessions,
near-but-distinct pairs, secrets in prose, long tool output — with their gold labels written beside
them before any capture run.

Split, fixed before any run: ``sha256(file name)[0] < 86`` (about a third) → ``vcheck``, else
``vtune``. Only ``vtune`` is trained and tuned on; ``vcheck`` is read for totals and its misses
only to confirm a change decided on ``vtune``.

Checks while building (a label that cannot match is a bug in the label): every gold item's
``must`` words occur together in one sentence of one conversation message (for a bug fix: in one
message); every noise string and secret occurs in the transcript; updates and distinct pairs
name items that exist.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", ".."))

from build_devset import build  # noqa: E402 - the shared line format
from sessions_voices_a import VOICES_A  # noqa: E402
from sessions_voices_b import VOICES_B  # noqa: E402
from sessions_voices_c import VOICES_C  # noqa: E402
from sessions_voices_d import VOICES_D  # noqa: E402
from sessions_voices_e import VOICES_E  # noqa: E402
from sessions_voices_f import VOICES_F  # noqa: E402
from sessions_voices_g import VOICES_G  # noqa: E402
from sessions_voices_h import VOICES_H  # noqa: E402
from sessions_voices_i import VOICES_I  # noqa: E402
from sessions_voices_j import VOICES_J  # noqa: E402
from sessions_voices_k import VOICES_K  # noqa: E402
from sessions_voices_l import VOICES_L  # noqa: E402
from sessions_voices_m import VOICES_M  # noqa: E402
from sessions_voices_n import VOICES_N  # noqa: E402
from sessions_voices_o import VOICES_O  # noqa: E402
from sessions_voices_p import VOICES_P  # noqa: E402

GOLD = os.path.join(HERE, "gold_voices.json")
ALL = VOICES_A + VOICES_B + VOICES_C + VOICES_D + VOICES_E + VOICES_F + VOICES_G + VOICES_H + VOICES_I + VOICES_J + VOICES_K + VOICES_L + VOICES_M + VOICES_N + VOICES_O + VOICES_P


def split_of(file_name: str) -> str:
    return "vcheck" if hashlib.sha256(file_name.encode()).digest()[0] < 86 else "vtune"


def check(sess: dict, text: str) -> None:
    """Fail on a label that cannot match the conversation it labels."""
    from cavemem.memory.capture import extract, transcript

    path = os.path.join(HERE, sess["name"] + ".jsonl")
    msgs = [m for m in transcript.read_from(path).messages if m.type in ("user", "assistant")]
    bodies = [extract.clean_text(m.text).lower() for m in msgs]
    sents = [s.lower() for b in bodies for s in extract.sentences(b)]
    for item in sess["gold"]:
        words = [w.lower() for w in item["must"]]
        pool = bodies if item["kind"] == "bugfix" else sents
        if not any(all(w in s for w in words) for s in pool):
            raise SystemExit(f"{sess['name']}: gold {item['id']} {words} is in no single {'message' if item['kind'] == 'bugfix' else 'sentence'}")
    for s in sess.get("noise", []) + sess.get("secrets", []):
        if s not in text and s.lower() not in text.lower():
            raise SystemExit(f"{sess['name']}: {s!r} does not occur in the transcript")


def main() -> None:
    gold, ids = {}, set()
    for sess in ALL:
        ids.update(f"{sess['name']}:{g['id']}" for g in sess["gold"])
    orders = [s["order"] for s in ALL]
    assert len(set(orders)) == len(orders), "orders must be unique"
    for sess in ALL:
        name = sess["name"] + ".jsonl"
        assert name.startswith("v-")
        text = build(sess)
        with open(os.path.join(HERE, name), "w", encoding="utf-8") as fh:
            fh.write(text)
        check(sess, text)
        for pair in sess.get("updates", []) + sess.get("distinct", []):
            missing = [k for k in pair if k not in ids]
            assert not missing, (name, missing)
        gold[name] = {k: sess.get(k, []) for k in ("gold", "noise", "secrets", "updates")}
        if sess.get("distinct"):
            gold[name]["distinct"] = sess["distinct"]
        gold[name].update(project=sess["project"], session=sess["session"], order=sess["order"], fresh=False, split=split_of(name))
    with open(GOLD, "w", encoding="utf-8") as fh:
        json.dump(gold, fh, indent=1, ensure_ascii=False)
        fh.write("\n")
    n = {s: sum(1 for g in gold.values() if g["split"] == s) for s in ("vtune", "vcheck")}
    items = {s: sum(len(g["gold"]) for g in gold.values() if g["split"] == s) for s in ("vtune", "vcheck")}
    print(f"{len(gold)} files ({n}), gold items {items}")


if __name__ == "__main__":
    main()
