"""Memory that captures itself: session archive, rule-based extraction, review and feedback.

- :mod:`.transcript` reads Claude Code JSONL tolerantly (torn last line ignored);
- :mod:`.archive` keeps every transcript line exactly in the recovery store, indexed by uuid;
- :mod:`.extract` turns conversation text into candidate memories by rule (no model);
- :mod:`.pipeline` runs one incremental pass (what the Stop path calls);
- :mod:`.review` confirms, edits or rejects captured memories.
"""

from .pipeline import CaptureReport, capture_transcript, enabled

__all__ = ["CaptureReport", "capture_transcript", "enabled"]
