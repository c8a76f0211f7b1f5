"""The reference encoding: the formula as first written, per cell and per timestep, kept
to compare against the cluster encoding."""
