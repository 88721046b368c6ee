"""A classic puzzle stated in the expression language: no queen on either long diagonal.

n non-attacking queens, none on the main diagonal (q[r] == r) nor on the
anti-diagonal (q[r] == n - 1 - r). Every board symmetry maps the two long
diagonals onto themselves, so the condition declares that it keeps all eight
and unique counts stay exact. Prints n, the count and the classes, n = 1..10.
"""

import cpqueens
from cpqueens.vocabulary.constraints import BOARD_SYMMETRIES


def no_long_diagonal(n: int) -> cpqueens.Model:
    """The n-queens model with both long diagonals empty."""
    m = cpqueens.model(n)
    conditions = [(m.q[r] != r) & (m.q[r] != n - 1 - r) for r in range(n)]
    return m.where(*conditions, keeps=BOARD_SYMMETRIES)


if __name__ == "__main__":
    for n in range(1, 11):
        model = no_long_diagonal(n)
        print(f"{n:2} {model.count()} {model.count(unique=True)}")
