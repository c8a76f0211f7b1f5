"""What the tests check answers against: brute-force solvers, random puzzle makers, the
shared case lists, and helpers that run the command line or a second solver.

Test modules import from here (``from oracles.nurikabe import brute_force``), never from
one another; nothing here shares code with the encoders it checks.
"""
