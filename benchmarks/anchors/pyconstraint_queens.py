"""python-constraint2's own queens example, as its authors wrote it (examples/queens/queens.py).

One variable per column, one lambda per pair of columns, the default solver;
the only change is the board size, read from the command line.
Usage: python pyconstraint_queens.py N  -> prints the number of solutions.
"""

import sys

from constraint import Problem


def solve(size):
    problem = Problem()
    cols = range(size)
    rows = range(size)
    problem.addVariables(cols, rows)
    for col1 in cols:
        for col2 in cols:
            if col1 < col2:
                problem.addConstraint(
                    lambda row1, row2, col1=col1, col2=col2: (
                        abs(row1 - row2) != abs(col1 - col2) and row1 != row2
                    ),
                    (col1, col2),
                )
    solutions = problem.getSolutions()
    return solutions, size


if __name__ == "__main__":
    solutions, size = solve(int(sys.argv[1]) if len(sys.argv) > 1 else 8)
    print(len(solutions))
