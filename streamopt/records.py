"""`Record`: a named tuple whose class is cheap to create.

`typing.NamedTuple` builds each class's constructor by compiling source text, about 0.1 ms a
class; the parser's parts and the dialects' directive parts are a dozen such classes, which
every run created at start-up. A Record class is a tuple subclass with a property per field,
made without compiling anything. Type checkers see `typing.NamedTuple` (see the import in
modules that use it), so fields keep their types.

    class Sized(Record):
        type: Type
        sizes: list[Value]

Fields are the class's annotations, in order; a subclass without annotations keeps its
parent's. Values are given positionally (as every caller does), and a field may have a
default. Instances compare, hash, unpack and index as tuples.
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING, Any, ClassVar

__all__ = ["Record"]

if TYPE_CHECKING:
    from typing import NamedTuple as Record
else:

    class _RecordType(type):
        """Gives each Record class empty `__slots__` (instances are bare tuples), a property per
        field and a constructor taking the fields positionally."""

        def __new__(
            mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any
        ) -> _RecordType:
            namespace.setdefault("__slots__", ())
            fields = tuple(namespace.get("__annotations__", ()))
            fields = tuple(f for f in fields if f not in ("_fields", "_defaults"))
            if fields:
                defaults = tuple(namespace.pop(f) for f in fields if f in namespace)
                for index, field in enumerate(fields):
                    namespace[field] = property(itemgetter(index))
                namespace["_fields"] = fields
                namespace["_defaults"] = defaults
            return super().__new__(mcs, name, bases, namespace, **kwargs)

    class Record(tuple, metaclass=_RecordType):  # type: ignore[type-arg]
        """Base of record classes (see the module docstring)."""

        _fields: ClassVar[tuple[str, ...]] = ()
        _defaults: ClassVar[tuple[Any, ...]] = ()

        def __new__(cls, *values: Any) -> Any:
            missing = len(cls._fields) - len(values)
            if missing:
                if not 0 < missing <= len(cls._defaults):
                    raise TypeError(f"{cls.__name__} takes {len(cls._fields)} values")
                values += cls._defaults[len(cls._defaults) - missing :]
            return tuple.__new__(cls, values)

        def __getnewargs__(self) -> tuple[Any, ...]:
            # copy and pickle rebuild a tuple subclass through __new__ with these.
            return tuple(self)

        def __repr__(self) -> str:
            pairs = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self))
            return f"{type(self).__name__}({pairs})"
