"""The vocabulary: plain frozen data a model is made of (board, constraints, expressions).

Nothing here solves or imports a solver: ``import cpqueens`` stays light.
"""
