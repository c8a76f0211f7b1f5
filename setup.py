"""The compiled A* of Flood-It's presolve and the wall search of Nurikabe's deductions
(optional: without a C compiler the package installs without them and runs the same
searches in Python)."""

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
            "smtpuzzles.puzzles.nurikabe.presolve._wall",
            ["smtpuzzles/puzzles/nurikabe/presolve/_wall.c"],
            extra_compile_args=["-O3"],
            optional=True,
        ),
    ]
)
