"""Flood-It as the front end sees it: a board and the cell the flood starts from."""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

from ... import render
from ...errors import CheckFailure, InputError
from ...puzzle import Formula, Puzzle, Request, Source
from ...smtlib import Question
from . import pictures
from .check import check_solution, flood_region, play
from .formats import FORMATS, detect_format, parse_board, parse_start
from .model import DIGITS, Board, ClusterGraph, cluster_graph
from .search import BOUND_NODES, PRESOLVE, STRATEGIES, STRATEGY, FloodOutcome

if TYPE_CHECKING:
    from ...outcome import Outcome

MODES = ("solve", "exact", "search", "min", "opt")
_ROW = re.compile(r"[0-9a-z]+")  #: a row of a board, one digit a cell
ENGINES = ("auto", "sat", "smt", "cadical")
ENCODINGS = ("layered", "reference")


class FloodIt(Puzzle):
    """A Flood-It board (``board``) and the start cell (``start``, ``(row, col)``)."""

    kind: ClassVar[str] = "floodit"
    title: ClassVar[str] = "Flood-It"
    modes: ClassVar[tuple[str, ...]] = MODES
    #: Solved once by a bench's parent, not by a process forked ahead per case: a
    #: Flood-It case's own work is mostly the compiled A*, whose memory is fresh in any
    #: process, so a sample per case would cost more than the first touches it spares.
    sample: ClassVar[str] = "012301\n123012\n230123\n301230\n012301\n123012\n"
    fork_ahead: ClassVar[bool] = False
    options: ClassVar[dict[str, tuple[str, ...] | None]] = {
        "engine": ENGINES,
        "encoding": ENCODINGS,
        "strategy": STRATEGIES,
        "bound_nodes": None,
        "counting": None,
        "presolve": PRESOLVE,
        "print_asserts": None,
    }

    def __init__(self, board: Board, start: tuple[int, int] = (0, 0)) -> None:
        self.board = board
        self.start = start
        self._stopped = False  #: a solve stopped at a limit: describe builds nothing more

    @property
    def name(self) -> str:  # type: ignore[override]
        return self.board.name

    @classmethod
    def load(cls, source: Source, start: str | tuple[int, int] | None = None) -> FloodIt:
        """``start``: the start cell as ``(row, col)`` or ``"row,col"``."""
        if source.is_url:
            raise InputError("Flood-It boards have no puzz.link URL", source.name)
        fmt = source.format
        if fmt not in FORMATS:
            raise InputError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
        board = parse_board(source.text, source.name, fmt, source.index)
        spec = f"{start[0]},{start[1]}" if isinstance(start, tuple) else start
        return cls(board, parse_start(spec, board))

    @classmethod
    def recognises(cls, text: str, lines: list[str]) -> bool:
        """Rows of colour digits, or the ``m n k`` format."""
        return all(_ROW.fullmatch(line) for line in lines) or detect_format(text) == "mnk"

    @cached_property
    def graph(self) -> ClusterGraph:
        """The cluster graph the rules and bounds work on (built once per puzzle)."""
        return cluster_graph(self.board.grid, self.start)

    def _key(self) -> Any:
        return (self.board, self.start)

    # -- solving ---------------------------------------------------------------------------

    def solve(self, ask: Request) -> FloodOutcome:
        if ask.unique or ask.count is not None:
            raise InputError("unique and count are not Flood-It options")
        mode, args, options = ask.mode, ask.args, ask.options
        if options.get("encoding", "layered") == "reference":
            from .reference.search import run_reference

            if options.get("engine", "auto") == "cadical":
                raise InputError("--engine cadical: the reference encoding is Z3's alone")

            print_asserts = options.get("print_asserts", False)
            outcome = run_reference(
                self.board,
                mode,
                args,
                start=self.start,
                print_asserts=print_asserts,
                budget=ask.budget,
            )
        else:
            from .search import run_mode

            outcome = run_mode(
                self.board,
                mode,
                args,
                start=self.start,
                engine=options.get("engine", "auto"),
                counting=options.get("counting", True),
                print_asserts=options.get("print_asserts", False),
                bound_nodes=options.get("bound_nodes", BOUND_NODES),
                strategy=options.get("strategy", STRATEGY),
                presolve=options.get("presolve", "full"),
                graph=self.__dict__.get("graph"),
                budget=ask.budget,
            )
            held = outcome.held[0] if isinstance(outcome.held, tuple) else outcome.held
            if held is not None:  # the cluster graph the search built, kept for the report
                self.__dict__.setdefault("graph", held.graph)
        if outcome.smtlib is not None and not outcome.questions:  # the reference encoding's
            outcome.questions.append(Question(f"reference-{mode}", outcome.smtlib, "unknown"))
        outcome.details["proven_by"] = outcome.proven_by
        self._stopped = outcome.stopped is not None
        return outcome

    def formula_options(
        self, mode: str, args: dict[str, int], options: dict[str, Any]
    ) -> dict[str, Any]:
        """The colour counting, and the horizon of ``exact N`` and ``search LO HI``."""
        wanted: dict[str, Any] = {"counting": options.get("counting", True)}
        if mode == "exact":
            wanted.update(horizon=args["n"], exact=True)
        elif mode == "search":
            wanted["horizon"] = args["hi"]
        return wanted

    def formula(
        self, horizon: int | None = None, exact: bool = False, counting: bool = True
    ) -> Formula:
        """ "Done within ``horizon`` moves" (``exact``: in exactly that many); by default
        the horizon is a heuristic playout's length, which is always enough."""
        from .search import dry_run

        if horizon is not None and horizon < 0:
            raise InputError(f"horizon={horizon}: expected 0 or more moves")
        if horizon is None:
            sizes, script = dry_run(self.board, "solve", (), self.start, counting)
        elif exact:
            sizes, script = dry_run(self.board, "exact", (horizon,), self.start, counting)
        else:
            sizes, script = dry_run(self.board, "search", (0, horizon), self.start, counting)
        return Formula(self.kind, script.text(), sizes["horizon"], sizes, script)

    def problems(self, answer: Any) -> list[str]:
        if isinstance(answer, str | bytes) or not isinstance(answer, Iterable):
            shown = f"{answer!r:.30}"
            raise InputError(f"Flood-It moves: expected a list of colour numbers, not {shown}")
        moves = list(answer)
        for move in moves:  # int() would read 2.5 as 2 and "3" as 3
            if isinstance(move, bool) or not hasattr(move, "__index__"):
                raise InputError(f"Flood-It moves: {move!r:.40} is not a colour number")
        try:
            check_solution(self.board.grid, [operator.index(m) for m in moves], self.start)
        except CheckFailure as failure:
            return [str(failure)]
        return []

    # -- describing ------------------------------------------------------------------------

    def size(self) -> str:
        return f"{self.board.rows}x{self.board.cols}"

    def describe(self) -> str:
        """Size, colours, clusters (``?`` when a stopped search never counted them: a
        report after a time limit does not build the cluster graph), start cell."""
        graph = self.__dict__.get("graph")
        clusters = "?" if graph is None and self._stopped else len(self.graph)
        return (
            f"{self.size()}, {self.board.n_colours} colours, {clusters} clusters, "
            f"start {self.start[0]},{self.start[1]}"
        )

    def solution_json(self, answer: Any) -> Any:
        return None if answer is None else list(answer)

    @classmethod
    def best_so_far_json(cls, outcome: Any) -> Any:
        moves = outcome.solution  # every move list is checked before it is kept
        return None if moves is None else list(moves)

    @classmethod
    def extra_json(cls, outcome: Any) -> dict[str, Any]:
        moves = outcome.solution
        return {
            "moves": None if moves is None else list(moves),
            "length": None if moves is None else len(moves),
            "lower_bound": outcome.lower_bound,
            "upper_bound": outcome.upper_bound,
        }

    def report(self, outcome: Outcome, counted: bool) -> list[str]:
        out = outcome
        lines = []
        derived, strategy = getattr(out, "derived", None), getattr(out, "strategy", "")
        if derived is not None and strategy == "reference":
            lines.append(f"search range: {derived[0]}..{derived[1]} (color-flood-rs's bisection)")
        elif derived is not None:
            lines.append(
                f"bounds: {derived[0]}..{derived[1]} (lower bound .. shortest play, before Z3), "
                f"search {strategy}"
            )
        lo = "?" if out.lower_bound is None else out.lower_bound
        hi = "?" if out.upper_bound is None else out.upper_bound
        lines.append(f"proven: {lo} <= optimum <= {hi}")
        proven_by = getattr(out, "proven_by", None)
        if proven_by == "bounds":
            lines.append(
                "proven by: bounds (admissible lower bound = playout length), no SMT probe"
            )
        elif proven_by == "z3":
            lines.append("proven by: Z3 (no solution one move shorter)")
        elif proven_by == "cadical":
            lines.append("proven by: CaDiCaL (no solution one move shorter)")
        elif proven_by == "A*":
            lines.append("proven by: A* (exhaustive under an admissible bound), no SMT probe")
        moves = outcome.solution
        lines.append(f"moves: {moves_text(moves)}")
        lines.append(f"length: {'-' if moves is None else len(moves)}")
        return lines

    def picture(self, answer: Any = None) -> str:
        """The board in the grid format; with moves, the board they leave."""
        grid = self.boards(answer)[-1] if answer else self.board.grid
        return pictures.board_ansi(grid, colour=False)

    def svg(self, answer: Any = None) -> str:
        if answer is None:
            return render.board_svg(self.board.grid, flood_region(self.board.grid, self.start))
        return pictures.solution_svg(self.board, answer, self.start)

    # -- Flood-It's own pictures -----------------------------------------------------------

    def boards(self, moves: Sequence[int] | None) -> list[list[list[int]]]:
        """The board before the first move and after each of ``moves``."""
        return play(self.board.grid, moves or [], self.start)

    def frames(self, moves: Sequence[int] | None, cell_px: int | None = None) -> list[str]:
        """An SVG of the board before the first move and after each move, flood outlined."""
        return pictures.frames(self.board, moves or [], self.start, cell_px)

    def captions(self, moves: Sequence[int] | None) -> list[str]:
        """A caption per frame: ``start``, then the move number and its colour."""
        return pictures.captions(moves or [])


def moves_text(moves: Sequence[int] | None) -> str:
    """Moves as colour characters; ``-`` for none found, a word for an empty play."""
    if moves is None:
        return "-"
    return "".join(DIGITS[m] for m in moves) if moves else "(none: already one colour)"


PUZZLE = FloodIt
