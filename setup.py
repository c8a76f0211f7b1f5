"""The compiled A* of Flood-It's presolve, the wall search of Nurikabe's deductions and
the last resort of the time and memory limits (optional: without a C compiler the
package installs without them, runs the same searches in Python and holds the limits
in Python only)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "smtpuzzles.puzzles.floodit._astar",
            ["smtpuzzles/puzzles/floodit/_astar.c"],
            extra_compile_args=["-O3"],
            optional=True,
        ),
        Extension(
            "smtpuzzles._hardstop",
            ["smtpuzzles/_hardstop.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "smtpuzzles.puzzles.nurikabe.presolve._wall",
            ["smtpuzzles/puzzles/nurikabe/presolve/_wall.c"],
            extra_compile_args=["-O3"],
            optional=True,
        ),
    ]
)
