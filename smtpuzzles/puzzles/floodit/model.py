"""What a Flood-It puzzle is: a board of colours, and the cluster graph the rules and the
bounds work on.

Equal-coloured orthogonal neighbours merge into one cluster, because a move floods a
whole cluster or none of it. Cluster ids are assigned in row-major order of each
cluster's first cell, so the numbering is stable and readable in printed formulas.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

#: Colour characters of the grid format, in order: colour i is DIGITS[i] (``0``-``9``
#: then ``a``-``z``).
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class Board:
    """A rectangular board of colours ``0 .. n_colours-1``, every one of them used."""

    grid: tuple[tuple[int, ...], ...]
    n_colours: int
    name: str = "<board>"
    known_optimum: int | None = None  #: stated by the file (the ``mnk`` format), if any

    @property
    def rows(self) -> int:
        return len(self.grid)

    @property
    def cols(self) -> int:
        return len(self.grid[0])

    def text(self) -> str:
        """The board in the grid format (one row per line)."""
        return "\n".join("".join(DIGITS[c] for c in row) for row in self.grid) + "\n"


def colour_char(colour: int) -> str:
    return DIGITS[colour]


@dataclass(frozen=True)
class ClusterGraph:
    """Clusters of a board: their colours, adjacency, sizes and the start cluster."""

    colours: tuple[int, ...]  #: colour of cluster i
    neighbours: tuple[tuple[int, ...], ...]  #: sorted ids of clusters adjacent to i
    cells: tuple[tuple[tuple[int, int], ...], ...]  #: (row, col) cells of cluster i
    start: int  #: the cluster holding the start cell
    n_colours: int  #: colours in use are 0 .. n_colours-1

    def __len__(self) -> int:
        return len(self.colours)

    def distances(self, sources: Sequence[int] | None = None) -> list[int]:
        """BFS distance in the cluster graph from ``sources`` (default: the start)."""
        dist = [-1] * len(self.colours)
        queue: deque[int] = deque()
        for s in sources if sources is not None else (self.start,):
            dist[s] = 0
            queue.append(s)
        while queue:
            i = queue.popleft()
            for j in self.neighbours[i]:
                if dist[j] < 0:
                    dist[j] = dist[i] + 1
                    queue.append(j)
        return dist


def cluster_graph(grid: Sequence[Sequence[int]], start: tuple[int, int] = (0, 0)) -> ClusterGraph:
    """Merge equal-coloured orthogonal neighbours of a rectangular ``grid`` into clusters."""
    rows, cols = len(grid), len(grid[0])
    label = [[-1] * cols for _ in range(rows)]
    colours: list[int] = []
    cells: list[list[tuple[int, int]]] = []
    for r in range(rows):
        for c in range(cols):
            if label[r][c] >= 0:
                continue
            ident = len(colours)
            colour = grid[r][c]
            colours.append(colour)
            members = [(r, c)]
            label[r][c] = ident
            for rr, cc in members:  # grows while iterated: a BFS over the cluster
                for nr, nc in ((rr - 1, cc), (rr + 1, cc), (rr, cc - 1), (rr, cc + 1)):
                    if 0 <= nr < rows and 0 <= nc < cols and label[nr][nc] < 0:
                        if grid[nr][nc] == colour:
                            label[nr][nc] = ident
                            members.append((nr, nc))
            cells.append(members)
    adjacency: list[set[int]] = [set() for _ in colours]
    for r in range(rows):
        for c in range(cols):
            a = label[r][c]
            if c + 1 < cols and label[r][c + 1] != a:
                adjacency[a].add(label[r][c + 1])
                adjacency[label[r][c + 1]].add(a)
            if r + 1 < rows and label[r + 1][c] != a:
                adjacency[a].add(label[r + 1][c])
                adjacency[label[r + 1][c]].add(a)
    n_colours = max((max(row) for row in grid), default=-1) + 1
    return ClusterGraph(
        colours=tuple(colours),
        neighbours=tuple(tuple(sorted(s)) for s in adjacency),
        cells=tuple(tuple(sorted(m)) for m in cells),
        start=label[start[0]][start[1]],
        n_colours=n_colours,
    )
