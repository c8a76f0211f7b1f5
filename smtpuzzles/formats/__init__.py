"""Exchange formats shared by the puzzles: clue grids, janko blocks, puzz.link URLs."""
