"""Koburin as the front end sees it: a puzzle over any graph, answered by black cells
and one loop through every other empty cell."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from ... import render
from ...errors import InputError
from ...puzzle import Formula, Puzzle, Request, Source
from . import pictures
from .check import problems
from .formats import FORMATS, parse, to_grid_text, to_puzzlink
from .model import VARIANTS, Solution
from .model import KoburinInstance as Model
from .rules import PRESOLVE
from .search import CONNECTIVITY

if TYPE_CHECKING:
    from ...outcome import Outcome


class Koburin(Puzzle):
    """A Koburin puzzle (``puzzle``: the parsed model, its graph and numbers)."""

    kind: ClassVar[str] = "koburin"
    title: ClassVar[str] = "Koburin"
    sample: ClassVar[str] = (
        "8 8\n- - - 1 - - - -\n- - - - - 0 - -\n- - - 0 - - - 0\n- - - 0 - - - -\n"
        "1 - 0 - - 0 - -\n- - - - - 0 - -\n- - - - - - 0 -\n0 - - - 0 - - -\n"
    )
    marker = re.compile(r"\s*[^\s:#=]+\s*=\s*\S+\s*\Z")  #: ``cell = number`` (a table)
    options: ClassVar[dict[str, tuple[str, ...] | None]] = {
        "connectivity": CONNECTIVITY,
        "presolve": PRESOLVE,
        "print_asserts": None,
    }

    def __init__(self, puzzle: Model, name: str = "<puzzle>") -> None:
        self.puzzle = puzzle
        self._name = name

    @property
    def name(self) -> str:  # type: ignore[override]
        return self._name

    @classmethod
    def load(cls, source: Source, variant: str | None = None) -> Koburin:
        """``variant``: ``four`` or ``eight`` neighbours counted (default: as the input
        says, else four)."""
        name, fmt = source.name, "puzzlink" if source.is_url else source.format
        if source.index not in (None, 1):
            raise InputError("index= is for multi-puzzle files; a Koburin file holds one", name)
        if variant is not None and variant not in VARIANTS:
            raise InputError(f"unknown variant {variant!r}; expected one of {', '.join(VARIANTS)}")
        if fmt not in FORMATS:
            raise InputError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
        return cls(parse(source.text, name, fmt, variant), name)

    def to_url(self) -> str:
        """The puzzle as a puzz.link URL."""
        return to_puzzlink(self.puzzle)

    def to_grid(self) -> str:
        """The puzzle as a clue grid."""
        return to_grid_text(self.puzzle).rstrip("\n")

    def _key(self) -> Any:
        return (self.puzzle, self._name)

    # -- solving ---------------------------------------------------------------------------

    def solve(self, ask: Request) -> Outcome:
        from .search import solve

        chosen = ask.chosen(connectivity="lazy", presolve="full")
        return solve(self.puzzle, ask.budget, unique=ask.unique, count=ask.count, **chosen)

    def formula(self, connectivity: str = "distance", presolve: str = "full") -> Formula:
        """The whole puzzle as a script (rule B by distances: the rules themselves); its
        size is that of what ``connectivity`` starts from (``lazy`` leaves rule B's
        distances out until separate loops are found)."""
        from .rules import encode, script

        self.check_options({"connectivity": connectivity, "presolve": presolve})
        whole = script(self.puzzle, presolve, [f"koburin {self.name}: {self.describe()}"])
        sizes = encode(self.puzzle, connectivity, presolve).script().size()
        return Formula(self.kind, whole.text(), None, sizes, whole)

    def problems(self, answer: Any) -> list[str]:
        if isinstance(answer, Mapping):
            return self._json_problems(answer)
        if isinstance(answer, Solution):
            return problems(self.puzzle, answer.black, answer.edges, answer.loop())
        black, links = answer
        return problems(self.puzzle, black, links)

    def _json_problems(self, answer: Mapping[str, Any]) -> list[str]:
        """Check the JSON answer: cells as ``[row, col]`` on grids or names on tables."""
        graph = self.puzzle.graph

        def cell(value: Any) -> int:
            try:
                return graph.cell(value if isinstance(value, str) else tuple(value))
            except KeyError as exc:
                raise InputError(str(exc.args[0])) from None

        black = [cell(v) for v in answer.get("black", [])]
        order = [cell(v) for v in answer.get("loop", [])]
        links = list(zip(order, order[1:] + order[:1])) if len(order) > 1 else []
        return problems(self.puzzle, black, links, order)

    # -- describing ------------------------------------------------------------------------

    def size(self) -> str:
        g = self.puzzle.graph
        if g.rows is not None and g.cols is not None and g.kind != "table":
            return f"{g.rows}x{g.cols}"
        return f"{len(g)} cells"

    def describe(self) -> str:
        return f"{self.size()}, {len(self.puzzle.clues)} numbers, variant {self.puzzle.variant}"

    def solution_json(self, answer: Solution | None) -> Any:
        return None if answer is None else pictures.solution_json(self.puzzle, answer)

    def fixed_json(self, fixed: dict[int, bool] | None) -> Any:
        """Empty cells the same in every solution: ``#`` black, ``o`` on the loop,
        ``?`` differing; as rows on grids, as ``{cell: mark}`` on tables."""
        if fixed is None:
            return None
        marks = {i: "#" if black else "o" for i, black in fixed.items()}
        for i in self.puzzle.clues:
            marks[i] = "-"
        graph = self.puzzle.graph
        if not pictures.is_grid(self.puzzle):
            return {name: marks.get(i, "?") for i, name in enumerate(graph.names)}
        return render.grid_text(graph, {i: marks.get(i, "?") for i in range(len(graph))}).split(
            "\n"
        )

    def report(self, outcome: Outcome, counted: bool) -> list[str]:
        lines = [self.picture(outcome.solution)]
        if len(outcome.solutions) > 1 and not counted:
            lines += ["another solution:", self.picture(outcome.solutions[1])]
        if outcome.fixed is not None and outcome.unique is False:
            empty = len(self.puzzle.empty)
            lines.append(f"fixed in every solution: {len(outcome.fixed)} of {empty} cells")
        return lines

    def picture(self, answer: Solution | None = None) -> str:
        """``#`` black, numbers, the loop in box-drawing characters."""
        return pictures.draw(self.puzzle, answer)

    def svg(self, answer: Solution | None = None) -> str:
        return pictures.svg(self.puzzle, answer)

    def result_svg(self, outcome: Outcome) -> str:
        fixed = outcome.fixed if outcome.unique is False else None
        return pictures.svg(self.puzzle, outcome.solution, fixed=fixed)

    def answer_at(self, answer: Solution | None, cell: str | tuple[int, int]) -> bool | None:
        """``True`` black, ``False`` on the loop or numbered, ``None`` without an answer."""
        if answer is None:
            return None
        return self.puzzle.graph.cell(cell) in answer.black


PUZZLE = Koburin
