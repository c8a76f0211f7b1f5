"""What the front end needs of a puzzle, said once: each puzzle package's ``puzzle.py``
subclasses :class:`Puzzle`, and :data:`KINDS` finds that class by name, so the API and
the command line are lookups rather than a branch per puzzle. Light to import (the entry
point's words on Ctrl-C name the puzzles too): Z3 and the solving code come later."""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from . import z3lazy as z3
from .errors import InputError

if TYPE_CHECKING:
    from .limits import Budget
    from .outcome import Outcome

#: The puzzles, by the name the command line and the JSON use.
KINDS: tuple[str, ...] = ("floodit", "nurikabe", "koburin")


def puzzle_class(kind: str) -> type[Puzzle]:
    """The :class:`Puzzle` subclass of ``kind`` (imported on first use)."""
    if kind not in KINDS:
        raise InputError(f"unknown puzzle {kind!r}; expected one of {', '.join(KINDS)}")
    module = importlib.import_module(f".puzzles.{kind}.puzzle", __package__)
    return module.PUZZLE


@dataclass(frozen=True)
class Source:
    """A puzzle's text as read: ``name`` the file (or ``<stdin>``, ``<url>``), ``is_url``
    for a puzz.link URL, ``format`` and ``index`` (a puzzle of a multi-puzzle file)."""

    text: str
    name: str
    is_url: bool = False
    format: str = "auto"
    index: int | None = None


@dataclass
class Request:
    """What a solve asks: ``mode`` (one of the puzzle's :attr:`Puzzle.modes`) with its
    numbers ``args``, within ``budget``; uniqueness or a count of solutions; and the
    puzzle's own ``options`` (checked against :attr:`Puzzle.options`)."""

    mode: str
    budget: Budget
    args: tuple[int, ...] = ()
    unique: bool = False
    count: int | None = None
    options: dict[str, Any] = field(default_factory=dict)

    def chosen(self, **defaults: Any) -> dict[str, Any]:
        """The options named in ``defaults``, each as asked or else its default."""
        given = {key: self.options.get(key) for key in defaults}
        return {key: defaults[key] if value is None else value for key, value in given.items()}


@dataclass
class Formula:
    """The formula behind a puzzle: its SMT-LIB script, its size and its Z3 terms."""

    kind: str
    script: str
    horizon: int | None = None
    sizes: dict[str, Any] = field(default_factory=dict)
    #: the script rule by rule (:class:`~smtpuzzles.smtlib.Script`), where it is one
    rules: Any = None

    @property
    def assertions(self) -> list[z3.BoolRef]:
        """The assertions as Z3 terms, read from the script."""
        return list(z3.parse_smt2_string(self.script))

    def smtlib(self) -> str:
        """A complete SMT-LIB 2 script (QF_LIA, ends with ``(check-sat)``)."""
        return self.script

    def size(self) -> dict[str, Any]:
        """Assertions, Boolean and integer variables (Flood-It: also horizon, clusters)."""
        return dict(self.sizes)

    def __str__(self) -> str:
        return self.script

    def _repr_markdown_(self) -> str | None:
        """In a notebook: the script rule by rule, each block under its rule's name."""
        return self.rules._repr_markdown_() if self.rules is not None else None


class Puzzle:
    """One loaded puzzle of some kind. Subclasses say how to read, solve, check and show
    it; :class:`~smtpuzzles.result.Result` and the command line use only these methods."""

    kind: ClassVar[str]
    title: ClassVar[str]  #: the puzzle's name in prose ("Flood-It")
    modes: ClassVar[tuple[str, ...]] = ("solve",)
    #: options of :meth:`solve` and their allowed values (``None``: any value)
    options: ClassVar[dict[str, tuple[str, ...] | None]] = {}
    #: a small puzzle of this kind in its text format, solved in a bench's waiting case
    #: processes so that a case starts with the memory a solve touches already its own
    sample: ClassVar[str] = ""
    #: whether a bench forks this puzzle's case processes ahead to solve :attr:`sample`
    #: (else its parent solves the sample once, before its first case of this puzzle)
    fork_ahead: ClassVar[bool] = True
    name: str

    @classmethod
    def load(cls, source: Source, **options: Any) -> Puzzle:  # pragma: no cover
        """Parse a source; bad input raises ``InputError``."""
        raise NotImplementedError

    #: A line only this puzzle's text has (matched from the line's start), if any.
    marker: ClassVar[re.Pattern[str] | None] = None

    @classmethod
    def recognises(cls, text: str, lines: list[str]) -> bool:
        """Does ``text`` (its ``lines`` of content: no blank or comment lines) look like
        this puzzle's and no other's? What :func:`smtpuzzles.load` guesses the kind by:
        by default, some line is a :attr:`marker`."""
        marker = cls.marker
        return marker is not None and any(marker.match(line) for line in lines)

    # -- solving ---------------------------------------------------------------------------

    def solve(self, ask: Request) -> Outcome:  # pragma: no cover - every subclass has its own
        """Answer a request; every solution in the outcome has passed the puzzle's
        independent checker. Never raises on a limit or Ctrl-C (the outcome says it)."""
        raise NotImplementedError

    def formula(self, **options: Any) -> Formula:  # pragma: no cover
        """The formula a solve would start from, without solving."""
        raise NotImplementedError

    def formula_options(
        self, mode: str, args: dict[str, int], options: dict[str, Any]
    ) -> dict[str, Any]:
        """What :meth:`formula` takes of a command line's mode, its numbers and the
        solve options (``--dry-run``): by default presolving and connectivity."""
        connectivity = options.get("connectivity")
        wanted = {"presolve": options.get("presolve", "full")}
        return {**wanted, "connectivity": connectivity} if connectivity else wanted

    def problems(self, answer: Any) -> list[str]:  # pragma: no cover
        """What the independent checker finds wrong with ``answer`` (empty: valid)."""
        raise NotImplementedError

    def check_options(self, options: dict[str, Any]) -> None:
        """Refuse options this puzzle does not have, or values it does not know."""
        for key, value in options.items():
            if key not in self.options:
                raise InputError(f"{key}= is not an option of {self.title}")
            allowed = self.options[key]
            if allowed is not None and value is not None and value not in allowed:
                raise InputError(f"{key}={value!r}: expected one of {', '.join(allowed)}")

    # -- describing ------------------------------------------------------------------------

    @property
    def display_name(self) -> str:
        """The name without its folder (``<stdin>``, ``<url>`` stay as they are)."""
        return self.name if self.name.startswith("<") else Path(self.name).name

    def size(self) -> str:  # pragma: no cover
        """The shape in a few characters: ``10x10``, ``42 cells``."""
        raise NotImplementedError

    def describe(self) -> str:  # pragma: no cover
        """The report's header after the name: size and what the puzzle gives."""
        raise NotImplementedError

    def solution_json(self, answer: Any) -> Any:  # pragma: no cover
        """The answer as the ``"solution"`` JSON value (``None`` without one)."""
        raise NotImplementedError

    def fixed_json(self, fixed: dict[int, bool] | None) -> Any:
        """The ``"fixed"`` JSON value: cells the same in every solution."""
        return None

    @classmethod
    def extra_json(cls, outcome: Outcome) -> dict[str, Any]:
        """Keys only this puzzle's JSON has."""
        return {}

    @classmethod
    def best_so_far_json(cls, outcome: Outcome) -> Any:
        """The ``"solution"`` value of a run stopped while its search was held up: ``None``
        unless the puzzle keeps a checked best answer as it goes (Flood-It's moves)."""
        return None

    def report(self, outcome: Outcome, counted: bool) -> list[str]:  # pragma: no cover
        """The puzzle's own lines of the text report (its picture, its proof); ``counted``:
        solutions were counted (each is drawn)."""
        raise NotImplementedError

    def picture(self, answer: Any = None) -> str:  # pragma: no cover
        """A text picture of the puzzle, with ``answer`` if given."""
        raise NotImplementedError

    def svg(self, answer: Any = None) -> str:  # pragma: no cover
        """An SVG picture of the puzzle, with ``answer`` if given."""
        raise NotImplementedError

    def result_svg(self, outcome: Outcome) -> str:
        """The picture of a result (by default, of its answer)."""
        return self.svg(outcome.solution)

    def answer_at(self, answer: Any, cell: str | tuple[int, int]) -> Any:
        """The answer at one cell, by name or ``(row, col)``."""
        raise TypeError(f"{self.title} answers are not read cell by cell")

    def _key(self) -> Any:  # pragma: no cover - every subclass has its own
        """What makes two puzzles the same puzzle."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._key() == other._key()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.name))

    def __str__(self) -> str:
        return self.picture()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} {self.describe()}>"

    def _repr_svg_(self) -> str:
        return self.svg()
