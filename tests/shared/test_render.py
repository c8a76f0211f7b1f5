"""Pictures: well-formed SVG whose shapes agree with the graph, and exact text output."""

from __future__ import annotations

import itertools
import math
import sys
import types
import xml.etree.ElementTree as ET

import pytest

from smtpuzzles import jupyter, render
from smtpuzzles.graph import (
    Graph,
    hex_grid,
    parse_adjacency,
    rectangle,
    rectangle_with_holes,
    torus,
)
from smtpuzzles.puzzles.floodit.model import DIGITS
from smtpuzzles.puzzles.floodit.pictures import board_ansi

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    return root


def of_class(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return root.findall(f".//{SVG}{tag}[@class='{cls}']")


def points(element: ET.Element) -> list[tuple[float, float]]:
    return [tuple(map(float, p.split(","))) for p in element.get("points", "").split()]  # type: ignore[misc]


def rect_centres(root: ET.Element) -> list[tuple[float, float]]:
    return [
        (
            float(r.get("x")) + float(r.get("width")) / 2,
            float(r.get("y")) + float(r.get("height")) / 2,
        )
        for r in of_class(root, "rect", "cell")
    ]


def hex_centres(root: ET.Element) -> list[tuple[float, float]]:
    result = []
    for polygon in of_class(root, "polygon", "cell"):
        corners = points(polygon)
        result.append((sum(x for x, _ in corners) / 6, sum(y for _, y in corners) / 6))
    return result


def touching_pairs(centres: list[tuple[float, float]], step: float) -> list[tuple[int, int]]:
    """Pairs of cells whose centres are one cell apart: the picture's idea of adjacency."""
    return [
        (i, j)
        for i, j in itertools.combinations(range(len(centres)), 2)
        if abs(math.dist(centres[i], centres[j]) - step) < 0.05
    ]


TABLE = parse_adjacency("A: B C\nB: A C\nC: A B D\nD:\nE: A\n")  # D->? none; C->D, E->A one-way


# ---------------------------------------------------------------------------- graph_svg


def test_square_cells_sit_where_the_graph_says() -> None:
    g = rectangle(3, 4)
    root = parse(render.graph_svg(g, cell_px=20))
    centres = rect_centres(root)
    assert len(centres) == len(g)
    assert touching_pairs(centres, 20) == g.undirected_edges()
    (x0, y0) = centres[0]
    for (r, c), (x, y) in zip(g.coords or (), centres):
        assert (x - x0, y - y0) == (20 * c, 20 * r)
    assert [t.text for t in root.findall(f".//{SVG}rect/{SVG}title")] == list(g.names)


def test_holes_are_absent_and_hatched() -> None:
    g = rectangle_with_holes(3, 3, [(1, 1), (0, 2)])
    root = parse(render.graph_svg(g, cell_px=20))
    centres = rect_centres(root)
    assert len(centres) == 7
    assert touching_pairs(centres, 20) == g.undirected_edges()
    hatch = of_class(root, "path", "hole")
    assert len(hatch) == 1 and hatch[0].get("d", "").count("M") == 2 * 3
    assert not of_class(parse(render.graph_svg(rectangle(2, 2))), "path", "hole")


def test_hex_cells_are_pointy_hexagons_adjacent_as_in_the_graph() -> None:
    g = hex_grid(4, 5, holes=[(2, 2)])
    root = parse(render.graph_svg(g, cell_px=30))
    polygons = of_class(root, "polygon", "cell")
    assert len(polygons) == len(g) and not of_class(root, "rect", "cell")
    for polygon in polygons:
        corners = points(polygon)
        assert len(corners) == 6
        top = min(corners, key=lambda p: p[1])
        others = sorted(y for _, y in corners)
        assert others[1] > top[1] + 1  # exactly one topmost corner: pointy-top
    assert touching_pairs(hex_centres(root), 30) == g.undirected_edges()


def test_torus_shows_which_sides_join() -> None:
    g = torus(3, 4)
    fill = {g.at(0, 0): "#0072B2"}
    root = parse(render.graph_svg(g, fill=fill, cell_px=20))
    assert len(rect_centres(root)) == 12
    ghosts = of_class(root, "rect", "ghost")
    assert len(ghosts) == 2 * 3 + 2 * 4
    # cell (0, 0) shows again beyond the right side and beyond the bottom
    assert sum(r.get("fill") == "#0072B2" for r in ghosts) == 2


def test_wrapping_loop_leaves_through_one_side_and_returns_through_the_other() -> None:
    g = torus(3, 4)
    row = [g.at(1, c) for c in range(4)]
    root = parse(render.graph_svg(g, loops=[row], cell_px=20))
    lines = of_class(root, "polyline", "loop")
    assert len(lines) == 1
    run = points(lines[0])
    xs = [x for x, _ in rect_centres(root)]
    left, right = min(xs) - 10, max(xs) + 10
    assert run[0][0] == left and run[-1][0] == right  # enters at the left edge, leaves at the right
    assert len(run) == 4 + 2  # four centres and the two edge crossings
    square = [g.at(0, 1), g.at(2, 1), g.at(2, 2), g.at(0, 2)]  # up across the top, back down
    two = of_class(parse(render.graph_svg(g, loops=[square])), "polyline", "loop")
    assert sorted(len(points(line)) for line in two) == [4, 4]


def test_loop_polyline_is_closed_through_cell_centres() -> None:
    g = rectangle(3, 3)
    ring = [g.at(r, c) for r, c in [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0), (1, 0)]]
    svg = render.graph_svg(g, loops=[ring])
    root = parse(svg)
    (line,) = of_class(root, "polyline", "loop")
    run = points(line)
    centres = rect_centres(root)
    assert len(run) == len(ring) + 1 and run[0] == run[-1]
    assert run[:-1] == [centres[i] for i in ring]
    assert render.graph_svg(g, loops=[[*ring, ring[0]]]) == svg


def test_table_nodes_links_and_arrows() -> None:
    root = parse(render.graph_svg(TABLE, label={0: "2"}, loops=[[0, 1, 2]]))
    assert len(of_class(root, "circle", "cell")) == 5
    assert len(of_class(root, "line", "link")) == len(TABLE.undirected_edges()) == 5
    assert len(of_class(root, "polygon", "arrow")) == 2  # C->D and E->A are one-way
    texts = [t.text for t in root.iter(SVG + "text")]
    assert {"A", "B", "C", "D", "E", "2"} <= set(texts)
    (line,) = of_class(root, "polyline", "loop")
    assert len(points(line)) == 4
    width, height = float(root.get("width")), float(root.get("height"))
    for circle in of_class(root, "circle", "cell"):
        x, y, r = (float(circle.get(k)) for k in ("cx", "cy", "r"))
        assert r <= x <= width - r and r <= y <= height - r


def test_one_node_table() -> None:
    root = parse(render.graph_svg(Graph(names=("only",), out=((),))))
    assert len(of_class(root, "circle", "cell")) == 1


def test_labels_and_titles_are_escaped_and_contrast_with_the_fill() -> None:
    g = rectangle(1, 3)
    svg = render.graph_svg(
        g,
        fill={0: render.WALL, 1: "white", 2: 'x" onload="alert(1)'},
        label={0: "<7>", 1: "a&b", 2: "12"},
        marks={1: "?"},
        title='say "<hi>" & go',
    )
    root = parse(svg)
    texts = {t.text: t.get("fill") for t in root.iter(SVG + "text")}
    assert texts["<7>"] == "#FFFFFF" and texts["a&b"] == "#000000" and "?" in texts
    assert 'say "<hi>" & go' in texts
    assert of_class(root, "rect", "cell")[2].get("fill") == 'x" onload="alert(1)'
    assert root.find(f".//{SVG}rect[@onload]") is None


def test_text_colour_chooses_the_better_contrast() -> None:
    assert render.text_colour("#000") == "#FFFFFF"
    assert render.text_colour("#F0E442") == "#000000"
    assert render.text_colour("rgb(0, 0, 128)") == "#FFFFFF"
    assert render.text_colour("no-such-colour") == "#000000"
    assert render.text_colour(None) == "#000000"


def test_pictures_are_deterministic() -> None:
    g = hex_grid(3, 3)
    args = dict(fill={1: "red"}, label={2: "3"}, loops=[[0, 1, 4, 3]], marks={5: "x"})
    assert render.graph_svg(g, **args) == render.graph_svg(g, **args)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- text


def test_grid_text_square_holes_and_missing() -> None:
    g = rectangle_with_holes(2, 3, [(0, 1)])
    chars = {g.at(0, 0): "#", g.at(0, 2): ".", g.at(1, 0): ".", g.at(1, 1): "#"}
    assert render.grid_text(g, chars) == "# .\n.#?"


def test_grid_text_aligns_long_clues() -> None:
    g = rectangle(2, 2)
    assert render.grid_text(g, {0: "12", 1: ".", 2: "#", 3: "3"}) == "12  .\n #  3"


def test_grid_text_hex_indents_odd_rows() -> None:
    g = hex_grid(3, 3)
    text = render.grid_text(g, {i: "#."[i % 2] for i in range(len(g))})
    assert text == "# . #\n . # .\n# . #"


def test_grid_text_table() -> None:
    assert render.grid_text(TABLE, {0: "#", 1: "."}) == "A: #\nB: .\nC: ?\nD: ?\nE: ?"


def test_loop_box_chars_on_a_known_loop() -> None:
    g = rectangle(3, 4)
    loop = [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (2, 2), (1, 2), (1, 1), (1, 0)]
    chars = render.loop_box_chars(g, [g.at(r, c) for r, c in loop])
    text = render.grid_text(g, {i: chars.get(i, "#") for i in range(len(g))})
    assert text == "┌──┐\n└─┐│\n##└┘"


def test_loop_box_chars_wraps_on_a_torus_and_rejects_bad_loops() -> None:
    g = torus(3, 3)
    assert set(render.loop_box_chars(g, [g.at(1, c) for c in range(3)]).values()) == {"─"}
    assert set(render.loop_box_chars(g, [g.at(r, 0) for r in range(3)]).values()) == {"│"}
    with pytest.raises(ValueError, match="not orthogonal"):
        render.loop_box_chars(rectangle(3, 3), [0, 1, 2, 4, 3])
    with pytest.raises(ValueError, match="square grid"):
        render.loop_box_chars(hex_grid(2, 2), [0, 1, 3, 2])
    with pytest.raises(ValueError, match="turns back"):
        render.loop_box_chars(rectangle(1, 4), [0, 1, 2, 1])


# ---------------------------------------------------------------------------- Flood-It


BOARD = [[0, 1, 1], [2, 0, 35], [0, 0, 3]]


def test_board_svg_colours_every_cell_and_outlines_the_region() -> None:
    root = parse(render.board_svg(BOARD, highlight={(0, 0), (1, 0), (1, 1)}, cell_px=10))
    cells = of_class(root, "rect", "cell")
    assert [c.get("fill") for c in cells] == [render.PALETTE[v] for row in BOARD for v in row]
    outline = of_class(root, "path", "highlight")
    assert outline and outline[0].get("d", "").count("M") == 8  # perimeter of an L tromino
    assert not of_class(parse(render.board_svg(BOARD)), "path", "highlight")
    with pytest.raises(ValueError, match="outside"):
        render.board_svg([[36]])


def test_board_ansi_digits_and_colours() -> None:
    assert board_ansi(BOARD, colour=False) == "011\n20z\n003"
    coloured = board_ansi(BOARD, colour=True)
    assert coloured.count("\x1b[48;2;") == 9 and coloured.count(render.ANSI_RESET) == 3
    assert "\x1b[48;2;0;114;178m" in coloured  # colour 0, Okabe-Ito blue
    cube = board_ansi(BOARD, colour=True, truecolor=False)
    assert cube.count("\x1b[48;5;") == 9
    with pytest.raises(ValueError):
        board_ansi([[-1]], colour=False)


def test_palette_has_36_distinct_colours() -> None:
    assert len(render.PALETTE) == len(set(c.lower() for c in render.PALETTE)) == 36
    assert all(render.rgb(c) is not None for c in render.PALETTE)
    assert len(DIGITS) == 36


def test_supports_truecolor() -> None:
    assert render.supports_truecolor({"COLORTERM": "truecolor"})
    assert not render.supports_truecolor({"TERM": "xterm-256color"})


def test_small_multiples_nests_pictures_in_a_grid_with_captions() -> None:
    frames = [render.board_svg(BOARD, cell_px=10) for _ in range(5)]
    captions = [f"move {i}: colour {i}" for i in range(5)]
    root = parse(render.small_multiples(frames, columns=2, captions=captions))
    nested = root.findall(f"{SVG}svg")
    assert len(nested) == 5
    spots = [(float(s.get("x")), float(s.get("y"))) for s in nested]
    assert len({x for x, _ in spots}) == 2 and len({y for _, y in spots}) == 3
    assert spots[0][1] == spots[1][1] < spots[2][1]
    assert [t.text for t in root.findall(f"{SVG}text")] == captions
    assert parse(render.small_multiples([])) is not None
    with pytest.raises(ValueError, match="caption"):
        render.small_multiples(frames, captions=["one"])


# ---------------------------------------------------------------------------- Jupyter


def test_step_through_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ipywidgets", None)
    with pytest.raises(ImportError, match="pip install"):
        jupyter.step_through(["<svg/>"])


def test_step_through_wires_a_slider_to_the_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    class Widget:
        def __init__(self, *children: object, **kwargs: object) -> None:
            self.children, self.__dict__["kw"] = children, kwargs
            self.value = kwargs.get("value")
            self.watchers: list = []

        def observe(self, handler, names: str) -> None:  # type: ignore[no-untyped-def]
            self.watchers.append(handler)

    fake = types.SimpleNamespace(IntSlider=Widget, HTML=Widget, VBox=Widget)
    monkeypatch.setitem(sys.modules, "ipywidgets", fake)
    box = jupyter.step_through(["<svg>a</svg>", "<svg>b</svg>"], captions=["start", "x<y"])
    slider, view = box.children[0]
    assert slider.kw["max"] == 1 and view.value == "<div>start</div><svg>a</svg>"
    slider.watchers[0]({"new": 1})
    assert view.value == "<div>x&lt;y</div><svg>b</svg>"
    with pytest.raises(ValueError):
        jupyter.step_through([])
