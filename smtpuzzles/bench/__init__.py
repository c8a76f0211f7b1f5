"""Running a puzzle's solver over many instances: each case is its own process, on this
machine (``--jobs``) or on the workers of a Dask cluster (``--cluster``), and every
finished case becomes one row of the same shape for every puzzle.

- :mod:`.cases`: the cases in files, folders and datasets, with their known answers;
- :mod:`.run`: one case as one solver process (the unit a worker runs);
- :mod:`.local` and :mod:`.cluster`: the two ways to run many;
- :mod:`.rows`: the row, its verdict, the table, JSON Lines, CSV and ``--resume``.

Nothing here is imported by a solve command, and Dask only by :mod:`.cluster`.
"""
