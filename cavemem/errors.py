"""The one place that knows cavemem's error codes and their exit codes.

Every failure a user can see carries a stable code (``cave_*``) so scripts can branch on it
instead of parsing prose. The ``cavemem`` CLI prints ``{"error": code, "message": text}`` on
stderr and exits with the code's exit status; ``caveman-engine`` keeps the reference's plain-text
messages but uses the same exit statuses.
"""

from __future__ import annotations

# code -> process exit status
EXIT_CODES: dict[str, int] = {
    "cave_input_too_large": 1,
    "cave_ccr_budget_exceeded": 1,
    "cave_ccr_unavailable": 1,
    "cave_unknown_handle": 1,
    "cave_invalid_arguments": 2,
    "cave_unknown_command": 2,
    "cave_invalid_config": 1,
    "cave_store_unavailable": 1,
    "cave_not_toon_encodable": 1,
    "cave_invalid_toon": 1,
    "cave_memory_too_large": 65,
    "cave_memory_not_found": 1,
    "cave_memory_empty": 1,
    "cave_memory_conflict": 1,
    "cave_store_locked": 75,
    "cave_store_unreachable": 75,  # the PostgreSQL server is down or refused (EX_TEMPFAIL: try again)
    "cave_embed_unavailable": 1,
    "cave_mcp_unavailable": 1,
    "cave_invalid_input": 65,
    "cave_file_unreadable": 66,
    "cave_output_failed": 73,
    "cave_transform_failed": 1,
    "cave_evals_failed": 1,
    "cave_unhealthy": 1,  # cavemem doctor: a check failed
    "cave_internal": 70,
}

# MCP tool failures: a store error inside tool ``cavemem_<verb>`` is reported as ``cave_<verb>_failed``
# (with the underlying code as its cause). Listed here so one module knows every code.
MCP_VERBS = ("remember", "recall", "supersede", "history", "forget", "compress", "retrieve", "list", "show",
             "export", "stats")
EXIT_CODES.update({f"cave_{verb}_failed": 1 for verb in MCP_VERBS})
EXIT_CODES.update({"cave_unknown_tool": 1, "cave_tool_panicked": 70, "cave_payload_too_large": 1})


def tool_failure_code(verb: str) -> str:
    """The stable code of a failed MCP tool call (``cave_recall_failed`` …)."""
    code = f"cave_{verb}_failed"
    if code not in EXIT_CODES:
        raise ValueError(f"unknown tool verb {verb!r}")
    return code


USAGE_EXIT = 2
FATAL_EXIT = 1


class CaveError(Exception):
    """An error with a stable code; ``str(err)`` is the human message."""

    def __init__(self, code: str, message: str):
        if code not in EXIT_CODES:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.code]

    def to_json(self) -> dict:
        return {"error": self.code, "message": self.message}


class BudgetExceeded(CaveError):
    """The recovery store is at its byte budget; callers must pass the input through."""

    def __init__(self, message: str = "ccr: storage budget exceeded"):
        super().__init__("cave_ccr_budget_exceeded", message)


class StoreUnavailable(CaveError):
    """The recovery store cannot be opened or written (permissions, corruption, lock)."""

    def __init__(self, message: str):
        super().__init__("cave_ccr_unavailable", message)


class UnknownHandle(CaveError):
    def __init__(self, message: str = "ccr: recovery handle not found"):
        super().__init__("cave_unknown_handle", message)


def invalid_arguments(message: str) -> CaveError:
    return CaveError("cave_invalid_arguments", message)
