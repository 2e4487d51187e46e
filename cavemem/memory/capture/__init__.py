"""Memory that captures itself: session archive, rule-based extraction, review and feedback.

- :mod:`.transcript` reads Claude Code JSONL tolerantly (torn last line ignored);
- :mod:`.archive` keeps every transcript line exactly in the recovery store, indexed by uuid;
- :mod:`.extract` turns conversation text into candidate memories by rule (no model);
- :mod:`.classify` adds what the rules missed, by a learned sentence classifier (opt-in);
- :mod:`.pipeline` runs one incremental pass (what the Stop path calls);
- :mod:`.review` confirms, edits or rejects captured memories.

The names below load on first use: ``recall`` and ``remember`` import :mod:`.review` and
:mod:`.schema` through this package and must not pay for the extraction rules (start-up).
"""

__all__ = ["CaptureReport", "capture_transcript", "enabled"]


def __getattr__(name: str):
    if name in __all__:
        from . import pipeline

        return getattr(pipeline, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
