"""A Koburin puzzle and its solution, over any :class:`~smtpuzzles.graph.Graph`.

The loop runs along links of the graph followed both ways (a hand-written table may list
a link once); a number counts the black cells among its neighbours: the graph's own
neighbours, or with the ``eight`` variant every cell of the surrounding 3x3 block on a
grid.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ...errors import InputError
from ...graph import Graph

#: ``four``: a number counts its orthogonal neighbours (the graph's links);
#: ``eight``: all eight surrounding cells (pzprjs's URL flag ``m``; grids only).
VARIANTS = ("four", "eight")

#: Grid kinds on which "the eight surrounding cells" means something.
EIGHT_KINDS = ("square", "square8", "holes", "torus")


@dataclass(frozen=True)
class KoburinInstance:
    """Cells of ``graph``; ``clues`` maps each numbered cell to its number (``None``: ``?``)."""

    graph: Graph
    clues: Mapping[int, int | None]
    variant: str = "four"
    #: The loop's graph: the links of ``graph`` followed both ways.
    undirected: Graph = field(init=False, repr=False, compare=False)
    #: For each cell, the cells its number counts.
    counted: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise InputError(f"unknown variant {self.variant!r}; expected one of {VARIANTS}")
        both: list[set[int]] = [set(t) for t in self.graph.out]
        for i, targets in enumerate(self.graph.out):
            for j in targets:
                both[j].add(i)
        undirected = Graph(
            names=self.graph.names,
            out=tuple(tuple(sorted(s)) for s in both),
            kind=self.graph.kind,
            coords=self.graph.coords,
            rows=self.graph.rows,
            cols=self.graph.cols,
        )
        object.__setattr__(self, "undirected", undirected)
        object.__setattr__(self, "counted", self._counted())

    def _counted(self) -> tuple[tuple[int, ...], ...]:
        if self.variant == "four":
            return self.graph.out
        g = self.graph
        if g.coords is None or g.kind not in EIGHT_KINDS or g.rows is None or g.cols is None:
            raise InputError("the eight-neighbour variant needs a square grid, not a table")
        result = []
        for r, c in g.coords:
            around = set()
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    rr, cc = r + dr, c + dc
                    if g.kind == "torus":
                        rr, cc = rr % g.rows, cc % g.cols
                    j = g.at(rr, cc)
                    if j is not None and (rr, cc) != (r, c):
                        around.add(j)
            result.append(tuple(sorted(around)))
        return tuple(result)

    @property
    def empty(self) -> list[int]:
        """Cells without a number: each is black or on the loop."""
        return [i for i in range(len(self.graph)) if i not in self.clues]

    def edges(self) -> list[tuple[int, int]]:
        """Links the loop may use: between two cells without a number, ``(i, j)``, i < j."""
        return [
            (i, j)
            for i, j in self.undirected.undirected_edges()
            if i not in self.clues and j not in self.clues
        ]


@dataclass(frozen=True)
class Solution:
    """Black cells and the loop's links (``(i, j)`` with ``i < j``)."""

    black: frozenset[int]
    edges: frozenset[tuple[int, int]]

    def loop(self) -> list[int]:
        """The loop's cells in order, from the cell of least index towards its smaller
        neighbour (an empty list when no links are chosen)."""
        links: dict[int, list[int]] = {}
        for i, j in sorted(self.edges):
            links.setdefault(i, []).append(j)
            links.setdefault(j, []).append(i)
        if not links:
            return []
        start = min(links)
        order = [start]
        previous, here = start, min(links[start])
        while here != start and len(order) <= len(self.edges):
            order.append(here)
            following = [k for k in links[here] if k != previous]
            if not following:
                break
            previous, here = here, following[0]
        return order
