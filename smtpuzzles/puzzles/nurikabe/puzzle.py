"""Nurikabe as the front end sees it: a puzzle over any graph, answered by a picture
(``True`` = black, a wall cell; ``False`` = white, an island cell)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from ...engines import Z3_ENGINES
from ...errors import InputError
from ...puzzle import Formula, Puzzle, Request, Source
from . import pictures
from .check import problems
from .formats import FORMATS, parse, to_puzzlink
from .model import NurikabeInstance as Model
from .model import Picture
from .rules import PRESOLVE
from .search import CONNECTIVITY

if TYPE_CHECKING:
    from ...outcome import Outcome

#: How many of the solutions a counted report draws.
SHOWN = 5


class Nurikabe(Puzzle):
    """A Nurikabe puzzle (``puzzle``: the parsed model, its graph and clues)."""

    kind: ClassVar[str] = "nurikabe"
    title: ClassVar[str] = "Nurikabe"
    sample: ClassVar[str] = (
        "7 7\n- 1 - - - - -\n- - - 2 - 1 -\n- 1 - - - - -\n- - - - 4 - -\n"
        "- - 2 - - - -\n1 - - - - - -\n- - - 2 - 1 -\n"
    )
    marker = re.compile(r"\s*(clue|pool)\s")  #: a directive of the graph format
    options: ClassVar[dict[str, tuple[str, ...] | None]] = {
        "connectivity": CONNECTIVITY,
        "engine": Z3_ENGINES,
        "presolve": PRESOLVE,
        "print_asserts": None,
    }

    def __init__(self, puzzle: Model) -> None:
        self.puzzle = puzzle

    @property
    def name(self) -> str:  # type: ignore[override]
        return self.puzzle.name

    @classmethod
    def load(cls, source: Source) -> Nurikabe:
        fmt = "puzzlink" if source.is_url else source.format
        if fmt not in FORMATS:
            raise InputError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
        return cls(parse(source.text, source.name, fmt, source.index or 1))

    def to_url(self) -> str:
        """The puzzle as a puzz.link URL (plain rectangles only)."""
        return to_puzzlink(self.puzzle)

    def _key(self) -> Any:
        return self.puzzle

    # -- solving ---------------------------------------------------------------------------

    def solve(self, ask: Request) -> Outcome:
        from .search import solve

        chosen = ask.chosen(connectivity="distance", engine=None, presolve="full")
        budget, unique, count = ask.budget, ask.unique, ask.count
        outcome, _ = solve(self.puzzle, budget=budget, unique=unique, count=count, **chosen)
        return outcome

    def formula(self, connectivity: str = "distance", presolve: str = "full") -> Formula:
        """Every rule, connectivity by distances included (``lazy``: without them, as the
        lazy search starts), and what ``presolve`` proves as a block of facts."""
        from .search import prepare

        self.check_options({"connectivity": connectivity, "presolve": presolve})
        enc, _ = prepare(self.puzzle, presolve=presolve)
        title = [f"nurikabe {self.name}: {self.describe()}", f"presolve {presolve}"]
        script = enc.script(title, connectivity == "distance", counted=False)
        return Formula(self.kind, script.text(), None, script.size(), script)

    def problems(self, answer: Any) -> list[str]:
        p = self.puzzle
        return problems(p.graph, p.clues, p.pools, self.as_picture(answer))

    def as_picture(self, answer: Any) -> list[bool]:
        """Booleans per cell from a picture, rows of ``#``/``.``, or ``{cell: "#"}``."""
        names = self.puzzle.graph.names
        if isinstance(answer, Mapping):
            return [answer.get(name) == "#" for name in names]
        items = list(answer)
        if items and all(isinstance(row, str) for row in items):
            coords = self.puzzle.graph.coords
            if coords is None:
                raise InputError("rows of # and . need a grid puzzle; give {cell: '#'} instead")
            try:
                return [items[r][c] == "#" for r, c in coords]
            except IndexError:
                raise InputError("the picture is smaller than the puzzle") from None
        return [bool(b) for b in items]

    # -- describing ------------------------------------------------------------------------

    def size(self) -> str:
        g = self.puzzle.graph
        return f"{g.rows}x{g.cols}" if g.rows else f"{len(g)} cells"

    def describe(self) -> str:
        g = self.puzzle.graph
        return f"{self.size()} {g.kind}, {len(self.puzzle.clues)} clues"

    def solution_json(self, answer: Picture | None) -> Any:
        return None if answer is None else pictures.json_solution(self.puzzle, answer)

    def fixed_json(self, fixed: dict[int, bool] | None) -> Any:
        """The picture with ``?`` where cells differ between solutions."""
        if fixed is None:
            return None
        marks = {i: "#" if black else "." for i, black in fixed.items()}
        names = self.puzzle.graph.names
        if self.puzzle.graph.coords is None:
            return {name: marks[i] for i, name in enumerate(names) if i in marks}
        rows = [list(r) for r in pictures.json_solution(self.puzzle, (False,) * len(names))]
        for i, (r, c) in enumerate(self.puzzle.graph.coords):
            rows[r][c] = marks.get(i, "?")
        return ["".join(r) for r in rows]

    def report(self, outcome: Outcome, counted: bool) -> list[str]:
        found = outcome.solutions
        lines = []
        if counted:
            for n, picture in enumerate(found[:SHOWN], 1):
                lines += [f"solution {n}:", self.picture(picture)]
            if len(found) > SHOWN:
                lines.append(f"(the first {SHOWN} drawn above; {len(found) - SHOWN} more)")
        elif found:
            lines.append(self.picture(found[0]))
            if len(found) > 1:
                lines += ["another solution:", self.picture(found[1])]
        if outcome.fixed is not None and outcome.unique is False and found:
            lines.append(f"fixed in every solution ({len(outcome.fixed)} cells; ? = not fixed):")
            lines.append(self.picture(found[0], outcome.fixed))
        return lines

    def picture(self, answer: Picture | None = None, fixed: dict[int, bool] | None = None) -> str:
        """``#`` wall, ``.`` island, clue numbers; ``?`` where ``fixed`` lacks a cell."""
        shaped = pictures.shaped(self.puzzle)
        return pictures.text_picture(shaped, answer, fixed).rstrip("\n")

    def svg(self, answer: Picture | None = None, fixed: dict[int, bool] | None = None) -> str:
        return pictures.svg(self.puzzle, answer, fixed)

    def result_svg(self, outcome: Outcome) -> str:
        return self.svg(outcome.solution, outcome.fixed if outcome.unique is False else None)

    def answer_at(self, answer: Picture | None, cell: str | tuple[int, int]) -> bool | None:
        """``True`` black (wall), ``False`` white (island), ``None`` without an answer."""
        if answer is None:
            return None
        return answer[self.puzzle.graph.cell(cell)]


PUZZLE = Nurikabe
