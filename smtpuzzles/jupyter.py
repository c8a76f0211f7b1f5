"""Notebook helpers that need ipywidgets (the ``notebooks`` extra), imported lazily."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any


def step_through(frames_svg: Sequence[str], captions: Sequence[str] | None = None) -> Any:
    """A slider that shows one SVG frame at a time (e.g. a Flood-It board after each move).

    Returns the widget; a notebook cell that ends with it displays it.
    """
    try:
        import ipywidgets
    except ImportError as error:
        raise ImportError(
            "step_through needs ipywidgets: pip install 'smtpuzzles[notebooks]' "
            "(or show the frames side by side with smtpuzzles.render.small_multiples)"
        ) from error
    if not frames_svg:
        raise ValueError("no frames to step through")
    if captions is not None and len(captions) != len(frames_svg):
        raise ValueError("need one caption per frame")

    def frame(i: int) -> str:
        caption = f"<div>{escape(captions[i])}</div>" if captions is not None else ""
        return caption + frames_svg[i]

    slider = ipywidgets.IntSlider(value=0, min=0, max=len(frames_svg) - 1, description="step")
    view = ipywidgets.HTML(value=frame(0))

    def show(change: dict[str, Any]) -> None:
        view.value = frame(change["new"])

    slider.observe(show, names="value")
    return ipywidgets.VBox([slider, view])
