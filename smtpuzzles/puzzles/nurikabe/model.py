"""What a Nurikabe puzzle is: cells of a graph, clues, and the pools no wall may fill.

Rules: clue cells are white; every white region holds exactly one clue and exactly that
many cells (a ``?`` clue: any size); all black cells (the wall) are connected; no pool
(on a grid, a 2x2 block) is all black.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...graph import Graph

#: A picture: ``True`` for a black (wall) cell, one entry per cell of the graph.
Picture = tuple[bool, ...]


@dataclass(frozen=True)
class NurikabeInstance:
    """Cells of ``graph``; ``clues`` maps a cell to its island size (``None`` = ``?``)."""

    graph: Graph
    clues: dict[int, int | None]
    pools: tuple[tuple[int, ...], ...] = ()
    name: str = "<puzzle>"
    neighbours: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    #: per cell, the indices of the pools that hold it
    pools_at: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        both: list[set[int]] = [set(t) for t in self.graph.out]
        for i, targets in enumerate(self.graph.out):
            for j in targets:
                both[j].add(i)
        object.__setattr__(self, "neighbours", tuple(tuple(sorted(s)) for s in both))
        at: list[list[int]] = [[] for _ in both]
        for p, pool in enumerate(self.pools):
            for i in pool:
                at[i].append(p)
        object.__setattr__(self, "pools_at", tuple(tuple(a) for a in at))

    def __len__(self) -> int:
        return len(self.graph)

    @property
    def is_grid(self) -> bool:
        """A plain rectangle: the only shape a puzz.link URL can say."""
        g = self.graph
        return g.kind == "square" and g.rows is not None and g.cols is not None

    def cell(self, i: int) -> str:
        return self.graph.names[i]
