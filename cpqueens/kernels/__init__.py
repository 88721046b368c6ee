"""The compiled kernels: numba code only (placements, classes, resumable and local searches).

The package itself imports nothing heavy: its limits can be read without
loading numba. The symmetry kernels' searches also run from an object file
that llvmlite loads without numba (``objects.py``, ``class_entries.py``).
"""

#: The widest board the kernels hold: a row's columns are the bits of a uint64.
MAX_COLUMNS = 64
#: The largest board the symmetry kernels hold (their diagonal masks span 2n - 1 bits).
MAX_CLASS_N = 31
