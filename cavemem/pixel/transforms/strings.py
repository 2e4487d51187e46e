"""Fixed texts the transforms insert (spec pixel-and-mem A14.2-A14.8), verbatim: models are
told what the images are, how to read them, and that they are prior context."""

from __future__ import annotations

END_OF_RENDERED_CONTEXT = "[End of rendered context.]"
END_OF_GPT_CONTEXT = "[End of rendered GPT system/tool context.]"

HISTORY_SYNTHETIC_INTRO = (
    "[Earlier turns of THIS conversation, transcribed in the image(s) below. Each turn is wrapped in "
    '<user t="N">...</user> or <assistant t="N">...</assistant> tags, where N is an absolute turn index '
    "(larger N = more recent); attribute every turn strictly by its tag, and treat the highest-N turns as "
    "the most recent prior context, NOT the low-N opening turns. Earlier turns may contain questions or "
    "tasks that were already answered later in this same history; do not reopen low-N turns unless the "
    "live text after this block asks you to. This is prior context, NOT the current request.]"
)
HISTORY_TRANSCRIPT_INTRO = HISTORY_SYNTHETIC_INTRO
HISTORY_SYNTHETIC_OUTRO = "[End of earlier conversation. The current request is the live text that follows below.]"

SESSION_HEADER_TOP = (
    "=================== SESSION CONFIGURATION PAGES ===================\n"
    "pxpipe (this user's local proxy) rendered this session's configuration into the following images to "
    "reduce token cost. Read the pages carefully and follow them as your operating instructions for this session."
)
GEMINI_HEADER_TOP = (
    "=================== SESSION CONFIGURATION PAGES ===================\n"
    "Caveman pixel rendered this session configuration into the following image(s) to reduce token cost. "
    "Read the pages carefully and follow them as operating instructions for this session."
)
BEGIN_RENDERED = "\n====================== BEGIN RENDERED CONTEXT ======================\n"
COLUMN_NOTE = " Multi-column layout ({n} cols): read column 1 (leftmost) top-to-bottom, then column 2, etc."
GEMINI_COLUMN_NOTE = " Multi-column layout ({n} cols): read column 1 top-to-bottom, then column 2, etc."
REFLOW_NOTE = " The glyph \u21b5 (U+21B5) marks an original hard line break in content \u2014 treat as a real newline."
REFLOW_NOTE_GPT = " The glyph \u21b5 (U+21B5) marks an original hard line break in content; treat it as a real newline."
ZEBRA_NOTE = (
    " Consecutive text rows are inked in a repeating dark-red/dark-blue/black cycle; the colour only marks "
    "which row a character belongs to when rows sit close together and carries no other meaning."
)
TWO_LAYER_NOTE = (
    " Each of these images packs two interleaved text layers: dark-RED ink and dark-BLUE ink. Read every RED "
    "row top-to-bottom first, then every BLUE row top-to-bottom, before moving to the next image \u2014 the row "
    "order simply continues from the red layer into the blue layer. A page printed only in black holds a "
    "single layer; read it normally."
)

TOOL_REFERENCE_OPEN = (
    "=== TOOL REFERENCE ===\npxpipe (this user's local proxy) moved the full tool documentation for this session "
    "here to reduce token cost. Each tool in the tools list carries a short stub description pointing here; the "
    'entry under the matching "## Tool: <name>" heading below is the complete description for that tool.\n\n'
)
TOOL_REFERENCE_CLOSE = "\n=== END TOOL REFERENCE ==="
TOOL_STUB = '\u24d8 Full docs: see "## Tool: {name}" in the Tool Reference section.'
READ_BEFORE_WRITE_NOTE = (
    " Requires a Read of the same file earlier in THIS session when the file already exists \u2014 the call is "
    "rejected otherwise; file content recalled from imaged or prior-session context does not satisfy this."
)
READ_BEFORE_WRITE_TOOLS = frozenset({"Edit", "Write", "NotebookEdit"})

ENV_RELOCATION_OPEN = (
    "<system-reminder>\nContext relocated by pxpipe from the system prompt (volatile per-turn environment "
    "state \u2014 not written by the user):\n\n"
)
ENV_RELOCATION_CLOSE = "\n</system-reminder>"

GEMINI_SYSTEM_POINTER = (
    "[caveman] Rendered session configuration images are attached at the start of the first user content. "
    "Read them before answering."
)

CHAT_RENDERED_HEADER = (
    "================= RENDERED GPT SYSTEM + TOOL CONTEXT =================\n"
    "These images were injected by pxpipe, not by the end user. They contain system/developer instructions and "
    "full tool/schema documentation rendered for token efficiency. Treat rendered system/developer instructions "
    "with the same priority as their original messages. OCR carefully and treat the rendered content as "
    "authoritative. For tool calls, use the native JSON tool definitions; the image is supplemental documentation."
    "\n====================== BEGIN RENDERED CONTEXT ======================\n"
)
RESPONSES_RENDERED_HEADER = CHAT_RENDERED_HEADER.replace(
    "They contain system/developer instructions and full tool/schema documentation rendered for token efficiency. "
    "Treat rendered system/developer instructions with the same priority as their original messages.",
    "They contain instructions and full tool/schema documentation rendered for token efficiency. "
    "Treat rendered instructions with the same priority as the originals.",
)
CHAT_POINTER = (
    "The full instructions for this message were rendered into image(s) attached to the first user message by "
    "pxpipe. Treat those rendered instructions as if they appeared here with the same priority. Tool definitions "
    "remain in native JSON; rendered tool docs are supplemental."
)
RESPONSES_POINTER = (
    "The full instructions were rendered into image(s) attached to the first user message by pxpipe. Treat them "
    "with the same priority. Tool definitions remain in native JSON; rendered tool docs are supplemental."
)

GPT_PIN_OPEN = "\n===== CURRENT USER REQUEST (live; kept as text by pxpipe, NOT inside any image) =====\n"
GPT_PIN_CLOSE = "\n===== END CURRENT USER REQUEST =====\n"
GPT_GUARD_WITH_PIN = (
    "pxpipe note: everything in the rendered history above is PAST context. Your live current request is the "
    'plain-text block labeled "CURRENT USER REQUEST" inside it - NOT anything OCR\'d from an image. It reads: '
    "\u00ab{echo}\u00bb Answer THAT request."
)
GPT_GUARD_NO_PIN = (
    "pxpipe note: the preceding rendered history item is prior conversation context only. It is not the current "
    "user request. The live current request is in the user message(s) that follow, especially the final user message."
)

FILE_STATE_CURRENT = r"\(file state is current in your\s+context \u2014 no need to Read it back\)"
FILE_STATE_PRIOR = (
    "(state as of this PRIOR turn \u2014 the file may have changed since; Read it again before editing)"
)
LATEST_USER_PREVIEW = (
    '[Most recent collapsed user turn: <user t="{i}">{text}</user>. This is still prior context; do not treat it '
    "as the current request unless the live text that follows asks to continue it.]"
)
LATEST_USER_VERBATIM = (
    "[Most recent collapsed user turn, carried verbatim because it appears nowhere else in full: "
    '<user t="{i}">{text}</user>. This is still prior context; but if no later turn supersedes it, it is the task '
    "the live turn continues \u2014 follow its exact instructions, including any requested output format.]"
)
OPENING_TURN_DEMOTED = (
    '[Opening turn <user t="{i}"> of this session \u2014 PRIOR CONTEXT ONLY, superseded by later turns; NOT the '
    'current request and must not be acted on. Preview: "{preview}"]'
)
