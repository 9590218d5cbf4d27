"""The arith dialect: constants and the scalar arithmetic IREE prints around stream ops.

Syntax is upstream MLIR's (ArithOps.td) as `iree-opt` prints it:

    %0 = arith.addi %a, %b overflow<nsw, nuw> : index     (addi, subi, muli, shli, trunci)
    %1 = arith.divui %a, %b exact : index                 (divui, divsi, shrui, shrsi)
    %2 = arith.addf %x, %y fastmath<nnan,ninf> : f32       (float ops, extf, cmpf)
    %3 = arith.index_castui %a nneg : index to i32        (index_castui, extui, uitofp)
    %4 = arith.cmpi ult, %a, %b : index
    %5 = arith.select %c, %a, %b : index                  (`: i1, T` prints as `: T`)

Every op here is pure. Integer ops fold when their operands are constants (the result is a new
`arith.constant` inserted before the op) and on the usual identities (`x + 0`, `x * 1`, ...);
`--canonicalize` applies the folds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from streamopt.diagnostics import UNKNOWN_LOCATION, DiagnosticError, Location, error
from streamopt.dialects import parse_rule, register_op
from streamopt.dialects.builtin import attribute_type
from streamopt.dialects.common import check_operand_type, split_clauses
from streamopt.ir.core import Access, Operation, Value, shared_attributes
from streamopt.ir.types import (
    I1,
    I64,
    UNIT,
    Attribute,
    BoolAttr,
    FloatType,
    IndexType,
    IntegerAttr,
    IntegerType,
    ShapedType,
    Type,
    integer_attr,
    print_attr_dict,
    typed_text,
)
from streamopt.parser import token_values
from streamopt.parser.parts import TOKEN_CLASSES, AttrDict, Clause
from streamopt.printer import type_text

if TYPE_CHECKING:
    from streamopt.parser.builder import Builder
    from streamopt.printer import Printer


def op_error(op_name: str, message: str, location: Location) -> DiagnosticError:
    """An error worded as MLIR's `emitOpError` words it: `'arith.addi' op <message>`."""
    return error(f"'{op_name}' op {message}", location)


# -- integer semantics for folds ------------------------------------------------------------


def integer_width(type: Type | None) -> int | None:
    """Bit width of a signless integer or index type (index counts as 64 bits)."""
    if isinstance(type, IndexType):
        return 64
    if isinstance(type, IntegerType) and not type.signedness:
        return type.width
    return None


def _unsigned(value: int, width: int) -> int:
    return value & ((1 << width) - 1)


def _signed(value: int, width: int) -> int:
    value = _unsigned(value, width)
    return value - (1 << width) if value >> (width - 1) else value


def constant_int(value: Value) -> int | None:
    """The integer an `arith.constant` defines, or None."""
    op = value.defining_op
    if isinstance(op, ConstantOp):
        return op.int_value
    return None


def _materialize(op: Operation, value: int, type: Type | None) -> list[Value] | None:
    """A new constant holding `value` (wrapped to `type`), inserted before `op`."""
    width = integer_width(type)
    if width is None or op.parent is None:
        return None
    assert type is not None
    constant = ConstantOp.create(_signed(value, width) if width > 1 else value & 1, type)
    constant.location = op.location
    op.parent.insert_before(constant, op)
    return [constant.result]


# -- arith.constant -------------------------------------------------------------------------


@register_op
class ConstantOp(Operation):
    """`%c16 = arith.constant 16 : index`."""

    __slots__ = ()
    name = "arith.constant"
    inherent_attributes = frozenset({"value"})
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> ConstantOp:
        attributes: dict[str, Attribute] = {}
        if isinstance(parts[0], AttrDict):
            attributes.update(parts[0])
            parts = parts[1:]
        value: Attribute = parts[0]
        result_type = attribute_type(value, b.alias_values)
        if result_type is None:
            raise error("expected a typed constant value", location)
        attributes["value"] = value
        return cls((), [result_type], attributes, location=location)

    @classmethod
    def create(cls, value: int, type: Type) -> ConstantOp:
        """An integer or index constant."""
        attr: Attribute = BoolAttr(bool(value)) if type == I1 else integer_attr(value, type)
        return cls((), [type], shared_attributes({"value": attr}))

    @property
    def value(self) -> Attribute:
        return self.attribute_map["value"]

    @property
    def int_value(self) -> int | None:
        """The integer value, or None for non-integer constants."""
        value = self.value
        if isinstance(value, IntegerAttr):
            return value.value
        if isinstance(value, BoolAttr):
            return int(value.value)
        return None

    def operand_access(self, index: int) -> Access:
        return Access.NONE

    def asm_result_name(self, index: int) -> str | None:
        value = self.value
        type = self.results[0].type
        if isinstance(value, BoolAttr):
            return "true" if value.value else "false"
        if isinstance(value, IntegerAttr) and not isinstance(type, FloatType):
            if isinstance(type, IntegerType) and type.width == 1:
                return "true" if value.value else "false"
            if isinstance(type, IndexType):
                return f"c{value.value}"
            return f"c{value.value}_{type.text if type else ''}"
        return "cst"

    def print(self, p: Printer) -> None:
        p.write("arith.constant ")
        rest = {k: v for k, v in self.attribute_map.items() if k != "value"}
        if rest:
            p.write(print_attr_dict(rest) + " ")
        p.write(typed_text(self.value))


# -- flags: overflow<...>, fastmath<...>, exact, nneg ---------------------------------------

OVERFLOW_FLAGS = ("nsw", "nuw")
FASTMATH_FLAGS = ("reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn")


class FlagsAttr(Attribute):
    """`#arith.overflow<nsw, nuw>` or `#arith.fastmath<nnan,ninf>`: a set of flags.

    `flags` is kept in MLIR's bit order, so the printed form is canonical.
    """

    __slots__ = ("flags", "kind")

    def __init__(self, kind: str, flags: Sequence[str]) -> None:
        order = OVERFLOW_FLAGS if kind == "overflow" else FASTMATH_FLAGS
        self.kind = kind
        self.flags = tuple(f for f in order if f in flags)
        super().__init__(f"#arith.{kind}<{self.body}>")

    @property
    def body(self) -> str:
        """What goes between `<>` in the op's custom form."""
        if self.kind == "overflow":
            return ", ".join(self.flags)
        if len(self.flags) == len(FASTMATH_FLAGS):
            return "fast"
        return ",".join(self.flags)

    def key(self) -> Any:
        return (self.kind, self.flags)


def _flag_words(b: Builder, kind: str, children: list[Any]) -> list[str]:
    allowed = (*OVERFLOW_FLAGS, "none") if kind == "overflow" else (*FASTMATH_FLAGS, "none", "fast")
    words: list[str] = []
    for child in children:
        word = str(child)
        if word not in allowed:
            raise b.error(f"unknown {kind} flag '{word}'", child)
        if word == "fast":
            words.extend(FASTMATH_FLAGS)
        elif word != "none":
            words.append(word)
    return words


@parse_rule("arith_overflow")
def _arith_overflow(b: Builder, children: list[Any]) -> Clause:
    return Clause("overflow", FlagsAttr("overflow", _flag_words(b, "overflow", children)))


@parse_rule("arith_fastmath")
def _arith_fastmath(b: Builder, children: list[Any]) -> Clause:
    return Clause("fastmath", FlagsAttr("fastmath", _flag_words(b, "fastmath", children)))


@parse_rule("arith_exact")
def _arith_exact(b: Builder, children: list[Any]) -> Clause:
    return Clause("exact", True)


@parse_rule("arith_nneg")
def _arith_nneg(b: Builder, children: list[Any]) -> Clause:
    return Clause("nneg", True)


# Attribute names MLIR gives each flag, and the keyword that prints it.
_FLAG_ATTRIBUTES = {
    "overflow": "overflowFlags",
    "fastmath": "fastmath",
    "exact": "isExact",
    "nneg": "nonNeg",
}


def _flag_inherent(flag: str | None, others: tuple[str, ...] = ()) -> frozenset[str]:
    """The inherent attributes of an op with flag keyword `flag`: the flag's and `others`."""
    return frozenset((_FLAG_ATTRIBUTES[flag], *others) if flag is not None else others)


class ArithOp(Operation):
    """Base of the arith ops below: pure, scalar operands, an optional flag keyword."""

    __slots__ = ()
    is_pure = True
    # Which flag keyword the op accepts (a key of _FLAG_ATTRIBUTES), if any.
    flag_kind: ClassVar[str | None] = None

    @classmethod
    def _flag_attributes(cls, clauses: dict[str, Any], location: Location) -> dict[str, Attribute]:
        attributes: dict[str, Attribute] = {}
        for kind, value in clauses.items():
            if kind == "attributes":
                continue
            if kind != cls.flag_kind:
                raise error(f"'{cls.name}' does not take '{kind}'", location)
            if isinstance(value, FlagsAttr):
                if value.flags:
                    attributes[_FLAG_ATTRIBUTES[kind]] = value
            else:
                attributes[_FLAG_ATTRIBUTES[kind]] = UNIT
        return attributes

    def _print_flags(self, p: Printer) -> None:
        if self.flag_kind is None:
            return
        attr = self.attribute_map.get(_FLAG_ATTRIBUTES[self.flag_kind])
        if attr is None:
            return
        if isinstance(attr, FlagsAttr):
            if attr.flags:
                p.write(f" {attr.kind}<{attr.body}>")
        else:
            p.write(" " + self.flag_kind)

    def _print_extra_attributes(self, p: Printer, elided: Sequence[str] = ()) -> None:
        p.attr_dict(self, (*_FLAG_ATTRIBUTES.values(), *elided))

    def operand_access(self, index: int) -> Access:
        return Access.NONE

    def has_flag(self, kind: str) -> bool:
        """Whether flag `kind` (`nsw`, `nuw`, `exact`, `nneg`, a fastmath flag) is set."""
        if kind in ("exact", "nneg"):
            return _FLAG_ATTRIBUTES[kind] in self.attribute_map
        for name in ("overflowFlags", "fastmath"):
            attr = self.attribute_map.get(name)
            if isinstance(attr, FlagsAttr) and kind in attr.flags:
                return True
        return False


# -- binary ops -----------------------------------------------------------------------------


class BinaryOp(ArithOp):
    """`%r = arith.<op> %lhs, %rhs <flag>? {attrs}? : T`."""

    __slots__ = ()
    # Folds two constant operands (given as unsigned values of `width` bits); None: no fold.
    constant_fold: ClassVar[Callable[[int, int, int], int | None] | None] = None
    integer: ClassVar[bool] = True

    @classmethod
    def create(
        cls,
        lhs: Value,
        rhs: Value,
        flags: Sequence[str] = (),
        location: Location = UNKNOWN_LOCATION,
    ) -> BinaryOp:
        """`lhs <op> rhs`, with the op's flag keyword set to `flags` (e.g. `("nsw",)`)."""
        attributes: dict[str, Attribute] = {}
        if flags and cls.flag_kind in ("overflow", "fastmath"):
            attributes[_FLAG_ATTRIBUTES[cls.flag_kind]] = FlagsAttr(cls.flag_kind, flags)
        elif flags and cls.flag_kind is not None:
            attributes[_FLAG_ATTRIBUTES[cls.flag_kind]] = UNIT
        return cls([lhs, rhs], [lhs.type], attributes, location=location)

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> BinaryOp:
        clauses, rest = split_clauses(parts)
        lhs, rhs = rest[0], rest[1]
        attributes = cls._flag_attributes(clauses, location)
        type: Type = rest[-1]
        if isinstance(rest[2], AttrDict):
            attributes.update(rest[2])
        check_operand_type(lhs, type, location)
        check_operand_type(rhs, type, location)
        return cls([lhs, rhs], [type], attributes, location=location)

    @property
    def lhs(self) -> Value:
        return self.operands[0]

    @property
    def rhs(self) -> Value:
        return self.operands[1]

    def print(self, p: Printer) -> None:
        p.write(f"{self.name} {p.v(self.lhs)}, {p.v(self.rhs)}")
        self._print_flags(p)
        self._print_extra_attributes(p)
        p.write(" : " + type_text(self.result.type))

    def verify(self) -> None:
        type = self.result.type
        if self.lhs.type != type or self.rhs.type != type:
            raise op_error(
                self.name,
                "failed to verify that all of {lhs, rhs, result} have same type",
                self.location,
            )
        if not _element_type_ok(type, self.integer):
            kind = (
                "signless-non-zero-bitwidth-integer-like" if self.integer else "floating-point-like"
            )
            raise op_error(self.name, f"operand #0 must be {kind}, but got '{type}'", self.location)

    def fold(self) -> Sequence[Value] | None:
        if not self.integer:
            return None
        width = integer_width(self.result.type)
        if width is None:
            return None
        lhs, rhs = constant_int(self.lhs), constant_int(self.rhs)
        if lhs is not None and rhs is not None and type(self).constant_fold is not None:
            folded = type(self).constant_fold(  # type: ignore[misc]
                _unsigned(lhs, width), _unsigned(rhs, width), width
            )
            if folded is not None:
                return _materialize(self, folded, self.result.type)
            return None
        return self.fold_identity(lhs, rhs)

    def fold_identity(self, lhs: int | None, rhs: int | None) -> Sequence[Value] | None:
        """Folds that need at most one constant operand (`x + 0 -> x`)."""
        return None


def _element_type_ok(type: Type | None, integer: bool) -> bool:
    if isinstance(type, ShapedType):
        type = token_values.type_from_text(type.element_type_text)
    if integer:
        return isinstance(type, IndexType) or (
            isinstance(type, IntegerType) and not type.signedness
        )
    return isinstance(type, FloatType)


def _binary(
    op_name: str,
    flag: str | None = None,
    constant_fold: Callable[[int, int, int], int | None] | None = None,
    identity: Callable[[BinaryOp, int | None, int | None], Sequence[Value] | None] | None = None,
    integer: bool = True,
    doc: str = "",
    inherent: tuple[str, ...] = (),
) -> type[BinaryOp]:
    """Define and register the class of binary op `op_name`; its inherent attributes are its
    flag's and `inherent`."""
    class_name = "".join(part.capitalize() for part in op_name.split(".")[1].split("_")) + "Op"
    namespace: dict[str, Any] = {
        "__slots__": (),
        "__doc__": doc or f"`%r = {op_name} %a, %b : T`.",
        "name": op_name,
        "flag_kind": flag,
        "inherent_attributes": _flag_inherent(flag, inherent),
        "integer": integer,
        "constant_fold": staticmethod(constant_fold) if constant_fold is not None else None,
    }
    if identity is not None:
        namespace["fold_identity"] = identity
    cls = type(class_name, (BinaryOp,), namespace)
    return register_op(cls)


def _s(value: int, width: int) -> int:
    return _signed(value, width)


def _div_toward_zero(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    return quotient if (a >= 0) == (b >= 0) else -quotient


def _ceil_div_signed(a: int, b: int) -> int:
    quotient = _div_toward_zero(a, b)
    return quotient + 1 if quotient * b != a and (a >= 0) == (b >= 0) else quotient


def _floor_div_signed(a: int, b: int) -> int:
    return a // b


def _signed_div(
    function: Callable[[int, int], int],
) -> Callable[[int, int, int], int | None]:
    def fold(a: int, b: int, width: int) -> int | None:
        sa, sb = _s(a, width), _s(b, width)
        if sb == 0 or (sa == -(1 << (width - 1)) and sb == -1):
            return None  # Undefined behaviour: leave it to the runtime, as MLIR does.
        return function(sa, sb)

    return fold


def _remsi(a: int, b: int, width: int) -> int | None:
    sa, sb = _s(a, width), _s(b, width)
    if sb == 0:
        return None
    return sa - sb * _div_toward_zero(sa, sb)


def _shift_fold(function: Callable[[int, int, int], int]) -> Callable[[int, int, int], int | None]:
    def fold(a: int, b: int, width: int) -> int | None:
        return function(a, b, width) if b < width else None  # Poison: do not fold.

    return fold


def _right_identity(
    neutral: int,
) -> Callable[[BinaryOp, int | None, int | None], Sequence[Value] | None]:
    """`x op neutral -> x`."""

    def fold(op: BinaryOp, lhs: int | None, rhs: int | None) -> Sequence[Value] | None:
        return [op.lhs] if rhs == neutral else None

    return fold


def _both_sides_identity(
    neutral: int,
) -> Callable[[BinaryOp, int | None, int | None], Sequence[Value] | None]:
    """`x op neutral -> x` and `neutral op x -> x` (commutative ops)."""

    def fold(op: BinaryOp, lhs: int | None, rhs: int | None) -> Sequence[Value] | None:
        if rhs == neutral:
            return [op.lhs]
        if lhs == neutral:
            return [op.rhs]
        return None

    return fold


def _idempotent(op: BinaryOp, lhs: int | None, rhs: int | None) -> Sequence[Value] | None:
    """`x op x -> x` (and, or, min, max)."""
    return [op.lhs] if op.lhs is op.rhs else None


def _self_zero(
    then: Callable[[BinaryOp, int | None, int | None], Sequence[Value] | None],
) -> Callable[[BinaryOp, int | None, int | None], Sequence[Value] | None]:
    """`x op x -> 0` (subi, xori), else `then`."""

    def fold(op: BinaryOp, lhs: int | None, rhs: int | None) -> Sequence[Value] | None:
        if op.lhs is op.rhs:
            return _materialize(op, 0, op.result.type)
        return then(op, lhs, rhs)

    return fold


def _and_or(neutral_all_ones: bool) -> Callable[[BinaryOp, int | None, int | None], Any]:
    def fold(op: BinaryOp, lhs: int | None, rhs: int | None) -> Sequence[Value] | None:
        if op.lhs is op.rhs:
            return [op.lhs]
        width = integer_width(op.result.type) or 64
        neutral = -1 if neutral_all_ones else 0
        for constant, other in ((rhs, op.lhs), (lhs, op.rhs)):
            if constant is not None and _signed(constant, width) == _signed(neutral, width):
                return [other]
        return None

    return fold


AddIOp = _binary(
    "arith.addi", "overflow", lambda a, b, w: a + b, _both_sides_identity(0), doc="Integer add."
)
SubIOp = _binary(
    "arith.subi", "overflow", lambda a, b, w: a - b, _self_zero(_right_identity(0)), doc="Sub."
)
MulIOp = _binary(
    "arith.muli", "overflow", lambda a, b, w: a * b, _both_sides_identity(1), doc="Multiply."
)
DivUIOp = _binary("arith.divui", "exact", lambda a, b, w: a // b if b else None, _right_identity(1))
DivSIOp = _binary("arith.divsi", "exact", _signed_div(_div_toward_zero), _right_identity(1))
CeilDivUIOp = _binary(
    "arith.ceildivui", None, lambda a, b, w: -(-a // b) if b else None, _right_identity(1)
)
CeilDivSIOp = _binary("arith.ceildivsi", None, _signed_div(_ceil_div_signed), _right_identity(1))
FloorDivSIOp = _binary("arith.floordivsi", None, _signed_div(_floor_div_signed), _right_identity(1))
RemUIOp = _binary("arith.remui", None, lambda a, b, w: a % b if b else None)
RemSIOp = _binary("arith.remsi", None, _remsi)
AndIOp = _binary("arith.andi", None, lambda a, b, w: a & b, _and_or(True))
OrIOp = _binary("arith.ori", None, lambda a, b, w: a | b, _and_or(False))
XOrIOp = _binary("arith.xori", None, lambda a, b, w: a ^ b, _self_zero(_both_sides_identity(0)))
MaxUIOp = _binary("arith.maxui", None, lambda a, b, w: max(a, b), _idempotent)
MinUIOp = _binary("arith.minui", None, lambda a, b, w: min(a, b), _idempotent)
MaxSIOp = _binary("arith.maxsi", None, lambda a, b, w: max(_s(a, w), _s(b, w)), _idempotent)
MinSIOp = _binary("arith.minsi", None, lambda a, b, w: min(_s(a, w), _s(b, w)), _idempotent)
ShLIOp = _binary("arith.shli", "overflow", _shift_fold(lambda a, b, w: a << b), _right_identity(0))
ShRUIOp = _binary("arith.shrui", "exact", _shift_fold(lambda a, b, w: a >> b), _right_identity(0))
ShRSIOp = _binary(
    "arith.shrsi", "exact", _shift_fold(lambda a, b, w: _s(a, w) >> b), _right_identity(0)
)

AddFOp = _binary("arith.addf", "fastmath", integer=False, inherent=("roundingmode",))
SubFOp = _binary("arith.subf", "fastmath", integer=False, inherent=("roundingmode",))
MulFOp = _binary("arith.mulf", "fastmath", integer=False, inherent=("roundingmode",))
DivFOp = _binary("arith.divf", "fastmath", integer=False, inherent=("roundingmode",))
RemFOp = _binary("arith.remf", "fastmath", integer=False)
MaximumFOp = _binary("arith.maximumf", "fastmath", integer=False)
MinimumFOp = _binary("arith.minimumf", "fastmath", integer=False)
MaxNumFOp = _binary("arith.maxnumf", "fastmath", integer=False)
MinNumFOp = _binary("arith.minnumf", "fastmath", integer=False)


# -- casts ----------------------------------------------------------------------------------


class CastOp(ArithOp):
    """`%r = arith.<cast> %x <flag>? {attrs}? : T to U`."""

    __slots__ = ()
    # Source and result kinds: "int" (signless integer), "index", "float", or "int|index".
    source_kind: ClassVar[str] = "int"
    result_kind: ClassVar[str] = "int"
    # Width relation the verifier checks: "wider" (result wider), "narrower", or None.
    width_rule: ClassVar[str | None] = None

    @classmethod
    def create(
        cls, source: Value, result_type: Type, location: Location = UNKNOWN_LOCATION
    ) -> CastOp:
        return cls([source], [result_type], location=location)

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> CastOp:
        clauses, rest = split_clauses(parts)
        rest = [r for r in rest if not isinstance(r, TOKEN_CLASSES)]  # the `to` keyword
        source = rest[0]
        attributes = cls._flag_attributes(clauses, location)
        if isinstance(rest[1], AttrDict):
            attributes.update(rest[1])
        source_type: Type = rest[-2]
        result_type: Type = rest[-1]
        check_operand_type(source, source_type, location)
        return cls([source], [result_type], attributes, location=location)

    @property
    def source(self) -> Value:
        return self.operands[0]

    def print(self, p: Printer) -> None:
        p.write(f"{self.name} {p.v(self.source)}")
        self._print_flags(p)
        self._print_extra_attributes(p)
        p.write(f" : {type_text(self.source.type)} to {type_text(self.result.type)}")

    def verify(self) -> None:
        source, result = _element(self.source.type), _element(self.result.type)
        if not _kind_ok(source, self.source_kind):
            raise op_error(
                self.name,
                f"operand #0 must be {_KIND_NAMES[self.source_kind]}, but got '{source}'",
                self.location,
            )
        if not _kind_ok(result, self.result_kind):
            raise op_error(
                self.name,
                f"result #0 must be {_KIND_NAMES[self.result_kind]}, but got '{result}'",
                self.location,
            )
        if self.width_rule is not None:
            a, b = _bit_width(source), _bit_width(result)
            if (
                a is not None
                and b is not None
                and (
                    (self.width_rule == "wider" and b <= a)
                    or (self.width_rule == "narrower" and b >= a)
                )
            ):
                raise op_error(
                    self.name,
                    f"operand type '{source}' and result type '{result}' are cast incompatible",
                    self.location,
                )

    def fold(self) -> Sequence[Value] | None:
        value = constant_int(self.source)
        source_width = integer_width(self.source.type)
        if value is None or source_width is None or integer_width(self.result.type) is None:
            return self.fold_cast_pair()
        folded = self.fold_constant(value, source_width)
        if folded is None:
            return None
        return _materialize(self, folded, self.result.type)

    def fold_constant(self, value: int, source_width: int) -> int | None:
        """The result for constant operand `value`, or None if it does not fold."""
        return None

    def fold_cast_pair(self) -> Sequence[Value] | None:
        """`cast(cast(x : A -> B) : B -> A) -> x` for casts that are exact round trips."""
        return None


def _element(type: Type | None) -> Type | None:
    if isinstance(type, ShapedType):
        return token_values.type_from_text(type.element_type_text)
    return type


def _kind_ok(type: Type | None, kind: str) -> bool:
    if type is None:
        return True
    checks = {
        "int": isinstance(type, IntegerType) and not type.signedness,
        "index": isinstance(type, IndexType),
        "float": isinstance(type, FloatType),
    }
    return any(checks[k] for k in kind.split("|"))


# How MLIR's verifier names each kind of operand or result type.
_KIND_NAMES = {
    "int": "signless-fixed-width-integer-like",
    "float": "floating-point-like",
    "int|index": "signless-integer-like",
    "int|float|index": "signless-integer-or-float-like",
}


def _bit_width(type: Type | None) -> int | None:
    if isinstance(type, IntegerType):
        return type.width
    if isinstance(type, FloatType):
        return type.width
    return None


def _cast(
    op_name: str,
    source_kind: str,
    result_kind: str,
    flag: str | None = None,
    width_rule: str | None = None,
    fold_constant: Callable[[CastOp, int, int], int | None] | None = None,
    fold_pair: bool = False,
) -> type[CastOp]:
    class_name = "".join(part.capitalize() for part in op_name.split(".")[1].split("_")) + "Op"
    namespace: dict[str, Any] = {
        "__slots__": (),
        "__doc__": f"`%r = {op_name} %x : T to U`.",
        "name": op_name,
        "flag_kind": flag,
        "inherent_attributes": _flag_inherent(flag),
        "source_kind": source_kind,
        "result_kind": result_kind,
        "width_rule": width_rule,
    }
    if fold_constant is not None:
        namespace["fold_constant"] = fold_constant
    if fold_pair:
        namespace["fold_cast_pair"] = _fold_index_cast_pair
    return register_op(type(class_name, (CastOp,), namespace))


def _fold_index_cast_pair(op: CastOp) -> Sequence[Value] | None:
    """`index_cast(index_cast(%x : iN to index) : index to iN) -> %x`.

    Only the widening-then-narrowing order is exact (index holds at least 64 bits); going
    through a narrower integer first loses bits.
    """
    inner = op.source.defining_op
    if type(inner) is not type(op) or not isinstance(inner, CastOp):
        return None
    original = inner.source.type
    if (
        isinstance(original, IntegerType)
        and original.width <= 64
        and isinstance(inner.result.type, IndexType)
        and op.result.type == original
    ):
        return [inner.source]
    return None


def _sign_extend(op: CastOp, value: int, width: int) -> int:
    return _signed(value, width)


def _zero_extend(op: CastOp, value: int, width: int) -> int:
    return _unsigned(value, width)


IndexCastOp = _cast(
    "arith.index_cast", "int|index", "int|index", fold_constant=_sign_extend, fold_pair=True
)
IndexCastUIOp = _cast(
    "arith.index_castui",
    "int|index",
    "int|index",
    "nneg",
    fold_constant=_zero_extend,
    fold_pair=True,
)
ExtUIOp = _cast("arith.extui", "int", "int", "nneg", "wider", _zero_extend)
ExtSIOp = _cast("arith.extsi", "int", "int", None, "wider", _sign_extend)
TruncIOp = _cast("arith.trunci", "int", "int", "overflow", "narrower", _zero_extend)
SIToFPOp = _cast("arith.sitofp", "int", "float")
UIToFPOp = _cast("arith.uitofp", "int", "float", "nneg")
FPToSIOp = _cast("arith.fptosi", "float", "int")
FPToUIOp = _cast("arith.fptoui", "float", "int")
ExtFOp = _cast("arith.extf", "float", "float", "fastmath", "wider")
BitcastOp = _cast("arith.bitcast", "int|float|index", "int|float|index")


# -- comparisons ----------------------------------------------------------------------------

CMPI_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
CMPF_PREDICATES = (
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
)  # fmt: skip


class _CompareOp(ArithOp):
    """`%r = arith.cmp<x> <predicate>, %a, %b <flag>? {attrs}? : T`, an i1 (or vector of)."""

    __slots__ = ()
    predicates: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def create(
        cls, predicate: str, lhs: Value, rhs: Value, location: Location = UNKNOWN_LOCATION
    ) -> _CompareOp:
        attributes: dict[str, Attribute] = {
            "predicate": IntegerAttr(cls.predicates.index(predicate), I64)
        }
        return cls([lhs, rhs], [_i1_like(lhs.type)], attributes, location=location)

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> _CompareOp:
        clauses, rest = split_clauses(parts)
        token = rest[0]
        predicate = str(token)
        if predicate not in cls.predicates:
            raise b.error(
                "expected string or keyword containing one of the following enum values for "
                f"attribute 'predicate' [{', '.join(cls.predicates)}]",
                token,
            )
        lhs, rhs = rest[1], rest[2]
        attributes: dict[str, Attribute] = {
            "predicate": IntegerAttr(cls.predicates.index(predicate), I64)
        }
        attributes.update(cls._flag_attributes(clauses, location))
        if isinstance(rest[3], AttrDict):
            attributes.update(rest[3])
        type: Type = rest[-1]
        check_operand_type(lhs, type, location)
        check_operand_type(rhs, type, location)
        return cls([lhs, rhs], [_i1_like(type)], attributes, location=location)

    @property
    def predicate(self) -> str:
        attr = self.attribute_map["predicate"]
        assert isinstance(attr, IntegerAttr)
        return self.predicates[attr.value]

    @property
    def lhs(self) -> Value:
        return self.operands[0]

    @property
    def rhs(self) -> Value:
        return self.operands[1]

    def print(self, p: Printer) -> None:
        p.write(f"{self.name} {self.predicate}, {p.v(self.lhs)}, {p.v(self.rhs)}")
        self._print_flags(p)
        self._print_extra_attributes(p, ("predicate",))
        p.write(" : " + type_text(self.lhs.type))

    def verify(self) -> None:
        if self.lhs.type != self.rhs.type:
            raise op_error(
                self.name, "failed to verify that all of {lhs, rhs} have same type", self.location
            )


def _i1_like(type: Type | None) -> Type:
    """i1, or the shaped type of i1 with the shape of `type`."""
    if isinstance(type, ShapedType):
        text = type.text
        element = type.element_type_text
        head, _, tail = text.partition("<")
        dims = tail[: tail.index(element)] if element in tail else ""
        return token_values.type_from_text(f"{head}<{dims}i1>")
    return I1


@register_op
class CmpIOp(_CompareOp):
    """`%r = arith.cmpi ult, %a, %b : index`."""

    __slots__ = ()
    name = "arith.cmpi"
    inherent_attributes = frozenset({"predicate"})
    predicates = CMPI_PREDICATES

    def fold(self) -> Sequence[Value] | None:
        width = integer_width(self.lhs.type)
        if width is None:
            return None
        predicate = self.predicate
        if self.lhs is self.rhs:
            return _materialize(self, int(predicate in ("eq", "sle", "sge", "ule", "uge")), I1)
        lhs, rhs = constant_int(self.lhs), constant_int(self.rhs)
        if lhs is None or rhs is None:
            return None
        if predicate.startswith("s"):
            a, b = _signed(lhs, width), _signed(rhs, width)
        else:
            a, b = _unsigned(lhs, width), _unsigned(rhs, width)
        relation = predicate[1:] if predicate[0] in "su" else predicate
        result = {
            "eq": a == b,
            "ne": a != b,
            "lt": a < b,
            "le": a <= b,
            "gt": a > b,
            "ge": a >= b,
        }[relation]
        return _materialize(self, int(result), I1)


@register_op
class CmpFOp(_CompareOp):
    """`%r = arith.cmpf olt, %a, %b fastmath<nnan>? : f32`."""

    __slots__ = ()
    name = "arith.cmpf"
    inherent_attributes = frozenset({"predicate", "fastmath"})
    predicates = CMPF_PREDICATES
    flag_kind = "fastmath"


# -- select ---------------------------------------------------------------------------------


@register_op
class SelectOp(ArithOp):
    """`%r = arith.select %cond, %a, %b : T` (`: C, T` when the condition is not a plain i1).

    The result is one of the two values: when they are resources, each escapes into a result
    that aliases one of them, which analyses cannot tie to a single operand.
    """

    __slots__ = ()
    name = "arith.select"

    @classmethod
    def create(
        cls,
        condition: Value,
        true_value: Value,
        false_value: Value,
        location: Location = UNKNOWN_LOCATION,
    ) -> SelectOp:
        return cls([condition, true_value, false_value], [true_value.type], location=location)

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> SelectOp:
        condition, true_value, false_value = parts[0], parts[1], parts[2]
        attributes: dict[str, Attribute] = {}
        types = [p for p in parts[3:] if isinstance(p, Type)]
        for part in parts[3:]:
            if isinstance(part, AttrDict):
                attributes.update(part)
        condition_type = types[0] if len(types) == 2 else I1
        result_type = types[-1]
        check_operand_type(condition, condition_type, location)
        check_operand_type(true_value, result_type, location)
        check_operand_type(false_value, result_type, location)
        return cls(
            [condition, true_value, false_value], [result_type], attributes, location=location
        )

    @property
    def condition(self) -> Value:
        return self.operands[0]

    @property
    def true_value(self) -> Value:
        return self.operands[1]

    @property
    def false_value(self) -> Value:
        return self.operands[2]

    def operand_access(self, index: int) -> Access:
        if index == 0 or _is_scalar(self.operands[index].type):
            return Access.NONE
        return Access.ESCAPE

    def print(self, p: Printer) -> None:
        p.write(
            f"arith.select {p.v(self.condition)}, {p.v(self.true_value)}, {p.v(self.false_value)}"
        )
        p.attr_dict(self)
        p.write(" : ")
        if self.condition.type != I1:
            p.write(type_text(self.condition.type) + ", ")
        p.write(type_text(self.result.type))

    def verify(self) -> None:
        if not (self.true_value.type == self.false_value.type == self.result.type):
            raise op_error(
                self.name,
                "failed to verify that all of {true_value, false_value, result} have same type",
                self.location,
            )

    def fold(self) -> Sequence[Value] | None:
        if self.true_value is self.false_value:
            return [self.true_value]
        condition = constant_int(self.condition)
        if condition is None:
            return None
        return [self.true_value if condition & 1 else self.false_value]


def _is_scalar(type: Type | None) -> bool:
    return isinstance(type, IntegerType | IndexType | FloatType)
