"""The memory data model: one stored version (:class:`MemoryRecord`), the row filter shared by
every read (:class:`Filter`), and the limits that apply to every write."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..errors import CaveError

COLUMNS = (
    "seq", "id", "text", "project", "created_at", "ts", "valid_from", "valid_until", "supersedes",
    "superseded_by", "change", "session", "topic", "kind", "entity", "tags", "files", "seen_count",
    "last_seen", "ntok",
)
SELECT_ROWS = "SELECT " + ", ".join(COLUMNS) + " FROM memories"

MAX_MEMORY_BYTES = 262144  # 256 KiB of UTF-8; exactly this much is accepted
KINDS = ("fact", "preference", "decision", "note")


def require_kind(kind: str | None) -> str | None:
    if kind is None or kind == "":
        return None
    if kind not in KINDS:
        raise CaveError("cave_invalid_arguments", f"kind must be one of {', '.join(KINDS)} (got {kind!r})")
    return kind


@dataclass
class MemoryRecord:
    """One stored version of a memory (a row of ``memories``)."""

    id: str
    text: str
    project: str = ""
    created_at: str = ""
    valid_from: str = ""
    valid_until: str | None = None
    supersedes: str | None = None
    superseded_by: str | None = None
    change: str | None = None  # how this version arrived: None, "supersede", "merge"
    session: str | None = None
    topic: str | None = None
    kind: str | None = None
    entity: str | None = None
    tags: tuple[str, ...] = ()
    files: tuple[str, ...] = ()
    seen_count: int = 1
    last_seen: str | None = None
    seq: int = 0
    ts: int = 0
    ntok: int = 0
    extra: dict = field(default_factory=dict)  # per-call facts (e.g. "status", "redacted")

    @property
    def current(self) -> bool:
        return self.valid_until is None

    def present(self, keys: Sequence[str]) -> dict:
        """The fields named in ``keys`` that are set, in that order (tags and files as lists):
        JSON shapes leave empty optional fields out."""
        out: dict = {}
        for key in keys:
            value = getattr(self, key)
            if value:
                out[key] = list(value) if isinstance(value, tuple) else value
        return out

    def to_dict(self, *, with_extra: bool = True) -> dict:
        """JSON-ready fields; empty optional fields are left out."""
        out: dict = {"id": self.id, "text": self.text, "project": self.project,
                     "created_at": self.created_at, "valid_from": self.valid_from}
        out.update(self.present(
            ("valid_until", "supersedes", "superseded_by", "change", "session", "topic", "kind", "entity", "tags", "files")
        ))
        if self.seen_count != 1:
            out["seen_count"] = self.seen_count
        if self.last_seen:
            out["last_seen"] = self.last_seen
        if with_extra:
            out.update(self.extra)
        return out

    def __getitem__(self, key: str):
        return self.to_dict()[key]

    def get(self, key: str, default=None):
        return self.to_dict().get(key, default)


def _json_list(value) -> tuple[str, ...]:
    if not value:
        return ()
    try:
        got = json.loads(value)
    except ValueError:
        return ()
    return tuple(str(v) for v in got) if isinstance(got, list) else ()


def dump_list(values: Sequence[str]) -> str | None:
    return json.dumps(list(values), ensure_ascii=False) if values else None


def record_from_row(row: Sequence) -> MemoryRecord:
    d = dict(zip(COLUMNS, row))
    return MemoryRecord(
        id=d["id"], text=d["text"], project=d["project"], created_at=d["created_at"],
        valid_from=d["valid_from"], valid_until=d["valid_until"], supersedes=d["supersedes"],
        superseded_by=d["superseded_by"], change=d["change"], session=d["session"], topic=d["topic"],
        kind=d["kind"], entity=d["entity"], tags=_json_list(d["tags"]), files=_json_list(d["files"]),
        seen_count=d["seen_count"], last_seen=d["last_seen"], seq=d["seq"], ts=d["ts"], ntok=d["ntok"],
    )


@dataclass
class Filter:
    """Row filter shared by recall, list, export, forget and stats."""

    projects: tuple[str, ...] | None = None  # None = every project
    current_only: bool = True
    since_us: int | None = None
    until_us: int | None = None
    tag: str | None = None
    kind: str | None = None
    session: str | None = None
    # confidence bounds (inclusive); a memory without capture metadata counts as confidence 1
    min_confidence: float | None = None
    max_confidence: float | None = None

    def sql(self, alias: str = "", prefix: str = " WHERE ") -> tuple[str, list]:
        a = alias + "." if alias else ""
        parts: list[str] = []
        params: list = []
        if self.projects is not None:
            parts.append(f"{a}project IN ({','.join('?' * len(self.projects))})")
            params.extend(self.projects)
        if self.current_only:
            parts.append(f"{a}valid_until IS NULL")
        if self.since_us is not None:
            parts.append(f"{a}ts >= ?")
            params.append(self.since_us)
        if self.until_us is not None:
            parts.append(f"{a}ts <= ?")
            params.append(self.until_us)
        if self.tag is not None:
            parts.append(f"EXISTS (SELECT 1 FROM json_each({a}tags) WHERE json_each.value = ?)")
            params.append(self.tag)
        if self.kind is not None:
            parts.append(f"{a}kind = ?")
            params.append(self.kind)
        if self.session is not None:
            parts.append(f"{a}session = ?")
            params.append(self.session)
        for bound, op in ((self.min_confidence, ">="), (self.max_confidence, "<=")):
            if bound is not None:
                outer = a or "memories."
                parts.append(f"coalesce((SELECT c.confidence FROM mem_capture c WHERE c.id = {outer}id), 1.0) {op} ?")
                params.append(bound)
        if not parts:
            return "", params
        return prefix + " AND ".join(parts), params


# -- write inputs -----------------------------------------------------------------------------------


def too_large(n: int) -> CaveError:
    return CaveError("cave_memory_too_large", f"memory is {n} bytes, over the {MAX_MEMORY_BYTES}-byte cap")


def as_text(text) -> str:
    if isinstance(text, (bytes, bytearray, memoryview)):
        from ..gocompat import go_text

        return go_text(bytes(text))
    if not isinstance(text, str):
        raise CaveError("cave_invalid_arguments", f"memory text must be a string, not {type(text).__name__}")
    return text


def utf8_len(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def clean_list(values, what: str) -> tuple[str, ...]:
    if values is None:
        return ()
    if isinstance(values, str):
        values = (values,)
    out: list[str] = []
    for v in values:
        if not isinstance(v, str):
            raise CaveError("cave_invalid_arguments", f"{what} must be strings")
        v = v.strip()
        if v and v not in out:
            out.append(v)
    return tuple(out)


def optional_text(value, what: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise CaveError("cave_invalid_arguments", f"{what} must be a string")
    return value.strip() or None
