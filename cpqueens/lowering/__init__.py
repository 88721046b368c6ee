"""Lowering: a statement stated in the forms the engines and exporters read, each rule once.

- :mod:`cpqueens.lowering.columns`: the column form ``q[colour][row]``
  (:class:`~cpqueens.vocabulary.problem.Problem`) of a statement with one
  piece per row and column;
- :mod:`cpqueens.lowering.cells`: the cell form ``x[row, col]``
  (:class:`~cpqueens.vocabulary.cells.CellProblem`) of any statement of one
  colour, users' conditions over ``q`` included;
- :mod:`cpqueens.lowering.primitives`: the cell form as a list of primitives
  (fixed cells, at most one per line, sums, peace between armies,
  conditions) that CP-SAT, python-constraint and CPMpy each translate once;
- :mod:`cpqueens.lowering.kinds`: constraint kinds replaced by their
  decompositions for an engine that does not state them natively.
"""
