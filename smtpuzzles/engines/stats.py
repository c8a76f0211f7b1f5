"""Statistics of a search: the counts of every check summed, and each probe's answer."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import z3lazy as z3


def statistics_dict(solver: z3.Solver | z3.Optimize) -> dict[str, Any]:
    """Z3's statistics of ``solver`` as a plain dict (keys as Z3 names them)."""
    st = solver.statistics()
    return {key: st.get_key_value(key) for key in st.keys()}


@dataclass
class Stats:
    """Z3 statistics summed over every check of one search."""

    checks: int = 0
    solver_s: float = 0.0
    conflicts: int = 0
    decisions: int = 0
    max_memory_mb: float = 0.0
    probes: list[dict[str, Any]] = field(default_factory=list)
    _earlier_conflicts: int = 0  #: the counts of the solvers before the current one
    _earlier_decisions: int = 0
    _solver_conflicts: int = 0  #: the current solver's counts so far
    _solver_decisions: int = 0

    def next_solver(self) -> None:
        """The checks from now on go to a new solver, whose counters start at zero."""
        self._earlier_conflicts, self._earlier_decisions = self.conflicts, self.decisions
        self._solver_conflicts = self._solver_decisions = 0

    def add(self, solver: z3.Solver, seconds: float, label: str, answer: str) -> None:
        """Fold one check's statistics in; ``label`` names the probe (e.g. ``T=22``)."""
        raw = statistics_dict(solver)
        self.checks += 1
        self.solver_s += seconds
        # Z3 reports counters cumulatively for an incremental solver; keep the largest.
        conflicts = int(raw.get("conflicts", raw.get("sat conflicts", 0)))
        decisions = int(raw.get("decisions", raw.get("sat decisions", 0)))
        self._solver_conflicts = max(self._solver_conflicts, conflicts)
        self._solver_decisions = max(self._solver_decisions, decisions)
        self.conflicts = self._earlier_conflicts + self._solver_conflicts
        self.decisions = self._earlier_decisions + self._solver_decisions
        self.max_memory_mb = max(self.max_memory_mb, float(raw.get("max memory", 0.0)))
        self.probes.append({"label": label, "answer": answer, "seconds": round(seconds, 4)})

    def as_dict(self) -> dict[str, Any]:
        return {
            "checks": self.checks,
            "solver_s": round(self.solver_s, 4),
            "conflicts": self.conflicts,
            "decisions": self.decisions,
            "max_memory_mb": round(self.max_memory_mb, 2),
            "probes": self.probes,
        }

    def add_counts(self, counts: dict[str, int], seconds: float, label: str, answer: str) -> None:
        """Fold in one check of another solver (``conflicts`` and ``decisions`` of that
        check alone: each such check starts a solver of its own)."""
        self.checks += 1
        self.solver_s += seconds
        self._earlier_conflicts += int(counts.get("conflicts", 0))
        self._earlier_decisions += int(counts.get("decisions", 0))
        self.conflicts = self._earlier_conflicts + self._solver_conflicts
        self.decisions = self._earlier_decisions + self._solver_decisions
        self.probes.append({"label": label, "answer": answer, "seconds": round(seconds, 4)})
