"""The cavemem command modules: one per command family, each an adapter over the library (nothing below imports them)."""
