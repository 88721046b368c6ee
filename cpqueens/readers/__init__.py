"""Readers: outside input turned into a puzzle's data, beside the vocabulary; no engine here.

``screenshot.read`` reads the Queens game from a screenshot (``images``
opens it safely, ``skew`` turns it straight, ``lattice`` and ``outline``
find the grid, ``edges`` checks that it is the whole board, ``colours``
groups the cells' colours into regions, ``borders`` tells thin lines from
thick), ``overlay`` draws queens back over the picture.
numpy and Pillow (the ``image`` extra) are imported on the first picture.
"""
