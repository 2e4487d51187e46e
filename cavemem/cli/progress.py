"""Progress for long commands (import, evals run, embed enable, pixel render): a rich bar on stderr,
drawn only when stderr is a terminal (``NO_COLOR`` honoured by rich); nothing otherwise."""

from __future__ import annotations

from . import io


class ProgressBar:
    """``with ProgressBar("import") as bar: bar(done, total, note)`` — ``total`` may be None (a counter)."""

    def __init__(self, label: str) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.progress = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                                 TextColumn("{task.description}"), console=Console(stderr=True), transient=True)
        self.task = None

    def __enter__(self):
        self.progress.__enter__()
        return self

    def __exit__(self, *exc):
        return self.progress.__exit__(*exc)

    def __call__(self, done: int, total: int | None, note: str = "") -> None:
        if self.task is None:
            self.task = self.progress.add_task("", total=total)
        self.progress.update(self.task, completed=done, total=total, description=note)


class _Nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def on_terminal(label: str):
    """A :class:`ProgressBar` when stderr is a terminal, else a context giving ``None`` (no progress)."""
    return ProgressBar(label) if io.stderr_is_tty() else _Nothing()
