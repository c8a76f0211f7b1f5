"""What one search established, in the same terms for every puzzle: the :class:`Outcome`
a puzzle's search fills in (and the :class:`Status` it reached), which
:class:`~smtpuzzles.result.Result` wraps with the puzzle, the mode and the time."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from .engines import Stats


class Status(str, enum.Enum):
    """What a run established. Compares equal to its string: ``status == "optimal"``."""

    OPTIMAL = "optimal"  #: the least length, proven (Flood-It)
    SOLVED = "solved"  #: an answer, checked
    UNSAT = "unsat"  #: proven: no answer (in the range asked)
    UNKNOWN = "unknown"  #: a limit was reached before an answer
    DRY_RUN = "dry-run"  #: the formula was built, not solved

    def __str__(self) -> str:
        return self.value


#: Why a search stopped before it answered everything it was asked.
STOPS = ("timeout", "interrupted", "memory")


@dataclass
class Outcome:
    """What one search established, in the same terms for every puzzle.

    ``solutions`` holds every answer found, each passed by the puzzle's independent
    checker; the first is the answer. ``unique``: ``True`` proven unique, ``False`` a
    second answer exists, ``None`` not asked or not known. ``count_complete``: the
    solutions listed are all there are. ``fixed`` maps cells to ``True`` (black in every
    solution) or ``False`` (never black), when every solution is known. ``stopped`` says
    which limit cut the search short (one of :data:`STOPS`), keeping what was found.
    ``lower_bound``/``upper_bound`` are what is proven about an optimum (Flood-It).
    ``notes`` are the puzzle's own lines for the text report (how it was proven, ...);
    ``details`` the same for ``--stats``.
    """

    status: str = Status.UNKNOWN
    solutions: list[Any] = field(default_factory=list)
    unique: bool | None = None
    count_complete: bool | None = None
    fixed: dict[int, bool] | None = None
    stopped: str | None = None
    lower_bound: int | None = None
    upper_bound: int | None = None
    notes: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    stats: Stats = field(default_factory=Stats)
    #: the SMT-LIB script of every question the search asked, in order
    questions: list[Any] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.status = Status(self.status)

    @property
    def solution(self) -> Any:
        """The answer (the first solution), or ``None``."""
        return self.solutions[0] if self.solutions else None


#: The outcome a running search fills in as it goes (see :func:`follow`).
_followed: list[Outcome] = []


def follow(outcome: Outcome | None) -> None:
    """Make ``outcome`` the one a running search fills in (``None``: none), so that a
    command's watchdog, which speaks while the search is held up in Z3, can say what it
    has found so far."""
    _followed[:] = [] if outcome is None else [outcome]


def followed() -> Outcome | None:
    """The outcome :func:`follow` named, if any."""
    return _followed[0] if _followed else None
