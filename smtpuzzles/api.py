"""The Python API: what the command line does, in a few calls and with no printing.

    import smtpuzzles
    board = smtpuzzles.load("instances/floodit/b05x05c4.txt")
    result = smtpuzzles.solve(board, "min")   # result.status == "optimal"
    smtpuzzles.check(board, result)           # [] (no problems found)

``load`` reads a path, a text or a puzz.link URL and returns a puzzle object
(:class:`FloodIt`, :class:`Nurikabe`, :class:`Koburin`); ``solve`` runs a mode and returns
a :class:`Result`; ``formula`` gives the formula behind a puzzle (its SMT-LIB text, its size,
its Z3 terms); ``check`` runs the independent checker. Puzzles and results show themselves
in Jupyter (``_repr_svg_``) and as text (``str``).

This layer only wraps the public functions of the puzzle packages: every rule, search and
check lives there, and the JSON a result gives is the object the CLI prints with ``--json``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import z3

from . import render
from .errors import CheckFailure, InputError
from .formats.puzzlink import looks_like_url, parse_url
from .puzzles import koburin as _koburin
from .puzzles import nurikabe as _nurikabe
from .puzzles.floodit import formats as _board
from .puzzles.floodit import model as _floodit_model
from .puzzles.floodit import pictures as _floodit_pictures
from .puzzles.floodit.check import check_solution, flood_region, play
from .puzzles.floodit.model import cluster_graph
from .puzzles.floodit.search import dry_run, run_mode
from .puzzles.koburin import formats as _koburin_formats
from .puzzles.koburin import pictures as _koburin_show
from .puzzles.nurikabe import formats as _nurikabe_parse
from .puzzles.nurikabe import pictures as _nurikabe_view
from .puzzles.nurikabe.pictures import drawable
from .solving import Budget, Stats, formula_size, smtlib_script
from .sources import read_source

Kind = Literal["floodit", "nurikabe", "koburin"]
KINDS: tuple[str, ...] = ("floodit", "nurikabe", "koburin")
FLOODIT_MODES = ("solve", "exact", "search", "min", "opt")

__all__ = [
    "FloodIt",
    "Formula",
    "Koburin",
    "Nurikabe",
    "Puzzle",
    "Result",
    "check",
    "formula",
    "load",
    "solve",
]


# ---------------------------------------------------------------------------- puzzles


@dataclass(frozen=True)
class FloodIt:
    """A Flood-It board and the cell the flood starts from (``board``: the parsed board)."""

    board: _floodit_model.Board
    start: tuple[int, int] = (0, 0)
    kind: str = field(default="floodit", init=False)

    @property
    def name(self) -> str:
        return self.board.name

    def __str__(self) -> str:
        return self.board.text().rstrip("\n")

    def _repr_svg_(self) -> str:
        return render.board_svg(self.board.grid, flood_region(_lists(self.board.grid), self.start))

    def svg(self) -> str:
        """The board in colour, the start region outlined."""
        return self._repr_svg_()


@dataclass(frozen=True)
class Nurikabe:
    """A Nurikabe puzzle over any graph (``puzzle``: the parsed puzzle)."""

    puzzle: _nurikabe.Nurikabe
    kind: str = field(default="nurikabe", init=False)

    @property
    def name(self) -> str:
        return self.puzzle.name

    def __str__(self) -> str:
        return _nurikabe_view.text_picture(_shaped(self.puzzle), None).rstrip("\n")

    def _repr_svg_(self) -> str:
        return _nurikabe_view.svg(self.puzzle, None)

    def svg(self) -> str:
        """The cells drawn as what they are (grid, holes, torus, hexagons, table) with clues."""
        return self._repr_svg_()


@dataclass(frozen=True)
class Koburin:
    """A Koburin puzzle over any graph (``puzzle``: the parsed puzzle)."""

    puzzle: _koburin.Koburin
    name: str = "<puzzle>"
    kind: str = field(default="koburin", init=False)

    def __str__(self) -> str:
        return _koburin_show.draw(self.puzzle, None)

    def _repr_svg_(self) -> str:
        return _koburin_show.svg(self.puzzle, None)

    def svg(self) -> str:
        """The cells with their numbers."""
        return self._repr_svg_()


Puzzle = FloodIt | Nurikabe | Koburin


def _shaped(puzzle: _nurikabe.Nurikabe) -> _nurikabe.Nurikabe:
    """The puzzle over :func:`drawable`'s graph, so text pictures shift hex rows too."""
    graph = drawable(puzzle.graph)
    if graph is puzzle.graph:
        return puzzle
    return _nurikabe.Nurikabe(graph, puzzle.clues, puzzle.pools, puzzle.name)


def _lists(grid: Sequence[Sequence[int]]) -> list[list[int]]:
    return [list(row) for row in grid]


# ---------------------------------------------------------------------------- load


def load(
    source: str | Path,
    puzzle: str | None = None,
    *,
    format: str = "auto",
    index: int | None = None,
    start: tuple[int, int] | str | None = None,
    variant: str | None = None,
) -> Puzzle:
    """Read a puzzle from a path, a text or a puzz.link URL.

    ``puzzle`` names the kind (``floodit``, ``nurikabe``, ``koburin``); without it the kind
    comes from the URL, the folder (``instances/<kind>/``), the file name or the text
    (Flood-It boards and adjacency tables are recognisable; a clue grid is not, and then
    ``puzzle`` is required). A string with a newline is text; a single line is a path when
    such a file exists or the string looks like one, and text otherwise. ``format``,
    ``index`` (a board or puzzle of a multi-line file), ``start`` (Flood-It's start cell,
    ``(row, col)`` or ``"row,col"``) and ``variant`` (Koburin's ``four`` or ``eight``) are
    the CLI's options. Bad input raises :class:`~smtpuzzles.errors.InputError`.
    """
    if puzzle is not None and puzzle not in KINDS:
        raise InputError(f"unknown puzzle {puzzle!r}; expected one of {', '.join(KINDS)}")
    text, name, is_url = _read(source)
    kind = puzzle or _guess_kind(text, name, is_url)
    if kind == "floodit":
        if is_url:
            raise InputError("Flood-It boards have no puzz.link URL", name)
        board = _board.parse_board(text, name, format, index)
        spec = f"{start[0]},{start[1]}" if isinstance(start, tuple) else start
        return FloodIt(board, _board.parse_start(spec, board))
    if start is not None:
        raise InputError(f"start= is a Flood-It option, not one of {kind}")
    if kind == "nurikabe":
        if format not in _nurikabe_parse.FORMATS:
            raise InputError(
                f"unknown format {format!r}; expected one of {', '.join(_nurikabe_parse.FORMATS)}"
            )
        return Nurikabe(_nurikabe_parse.parse(text, name, format, index or 1))
    if index not in (None, 1):
        raise InputError("index= is for multi-puzzle files; a Koburin file holds one", name)
    return Koburin(_koburin_formats.parse(text, name, format, variant), name)


def _read(source: str | Path) -> tuple[str, str, bool]:
    """``(text, name, is_url)`` of a path, a URL or a text."""
    if isinstance(source, Path):
        text, name = read_source(str(source))
        return text, name, False
    if not isinstance(source, str):
        raise InputError(f"expected a path, a text or a URL, not {type(source).__name__}")
    if "\n" in source.strip():
        return source, "<text>", False
    if looks_like_url(source) and not Path(source).exists():
        return source.strip(), "<url>", True
    if source == "-" or Path(source).exists() or _looks_like_path(source):
        text, name = read_source(source)
        return text, name, False
    return source, "<text>", False


def _looks_like_path(text: str) -> bool:
    return "/" in text or "\\" in text or bool(re.search(r"\.[A-Za-z]\w{0,5}$", text.strip()))


_FLOODIT_ROW = re.compile(r"[0-9a-z]+")
_KOBURIN_NUMBER = re.compile(r"\s*[^\s:#=]+\s*=\s*\S+\s*")
_NURIKABE_DIRECTIVE = re.compile(r"\s*(clue|pool)\s")


def _guess_kind(text: str, name: str, is_url: bool) -> str:
    """The puzzle kind, from the URL, the path, or what only one kind's text looks like."""
    if is_url:
        kind = parse_url(text, name).kind
        if kind not in KINDS:
            raise InputError(f"URL is for {kind!r}, which smtpuzzles does not solve", name)
        return kind
    for part in reversed(Path(name).parts):
        for kind in KINDS:
            if kind in part.lower():
                return kind
    lines = [line.strip() for line in text.split("\n")]
    content = [line for line in lines if line and not line.startswith("#")]
    if any(_NURIKABE_DIRECTIVE.match(line) for line in content):
        return "nurikabe"
    if any(_KOBURIN_NUMBER.fullmatch(line) for line in content):
        return "koburin"
    if content and all(_FLOODIT_ROW.fullmatch(line) for line in content):
        return "floodit"
    if content and _board.detect_format(text) == "mnk":
        return "floodit"
    raise InputError(
        "cannot tell which puzzle this is; pass puzzle='floodit', 'nurikabe' or 'koburin'", name
    )


def _as_puzzle(puzzle: Any) -> Puzzle:
    """Accept a puzzle object, a raw parsed puzzle, or anything :func:`load` reads."""
    if isinstance(puzzle, FloodIt | Nurikabe | Koburin):
        return puzzle
    if isinstance(puzzle, _floodit_model.Board):
        return FloodIt(puzzle)
    if isinstance(puzzle, _nurikabe.Nurikabe):
        return Nurikabe(puzzle)
    if isinstance(puzzle, _koburin.Koburin):
        return Koburin(puzzle)
    if isinstance(puzzle, str | Path):
        return load(puzzle)
    raise InputError(f"not a puzzle: {type(puzzle).__name__}")


# ---------------------------------------------------------------------------- results


@dataclass
class Result:
    """What a solve found, as the CLI reports it.

    ``answer``: Flood-It the moves (colour numbers), Nurikabe the picture (a tuple of
    booleans, ``True`` = wall, one per cell), Koburin a solution (``black`` cells and loop
    ``edges``); ``None`` without one. ``lower_bound`` / ``upper_bound`` are Flood-It's
    proven bounds. ``stats`` is Z3's statistics with one entry per probe under
    ``"probes"``. ``fixed`` maps cells to ``True`` (black in every solution) or ``False``
    (never black) when uniqueness was asked (Nurikabe) or every solution was found
    (Koburin); cells missing from it differ between solutions.
    """

    puzzle: Puzzle
    mode: str
    status: str
    answer: Any
    elapsed_s: float
    stats: dict[str, Any]
    json: dict[str, Any]
    lower_bound: int | None = None
    upper_bound: int | None = None
    unique: bool | None = None
    fixed: dict[int, bool] | None = None
    count: int | None = None
    count_complete: bool | None = None
    solutions: list[Any] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    stopped: str | None = None

    @property
    def kind(self) -> str:
        return self.puzzle.kind

    @property
    def bounds(self) -> tuple[int | None, int | None]:
        """Flood-It: what is proven about the optimum, ``(lower, upper)``."""
        return (self.lower_bound, self.upper_bound)

    @property
    def solved(self) -> bool:
        return self.status in ("solved", "optimal")

    def to_json(self) -> dict[str, Any]:
        """The object the CLI prints with ``--json`` (same keys, same values)."""
        return dict(self.json)

    def __str__(self) -> str:
        return _TEXT[self.kind](self)

    def _repr_svg_(self) -> str:
        return _SVG[self.kind](self)

    def svg(self) -> str:
        """The answer pictured (what Jupyter shows)."""
        return self._repr_svg_()

    # -- Flood-It ---------------------------------------------------------------------------

    def boards(self) -> list[list[list[int]]]:
        """Flood-It: the board before the first move and after each move."""
        p = self._floodit()
        return play(p.board.grid, self.answer or [], p.start)

    def frames(self, cell_px: int | None = None) -> list[str]:
        """Flood-It: an SVG of the board after each move (first the start), the flooded
        region outlined."""
        p = self._floodit()
        return _floodit_pictures.frames(p.board, self.answer or [], p.start, cell_px)

    def captions(self) -> list[str]:
        """Flood-It: a caption per frame (``start``, then the move number and colour)."""
        return _floodit_pictures.captions(self.answer or [])

    def slider(self) -> Any:
        """Flood-It: an ipywidgets slider over the frames (needs the ``notebooks`` extra)."""
        from .jupyter import step_through

        self._floodit()
        return step_through(self.frames(cell_px=24), self.captions())

    def _floodit(self) -> FloodIt:
        if not isinstance(self.puzzle, FloodIt):
            raise TypeError(f"frames are for Flood-It results, not {self.kind}")
        return self.puzzle


# ---------------------------------------------------------------------------- solve


def solve(
    puzzle: Puzzle | str | Path,
    mode: str = "solve",
    *,
    n: int | None = None,
    lo: int | None = None,
    hi: int | None = None,
    timeout: float | None = None,
    unique: bool = False,
    count: int | None = None,
    connectivity: str | None = None,
    engine: str | None = None,
    **options: Any,
) -> Result:
    """Solve a puzzle and return a :class:`Result` (never prints, never exits).

    Flood-It: ``mode`` is ``solve`` (any solution), ``exact`` (exactly ``n`` moves),
    ``search`` (least length in ``[lo, hi]``), ``min`` (proven least length) or ``opt``
    (through Z3's Optimize); ``engine`` is ``sat`` (default) or ``smt``; option
    ``counting=False`` leaves out the colour-counting constraints.
    Nurikabe and Koburin: mode ``solve``; ``unique`` proves the solution unique (or finds
    a second), ``count`` counts solutions up to that many; ``connectivity`` is
    ``distance`` or ``lazy`` (defaults as in the CLI); Nurikabe also takes ``engine``.
    ``timeout`` (seconds) ends the search with what is known (status ``unknown``).
    """
    p = _as_puzzle(puzzle)
    if timeout is not None and timeout <= 0:
        raise InputError(f"timeout={timeout}: expected a positive number of seconds")
    if isinstance(p, FloodIt):
        if unique or count is not None or connectivity is not None:
            raise InputError("unique, count and connectivity are not Flood-It options")
        return _solve_floodit(p, mode, n, lo, hi, timeout, engine, options)
    if mode != "solve":
        raise InputError(f"{p.kind} has one mode, 'solve', not {mode!r}")
    if n is not None or lo is not None or hi is not None:
        raise InputError("n, lo and hi are Flood-It options")
    if count is not None and count < 1:
        raise InputError(f"count={count}: expected at least 1")
    if isinstance(p, Nurikabe):
        return _solve_nurikabe(p, timeout, unique, count, connectivity, engine, options)
    return _solve_koburin(p, timeout, unique, count, connectivity, engine, options)


def _no_options(kind: str, options: Mapping[str, Any]) -> None:
    if options:
        raise InputError(f"unknown {kind} option(s): {', '.join(sorted(options))}")


def _solve_floodit(
    p: FloodIt,
    mode: str,
    n: int | None,
    lo: int | None,
    hi: int | None,
    timeout: float | None,
    engine: str | None,
    options: dict[str, Any],
) -> Result:
    counting = bool(options.pop("counting", True))
    _no_options("Flood-It", options)
    args = _floodit_args(mode, n, lo, hi)
    engine = engine or "sat"
    if engine not in ("sat", "smt"):
        raise InputError(f"engine={engine!r}: expected sat or smt")
    out = run_mode(p.board, mode, args, p.start, engine, timeout, counting)
    return Result(
        puzzle=p,
        mode=mode,
        status=out.status,
        answer=out.moves,
        elapsed_s=out.elapsed_s,
        stats=out.stats.as_dict(),
        json=out.as_json(),
        lower_bound=out.lower_bound,
        upper_bound=out.upper_bound,
        solutions=[out.moves] if out.moves is not None else [],
        notes=[*out.notes] + ([f"search {out.strategy}"] if out.strategy else []),
        stopped=out.stopped,
    )


def _floodit_args(mode: str, n: int | None, lo: int | None, hi: int | None) -> tuple[int, ...]:
    if mode not in FLOODIT_MODES:
        raise InputError(f"unknown Flood-It mode {mode!r}; expected one of {FLOODIT_MODES}")
    given = {"n": n, "lo": lo, "hi": hi}
    wanted = {"exact": ("n",), "search": ("lo", "hi")}.get(mode, ())
    for key, value in given.items():
        if key in wanted and value is None:
            raise InputError(f"mode {mode!r} needs {' and '.join(wanted)}")
        if key not in wanted and value is not None:
            raise InputError(f"{key}= is not an option of mode {mode!r}")
        if value is not None and value < 0:
            raise InputError(f"{key}={value}: expected a number of moves (0 or more)")
    if mode == "search" and lo is not None and hi is not None and lo > hi:
        raise InputError(f"search lo={lo} hi={hi}: lo must not exceed hi")
    return tuple(given[key] for key in wanted)  # type: ignore[misc]


def _solve_nurikabe(
    p: Nurikabe,
    timeout: float | None,
    unique: bool,
    count: int | None,
    connectivity: str | None,
    engine: str | None,
    options: dict[str, Any],
) -> Result:
    _no_options("Nurikabe", options)
    strategy = connectivity or "distance"
    if strategy not in _nurikabe.STRATEGIES:
        raise InputError(f"connectivity={strategy!r}: expected one of {_nurikabe.STRATEGIES}")
    if engine is not None and engine not in ("sat", "smt"):
        raise InputError(f"engine={engine!r}: expected sat or smt")
    budget, stats = Budget(timeout), Stats()
    outcome, _ = _nurikabe.solve(p.puzzle, strategy, budget, stats, unique, count, engine)
    elapsed = budget.elapsed()
    first = outcome.solutions[0] if outcome.solutions else None
    obj: dict[str, Any] = {
        "puzzle": "nurikabe",
        "status": outcome.status,
        "solution": _nurikabe_view.json_solution(p.puzzle, first) if first is not None else None,
        "unique": outcome.unique,
        "elapsed_s": round(elapsed, 3),
    }
    if count is not None:
        obj["count"] = len(outcome.solutions)
        obj["count_is_exact"] = outcome.complete
    if unique:
        obj["fixed"] = _nurikabe_fixed_json(p.puzzle, outcome.fixed)
    return Result(
        puzzle=p,
        mode="solve",
        status=outcome.status,
        answer=first,
        elapsed_s=elapsed,
        stats=stats.as_dict(),
        json=obj,
        unique=outcome.unique,
        fixed=outcome.fixed,
        count=len(outcome.solutions) if count is not None else None,
        count_complete=outcome.complete if count is not None else None,
        solutions=list(outcome.solutions),
        notes=[f"connectivity {strategy}"],
        stopped="limit" if outcome.stopped else None,
    )


def _nurikabe_fixed_json(puzzle: _nurikabe.Nurikabe, fixed: dict[int, bool] | None) -> Any:
    """The CLI's ``fixed`` key: the picture with ``?`` where cells differ between solutions."""
    if fixed is None:
        return None
    marks = {i: "#" if b else "." for i, b in fixed.items()}
    names = puzzle.graph.names
    if puzzle.graph.coords is None:
        return {name: marks[i] for i, name in enumerate(names) if i in marks}
    rows = [list(r) for r in _nurikabe_view.json_solution(puzzle, (False,) * len(names))]
    for i, (r, c) in enumerate(puzzle.graph.coords):
        rows[r][c] = marks.get(i, "?")
    return ["".join(r) for r in rows]


def _solve_koburin(
    p: Koburin,
    timeout: float | None,
    unique: bool,
    count: int | None,
    connectivity: str | None,
    engine: str | None,
    options: dict[str, Any],
) -> Result:
    _no_options("Koburin", options)
    if engine is not None:
        raise InputError("Koburin has no engine option (it always uses Z3's SAT core)")
    strategy = connectivity or "lazy"
    if strategy not in _koburin.CONNECTIVITY:
        raise InputError(f"connectivity={strategy!r}: expected one of {_koburin.CONNECTIVITY}")
    budget, stats = Budget(timeout), Stats()
    outcome = _koburin.solve(
        p.puzzle, budget, stats, unique=unique, count=count, connectivity=strategy
    )
    elapsed = budget.elapsed()
    obj: dict[str, Any] = {
        "puzzle": "koburin",
        "status": outcome.status,
        **_koburin_show.solution_json(p.puzzle, outcome.solution),
        "unique": outcome.unique,
        "elapsed_s": round(elapsed, 4),
    }
    if count is not None:
        obj["count"] = outcome.count
        obj["count_complete"] = outcome.count_exact
    every = outcome.unique is True or (count is not None and outcome.count_exact)
    return Result(
        puzzle=p,
        mode="solve",
        status=outcome.status,
        answer=outcome.solution,
        elapsed_s=elapsed,
        stats=stats.as_dict(),
        json=obj,
        unique=outcome.unique,
        fixed=_koburin_fixed(p.puzzle, outcome.solutions) if every and outcome.solutions else None,
        count=outcome.count,
        count_complete=outcome.count_exact if count is not None else None,
        solutions=list(outcome.solutions),
        notes=[f"connectivity {strategy}"]
        + ([f"separate-loop cuts: {outcome.cuts}"] if outcome.cuts else []),
        stopped="interrupted" if outcome.interrupted else None,
    )


def _koburin_fixed(
    puzzle: _koburin.Koburin, solutions: Sequence[_koburin.Solution]
) -> dict[int, bool]:
    """Empty cells black in every solution (``True``) or on the loop in every one
    (``False``); exact because ``solutions`` is every solution."""
    fixed = {}
    for i in puzzle.empty:
        states = {i in s.black for s in solutions}
        if len(states) == 1:
            fixed[i] = states.pop()
    return fixed


# ---------------------------------------------------------------------------- text


def _floodit_text(r: Result) -> str:
    p = r.puzzle
    assert isinstance(p, FloodIt)
    clusters = len(cluster_graph(p.board.grid, p.start))
    lo = "?" if r.lower_bound is None else r.lower_bound
    hi = "?" if r.upper_bound is None else r.upper_bound
    moves = r.answer
    shown = "-" if moves is None else "".join(_floodit_model.DIGITS[m] for m in moves) or "(none)"
    lines = [
        f"board: {p.name}",
        f"size: {p.board.rows}x{p.board.cols}, colours: {p.board.n_colours}, "
        f"clusters: {clusters}, start: {p.start[0]},{p.start[1]}",
        *(f"note: {note}" for note in r.notes),
        f"proven: {lo} <= optimum <= {hi}",
    ]
    if r.stopped:
        lines.append(f"stopped: {r.stopped}; reporting the best found so far")
    lines += [
        f"status: {r.status}",
        f"moves: {shown}",
        f"length: {'-' if moves is None else len(moves)}",
        f"time: {r.elapsed_s:.3f} s",
    ]
    return "\n".join(lines)


def _nurikabe_text(r: Result) -> str:
    p = r.puzzle
    assert isinstance(p, Nurikabe)
    lines = [f"puzzle: {p.name} ({len(p.puzzle)} cells, {len(p.puzzle.clues)} clues)"]
    lines.append(f"status: {r.status}")
    if r.answer is not None:
        lines.append(_nurikabe_view.text_picture(_shaped(p.puzzle), r.answer).rstrip("\n"))
    if r.unique is not None:
        lines.append(f"unique: {'yes' if r.unique else 'no'}")
    if r.count is not None:
        lines.append(f"solutions: {r.count}{'' if r.count_complete else ' (or more)'}")
    if r.fixed is not None and not r.unique and r.answer is not None:
        lines.append(f"fixed in every solution ({len(r.fixed)} cells; ? = not fixed):")
        shown = _nurikabe_view.text_picture(_shaped(p.puzzle), r.answer, r.fixed)
        lines.append(shown.rstrip("\n"))
    lines.append(f"time: {r.elapsed_s:.3f} s")
    return "\n".join(lines)


def _koburin_text(r: Result) -> str:
    p = r.puzzle
    assert isinstance(p, Koburin)
    lines = [f"koburin {p.name}, {len(p.puzzle.clues)} numbers, variant {p.puzzle.variant}"]
    lines.append(_koburin_show.draw(p.puzzle, r.answer))
    status = r.status + {True: ", unique", False: ", not unique", None: ""}[r.unique]
    lines.append(f"status: {status}")
    if r.count is not None:
        lines.append(f"solutions: {r.count}{'' if r.count_complete else ' (or more)'}")
    if r.fixed is not None and not r.unique:
        lines.append(f"fixed in every solution: {len(r.fixed)} of {len(p.puzzle.empty)} cells")
    lines += [f"note: {note}" for note in r.notes]
    lines.append(f"time: {r.elapsed_s:.3f} s")
    return "\n".join(lines)


_TEXT = {"floodit": _floodit_text, "nurikabe": _nurikabe_text, "koburin": _koburin_text}


# ---------------------------------------------------------------------------- pictures


def _floodit_svg(r: Result) -> str:
    """Small multiples of the board after each move (the final board alone when long)."""
    p = r.puzzle
    assert isinstance(p, FloodIt)
    if r.answer is None:
        return p.svg()
    return _floodit_pictures.solution_svg(p.board, r.answer, p.start)


def _nurikabe_result_svg(r: Result) -> str:
    p = r.puzzle
    assert isinstance(p, Nurikabe)
    fixed = r.fixed if r.unique is False else None
    return _nurikabe_view.svg(p.puzzle, r.answer, fixed)


def _koburin_result_svg(r: Result) -> str:
    p = r.puzzle
    assert isinstance(p, Koburin)
    svg = _koburin_show.svg(p.puzzle, r.answer)
    if r.fixed is None or r.unique or r.answer is None:
        return svg
    loose = [i for i in p.puzzle.empty if i not in r.fixed]
    marks = {i: "?" for i in loose}
    fill = {i: render.WALL for i in r.answer.black}
    label = {i: "?" if v is None else str(v) for i, v in p.puzzle.clues.items()}
    return render.graph_svg(
        p.puzzle.graph, fill=fill, label=label, loops=[r.answer.loop()], marks=marks
    )


_SVG = {"floodit": _floodit_svg, "nurikabe": _nurikabe_result_svg, "koburin": _koburin_result_svg}


# ---------------------------------------------------------------------------- formula


@dataclass
class Formula:
    """The formula behind a puzzle: Z3 terms, their SMT-LIB script and their size."""

    kind: str
    script: str
    horizon: int | None = None
    sizes: dict[str, Any] = field(default_factory=dict)
    _assertions: list[z3.BoolRef] | None = None

    @property
    def assertions(self) -> list[z3.BoolRef]:
        """The assertions as Z3 terms (Flood-It: read back from the script)."""
        if self._assertions is None:
            self._assertions = list(z3.parse_smt2_string(self.script))
        return self._assertions

    def smtlib(self) -> str:
        """A complete SMT-LIB 2 script (QF_LIA, ends with ``(check-sat)``)."""
        return self.script

    def size(self) -> dict[str, Any]:
        """Assertions, Boolean and integer variables (Flood-It: also horizon, clusters)."""
        return dict(self.sizes) if self.sizes else formula_size(self.assertions)

    def __str__(self) -> str:
        return self.script


def formula(
    puzzle: Puzzle | str | Path,
    horizon: int | None = None,
    *,
    exact: bool = False,
    connectivity: str = "distance",
    counting: bool = True,
) -> Formula:
    """The formula a solve would ask, without solving.

    Flood-It: "done within ``horizon`` moves" (``exact``: in exactly that many), the
    horizon by default the length of a heuristic playout (always enough); ``counting``
    keeps the colour-counting constraints. Nurikabe and Koburin: every rule, with
    connectivity by distance to a root (``connectivity="lazy"`` leaves it out, as the lazy
    search starts).
    """
    p = _as_puzzle(puzzle)
    if isinstance(p, FloodIt):
        if horizon is not None and horizon < 0:
            raise InputError(f"horizon={horizon}: expected 0 or more moves")
        if horizon is None:
            sizes, script = dry_run(p.board, "solve", (), p.start, counting)
        elif exact:
            sizes, script = dry_run(p.board, "exact", (horizon,), p.start, counting)
        else:
            sizes, script = dry_run(p.board, "search", (0, horizon), p.start, counting)
        return Formula("floodit", script, sizes["horizon"], sizes)
    if horizon is not None or exact:
        raise InputError("horizon and exact are Flood-It options")
    if isinstance(p, Nurikabe):
        if connectivity not in _nurikabe.STRATEGIES:
            raise InputError(f"connectivity={connectivity!r}: expected distance or lazy")
        enc, _ = _nurikabe.prepare(p.puzzle)
        facts = _nurikabe.starting_formula(enc, connectivity)
        note = f"nurikabe {p.name}: {len(p.puzzle)} cells, {len(p.puzzle.clues)} clues"
    else:
        if connectivity not in _koburin.CONNECTIVITY:
            raise InputError(f"connectivity={connectivity!r}: expected distance or lazy")
        facts = _koburin.encode(p.puzzle, connectivity).assertions()
        note = f"koburin {p.name}: {len(p.puzzle.clues)} numbers, variant {p.puzzle.variant}"
    script = smtlib_script(facts, comments=[note, f"connectivity {connectivity}"])
    return Formula(p.kind, script, None, formula_size(facts), facts)


# ---------------------------------------------------------------------------- check


def check(puzzle: Puzzle | str | Path, answer: Any) -> list[str]:
    """Problems the independent checker finds in ``answer`` (an empty list: valid).

    ``answer`` is a :class:`Result`, or Flood-It moves (colour numbers), a Nurikabe
    picture (booleans per cell, rows of ``#``/``.``, or ``{cell: "#"}``), a Koburin
    solution (or its JSON: ``{"black": ..., "loop": ...}``).
    """
    p = _as_puzzle(puzzle)
    if isinstance(answer, Result):
        answer = answer.answer
    if answer is None:
        return ["no answer"]
    if isinstance(p, FloodIt):
        try:
            check_solution(p.board.grid, [int(m) for m in answer], p.start)
        except CheckFailure as failure:
            return [str(failure)]
        return []
    if isinstance(p, Nurikabe):
        black = _nurikabe_picture(p.puzzle, answer)
        return _nurikabe.problems(p.puzzle.graph, p.puzzle.clues, p.puzzle.pools, black)
    if isinstance(answer, Mapping):
        return _koburin_json_problems(p.puzzle, answer)
    if isinstance(answer, _koburin.Solution):
        return _koburin.problems(p.puzzle, answer.black, answer.edges, answer.loop())
    black, links = answer
    return _koburin.problems(p.puzzle, black, links)


def _nurikabe_picture(puzzle: _nurikabe.Nurikabe, answer: Any) -> list[bool]:
    """Booleans per cell from any of the picture forms :func:`check` accepts."""
    names = puzzle.graph.names
    if isinstance(answer, Mapping):
        return [answer.get(name) == "#" for name in names]
    items = list(answer)
    if items and all(isinstance(row, str) for row in items):
        coords = puzzle.graph.coords
        if coords is None:
            raise InputError("rows of # and . need a grid puzzle; give {cell: '#'} instead")
        try:
            return [items[r][c] == "#" for r, c in coords]
        except IndexError:
            raise InputError("the picture is smaller than the puzzle") from None
    return [bool(b) for b in items]


def _koburin_json_problems(puzzle: _koburin.Koburin, answer: Mapping[str, Any]) -> list[str]:
    """Check the CLI's JSON answer: cells as ``[row, col]`` on grids or names on tables."""
    graph = puzzle.graph

    def cell(value: Any) -> int:
        if isinstance(value, str):
            return graph.index[value]
        index = graph.at(int(value[0]), int(value[1]))
        if index is None:
            raise InputError(f"no cell at {value}")
        return index

    black = [cell(v) for v in answer.get("black", [])]
    order = [cell(v) for v in answer.get("loop", [])]
    links = [(a, b) for a, b in zip(order, order[1:] + order[:1])] if len(order) > 1 else []
    return _koburin.problems(puzzle, black, links, order)
