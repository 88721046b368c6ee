"""The vocabulary: plain frozen data a model is made of (boards, constraints, expressions, solutions).

Nothing here solves or imports a solver: ``import cpqueens`` stays light.
"""
