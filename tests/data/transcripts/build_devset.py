"""Builds the capture dev set: Claude Code transcripts (exact JSONL shape) plus gold labels.

Run ``python tests/data/transcripts/build_devset.py`` to regenerate ``*.jsonl`` and ``gold.json``
(deterministic: uuids are uuid5 of the session and line number, times step by seconds). The
conversations are written by hand below; the builder only wraps them in Claude Code's line format
(``parentUuid`` chains, ``message.content`` blocks, ``tool_use`` / ``tool_result`` pairs with
``toolUseResult``, ``thinking`` blocks, ``file-history-snapshot``, ``system`` and ``summary``
lines). Licence: written for cavemem, same licence as the repository.
"""

from __future__ import annotations

import json
import os
import uuid
from datetime import datetime, timedelta, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
VERSION = "1.0.58"
MODEL = "claude-sonnet-4-20250514"

from sessions import SESSIONS  # noqa: E402 - the hand-written conversations
from sessions_fresh3 import FRESH3  # noqa: E402 - the third fresh set, labelled before any run
from sessions_fresh4 import FRESH4  # noqa: E402 - the fourth fresh set, labelled before any run
from sessions_fresh5 import FRESH5  # noqa: E402 - the fifth fresh set, labelled before any run
from sessions_fresh6 import FRESH6  # noqa: E402 - the sixth fresh set, labelled before any run
from sessions_fresh7 import FRESH7  # noqa: E402 - the seventh, by a helper who never read the rules; held out
from sessions_fresh8 import FRESH8  # noqa: E402 - the eighth, by another helper who never read the rules; held out


class Writer:
    def __init__(self, sess: dict):
        self.s = sess
        self.lines: list[dict] = []
        self.parent = None
        self.t = datetime.fromisoformat(sess["start"]).replace(tzinfo=timezone.utc)
        self.n = 0

    def uid(self) -> str:
        self.n += 1
        return str(uuid.uuid5(uuid.NAMESPACE_URL, f"{self.s['session']}/{self.n}"))

    def stamp(self, step: int = 7) -> str:
        self.t += timedelta(seconds=step)
        return self.t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.t.microsecond // 1000:03d}Z"

    def base(self, kind: str) -> dict:
        u = self.uid()
        d = {"parentUuid": self.parent, "isSidechain": False, "userType": "external", "cwd": self.s["cwd"],
             "sessionId": self.s["session"], "version": "2.0.31" if self.s.get("v2") else VERSION, "gitBranch": self.s.get("branch", "main"),
             "type": kind, "uuid": u, "timestamp": self.stamp()}
        self.parent = u
        return d

    def user(self, content, **extra) -> None:
        d = self.base("user")
        d["message"] = {"role": "user", "content": content}
        d.update(extra)
        self.lines.append(d)

    def assistant(self, blocks: list[dict]) -> None:
        d = self.base("assistant")
        mid = "msg_01" + uuid.uuid5(uuid.NAMESPACE_DNS, d["uuid"]).hex[:22]
        d["message"] = {"id": mid, "type": "message", "role": "assistant", "model": MODEL, "content": blocks,
                        "stop_reason": None, "stop_sequence": None,
                        "usage": {"input_tokens": 4, "cache_creation_input_tokens": 1200, "cache_read_input_tokens": 15000,
                                  "output_tokens": 120, "service_tier": "standard"}}
        d["requestId"] = "req_011" + d["uuid"].replace("-", "")[:20]
        self.lines.append(d)

    def tool(self, name: str, inp: dict, result: str) -> None:
        tid = "toolu_01" + uuid.uuid5(uuid.NAMESPACE_OID, f"{self.s['session']}/{self.n}").hex[:22]
        self.assistant([{"type": "tool_use", "id": tid, "name": name, "input": inp}])
        self.user([{"tool_use_id": tid, "type": "tool_result", "content": result}],
                  toolUseResult={"stdout": result, "stderr": "", "interrupted": False, "isImage": False})

    def system(self, text: str) -> None:
        d = self.base("system")
        d.update({"content": text, "isMeta": False, "level": "info"})
        self.lines.append(d)


def build(sess: dict) -> str:
    w = Writer(sess)
    if sess.get("v2"):  # newer Claude Code: a queue-operation line first, the session title on top
        w.lines.append({"type": "queue-operation", "operation": "dequeue", "timestamp": w.stamp(0), "sessionId": sess["session"]})
        if sess.get("summary"):
            w.lines.append({"type": "summary", "summary": sess["summary"], "leafUuid": str(uuid.uuid5(uuid.NAMESPACE_URL, sess["session"] + "/leaf"))})
    w.lines.append({"type": "file-history-snapshot", "messageId": str(uuid.uuid5(uuid.NAMESPACE_URL, sess["session"])),
                    "snapshot": {"messageId": "x", "trackedFileBackups": {}, "timestamp": w.stamp(0)}, "isSnapshotUpdate": False})
    for turn in sess["turns"]:
        role = turn[0]
        if role == "u":
            w.user(turn[1])
        elif role == "meta":
            w.user(turn[1], isMeta=True)
        elif role == "sys":
            w.system(turn[1])
        elif role == "a":
            opts = turn[2] if len(turn) > 2 else {}
            if opts.get("thinking"):
                w.assistant([{"type": "thinking", "thinking": opts["thinking"], "signature": "EqQBCkgIBxABGAIiQ" + "A" * 40}])
            for name, inp, res in opts.get("tools", ()):
                w.tool(name, inp, res)
            if turn[1]:
                w.assistant([{"type": "text", "text": turn[1]}])
    if sess.get("summary") and not sess.get("v2"):
        w.lines.append({"type": "summary", "summary": sess["summary"], "leafUuid": w.parent})
    text = "".join(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n" for line in w.lines)
    if sess.get("torn"):
        text += '{"parentUuid":"' + str(w.parent) + '","isSidechain":false,"type":"assistant","message":{"role":"assist'
    return text


def main() -> None:
    gold = {}
    for sess in SESSIONS + FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8:
        name = sess["name"] + ".jsonl"
        with open(os.path.join(HERE, name), "w", encoding="utf-8") as fh:
            fh.write(build(sess))
        gold[name] = {k: sess.get(k, []) for k in ("gold", "noise", "secrets", "updates")}
        if sess.get("distinct"):
            gold[name]["distinct"] = sess["distinct"]
        gold[name].update(project=sess["project"], session=sess["session"], order=sess["order"], fresh=bool(sess.get("fresh")))
        if sess.get("split"):
            gold[name]["split"] = sess["split"]
    with open(os.path.join(HERE, "gold.json"), "w", encoding="utf-8") as fh:
        json.dump(gold, fh, indent=1, ensure_ascii=False)
        fh.write("\n")


if __name__ == "__main__":
    main()
