"""OR-Tools' nqueens_sat sample model, as its authors wrote it (ortools/sat/samples/nqueens_sat.py).

One variable per column, three add_all_different constraints, default solver
parameters with enumerate_all_solutions. The only change: the callback counts
instead of printing every board, so the anchor times the search, not the terminal.
Usage: python ortools_nqueens_sat.py N  -> prints the number of solutions.
"""

import sys

from ortools.sat.python import cp_model


class NQueenSolutionCounter(cp_model.CpSolverSolutionCallback):
    def __init__(self, queens):
        cp_model.CpSolverSolutionCallback.__init__(self)
        self.__queens = queens
        self.__solution_count = 0

    @property
    def solution_count(self):
        return self.__solution_count

    def on_solution_callback(self):
        self.__solution_count += 1


def main(board_size):
    model = cp_model.CpModel()
    # There are `board_size` number of variables, one for a queen in each column
    # of the board. The value of each variable is the row that the queen is in.
    queens = [model.new_int_var(0, board_size - 1, f"x_{i}") for i in range(board_size)]
    # All rows must be different.
    model.add_all_different(queens)
    # No two queens can be on the same diagonal.
    model.add_all_different(queens[i] + i for i in range(board_size))
    model.add_all_different(queens[i] - i for i in range(board_size))
    solver = cp_model.CpSolver()
    solution_counter = NQueenSolutionCounter(queens)
    solver.parameters.enumerate_all_solutions = True
    solver.solve(model, solution_counter)
    return solution_counter.solution_count


if __name__ == "__main__":
    print(main(int(sys.argv[1]) if len(sys.argv) > 1 else 8))
