"""Adjacency tables: named cells and their neighbours.

Every puzzle is encoded over a :class:`Graph`, never over raw coordinates, so holes,
ragged edges, tori, hex grids and hand-written tables all work the same way. A grid
builder also records each cell's geometry (``coords``) for pictures and for rules that
are about shape, such as Nurikabe's 2x2 pools.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from .errors import InputError

#: Grid kinds a :class:`Graph` can come from; ``table`` is a hand-written adjacency table.
KINDS = ("square", "square8", "holes", "torus", "hex", "table")


@dataclass(frozen=True)
class Graph:
    """Cells ``0..n-1`` with names and out-neighbours (links may be one-way)."""

    names: tuple[str, ...]
    out: tuple[tuple[int, ...], ...]
    kind: str = "table"
    #: (row, col) of each cell on a grid; for ``hex`` an offset row/column
    #: (odd rows shifted half a cell right); ``None`` for tables.
    coords: tuple[tuple[int, int], ...] | None = None
    rows: int | None = None
    cols: int | None = None
    index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", {name: i for i, name in enumerate(self.names)})

    def __len__(self) -> int:
        return len(self.names)

    def into(self) -> list[list[int]]:
        """In-neighbours: ``into()[i]`` lists the cells with a link to ``i``."""
        result: list[list[int]] = [[] for _ in self.names]
        for i, targets in enumerate(self.out):
            for j in targets:
                result[j].append(i)
        return result

    def undirected_edges(self) -> list[tuple[int, int]]:
        """Each pair of linked cells once, as ``(i, j)`` with ``i < j``."""
        edges = {(min(i, j), max(i, j)) for i, targets in enumerate(self.out) for j in targets}
        return sorted(edges)

    def is_symmetric(self) -> bool:
        return all(i in self.out[j] for i, targets in enumerate(self.out) for j in targets)

    def cell(self, cell: str | tuple[int, int]) -> int:
        """A cell's index from its name or its ``(row, col)``; ``KeyError`` if none."""
        if isinstance(cell, str):
            if cell not in self.index:
                raise KeyError(f"no cell named {cell!r}")
            return self.index[cell]
        found = self.at(*cell) if self.coords is not None else None
        if found is None:
            raise KeyError(f"no cell at {tuple(cell)}")
        return found

    def at(self, row: int, col: int) -> int | None:
        """The cell at a grid position (``None`` off the grid or in a hole)."""
        if self.coords is None:
            return None
        return self._by_coord().get((row, col))

    def _by_coord(self) -> dict[tuple[int, int], int]:
        cache = self.__dict__.get("_coord_cache")
        if cache is None:
            cache = {rc: i for i, rc in enumerate(self.coords or ())}
            object.__setattr__(self, "_coord_cache", cache)
        return cache

    def squares(self) -> list[tuple[int, int, int, int]]:
        """Every 2x2 block of cells (wrapping on a torus): what a "pool" is on a grid.

        Hex grids and tables have no 2x2 blocks; their pools are given explicitly.
        """
        if self.coords is None or self.kind == "hex" or self.rows is None or self.cols is None:
            return []
        wrap = self.kind == "torus"
        blocks = []
        for r in range(self.rows if wrap else self.rows - 1):
            for c in range(self.cols if wrap else self.cols - 1):
                r2, c2 = (r + 1) % self.rows, (c + 1) % self.cols
                cells = (self.at(r, c), self.at(r, c2), self.at(r2, c), self.at(r2, c2))
                if all(x is not None for x in cells) and len(set(cells)) == 4:
                    blocks.append(cells)  # type: ignore[arg-type]
        return blocks

    def reachable(self, sources: Iterable[int], allowed: set[int] | None = None) -> set[int]:
        """Cells reachable from ``sources`` along links, staying inside ``allowed``."""
        seen = set(sources)
        queue = deque(seen)
        while queue:
            i = queue.popleft()
            for j in self.out[i]:
                if j not in seen and (allowed is None or j in allowed):
                    seen.add(j)
                    queue.append(j)
        return seen

    def components(self, subset: Iterable[int]) -> list[list[int]]:
        """Connected components of ``subset`` (links followed both ways), sorted."""
        members = set(subset)
        both = [set(t) for t in self.out]
        for i, targets in enumerate(self.out):
            for j in targets:
                both[j].add(i)
        parts = []
        while members:
            seed = min(members)
            part = {seed}
            queue = deque([seed])
            while queue:
                i = queue.popleft()
                for j in both[i]:
                    if j in members and j not in part:
                        part.add(j)
                        queue.append(j)
            members -= part
            parts.append(sorted(part))
        return parts


def cell_name(row: int, col: int) -> str:
    """Grid cells are named ``r<row>c<col>`` (0-based), readable inside SMT names."""
    return f"r{row}c{col}"


def _grid(
    rows: int,
    cols: int,
    kind: str,
    steps: Callable[[int], Sequence[tuple[int, int]]],
    holes: Iterable[tuple[int, int]] = (),
    wrap: bool = False,
) -> Graph:
    """Cells at every (row, col) but the holes, linked by ``steps(row)`` offsets."""
    if rows < 1 or cols < 1:
        raise ValueError("a grid needs at least one row and one column")
    hole_set = set(holes)
    coords = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in hole_set]
    index = {rc: i for i, rc in enumerate(coords)}
    out = []
    for r, c in coords:
        targets = []
        for dr, dc in steps(r):
            nr, nc = r + dr, c + dc
            if wrap:
                nr, nc = nr % rows, nc % cols
            j = index.get((nr, nc))
            if j is not None and (nr, nc) != (r, c) and j not in targets:
                targets.append(j)
        out.append(tuple(sorted(targets)))
    return Graph(
        names=tuple(cell_name(r, c) for r, c in coords),
        out=tuple(out),
        kind=kind,
        coords=tuple(coords),
        rows=rows,
        cols=cols,
    )


ORTHOGONAL = ((-1, 0), (0, -1), (0, 1), (1, 0))
DIAGONAL = ((-1, -1), (-1, 1), (1, -1), (1, 1))


def rectangle(rows: int, cols: int, diagonal: bool = False) -> Graph:
    """A rows x cols grid with 4 neighbours (or 8 with ``diagonal``)."""
    steps = ORTHOGONAL + DIAGONAL if diagonal else ORTHOGONAL
    return _grid(rows, cols, "square8" if diagonal else "square", lambda _: steps)


def rectangle_with_holes(rows: int, cols: int, holes: Iterable[tuple[int, int]]) -> Graph:
    """A 4-neighbour grid with some positions missing (ragged edges are holes too)."""
    return _grid(rows, cols, "holes", lambda _: ORTHOGONAL, holes=holes)


def torus(rows: int, cols: int) -> Graph:
    """A 4-neighbour grid whose edges wrap around (top to bottom, left to right)."""
    return _grid(rows, cols, "torus", lambda _: ORTHOGONAL, wrap=True)


def hex_grid(rows: int, cols: int, holes: Iterable[tuple[int, int]] = ()) -> Graph:
    """Pointy-top hexagons in offset rows: odd rows sit half a cell to the right."""

    def steps(row: int) -> Sequence[tuple[int, int]]:
        shift = row % 2  # column offset of the neighbours above and below
        return ((0, -1), (0, 1), (-1, shift - 1), (-1, shift), (1, shift - 1), (1, shift))

    return _grid(rows, cols, "hex", steps, holes=holes)


_NAME = re.compile(r"[^\s:#]+")


def parse_adjacency(text: str, source: str = "<text>") -> Graph:
    """Parse the adjacency-table text ``A: B D`` (one cell a line, ``#`` comments).

    Links are one-way as written: ``A: B`` without ``B: A`` lets a flood go from A to B
    only. Every neighbour must be a cell with a line of its own.
    """
    names: list[str] = []
    targets: list[list[tuple[str, int, int]]] = []
    where: dict[str, int] = {}
    for lineno, raw in enumerate(text.split("\n"), 1):
        line = raw.split("#", 1)[0]
        if not line.strip():
            continue
        if ":" not in line:
            col = len(line) - len(line.lstrip()) + 1
            raise InputError("expected 'CELL: NEIGHBOUR ...'", source, lineno, col)
        head, _, tail = line.partition(":")
        name = head.strip()
        col = len(head) - len(head.lstrip()) + 1
        if not name or not _NAME.fullmatch(name):
            raise InputError(f"bad cell name {name!r}", source, lineno, col)
        if name in where:
            raise InputError(f"cell {name!r} is defined twice", source, lineno, col)
        where[name] = len(names)
        names.append(name)
        row: list[tuple[str, int, int]] = []
        for m in _NAME.finditer(tail):
            row.append((m.group(), lineno, len(head) + 1 + m.start() + 1))
        targets.append(row)
    if not names:
        raise InputError("no cells in the adjacency table", source)
    out = []
    for i, row in enumerate(targets):
        links: list[int] = []
        for target, lineno, col in row:
            if target not in where:
                raise InputError(f"unknown neighbour {target!r}", source, lineno, col)
            j = where[target]
            if j == i:
                raise InputError(f"cell {target!r} lists itself", source, lineno, col)
            if j not in links:
                links.append(j)
        out.append(tuple(links))
    return Graph(names=tuple(names), out=tuple(out), kind="table")


def format_adjacency(graph: Graph) -> str:
    """The adjacency-table text of ``graph`` (inverse of :func:`parse_adjacency`)."""
    return "".join(
        f"{name}: {' '.join(graph.names[j] for j in graph.out[i])}\n"
        for i, name in enumerate(graph.names)
    )
