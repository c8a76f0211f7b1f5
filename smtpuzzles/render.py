"""Pictures of puzzles and solutions: SVG for Jupyter and files, plain text for terminals.

Every function here is pure: it takes a graph or board and returns a string, the same
string for the same input, so tests can compare pictures and the CLI decides where they go.
Cells are drawn as what they are: squares at their (row, col), nothing where a hole is,
ghost strips beside a torus showing which sides join, pointy-top hexagons, and nodes on a
circle for a hand-written adjacency table (chords of a circle never pass through another
node, so every link stays visible).
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from .graph import Graph

#: Flood-It colours 0..35. The first ten are Okabe & Ito's and Paul Tol's colour-blind-safe
#: colours; the rest were picked greedily to be as far as possible (CIELAB distance) from
#: every colour before them, avoiding near-black and near-white (outlines and empty cells).
PALETTE: tuple[str, ...] = (
    "#0072B2", "#E69F00", "#009E73", "#F0E442", "#CC79A7", "#56B4E9",
    "#D55E00", "#332288", "#999933", "#882255", "#00FF00", "#FF00FF",
    "#0000FF", "#FF0066", "#333333", "#00FF99", "#663300", "#00FFFF",
    "#009900", "#DDDDDD", "#9966FF", "#CC0099", "#FF0000", "#003300",
    "#9999FF", "#FFCC99", "#CCFF00", "#FF99FF", "#222255", "#669999",
    "#990000", "#99FF66", "#6600CC", "#EE8866", "#FFCCFF", "#666633",
)  # fmt: skip

#: Suggested fills for puzzle pictures (any CSS colour works in ``fill``).
WALL = "#333333"
ISLAND = "#FFFFFF"
SHADED = "#333333"
UNKNOWN = "#D9D9D9"

#: Colours given to successive loops.
LOOP_COLOURS = ("#D55E00", "#0072B2", "#009E73", "#CC79A7")

_EMPTY_FILL = "#FFFFFF"
_GRID_STROKE = "#888888"
_GHOST_OPACITY = "0.35"
_FONT = "font-family:sans-serif"

# ---------------------------------------------------------------------------- colours

ANSI_RESET = "\x1b[0m"

_NAMED = {
    "black": (0, 0, 0),
    "white": (255, 255, 255),
    "gray": (128, 128, 128),
    "grey": (128, 128, 128),
    "darkgray": (169, 169, 169),
    "darkgrey": (169, 169, 169),
    "lightgray": (211, 211, 211),
    "lightgrey": (211, 211, 211),
    "dimgray": (105, 105, 105),
    "dimgrey": (105, 105, 105),
    "red": (255, 0, 0),
    "green": (0, 128, 0),
    "blue": (0, 0, 255),
    "yellow": (255, 255, 0),
    "navy": (0, 0, 128),
    "purple": (128, 0, 128),
    "orange": (255, 165, 0),
}


def rgb(colour: str) -> tuple[int, int, int] | None:
    """``(r, g, b)`` of ``#rgb``, ``#rrggbb``, ``rgb(r, g, b)`` or a common colour name."""
    text = colour.strip().lower()
    if re.fullmatch(r"#[0-9a-f]{3}", text):
        return (int(text[1] * 2, 16), int(text[2] * 2, 16), int(text[3] * 2, 16))
    if re.fullmatch(r"#[0-9a-f]{6}", text):
        return (int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16))
    m = re.fullmatch(r"rgb\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)", text)
    if m:
        r, g, b = (min(255, int(x)) for x in m.groups())
        return (r, g, b)
    return _NAMED.get(text)


def _luminance(r: int, g: int, b: int) -> float:
    def linear(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def text_colour(fill: str | None) -> str:
    """Black or white, whichever contrasts more with ``fill`` (black for unknown fills)."""
    parsed = rgb(fill) if fill else None
    if parsed is None:
        return "#000000"
    lum = _luminance(*parsed)
    return "#FFFFFF" if 1.05 / (lum + 0.05) > (lum + 0.05) / 0.05 else "#000000"


def ansi_bg(colour: str, truecolor: bool = True) -> str:
    """The escape sequence that sets the terminal background to ``colour``."""
    return _ansi(48, colour, truecolor)


def ansi_fg(colour: str, truecolor: bool = True) -> str:
    """The escape sequence that sets the terminal foreground to ``colour``."""
    return _ansi(38, colour, truecolor)


def _ansi(layer: int, colour: str, truecolor: bool) -> str:
    parsed = rgb(colour)
    if parsed is None:
        raise ValueError(f"not a colour: {colour!r}")
    r, g, b = parsed
    if truecolor:
        return f"\x1b[{layer};2;{r};{g};{b}m"
    cube = 16 + 36 * round(r / 255 * 5) + 6 * round(g / 255 * 5) + round(b / 255 * 5)
    return f"\x1b[{layer};5;{cube}m"


def supports_truecolor(environ: Mapping[str, str]) -> bool:
    """Whether a terminal with this environment claims 24-bit colour (``COLORTERM``)."""
    return environ.get("COLORTERM", "").lower() in ("truecolor", "24bit")


# ---------------------------------------------------------------------------- SVG text


def _num(x: float) -> str:
    """Coordinates with at most two decimals, so output is short and deterministic."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _points(points: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _attr(value: str) -> str:
    return html.escape(value, quote=True)


def _svg_open(width: float, height: float) -> str:
    w, h = _num(width), _num(height)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">'
    )


def _text(
    x: float, y: float, content: str, size: float, colour: str = "#000000", anchor: str = "middle"
) -> str:
    """Text whose visual centre is at height ``y`` (baseline shifted by 0.35 em)."""
    return (
        f'<text x="{_num(x)}" y="{_num(y + 0.35 * size)}" font-size="{_num(size)}" '
        f'text-anchor="{anchor}" fill="{colour}" style="{_FONT}">'
        f"{html.escape(content, quote=False)}</text>"
    )


def _label_size(cell_px: float, content: str) -> float:
    """Clue numbers fill the cell; longer labels shrink to fit."""
    return cell_px * (0.6 if len(content) <= 1 else min(0.6, 1.1 / len(content)))


# ---------------------------------------------------------------------------- geometry


@dataclass(frozen=True)
class _Layout:
    """Where each cell's centre is, and the size of the whole picture."""

    centres: list[tuple[float, float]]
    width: float
    height: float
    origin: tuple[float, float]  # top-left corner of the grid's (row 0, col 0) cell
    #: where each table node's name goes: (x, y, text-anchor); empty for grids
    names: list[tuple[float, float, str]] = field(default_factory=list)

    def shifted(self, dx: float, dy: float, width: float, height: float) -> _Layout:
        """The same picture moved by (dx, dy) inside a canvas of the given size."""
        return _Layout(
            [(x + dx, y + dy) for x, y in self.centres],
            width,
            height,
            (self.origin[0] + dx, self.origin[1] + dy),
            [(x + dx, y + dy, anchor) for x, y, anchor in self.names],
        )


def _hex_radius(cell_px: float) -> float:
    return cell_px / math.sqrt(3)


def _grid_size(graph: Graph) -> tuple[int, int]:
    assert graph.coords is not None
    rows = graph.rows if graph.rows is not None else max(r for r, _ in graph.coords) + 1
    cols = graph.cols if graph.cols is not None else max(c for _, c in graph.coords) + 1
    return rows, cols


def _layout(graph: Graph, cell_px: float) -> _Layout:
    """Cell centres with a margin all round (wider on a torus, for the ghost strips)."""
    if graph.coords is None:
        return _circle_layout(graph, cell_px)
    pad = cell_px * (0.75 if graph.kind == "torus" else 0.5)
    rows, cols = _grid_size(graph)
    if graph.kind == "hex":
        radius = _hex_radius(cell_px)
        centres = [
            (pad + cell_px * (c + 0.5 + 0.5 * (r % 2)), pad + radius * (1 + 1.5 * r))
            for r, c in graph.coords
        ]
        shifted = cell_px * 0.5 if rows > 1 else 0.0
        width = 2 * pad + cell_px * cols + shifted
        height = 2 * pad + radius * (2 + 1.5 * (rows - 1))
        return _Layout(centres, width, height, (pad, pad))
    centres = [(pad + cell_px * (c + 0.5), pad + cell_px * (r + 0.5)) for r, c in graph.coords]
    return _Layout(centres, 2 * pad + cell_px * cols, 2 * pad + cell_px * rows, (pad, pad))


def _circle_layout(graph: Graph, cell_px: float) -> _Layout:
    """Nodes clockwise on a circle from the top, names outside; the picture is cropped to
    the nodes and (estimated) name extents."""
    n = len(graph)
    node = cell_px * 0.45
    ring = max(cell_px * 1.2, n * cell_px * 2.2 / (2 * math.pi)) if n > 1 else 0.0
    size = _name_size(cell_px)
    reach = node + cell_px * 0.2
    centres, names = [], []
    boxes = []  # (left, top, right, bottom) of every node and name
    for i, name in enumerate(graph.names):
        angle = -math.pi / 2 + 2 * math.pi * i / n
        ux, uy = math.cos(angle), math.sin(angle)
        x, y = ring * ux, ring * uy
        centres.append((x, y))
        boxes.append((x - node, y - node, x + node, y + node))
        anchor = "start" if ux > 0.3 else "end" if ux < -0.3 else "middle"
        nx, ny = x + ux * reach, y + uy * (reach + size * 0.4)
        names.append((nx, ny, anchor))
        w = len(name) * size * 0.62
        left = {"start": nx, "end": nx - w, "middle": nx - w / 2}[anchor]
        boxes.append((left, ny - size * 0.6, left + w, ny + size * 0.6))
    pad = cell_px * 0.25
    left, top = min(b[0] for b in boxes) - pad, min(b[1] for b in boxes) - pad
    right, bottom = max(b[2] for b in boxes) + pad, max(b[3] for b in boxes) + pad
    raw = _Layout(centres, 0, 0, (0.0, 0.0), names)
    return raw.shifted(-left, -top, right - left, bottom - top)


def _name_size(cell_px: float) -> float:
    return cell_px * 0.4


def _hexagon(cx: float, cy: float, radius: float) -> str:
    """Six corners of a pointy-top hexagon, starting at the top, clockwise."""
    angles = [math.radians(-90 + 60 * k) for k in range(6)]
    return _points([(cx + radius * math.cos(a), cy + radius * math.sin(a)) for a in angles])


# ---------------------------------------------------------------------------- graph_svg


def graph_svg(
    graph: Graph,
    fill: Mapping[int, str] | None = None,
    label: Mapping[int, str] | None = None,
    *,
    loops: Sequence[Sequence[int]] = (),
    marks: Mapping[int, str] | None = None,
    title: str | None = None,
    cell_px: int = 28,
) -> str:
    """A standalone SVG of ``graph``: cells filled, labelled and marked, loops drawn on top.

    ``fill`` maps cells to CSS colours (unlisted cells are white), ``label`` to text centred
    in the cell (clue numbers), ``marks`` to a small symbol in the cell's top-right corner
    (``x`` fixed, ``?`` unknown). Each loop is the cells in order around it (the first cell
    may be repeated at the end or not); it is drawn closed through the cell centres. Every
    cell element carries ``class="cell"`` and a ``<title>`` with the cell's name.
    """
    fill = fill or {}
    label = label or {}
    marks = marks or {}
    layout = _layout(graph, cell_px)
    title_size = 0.0
    if title:
        title_size, title_w = _fit_title(title, cell_px, layout.width)
        width = max(layout.width, title_w)
        title_h = title_size * 1.8
        layout = layout.shifted((width - layout.width) / 2, title_h, width, layout.height + title_h)
    parts = [_svg_open(layout.width, layout.height)]
    if title:
        parts.append(_text(layout.width / 2, title_size * 0.9, title, title_size))
    parts.extend(_holes(graph, layout, cell_px))
    if graph.kind == "torus":
        parts.extend(_torus_ghosts(graph, layout, fill, cell_px))
    if graph.coords is None:
        parts.extend(_table_links(graph, layout, cell_px))
    parts.extend(_cells(graph, layout, fill, cell_px))
    for k, loop in enumerate(loops):
        parts.extend(_loop(graph, layout, loop, LOOP_COLOURS[k % len(LOOP_COLOURS)], cell_px))
    for i in sorted(label):
        x, y = layout.centres[i]
        parts.append(
            _text(x, y, label[i], _label_size(cell_px, label[i]), text_colour(fill.get(i)))
        )
    for i in sorted(marks):
        x, y = layout.centres[i]
        corner = cell_px * 0.3
        parts.append(
            _text(x + corner, y - corner, marks[i], cell_px * 0.32, text_colour(fill.get(i)))
        )
    parts.append("</svg>")
    return "".join(parts)


def _fit_title(title: str, cell_px: float, width: float) -> tuple[float, float]:
    """Font size of a title, shrunk (down to 10) to fit the picture, and the width needed."""
    size = cell_px * 0.55
    estimate = len(title) * 0.6  # average glyph width in em
    size = max(min(size, 10.0), min(size, (width - cell_px * 0.5) / estimate))
    return size, size * estimate + cell_px * 0.5


#: Three diagonal strokes across a unit square centred on 0 (corner to corner and beside).
_HATCH = (((-1, 1), (1, -1)), ((-1, 0), (0, -1)), ((0, 1), (1, 0)))


def _holes(graph: Graph, layout: _Layout, cell_px: float) -> list[str]:
    """Light hatching where a grid has no cell, so an inner hole never looks like a cell."""
    if graph.coords is None:
        return []
    rows, cols = _grid_size(graph)
    x0, y0 = layout.origin
    radius = _hex_radius(cell_px)
    strokes = []
    for r in range(rows):
        for c in range(cols):
            if graph.at(r, c) is not None:
                continue
            if graph.kind == "hex":
                cx, cy = x0 + cell_px * (c + 0.5 + 0.5 * (r % 2)), y0 + radius * (1 + 1.5 * r)
                h = radius * 0.7  # hatch the square inside the hexagon
            else:
                cx, cy = x0 + cell_px * (c + 0.5), y0 + cell_px * (r + 0.5)
                h = cell_px * 0.5
            for (ax, ay), (bx, by) in _HATCH:
                a = f"{_num(cx + ax * h)} {_num(cy + ay * h)}"
                strokes.append(f"M{a}L{_num(cx + bx * h)} {_num(cy + by * h)}")
    if not strokes:
        return []
    return [f'<path class="hole" d="{" ".join(strokes)}" stroke="#C8C8C8" stroke-width="1"/>']


def _cells(graph: Graph, layout: _Layout, fill: Mapping[int, str], cell_px: float) -> list[str]:
    parts = []
    for i, (x, y) in enumerate(layout.centres):
        colour = _attr(fill.get(i, _EMPTY_FILL))
        tip = f"<title>{html.escape(graph.names[i], quote=False)}</title>"
        style = f'fill="{colour}" stroke="{_GRID_STROKE}" stroke-width="1"'
        if graph.coords is None:
            radius = cell_px * 0.45
            parts.append(
                f'<circle class="cell" cx="{_num(x)}" cy="{_num(y)}" r="{_num(radius)}" '
                f"{style}>{tip}</circle>"
            )
            parts.append(_node_name(graph, layout, i, cell_px))
        elif graph.kind == "hex":
            points = _hexagon(x, y, _hex_radius(cell_px))
            parts.append(f'<polygon class="cell" points="{points}" {style}>{tip}</polygon>')
        else:
            h = cell_px / 2
            parts.append(
                f'<rect class="cell" x="{_num(x - h)}" y="{_num(y - h)}" width="{_num(cell_px)}" '
                f'height="{_num(cell_px)}" {style}>{tip}</rect>'
            )
    return parts


def _node_name(graph: Graph, layout: _Layout, i: int, cell_px: float) -> str:
    """A table node's name just outside the ring, anchored away from the centre."""
    x, y, anchor = layout.names[i]
    return _text(x, y, graph.names[i], _name_size(cell_px), "#444444", anchor)


def _table_links(graph: Graph, layout: _Layout, cell_px: float) -> list[str]:
    """Lines between linked nodes; a one-way link gets an arrowhead at its target."""
    parts = []
    node = cell_px * 0.45
    for i, j in graph.undirected_edges():
        forward, backward = j in graph.out[i], i in graph.out[j]
        (x1, y1), (x2, y2) = layout.centres[i], layout.centres[j]
        if not forward:  # draw one-way links from source to target
            (x1, y1), (x2, y2) = (x2, y2), (x1, y1)
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        sx, sy = x1 + ux * node, y1 + uy * node
        ex, ey = x2 - ux * node, y2 - uy * node
        parts.append(
            f'<line class="link" x1="{_num(sx)}" y1="{_num(sy)}" x2="{_num(ex)}" y2="{_num(ey)}" '
            f'stroke="#666666" stroke-width="1.5"/>'
        )
        if not (forward and backward):
            size = cell_px * 0.3
            bx, by = ex - ux * size, ey - uy * size
            px, py = -uy * size * 0.45, ux * size * 0.45
            points = _points([(ex, ey), (bx + px, by + py), (bx - px, by - py)])
            parts.append(f'<polygon class="arrow" points="{points}" fill="#666666"/>')
    return parts


def _torus_ghosts(
    graph: Graph, layout: _Layout, fill: Mapping[int, str], cell_px: float
) -> list[str]:
    """Half cells beyond each side, faded, showing the cells the opposite side joins to.

    The strip left of column 0 repeats the last column, the strip above row 0 the last
    row, and so on: a reader sees at once which sides of the board meet.
    """
    assert graph.rows is not None and graph.cols is not None
    rows, cols = graph.rows, graph.cols
    half = cell_px / 2
    x0, y0 = layout.origin
    parts = []

    def ghost(i: int | None, x: float, y: float, w: float, h: float) -> None:
        if i is None:
            return
        colour = _attr(fill.get(i, _EMPTY_FILL))
        parts.append(
            f'<rect class="ghost" x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" '
            f'height="{_num(h)}" fill="{colour}" fill-opacity="{_GHOST_OPACITY}" '
            f'stroke="{_GRID_STROKE}" stroke-opacity="{_GHOST_OPACITY}" stroke-dasharray="2,2"/>'
        )

    for r in range(rows):
        y = y0 + r * cell_px
        ghost(graph.at(r, cols - 1), x0 - half, y, half, cell_px)
        ghost(graph.at(r, 0), x0 + cols * cell_px, y, half, cell_px)
    for c in range(cols):
        x = x0 + c * cell_px
        ghost(graph.at(rows - 1, c), x, y0 - half, cell_px, half)
        ghost(graph.at(0, c), x, y0 + rows * cell_px, cell_px, half)
    return parts


def _wrap_step(graph: Graph, a: int, b: int) -> tuple[int, int] | None:
    """On a torus, the direction ``(dr, dc)`` of a step from ``a`` to ``b`` that wraps."""
    if graph.kind != "torus" or graph.coords is None:
        return None
    (r1, c1), (r2, c2) = graph.coords[a], graph.coords[b]
    dr, dc = r2 - r1, c2 - c1
    if abs(dr) > 1 and dc == 0:
        return (-1 if dr > 0 else 1, 0)
    if abs(dc) > 1 and dr == 0:
        return (0, -1 if dc > 0 else 1)
    return None


def _loop_cells(loop: Sequence[int]) -> list[int]:
    cells = list(loop)
    if len(cells) > 1 and cells[0] == cells[-1]:
        cells.pop()
    return cells


def _loop(
    graph: Graph, layout: _Layout, loop: Sequence[int], colour: str, cell_px: float
) -> list[str]:
    """One closed polyline through the cell centres; on a torus a wrapping step leaves
    through one side and comes back through the other, so the loop is cut into pieces."""
    cells = _loop_cells(loop)
    if not cells:
        return []
    runs: list[list[tuple[float, float]]] = [[layout.centres[cells[0]]]]
    for k, a in enumerate(cells):
        b = cells[(k + 1) % len(cells)]
        step = _wrap_step(graph, a, b)
        (ax, ay), (bx, by) = layout.centres[a], layout.centres[b]
        if step is None:
            runs[-1].append((bx, by))
            continue
        dr, dc = step
        half = cell_px / 2
        runs[-1].append((ax + dc * half, ay + dr * half))
        runs.append([(bx - dc * half, by - dr * half), (bx, by)])
    if len(runs) > 1:  # the last run ends where the first starts: join them
        runs[0] = runs.pop()[:-1] + runs[0]
    style = (
        f'fill="none" stroke="{_attr(colour)}" stroke-width="{_num(cell_px * 0.16)}" '
        f'stroke-linecap="round" stroke-linejoin="round"'
    )
    return [f'<polyline class="loop" points="{_points(run)}" {style}/>' for run in runs]


# ---------------------------------------------------------------------------- text


def grid_text(graph: Graph, chars: Mapping[int, str]) -> str:
    """A plain-text picture: one line per grid row (holes as spaces), or ``name: char``.

    Cells missing from ``chars`` show as ``?``. When some entry is longer than one
    character (a clue of 12), cells are right-aligned in columns separated by spaces; hex
    grids always separate cells, so odd rows can be indented by half a cell.
    """
    if graph.coords is None:
        return "\n".join(f"{name}: {chars.get(i, '?')}" for i, name in enumerate(graph.names))
    rows = graph.rows if graph.rows is not None else max(r for r, _ in graph.coords) + 1
    cols = graph.cols if graph.cols is not None else max(c for _, c in graph.coords) + 1
    width = max((len(chars.get(i, "?")) for i in range(len(graph))), default=1)
    spaced = width > 1 or graph.kind == "hex"
    lines = []
    for r in range(rows):
        cells = []
        for c in range(cols):
            i = graph.at(r, c)
            cells.append((" " if i is None else chars.get(i, "?")).rjust(width))
        line = (" " if spaced else "").join(cells)
        if graph.kind == "hex" and r % 2 == 1:
            line = " " * ((width + 1) // 2) + line
        lines.append(line.rstrip())
    return "\n".join(lines)


_DIRECTIONS = {(-1, 0): "up", (1, 0): "down", (0, -1): "left", (0, 1): "right"}
_BOX = {
    frozenset(("up", "down")): "│",
    frozenset(("left", "right")): "─",
    frozenset(("down", "right")): "┌",
    frozenset(("down", "left")): "┐",
    frozenset(("up", "right")): "└",
    frozenset(("up", "left")): "┘",
}


def step_text(
    graph: Graph,
    clues: Mapping[int, int | None],
    known: Mapping[int, bool],
    new: Mapping[int, bool],
    premises: Collection[int],
    decided: tuple[str, str],
    *,
    touched: Collection[int] = (),
) -> str:
    """One step of an explanation as text, with the same legend in every puzzle: a
    clue's number (``?`` unknown), ``X`` and ``O`` the cells the step decides (black,
    white), ``decided`` (black, white) the cells ``known`` before it, ``-`` open cells;
    ``*`` after a premise's cell, ``!`` after a cell in ``touched`` it does not decide."""
    marks: dict[int, str] = {}
    for i in range(len(graph)):
        if i in clues:
            n = clues[i]
            mark = "?" if n is None else str(n)
        elif i in new:
            mark = "X" if new[i] else "O"
        elif i in known:
            mark = decided[0] if known[i] else decided[1]
        else:
            mark = "-"
        marks[i] = mark + ("*" if i in premises else "!" if i in touched and i not in new else "")
    wide = max((len(m) for m in marks.values()), default=1)
    return grid_text(graph, {i: m.ljust(wide) for i, m in marks.items()})


def loop_box_chars(graph: Graph, loop: Sequence[int]) -> dict[int, str]:
    """Box-drawing characters (─ │ ┌ ┐ └ ┘) for the cells of a loop on a square grid.

    ``loop`` lists the cells in order around the loop (the first may be repeated at the
    end). Steps must join orthogonal neighbours (across the edge on a torus).
    """
    if graph.coords is None or graph.kind == "hex":
        raise ValueError(f"box-drawing loops need a square grid, not {graph.kind!r}")
    cells = _loop_cells(loop)
    result = {}
    for k, cell in enumerate(cells):
        before, after = cells[k - 1], cells[(k + 1) % len(cells)]
        sides = frozenset((_direction(graph, cell, before), _direction(graph, cell, after)))
        if sides not in _BOX:
            raise ValueError(f"the loop turns back on itself at {graph.names[cell]}")
        result[cell] = _BOX[sides]
    return result


def _direction(graph: Graph, a: int, b: int) -> str:
    assert graph.coords is not None
    (r1, c1), (r2, c2) = graph.coords[a], graph.coords[b]
    dr, dc = r2 - r1, c2 - c1
    if graph.kind == "torus" and graph.rows and graph.cols:
        dr = (dr + 1) % graph.rows - 1 if graph.rows > 2 else dr
        dc = (dc + 1) % graph.cols - 1 if graph.cols > 2 else dc
    if (dr, dc) not in _DIRECTIONS:
        raise ValueError(f"loop step from {graph.names[a]} to {graph.names[b]} is not orthogonal")
    return _DIRECTIONS[(dr, dc)]


# ---------------------------------------------------------------------------- Flood-It


def check_colour(value: int) -> int:
    """``value``, refused unless it is a colour of :data:`PALETTE`."""
    if not 0 <= value < len(PALETTE):
        raise ValueError(f"colour {value} is outside 0..{len(PALETTE) - 1}")
    return value


def palette_colour(value: int) -> str:
    """The fill of colour number ``value``."""
    return PALETTE[check_colour(value)]


def board_svg(
    rows: Sequence[Sequence[int]],
    highlight: set[tuple[int, int]] | None = None,
    cell_px: int = 24,
) -> str:
    """A Flood-It board in :data:`PALETTE` colours; ``highlight`` cells get an outline.

    Cells have no borders, so a cluster reads as one blob; the outline (dark with a white
    core, visible on every colour) follows the boundary of the highlighted region, e.g.
    the flooded region after a move.
    """
    height = len(rows)
    width = max((len(row) for row in rows), default=0)
    pad = 3.0
    parts = [_svg_open(2 * pad + width * cell_px, 2 * pad + height * cell_px)]
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            parts.append(
                f'<rect class="cell" x="{_num(pad + c * cell_px)}" y="{_num(pad + r * cell_px)}" '
                f'width="{cell_px}" height="{cell_px}" fill="{palette_colour(value)}" '
                f'shape-rendering="crispEdges"/>'
            )
    if highlight:
        path = _outline(highlight, cell_px, pad)
        parts.append(
            f'<path class="highlight" d="{path}" fill="none" stroke="#000000" '
            f'stroke-width="{_num(max(3.0, cell_px / 7))}" stroke-linecap="square"/>'
        )
        parts.append(
            f'<path class="highlight" d="{path}" fill="none" stroke="#FFFFFF" '
            f'stroke-width="{_num(max(1.0, cell_px / 20))}" stroke-linecap="square"/>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _outline(region: set[tuple[int, int]], cell_px: float, pad: float) -> str:
    """Path segments along every side of a region cell that faces a cell outside it."""
    segments = []
    for r, c in sorted(region):
        x, y = pad + c * cell_px, pad + r * cell_px
        if (r - 1, c) not in region:
            segments.append((x, y, x + cell_px, y))
        if (r + 1, c) not in region:
            segments.append((x, y + cell_px, x + cell_px, y + cell_px))
        if (r, c - 1) not in region:
            segments.append((x, y, x, y + cell_px))
        if (r, c + 1) not in region:
            segments.append((x + cell_px, y, x + cell_px, y + cell_px))
    return " ".join(f"M{_num(a)} {_num(b)}L{_num(c)} {_num(d)}" for a, b, c, d in segments)


# ---------------------------------------------------------------------------- layout

_SVG_ROOT = re.compile(r"<svg\b[^>]*>")


def _size(svg: str) -> tuple[float, float]:
    root = _SVG_ROOT.search(svg)
    if root is None:
        raise ValueError("not an SVG picture")
    found = {}
    for key in ("width", "height"):
        m = re.search(rf'\s{key}="([0-9.]+)', root.group())
        if m is None:
            raise ValueError(f"SVG picture without a numeric {key}")
        found[key] = float(m.group(1))
    return found["width"], found["height"]


def small_multiples(
    svgs: Sequence[str], columns: int = 6, captions: Sequence[str] | None = None
) -> str:
    """One SVG with the pictures in a grid, row by row, each with an optional caption.

    The pictures must come from this module (a root ``<svg>`` with numeric width and
    height); they are nested as ``<svg x=.. y=..>`` elements, left-aligned in equal tiles.
    """
    if captions is not None and len(captions) != len(svgs):
        raise ValueError("need one caption per picture")
    gap, caption_size = 8.0, 12.0
    caption_h = caption_size * 1.6 if captions else 0.0
    if not svgs:
        return _svg_open(0, 0) + "</svg>"
    columns = max(1, min(columns, len(svgs)))
    sizes = [_size(svg) for svg in svgs]
    tile_w = max(w for w, _ in sizes)
    tile_h = max(h for _, h in sizes) + caption_h
    grid_rows = math.ceil(len(svgs) / columns)
    parts = [_svg_open(gap + columns * (tile_w + gap), gap + grid_rows * (tile_h + gap))]
    for k, svg in enumerate(svgs):
        x = gap + (k % columns) * (tile_w + gap)
        y = gap + (k // columns) * (tile_h + gap)
        body = svg[svg.index("<svg") :]
        parts.append(f'<svg x="{_num(x)}" y="{_num(y)}"' + body[len("<svg") :])
        if captions:
            w, h = sizes[k]
            parts.append(_text(x + w / 2, y + h + caption_h / 2, captions[k], caption_size))
    parts.append("</svg>")
    return "".join(parts)
