"""`Record`: a named tuple whose class is cheap to create.

`typing.NamedTuple` builds each class's constructor by compiling source text, about 0.1 ms a
class; the parser's parts and the dialects' directive parts are a dozen such classes, which
every run created at start-up. A Record class is a tuple subclass with an accessor per field
(namedtuple's own, in C), made without compiling anything.
Type checkers see `typing.NamedTuple` (the alias below), so fields keep their types.

    class Sized(Record):
        type: Type
        sizes: list[Value]

Fields are the class's annotations, in order; a subclass without annotations keeps its
parent's. Values are given positionally, all of them (as every caller does). Instances
compare, hash, unpack and index as tuples.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

__all__ = ["Record"]

if TYPE_CHECKING:
    from typing import NamedTuple as Record
else:
    try:
        # namedtuple's field accessor, in C: a field read costs what a NamedTuple's does.
        from collections import _tuplegetter
    except ImportError:  # An interpreter without it: a property over itemgetter.
        from operator import itemgetter

        def _tuplegetter(index: int, doc: str | None) -> property:
            return property(itemgetter(index), doc=doc)

    class _RecordType(type):
        """Gives each Record class empty `__slots__` (instances are bare tuples), an accessor per
        field and a constructor taking the fields positionally."""

        def __new__(
            mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any
        ) -> _RecordType:
            namespace.setdefault("__slots__", ())
            fields = tuple(namespace.get("__annotations__", ()))
            fields = tuple(f for f in fields if f != "_fields")
            if fields:
                for index, field in enumerate(fields):
                    if field in namespace:
                        raise TypeError(f"{name}.{field}: a Record field has no default")
                    namespace[field] = _tuplegetter(index, None)
                namespace["_fields"] = fields
            return super().__new__(mcs, name, bases, namespace, **kwargs)

    class Record(tuple, metaclass=_RecordType):  # type: ignore[type-arg]
        """Base of record classes (see the module docstring)."""

        _fields: ClassVar[tuple[str, ...]] = ()

        def __new__(cls, *values: Any) -> Any:
            if len(values) != len(cls._fields):
                raise TypeError(f"{cls.__name__} takes {len(cls._fields)} values")
            return tuple.__new__(cls, values)

        def __getnewargs__(self) -> tuple[Any, ...]:
            # copy and pickle rebuild a tuple subclass through __new__ with these.
            return tuple(self)

        def __repr__(self) -> str:
            pairs = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self))
            return f"{type(self).__name__}({pairs})"
