"""Agent hooks: ``cavemem hook claude-code session-start|user-prompt|stop`` and ``cavemem hook install``.

- :mod:`.claude_code` — Claude Code's hook I/O: parse the event JSON from stdin, build what to
  inject (a budgeted briefing at session start, recall hits for an on-topic prompt), and pick
  what a finished turn explicitly asked to remember.
- :mod:`.spool` — durable hand-off for the ``stop`` hook: memories are written to a spool file and
  stored by a detached writer, so a locked or slow store never holds up the agent.
- :mod:`.install` — the hook configuration, printed or merged into ``.claude/settings.json``.
- :mod:`.cli` — the command, with the fail-open rule: every hook exits 0, prints nothing or one
  valid JSON object, logs problems to stderr as one JSON line, and gives up at a hard deadline.
"""
