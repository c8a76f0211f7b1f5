"""One result for every puzzle: what a search established, and how it is reported (the
``--json`` object, the text report, the picture).

A puzzle's search fills an :class:`~smtpuzzles.outcome.Outcome`;
:func:`smtpuzzles.api.solve` wraps it in a
:class:`Result` with the puzzle, the mode and the time. Everything the command line
prints comes from a :class:`Result`, so the JSON keys and the report's layout are the same
for every puzzle; only the answer's own shape (:meth:`Puzzle.solution_json`) and the
puzzle's report lines (:meth:`Puzzle.report`) differ.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .exits import run_json
from .outcome import Outcome, Status

if TYPE_CHECKING:
    from .puzzle import Puzzle


@dataclass
class Result:
    """A solve of one puzzle: the :class:`Outcome` with the puzzle, the mode and the time.

    ``counted`` and ``unique_asked`` record what was asked, which decides the JSON keys
    present (``count``/``count_complete`` with a count, ``fixed`` with either).
    """

    puzzle: Puzzle
    mode: str
    outcome: Outcome
    elapsed_s: float
    counted: bool = False
    unique_asked: bool = False

    # -- the outcome's fields, read through ------------------------------------------------

    @property
    def status(self) -> Status:
        return Status(self.outcome.status)

    @property
    def kind(self) -> str:
        return self.puzzle.kind

    @property
    def answer(self) -> Any:
        """The answer in the puzzle's own terms (see :meth:`Puzzle.solution_json`)."""
        return self.outcome.solution

    @property
    def solutions(self) -> list[Any]:
        return self.outcome.solutions

    @property
    def unique(self) -> bool | None:
        return self.outcome.unique

    @property
    def fixed(self) -> dict[int, bool] | None:
        return self.outcome.fixed

    @property
    def count(self) -> int | None:
        return len(self.outcome.solutions) if self.counted else None

    @property
    def count_complete(self) -> bool | None:
        return self.outcome.count_complete if self.counted else None

    @property
    def stopped(self) -> str | None:
        return self.outcome.stopped

    @property
    def lower_bound(self) -> int | None:
        return self.outcome.lower_bound

    @property
    def upper_bound(self) -> int | None:
        return self.outcome.upper_bound

    @property
    def bounds(self) -> tuple[int | None, int | None]:
        """What is proven about an optimum, ``(lower, upper)`` (Flood-It)."""
        return (self.outcome.lower_bound, self.outcome.upper_bound)

    @property
    def stats(self) -> dict[str, Any]:
        return {**self.outcome.stats.as_dict(), **self.outcome.details}

    @property
    def notes(self) -> list[str]:
        return self.outcome.notes

    @property
    def solved(self) -> bool:
        return self.status in (Status.SOLVED, Status.OPTIMAL)

    def __getitem__(self, cell: str | tuple[int, int]) -> Any:
        """The answer at one cell, by name (``"r3c4"``) or ``(row, col)``: see
        :meth:`Puzzle.answer_at` (``True`` black, ``False`` white on the grids)."""
        return self.puzzle.answer_at(self.answer, cell)

    # -- what is printed -------------------------------------------------------------------

    def to_json(self, stats: bool = False, smtlib: str | None = None) -> dict[str, Any]:
        """The object ``--json`` prints: the same keys for every puzzle."""
        obj: dict[str, Any] = run_json(
            self.kind,
            self.puzzle.display_name,
            self.mode,
            self.status.value,
            self.stopped,
            self.elapsed_s,
            solution=self.puzzle.solution_json(self.answer),
            unique=self.unique,
        )
        obj.update(self.puzzle.extra_json(self.outcome))
        if self.counted:
            obj["count"] = self.count
            obj["count_complete"] = self.count_complete
        if self.counted or self.unique_asked:
            obj["fixed"] = self.puzzle.fixed_json(self.outcome.fixed)
        if stats:
            obj["stats"] = self.stats
        if smtlib is not None:
            obj["smtlib"] = smtlib
        return obj

    def report(self, stats: bool = False) -> str:
        """The text report: the same layout for every puzzle."""
        status = self.status.value
        if self.unique is not None:
            status += ", unique" if self.unique else ", not unique"
        lines = [f"{self.kind} {self.puzzle.name}: {self.puzzle.describe()}"]
        lines.append(f"status: {status}")
        if self.stopped:
            lines.append(f"stopped: {self.stopped}; reporting what was found before")
        lines += self.puzzle.report(self.outcome, self.counted)
        if self.counted:
            more = "" if self.count_complete else " (or more)"
            lines.append(f"solutions: {self.count}{more}")
        lines += [f"note: {note}" for note in self.notes]
        if stats:
            lines += [f"{k}: {v}" for k, v in self.stats.items() if k != "probes"]
        lines.append(f"time: {self.elapsed_s:.3f} s")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.report()

    def __repr__(self) -> str:
        parts = [self.status.value, self.puzzle.size()]
        if self.unique is not None:
            parts.append("unique" if self.unique else "not unique")
        if self.counted:
            parts.append(f"{self.count}{'' if self.count_complete else '+'} solutions")
        parts.append(f"{self.elapsed_s:.2f} s")
        return f"<{type(self.puzzle).__name__}Result {' '.join(parts)}>"

    def _repr_svg_(self) -> str:
        return self.puzzle.result_svg(self.outcome)

    def svg(self) -> str:
        """The answer pictured (what Jupyter shows)."""
        return self._repr_svg_()

    # -- a play, move by move (Flood-It) ---------------------------------------------------

    def boards(self) -> list[list[list[int]]]:
        """The board before the first move and after each move."""
        return self._plays().boards(self.answer)

    def frames(self, cell_px: int | None = None) -> list[str]:
        """An SVG of the board before the first move and after each, the flood outlined."""
        return self._plays().frames(self.answer, cell_px)

    def captions(self) -> list[str]:
        """A caption per frame: ``start``, then the move number and its colour."""
        return self._plays().captions(self.answer)

    def slider(self) -> Any:
        """An ipywidgets slider over the frames (needs the ``notebooks`` extra)."""
        from .jupyter import step_through

        return step_through(self.frames(cell_px=24), self.captions())

    def _plays(self) -> Any:
        if not hasattr(self.puzzle, "frames"):
            raise TypeError(f"{self.puzzle.title} answers are not played move by move")
        return self.puzzle
