"""The compiled kernels: numba code only (placements, classes, resumable and local searches)."""
