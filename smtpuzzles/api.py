"""The Python API: what the command line does, in a few calls and with no printing.

    import smtpuzzles
    board = smtpuzzles.load("instances/floodit/b05x05c4.txt")
    result = smtpuzzles.solve(board, "min")   # result.status == "optimal"
    smtpuzzles.check(board, result)           # [] (no problems found)

``load`` reads a path, a text or a puzz.link URL and returns a puzzle object
(:class:`FloodIt`, :class:`Nurikabe`, :class:`Koburin`, all :class:`~.puzzle.Puzzle`);
``solve`` runs a mode and returns a :class:`~.result.Result`; ``formula`` gives the
formula behind a puzzle; ``check`` runs the independent checker. Puzzles and results show
themselves in Jupyter (``_repr_svg_``) and as text (``str``).

Each function is a lookup: the puzzle's own class (:func:`~.puzzle.puzzle_class`) does the
work, and the command line calls these same functions.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import __all__ as package_names
from .errors import InputError
from .formats.puzzlink import looks_like_url, parse_url
from .limits import Budget, parse_timeout
from .outcome import Outcome, Status
from .puzzle import KINDS, Formula, Puzzle, Request, Source, puzzle_class
from .result import Result
from .runner import stopping
from .sources import path_exists, read_source, whole_number

if TYPE_CHECKING:
    from .forced import Explanation
    from .puzzles.floodit.puzzle import FloodIt as FloodIt
    from .puzzles.koburin.puzzle import Koburin as Koburin
    from .puzzles.nurikabe.puzzle import Nurikabe as Nurikabe

#: The package's names (:mod:`smtpuzzles` declares them) but ``bench``, and ``Puzzle``.
__all__ = [name for name in package_names if name != "bench"] + ["Puzzle"]


def __getattr__(name: str) -> Any:
    """The puzzle classes, imported on first use."""
    if name[:1].isupper():
        for kind in KINDS:
            cls = puzzle_class(kind)
            if cls.__name__ == name:
                return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ---------------------------------------------------------------------------- load


def load(
    source: str | Path,
    puzzle: str | None = None,
    *,
    format: str = "auto",
    index: int | None = None,
    **options: Any,
) -> Puzzle:
    """Read a puzzle from a path, a text or a puzz.link URL.

    ``puzzle`` names the kind (``floodit``, ``nurikabe``, ``koburin``); without it the kind
    comes from the URL, the folder (``instances/<kind>/``), the file name or the text
    (Flood-It boards and adjacency tables are recognisable; a clue grid is not, and then
    ``puzzle`` is required). A string with a newline is text; a single line is a path when
    such a file exists or the string looks like one, and text otherwise. ``format`` and
    ``index`` (a board or puzzle of a multi-line file) are every puzzle's; Flood-It also
    takes ``start`` (``(row, col)`` or ``"row,col"``), Koburin ``variant`` (``four`` or
    ``eight``). Bad input raises :class:`~smtpuzzles.errors.InputError`.
    """
    if puzzle is not None and puzzle not in KINDS:
        raise InputError(f"unknown puzzle {puzzle!r}; expected one of {', '.join(KINDS)}")
    if index is not None:
        index = whole_number(index, "index", least=1)
    if not isinstance(format, str):
        raise InputError(f"format={format!r:.40}: expected the name of a format")
    text, name, is_url = _read(source)
    kind = puzzle or _guess_kind(text, name, is_url)
    cls = puzzle_class(kind)
    known = set(inspect.signature(cls.load).parameters) - {"source"}
    for key, value in options.items():
        if key not in known and value is not None:
            raise InputError(f"{key}= is not an option of {cls.title}")
    given = {k: v for k, v in options.items() if v is not None}
    return cls.load(Source(text, name, is_url, format, index), **given)


def _read(source: str | Path) -> tuple[str, str, bool]:
    """``(text, name, is_url)`` of a path, a URL or a text."""
    if isinstance(source, Path):
        text, name = read_source(str(source))
        return text, name, False
    if not isinstance(source, str):
        raise InputError(f"expected a path, a text or a URL, not {type(source).__name__}")
    if "\n" in source.strip():
        return source, "<text>", False
    if looks_like_url(source) and not path_exists(source):
        return source.strip(), "<url>", True
    if source == "-" or path_exists(source) or _looks_like_path(source):
        text, name = read_source(source)
        return text, name, False
    return source, "<text>", False


def _looks_like_path(text: str) -> bool:
    return "/" in text or "\\" in text or bool(re.search(r"\.[A-Za-z]\w{0,5}$", text.strip()))


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
    for kind in KINDS:
        if content and puzzle_class(kind).recognises(text, content):
            return kind
    named = ", ".join(f"'{kind}'" for kind in KINDS[:-1]) + f" or '{KINDS[-1]}'"
    raise InputError(f"cannot tell which puzzle this is; pass puzzle={named}", name)


def _as_puzzle(puzzle: Any) -> Puzzle:
    """Accept a puzzle object, or anything :func:`load` reads."""
    if isinstance(puzzle, Puzzle):
        return puzzle
    if isinstance(puzzle, str | Path):
        return load(puzzle)
    raise InputError(f"not a puzzle: {type(puzzle).__name__}")


# ---------------------------------------------------------------------------- solve

#: The arguments each Flood-It mode takes, in order.
MODE_ARGS = {"exact": ("n",), "search": ("lo", "hi")}


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
    budget: Budget | None = None,
    **options: Any,
) -> Result:
    """Solve a puzzle and return a :class:`~.result.Result` (never prints, never exits).

    Flood-It: ``mode`` is ``solve`` (any solution), ``exact`` (exactly ``n`` moves),
    ``search`` (least length in ``[lo, hi]``), ``min`` (proven least length) or ``opt``
    (through Z3's Optimize); options ``engine`` (``sat``/``smt``), ``encoding``,
    ``strategy``, ``bound_nodes``, ``counting=False`` (no colour-counting constraints).
    Nurikabe and Koburin: mode ``solve``; ``unique`` proves the solution unique (or finds
    a second), ``count`` counts solutions up to that many; option ``connectivity``
    (``distance`` or ``lazy``), Nurikabe also ``engine``. ``timeout`` (seconds) ends the
    search with what is known (status ``unknown``, ``stopped == "timeout"``); so do
    Ctrl-C (``"interrupted"``) and the memory cap (``"memory"``). ``budget`` (instead of
    ``timeout``) is a deadline that started earlier, as the command line's does.
    """
    p = _as_puzzle(puzzle)
    if mode not in p.modes:
        raise InputError(f"{p.title} has no mode {mode!r}; expected one of {', '.join(p.modes)}")
    args = _mode_args(mode, {"n": n, "lo": lo, "hi": hi})
    if count is not None:
        whole_number(count, "count", 1)
    _flag(unique, "unique")
    if budget is None:
        budget = Budget(parse_timeout(timeout))
    options = {k: v for k, v in options.items() if v is not None}
    p.check_options(options)
    _number_options(options)
    with stopping() as stop:  # a limit or Ctrl-C in a step a puzzle does not guard itself
        outcome = p.solve(Request(mode, budget, args, unique, count, options))
    if stop.why is not None:
        outcome = Outcome(Status.UNKNOWN, stopped=stop.why)
    return Result(p, mode, outcome, budget.elapsed(), count is not None, unique)


def _mode_args(mode: str, given: dict[str, int | None]) -> tuple[int, ...]:
    """The numbers ``mode`` takes (Flood-It's ``exact N``, ``search LO HI``), checked."""
    wanted = MODE_ARGS.get(mode, ())
    for key, value in given.items():
        if key in wanted and value is None:
            raise InputError(f"mode {mode!r} needs {' and '.join(wanted)}")
        if key not in wanted and value is not None:
            raise InputError(f"{key}= is not an option of mode {mode!r}")
        if value is not None:
            whole_number(value, key, 0)
    lo, hi = given["lo"], given["hi"]
    if mode == "search" and lo is not None and hi is not None and lo > hi:
        raise InputError(f"search lo={lo} hi={hi}: lo must not exceed hi")
    return tuple(given[key] for key in wanted)  # type: ignore[misc]


# ---------------------------------------------------------------------------- formula


def formula(
    puzzle: Puzzle | str | Path,
    horizon: int | None = None,
    *,
    timeout: float | None = None,
    **options: Any,
) -> Formula:
    """The formula a solve would ask, without solving.

    Flood-It: "done within ``horizon`` moves" (``exact=True``: in exactly that many), the
    horizon by default the length of a heuristic playout (always enough); ``counting``
    keeps the colour-counting constraints. Nurikabe and Koburin: every rule, with
    connectivity by distance to a root (``connectivity="lazy"`` leaves it out, as the lazy
    search starts). ``timeout`` (seconds) bounds the building, presolving included: past
    it, :class:`TimeoutError` (a memory cap reached: :class:`MemoryError`).
    """
    budget = Budget(parse_timeout(timeout))
    p = _as_puzzle(puzzle)
    if horizon is not None:
        options["horizon"] = whole_number(horizon, "horizon", 0)
    known = inspect.signature(p.formula).parameters
    for key, value in options.items():
        if key not in known:
            raise InputError(f"{key}= is not an option of {p.title}'s formula")
        if key in ("exact", "counting"):
            _flag(value, key)
        elif key in p.options and p.options[key] is not None and value not in p.options[key]:
            raise InputError(f"{key}={value!r}: expected one of {', '.join(p.options[key])}")
    with stopping(budget) as stop:
        made = p.formula(**options)
    if stop.why == "timeout":
        raise TimeoutError(f"the formula was not built within {timeout} s")
    if stop.why == "memory":
        raise MemoryError("the memory cap was reached while the formula was built")
    if stop.why == "interrupted":
        raise KeyboardInterrupt
    return made


#: Options of :func:`solve` that are counts, and the least each takes (as the command
#: line's ``--bound-nodes`` does).
NUMBER_OPTIONS = {"bound_nodes": 0}

#: Options of :func:`solve` that are True or False.
FLAG_OPTIONS = ("counting",)


def _number_options(options: dict[str, Any]) -> None:
    """Refuse a count option of the wrong type or range, and a flag that is no bool."""
    for key, value in options.items():
        if key in NUMBER_OPTIONS:
            whole_number(value, key, NUMBER_OPTIONS[key])
        elif key in FLAG_OPTIONS:
            _flag(value, key)


def _flag(value: Any, what: str) -> None:
    if not isinstance(value, bool):
        raise InputError(f"{what}={value!r:.40}: expected True or False")


# ---------------------------------------------------------------------------- check


def check(puzzle: Puzzle | str | Path, answer: Any) -> list[str]:
    """Problems the independent checker finds in ``answer`` (an empty list: valid).

    ``answer`` is a :class:`~.result.Result`, or Flood-It moves (colour numbers), a
    Nurikabe picture (booleans per cell, rows of ``#``/``.``, or ``{cell: "#"}``), a
    Koburin solution (or its JSON: ``{"black": ..., "loop": ...}``).
    """
    p = _as_puzzle(puzzle)
    if isinstance(answer, Result):
        answer = answer.answer
    if answer is None:
        return ["no answer"]
    try:
        return p.problems(answer)
    except (TypeError, ValueError, KeyError, IndexError) as exc:
        # An answer of the wrong shape (a number, a string, a pair of the wrong things):
        # the checker cannot read it, which is the caller's error, never a pass.
        raise InputError(f"not a {p.title} answer: {type(exc).__name__}: {exc}") from None


# -------------------------------------------------------------------------- explain


def explain(
    puzzle: Puzzle | str | Path,
    *,
    state: str | Path | None = None,
    limit: int | None = None,
    timeout: float | None = None,
    budget: Budget | None = None,
) -> Explanation:
    """The steps from the empty grid (or from ``state``: a partly solved grid, as text or
    a file) to the solution of a Nurikabe or Koburin puzzle, easiest first: each step the
    facts it decides, the premises (clues and earlier facts) and rules that force them,
    drawn as text (``step.picture``) and SVG (a step draws itself in a notebook).
    ``limit``: at most that many steps (``1``: a hint). Wrong entries of ``state`` are in
    ``explanation.wrong``. ``timeout``, Ctrl-C and the memory cap end it with the steps
    so far and status ``stopped``. See ``docs/explain.md`` for the method.
    """
    import importlib
    import importlib.util

    from .forced import NO_SOLUTION, Explanation, Unsolvable, draw_steps
    from .forced import explain as forced_steps

    p = _as_puzzle(puzzle)
    explained = [k for k in KINDS if importlib.util.find_spec(f"{__package__}.puzzles.{k}.explain")]
    if p.kind not in explained:
        raise InputError(f"explanations exist for {' and '.join(explained)}, not {p.kind}")
    module = importlib.import_module(f".puzzles.{p.kind}.explain", __package__)
    budget = budget or Budget(timeout)
    model = p.puzzle  # type: ignore[attr-defined]
    problem = module.problem(model)
    given = []
    if state is not None:
        text = Path(state).read_text() if isinstance(state, Path) else state
        given = module.read_state(model, problem, text)
    try:
        steps, status, stopped, wrong = forced_steps(problem, budget, given, limit)
    except Unsolvable:
        return Explanation(p.kind, p.display_name, NO_SOLUTION, [], budget.elapsed())
    wrong_vars = {s.wrong.var for s in wrong if s.wrong is not None}
    right = [g for g in given if g.var not in wrong_vars]
    draw_steps(steps, right, lambda known, step: module.draw(model, known, step))
    draw_steps(wrong, right, lambda known, step: module.draw(model, known, step))
    return Explanation(
        p.kind, p.display_name, status, steps, budget.elapsed(), stopped, wrong, problem
    )


def rate(puzzle: Puzzle | str | Path, **options: Any) -> Explanation:
    """The explanation of :func:`explain`, for its ``grade`` (see ``docs/rate.md``)."""
    return explain(puzzle, **options)
