"""Pictures of a Flood-It answer: the board after each move, as small multiples.

Shared by the CLI's ``--svg`` and the Python API's ``Result`` pictures; the boards come
from the plain-Python replay in :mod:`.check`, never from the formula.
"""

from __future__ import annotations

from collections.abc import Sequence

from ... import render
from .check import flood_region, play
from .model import DIGITS, Board

#: Past this many moves a picture shows the final board alone (small multiples get unreadable).
MAX_FRAMES = 60


def frame_px(board: Board) -> int:
    """Cell size that keeps one frame of the small multiples about 130 pixels wide."""
    return max(4, min(24, 130 // max(board.rows, board.cols)))


def frames(
    board: Board, moves: Sequence[int], start: tuple[int, int], cell_px: int | None = None
) -> list[str]:
    """An SVG of the board before the first move and after each move, flood outlined."""
    px = cell_px or frame_px(board)
    return [render.board_svg(g, flood_region(g, start), px) for g in play(board.grid, moves, start)]


def captions(moves: Sequence[int]) -> list[str]:
    """A caption per frame: ``start``, then the move number and its colour."""
    return ["start"] + [f"{t}: {DIGITS[m]}" for t, m in enumerate(moves, 1)]


def solution_svg(board: Board, moves: Sequence[int], start: tuple[int, int]) -> str:
    """Small multiples of the whole play (the final board alone when the play is long)."""
    pictures = frames(board, moves, start)
    if len(pictures) > MAX_FRAMES:
        return pictures[-1]
    return render.small_multiples(pictures, columns=8, captions=captions(moves))


def board_ansi(rows: Sequence[Sequence[int]], colour: bool, truecolor: bool = True) -> str:
    """A Flood-It board for a terminal: two-space blocks in the palette's colours (24-bit,
    or the 256-colour cube when ``truecolor`` is false), or the colour characters
    ``0``-``9a``-``z`` when ``colour`` is false (piped output)."""
    lines = []
    for row in rows:
        if colour:
            fills = (render.palette_colour(v) for v in row)
            blocks = "".join(render.ansi_bg(fill, truecolor) + "  " for fill in fills)
            lines.append(blocks + render.ANSI_RESET)
        else:
            lines.append("".join(DIGITS[render.check_colour(v)] for v in row))
    return "\n".join(lines)
