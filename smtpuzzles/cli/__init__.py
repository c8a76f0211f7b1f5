"""The ``smtpuzzles`` command: one sub-command per puzzle, plus ``bench``.

Each puzzle's commands live in their own module; :func:`main` imports only the one a
command line names, so a whole-process run does not pay for the other puzzles'
imports (``--help`` and unknown words still get the full command).
"""

from __future__ import annotations

import importlib
import sys
import time
from collections.abc import Sequence
from typing import Annotated, Any

import typer

from .. import __version__
from ..exits import end_interrupted, error_json, interrupted
from ..limits import clock_started, exit_now, process_started, start_clock
from ..puzzle import KINDS
from ..runner import stopping
from .common import EXIT_INTERRUPTED, error_line

#: The puzzles' commands, one module each (``cli/<kind>.py``): the registry's list.
PUZZLES = KINDS


def _version(value: bool) -> None:
    if value:
        typer.echo(f"smtpuzzles {__version__}")
        raise typer.Exit()


def _root(
    version: Annotated[
        bool,
        typer.Option("--version", "-V", callback=_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """Solve grid logic puzzles with Z3 over linear integer arithmetic."""


def build_app(puzzles: Sequence[str] = PUZZLES) -> typer.Typer:
    """The command with the sub-commands of ``puzzles`` (and ``bench`` for them)."""
    app = typer.Typer(
        help=(
            "Solve grid logic puzzles with the Z3 SMT solver over linear integer arithmetic.\n\n"
            "Example: smtpuzzles floodit min instances/floodit/b10x10c4.txt"
        ),
        no_args_is_help=True,
        add_completion=True,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    app.callback()(_root)
    for name in puzzles:
        module = importlib.import_module(f".{name}", __name__)
        app.add_typer(module.app, name=name)
    bench = importlib.import_module(".bench", __name__)
    app.add_typer(bench.bench_app, name="bench")
    verify = importlib.import_module(".verify", __name__)
    app.command("verify")(verify.verify)
    export = importlib.import_module(".export", __name__)
    app.command("export")(export.export)
    return app


#: The commands :func:`built` has built, by the puzzles they hold.
_built: dict[tuple[str, ...], tuple[typer.Typer, Any]] = {}


def built(puzzles: Sequence[str]) -> tuple[typer.Typer, Any]:
    """The app of :func:`build_app` and the click command typer makes of it, built once
    per process: a bench's warm parent builds them before it forks its cases, which
    would otherwise each spend most of an easy case's time on it."""
    key = tuple(puzzles)
    if key not in _built:
        app = build_app(key)
        _built[key] = (app, typer.main.get_command(app))
    return _built[key]


def _named_puzzles(argv: Sequence[str]) -> Sequence[str]:
    """The puzzle a command line is about (``floodit ...``, ``bench floodit ...``), or all."""
    words = [w for w in argv if not w.startswith("-")][:2]
    if words and words[0] in PUZZLES:
        return (words[0],)
    if len(words) == 2 and words[0] == "bench" and words[1] in PUZZLES:
        return (words[1],)
    return PUZZLES


#: Click's base class of the errors a command line can make (typer re-exports only a
#: subclass, and newer typers carry their own copy of click).
_COMMAND_LINE_ERROR = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")


def main() -> None:
    """Entry point of the console script and of ``python -m smtpuzzles``.

    A mistyped command line gets one line and exit 2, like bad input files, instead of
    typer's boxed usage message; a command with nothing after it still shows its help.
    """
    with stopping(also=(Exception,)) as stop:  # a Ctrl-C while the commands are built
        entry = sys.modules.get("smtpuzzles.entry")  # loaded first, when run as a command
        start_clock(process_started(getattr(entry, "_STARTED", None)))
        app, command = built(_named_puzzles(sys.argv[1:]))
    if stop.why is not None:
        interrupted(sys.argv[1:], time.monotonic() - clock_started())
        end_interrupted()
    try:
        code = command.main(sys.argv[1:], prog_name="smtpuzzles", standalone_mode=False)
    except _COMMAND_LINE_ERROR as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":
            app(prog_name="smtpuzzles")  # typer's own run draws the help and exits 2
        path = getattr(getattr(exc, "ctx", None), "command_path", None) or "smtpuzzles"
        words = path.split(" ", 1)
        where = f"{words[1]}: " if len(words) > 1 else ""
        message = f"{where}{exc.format_message()} (see '{path} --help')"  # type: ignore[attr-defined]
        if exc.exit_code == 2:  # type: ignore[attr-defined]
            argv = sys.argv[1:]
            error_json(argv, time.monotonic() - clock_started(), message, "--json" in argv)
        error_line(message)
        sys.exit(exc.exit_code)  # type: ignore[attr-defined]
    except typer.Abort:
        error_line("aborted")
        sys.exit(1)
    if code == EXIT_INTERRUPTED:  # typer ends a Ctrl-C while it reads options silently
        interrupted(sys.argv[1:], time.monotonic() - clock_started())
    exit_now(code if isinstance(code, int) else 0)


def __getattr__(name: str) -> Any:
    """``smtpuzzles.cli.app``: the full command, built on first use (tests, CliRunner)."""
    if name == "app":
        globals()["app"] = built = build_app()
        return built
    raise AttributeError(name)
