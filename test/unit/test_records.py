"""streamopt.records.Record: a tuple with named fields, its values given positionally."""

from __future__ import annotations

import pickle

import pytest

from streamopt.records import Record


class Pair(Record):
    left: int
    right: str


class Tagged(Pair):
    """A subclass without annotations keeps its parent's fields."""


def test_fields_read_by_name_and_index() -> None:
    pair = Pair(1, "a")
    assert (pair.left, pair.right) == (1, "a")
    assert pair[0] == 1 and tuple(pair) == (1, "a")
    assert Pair._fields == ("left", "right")
    assert Tagged(2, "b").right == "b"


def test_compares_hashes_and_pickles_as_a_tuple() -> None:
    assert Pair(1, "a") == (1, "a")
    assert hash(Pair(1, "a")) == hash((1, "a"))
    restored = pickle.loads(pickle.dumps(Tagged(3, "c")))
    assert type(restored) is Tagged and restored.left == 3


@pytest.mark.parametrize("values", [(1,), (1, "a", 2)])
def test_takes_every_field(values: tuple[object, ...]) -> None:
    with pytest.raises(TypeError, match="Pair takes 2 values"):
        Pair(*values)


def test_a_field_has_no_default() -> None:
    with pytest.raises(TypeError, match=r"Defaulted\.right: a Record field has no default"):

        class Defaulted(Record):
            left: int
            right: str = "x"
