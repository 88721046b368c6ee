"""Readers: outside input turned into a puzzle's data, beside the vocabulary; no engine here.

``screenshot.read`` reads the Queens game from a screenshot (``images``
opens it safely, ``lattice`` finds the grid, ``colours`` groups the cells'
colours into regions), ``overlay`` draws queens back over the picture.
numpy and Pillow (the ``image`` extra) are imported on the first picture.
"""
