"""How far a picture's board is turned: the small angle that makes its long lines straight.

A board photographed or scanned a little askew, or a drawing turned by half
a degree, breaks each of its lines into short steps: read as it is, its
lattice comes apart (a 5x5 board was once read as a 4x4 one). The angle is
found from the runs of dark pixels along the rows (the board's horizontal
lines) and along the columns (its vertical lines): turned by the right
angle, each line's runs fall on one position, so the sum of the squared
run lengths per position is largest there. The caller turns the picture
back before it looks for the lattice.

numpy is imported by the caller; nothing here knows colours.
"""

from __future__ import annotations

import numpy as np

from cpqueens.readers.lattice import runs

#: The largest turn looked for, in degrees; a board turned further is not read.
MAX_ANGLE = 3.0
#: A turn smaller than this (degrees) leaves the lines straight: the picture is read as it is.
STRAIGHT = 0.05
#: The steps (degrees) of the first search; the second is to a hundredth of a degree around.
COARSE = 0.1
#: The shortest run of dark pixels that counts as a piece of a line, in pixels.
LEAST_RUN = 16
#: Runs are weighed in pieces this long (pixels): a long line by its length.
PIECE = 4
#: The fewest pieces of line (each way together) that say anything about a turn.
FEWEST_RUNS = 48


def _pieces(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pieces of each row's runs of True at least ``LEAST_RUN`` long: (row, middle) arrays.

    A run is cut into pieces ``PIECE`` long (the rest dropped), so that a
    long straight line weighs by its length wherever it is turned to.
    """
    rows, starts, ends = runs(mask, LEAST_RUN)
    count = (ends - starts) // PIECE
    first = np.repeat(np.cumsum(count) - count, count)
    index = np.arange(int(count.sum())) - first  # the piece's number within its run
    middles = np.repeat(starts, count) + (index + 0.5) * PIECE
    return np.repeat(rows, count), middles


def _sharpness(at: np.ndarray, along: np.ndarray, slopes: np.ndarray) -> np.ndarray:
    """For each slope s, the sum over positions of (pieces at ``at + s * along``) squared."""
    out = np.zeros(len(slopes))
    if len(at) == 0:
        return out
    for i, s in enumerate(slopes.tolist()):
        where = at + s * along
        where -= where.min()
        low = np.floor(where)
        share = where - low  # each piece shared between its two nearest positions
        low_i = low.astype(np.int64)
        counts = np.bincount(low_i, weights=1 - share, minlength=int(low_i.max()) + 2)
        counts += np.bincount(low_i + 1, weights=share, minlength=len(counts))
        out[i] = float((counts**2).sum())
    return out


def angle(darkness: np.ndarray, contrast: int) -> float:
    """The angle (degrees, anticlockwise as seen) the board's lines are turned by; 0 if unsure.

    ``darkness`` is the top-hat of the picture (:func:`cpqueens.readers.lattice.ink`)
    and pixels at least ``contrast`` darker than their surroundings are lines.
    The angle is searched between -``MAX_ANGLE`` and ``MAX_ANGLE`` degrees, in
    steps of ``COARSE`` degrees, then to a hundredth of a degree around the best.
    """
    mask = darkness >= contrast
    rows, xs = _pieces(mask)  # pieces of horizontal lines: y = rows, x = xs
    cols, ys = _pieces(np.ascontiguousarray(mask.T))  # vertical: x = cols, y = ys
    if len(rows) + len(cols) < FEWEST_RUNS:
        return 0.0
    rows_f, cols_f = rows.astype(np.float64), cols.astype(np.float64)

    def score(degrees: np.ndarray, every: int = 1) -> np.ndarray:
        slopes = np.tan(np.radians(degrees))
        # turned anticlockwise by a, a horizontal line is y = y0 - x tan a and a vertical
        # one x = x0 + y tan a: y + x tan a and x - y tan a are constant along them
        return _sharpness(rows_f[::every], xs[::every], slopes) + _sharpness(
            cols_f[::every], ys[::every], -slopes
        )

    coarse = np.arange(-MAX_ANGLE, MAX_ANGLE + 1e-9, COARSE)  # every other piece will do
    scores = score(coarse, every=2)
    best = float(coarse[int(np.argmax(scores))])
    if scores.max() <= scores[len(coarse) // 2] * 1.0001:  # straight is as good as any
        return 0.0
    fine = np.arange(best - COARSE, best + COARSE + 1e-9, 0.01)
    found = float(fine[int(np.argmax(score(fine)))])
    return found if abs(found) >= STRAIGHT else 0.0
