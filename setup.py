"""The compiled A* of Flood-It's presolve (optional: without a C compiler the package
installs without it and runs the same search in Python)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "smtpuzzles.puzzles.floodit._astar",
            ["smtpuzzles/puzzles/floodit/_astar.c"],
            extra_compile_args=["-O3"],
            optional=True,
        )
    ]
)
