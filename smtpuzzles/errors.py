"""Errors a user can cause, reported as one line naming where the trouble is."""

from __future__ import annotations


class InputError(Exception):
    """Bad input: the CLI prints ``source:line:column: message`` and exits 2.

    ``line`` and ``column`` are 1-based and optional, so the same error serves
    files, standard input ("<stdin>"), URLs and command-line arguments.
    """

    def __init__(
        self,
        message: str,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.source = source
        self.line = line
        self.column = column

    def located(self, source: str) -> InputError:
        """The same error, naming ``source`` if it did not name one yet."""
        if self.source is None:
            self.source = source
        return self

    def __str__(self) -> str:
        where = [p for p in (self.source, self.line, self.column) if p is not None]
        prefix = ":".join(str(p) for p in where)
        text = " ".join(self.message.split())  # always one line
        return f"{prefix}: {text}" if prefix else text


class CheckFailure(RuntimeError):
    """A solver answer failed the independent checker: a bug, never an answer."""
