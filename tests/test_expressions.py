"""User-stated conditions: every backend against a brute-force oracle, and every bad input."""

from __future__ import annotations

import operator
import pickle

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cpqueens
from cpqueens.errors import CheckpointError
from cpqueens.execution.checkpoint import describe
from cpqueens.expressions import Comparison, Logic, Var, reads
from tests import internals, oracle

# A drawn condition is a small tree of tuples, read twice by ``build``: once with
# the model's q (operator overloading builds nodes), once with plain ints (Python
# computes the truth). The same Python operators do both.

COMPARE = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def int_trees(n, colours):
    leaves = st.tuples(st.just("var"), st.integers(0, colours - 1), st.integers(0, n - 1))
    constants = st.integers(-6, 6)

    def extend(inner):
        return st.one_of(
            st.tuples(st.sampled_from(["+", "-"]), inner, st.one_of(inner, constants)),
            st.tuples(st.just("rsub"), constants, inner),
            st.tuples(st.just("*"), inner, constants),
            st.tuples(st.just("rmul"), constants, inner),
            st.tuples(st.just("neg"), inner),
            st.tuples(st.just("abs"), inner),
            st.tuples(st.just("%"), inner, st.integers(1, 5)),
        )

    return st.recursive(leaves, extend, max_leaves=4)


def condition_trees(n, colours):
    ints = int_trees(n, colours)
    comparisons = st.tuples(
        st.just("cmp"), st.sampled_from(sorted(COMPARE)), ints, st.one_of(ints, st.integers(-3, 8))
    )
    distinct = st.tuples(st.just("alldiff"), st.lists(ints, min_size=1, max_size=3))

    def extend(inner):
        return st.one_of(
            st.tuples(st.sampled_from(["&", "|"]), inner, inner),
            st.tuples(st.just("~"), inner),
        )

    return st.recursive(st.one_of(comparisons, distinct), extend, max_leaves=3)


def build(tree, get, symbolic):
    """The value of ``tree`` with variables from ``get(colour, row)``."""
    if isinstance(tree, int):
        return tree
    kind, *args = tree
    if kind == "var":
        return get(*args)
    if kind == "cmp":
        name, lhs, rhs = args
        return COMPARE[name](build(lhs, get, symbolic), build(rhs, get, symbolic))
    if kind == "alldiff":
        values = [build(arg, get, symbolic) for arg in args[0]]
        return cpqueens.all_different(values) if symbolic else len(set(values)) == len(values)
    values = [build(arg, get, symbolic) for arg in args]
    if kind == "~":
        return ~values[0] if symbolic else not values[0]
    if kind in ("&", "|"):
        a, b = values
        if symbolic:
            return a & b if kind == "&" else a | b
        return (a and b) if kind == "&" else (a or b)
    return {
        "+": lambda a, b: a + b,
        "-": lambda a, b: a - b,
        "rsub": lambda a, b: a - b,
        "*": lambda a, b: a * b,
        "rmul": lambda a, b: a * b,
        "neg": lambda a: -a,
        "abs": abs,
        "%": lambda a, b: a % b,
    }[kind](*values)


@st.composite
def conditioned_models(draw):
    colours = draw(st.integers(1, 2))
    n = draw(st.integers(1, 6 if colours == 1 else 5))
    cells = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    blocked = draw(st.lists(cells, max_size=2))
    trees = draw(st.lists(condition_trees(n, colours), min_size=1, max_size=2))
    return n, colours, blocked, trees


def variable(m, colour, row):
    return m.q[colour, row] if m.colours > 1 else m.q[row]


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(conditioned_models())
@pytest.mark.slow
def test_backend_agrees_with_the_oracle_on_random_conditions(backend, drawn):
    n, colours, blocked, trees = drawn
    base = cpqueens.model(n, blocked, colours=colours)
    conditions = [build(tree, lambda c, r: variable(base, c, r), True) for tree in trees]
    m = base.where(*conditions)
    expected = [
        s
        for s in oracle.solutions(n, blocked, colours=colours)
        if all(build(tree, lambda c, r, s=s: s[c][r], False) for tree in trees)
    ]
    assert [s.by_colour for s in m.solutions(backend)] == expected
    assert m.count(backend) == len(expected)
    first = m.first(backend)
    assert (first.by_colour if first else None) == (expected[0] if expected else None)
    assert m.count(backend, unique=True) == len(expected)  # only the identity is known


def test_print_shows_conditions_readably():
    m = cpqueens.model(8)
    narrowed = m.where(m.q[0] < m.q[7], (m.q[1] - 2 * m.q[2]) % 3 != 0)
    lines = str(narrowed).splitlines()
    assert lines[-2:] == ["  q0[0] < q0[7]", "  (q0[1] - 2 * q0[2]) % 3 != 0"]
    assert str(-(m.q[0] - m.q[1])) == "-(q0[0] - q0[1])"
    assert str(m.q[0] - (m.q[1] - 3)) == "q0[0] - (q0[1] - 3)"
    assert str(m.q[0] * -2) == "q0[0] * (-2)"
    assert str((m.q[0] == 1) | ~(m.q[1] == 2) & (m.q[2] > 0)) == (
        "(q0[0] == 1) | (~(q0[1] == 2) & (q0[2] > 0))"
    )
    two = cpqueens.model(4, colours=2)
    assert str(two.q[1, 3] != two.q[0, 3]) == "q1[3] != q0[3]"


def test_modulo_follows_pythons_sign_rule_on_every_backend(backend):
    m = cpqueens.model(6)
    narrowed = m.where((m.q[0] - m.q[5]) % 4 == 3)  # q0 - q5 = -1 gives 3, not -1
    expected = [s for s in oracle.solutions(6) if (s[0][0] - s[0][5]) % 4 == 3]
    assert expected
    assert [s.by_colour for s in narrowed.solutions(backend)] == expected


def test_first_and_unique_counts_with_conditions(backend):
    m = cpqueens.model(8)
    narrowed = m.where(m.q[0] > m.q[7])
    expected = [s for s in oracle.solutions(8) if s[0][0] > s[0][7]]
    assert narrowed.first(backend).by_colour == expected[0]
    assert narrowed.symmetries() == ("identity",)
    assert narrowed.count(backend, unique=True) == len(expected)


def test_declared_symmetries_give_exact_unique_counts(backend):
    n = 7
    m = cpqueens.model(n)
    # The first row's queen is off the middle column: the mirror keeps that.
    narrowed = m.where(abs(2 * m.q[0] - (n - 1)) >= 2, keeps=("mirror",))
    assert narrowed.symmetries() == ("identity", "mirror")
    expected = [s for s in oracle.solutions(n) if abs(2 * s[0][0] - (n - 1)) >= 2]
    classes = {min(s, (tuple(n - 1 - c for c in s[0]),)) for s in expected}
    assert narrowed.count(backend) == len(expected)
    assert narrowed.count(backend, unique=True) == len(classes)
    assert [s.by_colour for s in narrowed.solutions(backend, unique=True)] == sorted(classes)


def test_declared_rot90_brings_its_powers():
    m = cpqueens.model(8)
    assert m.where(m.q[0] >= 0, keeps=["rot90"]).symmetries() == (
        "identity",
        "rot90",
        "rot180",
        "rot270",
    )


def test_conditions_on_two_colours_and_placed_triples(backend):
    m = cpqueens.model(5, colours=2, placed=[(0, 1, 1)])
    narrowed = m.where(m.q[1, 4] < m.q[0, 4])
    expected = [s for s in oracle.solutions(5, colours=2) if s[1][0] == 1 and s[1][4] < s[0][4]]
    assert [s.by_colour for s in narrowed.solutions(backend)] == expected
    assert narrowed.count(backend) == len(expected)


def test_a_condition_on_one_row_becomes_a_row_mask():

    m = cpqueens.model(6)
    plan = internals.plan(m.where(m.q[2] % 2 == 1, m.q[0] + m.q[1] > 4))
    assert plan.allowed[0][2] == 0b101010
    assert [row for row, _ in plan.checks] == [(0, 1)]


def test_nodes_are_plain_data():
    m = cpqueens.model(8)
    condition = (abs(m.q[0] - m.q[3]) % 3 == 1) | ~cpqueens.all_different([m.q[1], m.q[2] + 1])
    node = condition.node
    assert pickle.loads(pickle.dumps(node)) == node
    assert hash(node) == hash(pickle.loads(pickle.dumps(node)))
    assert reads(node) == ((0, 0), (0, 1), (0, 2), (0, 3))
    narrowed = m.where(condition)
    assert pickle.loads(pickle.dumps(narrowed)) == narrowed
    assert narrowed == m.where(condition)
    assert isinstance(node, Logic) and isinstance(node.args[0], Comparison)
    assert Var(0, 3) in {Var(0, 3)}


def test_describe_is_exact_and_stable():
    m = cpqueens.model(6)
    text = describe(m.where(m.q[0] < m.q[5] + 1))
    assert text == (
        "n=6 colours=1 blocked=[] placed=[] extra=[Where(condition=Comparison(name='<', "
        "lhs=Var(colour=0, row=0), rhs=Operator(name='+', args=(Var(colour=0, row=5), 1))), "
        "keeps=('identity',))]"
    )


@pytest.mark.slow
def test_checkpoint_resumes_a_conditioned_count_and_refuses_another(tmp_path):
    m = cpqueens.model(9)
    narrowed = m.where(m.q[0] < m.q[8])
    path = tmp_path / "count.json"
    expected = sum(1 for s in oracle.solutions(9) if s[0][0] < s[0][8])
    assert narrowed.count("bitmask", checkpoint=path) == expected
    assert narrowed.count("bitmask", checkpoint=path) == expected
    with pytest.raises(CheckpointError):
        m.where(m.q[0] > m.q[8]).count("bitmask", checkpoint=path)


@pytest.mark.slow
def test_a_local_pool_counts_a_conditioned_model():
    m = cpqueens.model(8)
    narrowed = m.where(m.q[0] + m.q[1] != 7)
    assert narrowed.count("bitmask", workers=2) == narrowed.count("cpsat")


def test_cross_check_with_conditions():
    m = cpqueens.model(7)
    expected = sum(1 for s in oracle.solutions(7) if s[0][3] != 3)
    assert m.where(m.q[3] != 3).cross_check() == expected == 32


# --- bad input ----------------------------------------------------------------------------


def test_a_condition_is_not_a_python_bool():
    m = cpqueens.model(8)
    with pytest.raises(TypeError) as raised:
        if m.q[0] < 3:
            pass
    assert str(raised.value) == (
        "the condition q0[0] < 3 has no truth value: the solver decides it, not Python. "
        "Pass it to Model.where(); combine conditions with &, | and ~ "
        "(not 'and', 'or', 'not' or a chained comparison such as 0 < q < 3)"
    )
    with pytest.raises(TypeError, match="has no truth value"):
        m.where(0 < m.q[0] < 3)
    with pytest.raises(TypeError, match=r"the expression q0\[0\] has no truth value"):
        bool(m.q[0])


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda q: q[8], IndexError, "row 8 is outside the 8x8 board's rows 0..7"),
        (lambda q: q[-1], IndexError, "row -1 is outside the 8x8 board's rows 0..7"),
        (
            lambda q: q[0, 3],
            ValueError,
            "q[0, 3]: this model has one colour; write q[row] (q[3])",
        ),
        (lambda q: q[1.0], TypeError, "row index must be an int, got 1.0"),
        (
            lambda q: q[0] + 1.5,
            TypeError,
            "q0[0] + 1.5: cannot use 1.5 (float); "
            "expressions combine only with ints and expressions of the same model",
        ),
        (
            lambda q: q[0] < 2.5,
            TypeError,
            "q0[0] < 2.5: cannot use 2.5 (float); "
            "expressions combine only with ints and expressions of the same model",
        ),
        (
            lambda q: q[0] * q[1],
            TypeError,
            "q0[0] * q0[1]: an expression multiplies only by an int constant",
        ),
        (
            lambda q: q[0] % 0,
            ValueError,
            "q0[0] % 0: the modulus must be a positive int constant",
        ),
        (
            lambda q: q[0] % -3,
            ValueError,
            "q0[0] % -3: the modulus must be a positive int constant",
        ),
        (
            lambda q: q[0] % q[1],
            TypeError,
            "q0[0] % q0[1]: the modulus must be a positive int constant",
        ),
        (
            lambda q: 7 % q[1],
            TypeError,
            "7 % q0[1]: the modulus must be a positive int constant",
        ),
        (
            lambda q: q[0] + True,
            TypeError,
            "q0[0] + True: cannot use True (bool); "
            "expressions combine only with ints and expressions of the same model",
        ),
        (
            lambda q: (q[0] < 1) & True,
            TypeError,
            "(q0[0] < 1) & True: & and | combine two conditions",
        ),
        (
            lambda q: q[0] + (q[1] < 2),
            TypeError,
            "q0[0] + q0[1] < 2: (q0[1] < 2) is a condition, not an integer "
            "expression; combine conditions with &, | and ~",
        ),
        (
            lambda q: cpqueens.all_different(q[0]),
            TypeError,
            "all_different takes an iterable of expressions, got q0[0]",
        ),
    ],
)
def test_bad_expressions_say_why(make, error, message):
    m = cpqueens.model(8)
    with pytest.raises(error) as raised:
        make(m.q)
    assert str(raised.value) == message


def test_colour_indices_are_checked():
    m = cpqueens.model(4, colours=2)
    with pytest.raises(IndexError) as raised:
        m.q[2, 0]
    assert str(raised.value) == "colour 2 is outside colours 0..1"
    with pytest.raises(IndexError, match="row 4 is outside"):
        m.q[1, 4]


def test_expressions_of_another_model_are_refused():
    small, large = cpqueens.model(6), cpqueens.model(8)
    with pytest.raises(ValueError) as raised:
        small.q[0] + large.q[1]
    assert str(raised.value) == (
        "q0[0] + q0[1] mixes variables of two models: "
        "a 6x6 board with 1 colour and a 8x8 board with 1 colour"
    )
    with pytest.raises(ValueError) as raised:
        small.where(large.q[0] < 3)
    assert str(raised.value) == (
        "the condition q0[0] < 3 is over the variables of another model "
        "(a 8x8 board with 1 colour), not this 6x6 board with 1 colour: "
        "build it from this model's q"
    )
    with pytest.raises(TypeError) as raised:
        small.where(True)
    assert str(raised.value) == (
        "where() takes conditions built from model.q or model.x "
        "(such as m.q[0] < m.q[1]), got True (bool)"
    )
    with pytest.raises(ValueError, match="unknown board symmetry 'spin'"):
        small.where(small.q[0] < 3, keeps=("spin",))


def test_placed_triples_are_checked():
    with pytest.raises(ValueError) as raised:
        cpqueens.model(4, colours=2, placed=[(0, 1, 2)])
    assert str(raised.value) == (
        "placed queen (0, 1, 2): colour 2 is outside the model's colours 0..1"
    )
    with pytest.raises(ValueError, match="of colour 1 share row 0"):
        cpqueens.model(4, colours=2, placed=[(0, 1, 1), (0, 2, 1)])
    with pytest.raises(TypeError, match="its colour must be an int"):
        cpqueens.model(4, colours=2, placed=[(0, 1, 1.0)])
    assert cpqueens.model(4, placed=[(0, 1, 0)]).placed == ((0, 1),)
