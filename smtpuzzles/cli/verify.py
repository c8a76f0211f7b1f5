"""The ``smtpuzzles verify`` command: check a certificate that a CNF is unsatisfiable."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..errors import InputError
from ..limits import (
    Budget,
    MemoryLimitExceeded,
    TimeUp,
    clock_started,
    deadline,
    limit_memory,
    parse_memory,
    parse_timeout,
)
from .common import EXIT_LIMIT, EXIT_OK, cli_errors, dump_json, error_line
from .options import Memory, Timeout

#: Exit code of a proof that does not refute its CNF.
EXIT_REJECTED = 1


def _read(path: Path, what: str) -> bytes:
    """The bytes of the regular file ``path`` (devices and FIFOs are refused)."""
    if not path.is_file():
        raise InputError(f"the {what} must be a regular file", str(path))
    try:
        return path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", str(path)) from None


@cli_errors
def verify(
    cnf: Annotated[Path, typer.Argument(help="The CNF (DIMACS) the proof is about.")],
    proof: Annotated[Path, typer.Argument(help="Its DRAT proof, text or binary.")],
    timeout: Timeout = None,
    memory: Memory = None,
    json: Annotated[bool, typer.Option("--json", help="Print exactly one JSON object.")] = False,
) -> None:
    """Check that a DRAT proof shows a CNF unsatisfiable.

    Every clause PROOF adds must follow by unit propagation (RUP) or be a RAT, up to the
    empty clause. Exit 0 accepted, 1 rejected, 2 bad input, 3 time or memory limit.

    Example: smtpuzzles verify proofs/b04x04c3.below-5.cnf proofs/b04x04c3.below-5.drat
    """
    from ..proof import check_drat

    budget = Budget(parse_timeout(timeout), started=clock_started())
    limit_memory(parse_memory(memory))
    text = _read(cnf, "CNF").decode("ascii", "replace")
    steps = _read(proof, "proof")
    why = None
    try:
        with deadline(budget):
            verdict = check_drat(text, steps, budget, (str(cnf), str(proof)))
    except TimeUp:
        why = "timeout"
    except (MemoryLimitExceeded, MemoryError):
        why = "memory"
    if why is not None:
        if json:
            typer.echo(
                dump_json(
                    {
                        "cnf": str(cnf),
                        "proof": str(proof),
                        "verified": None,
                        "stopped": why,
                        "elapsed_s": round(budget.elapsed(), 3),
                    }
                )
            )
        error_line(f"{'time' if why == 'timeout' else 'memory'} limit reached")
        raise typer.Exit(EXIT_LIMIT)
    if json:
        obj = {
            "cnf": str(cnf),
            "proof": str(proof),
            "verified": verdict.ok,
            "lemmas": verdict.lemmas,
            "reason": verdict.reason or None,
            "elapsed_s": round(budget.elapsed(), 3),
        }
        typer.echo(dump_json(obj))
    elif verdict.ok:
        typer.echo(f"verified: {cnf} is unsatisfiable ({verdict.lemmas} clauses checked)")
    else:
        typer.echo(f"rejected: {verdict.reason}")
    raise typer.Exit(EXIT_OK if verdict.ok else EXIT_REJECTED)
