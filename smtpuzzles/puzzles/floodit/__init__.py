"""Flood-It: boards, clusters, the SMT encoding, the search modes and the checker."""
