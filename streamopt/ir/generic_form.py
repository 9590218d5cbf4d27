"""Reading MLIR's generic form of a declared op as that op (`read_generic`), as MLIR reads it:
properties and inherent attributes become its attributes, and what MLIR's parser and ODS's
verifier say of a generic form that does not fit the op's definition is said in their words.
Imported only when a file holds the generic form of a declared op."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from streamopt.diagnostics import DiagnosticError, error
from streamopt.ir.core import Operation, Region, Value, shared_attributes
from streamopt.ir.opdef import drop_terminator
from streamopt.ir.types import Attribute, Type, print_attr_dict

if TYPE_CHECKING:
    from streamopt.diagnostics import Location
    from streamopt.ir.opdef import DeclaredOp, OpDefinition


def read_generic(
    cls: type[DeclaredOp],
    operands: list[Value],
    result_types: list[Type],
    properties: Mapping[str, Attribute] | None,
    attributes: Mapping[str, Attribute],
    regions: list[Region],
    successors: int,
    location: Location,
    alias_values: Mapping[str, Any],
) -> Operation | str | None:
    """The op of class `cls` that MLIR's generic form with these parts is, as MLIR reads it:
    properties and inherent attributes of the attribute dictionary are its attributes.
    Otherwise what IREE's verifier says of it (it does not fit the class: counts of regions,
    results, successors or operands, or its attributes), or None where the op is to be kept
    as written (a property the class does not declare). Raises where MLIR's parser refuses
    its properties."""
    definition = cls.definition
    converted = generic_properties(definition, properties, len(operands), location)
    if converted is None:
        return None
    inherent, segments = converted
    discardable: dict[str, Attribute] = {}
    refused: list[str] = []
    for name, attribute in attributes.items():
        attribute_field = definition.attributes.get(name)
        if attribute_field is None:
            discardable[name] = attribute
        elif name not in inherent:  # A property of the same name wins.
            found = attribute_field.kind.from_attribute(attribute)
            if found is None:
                refused.append(f"attribute '{name}' failed to satisfy constraint")
            else:
                inherent[name] = found
    problem = generic_shape_problem(
        definition, len(operands), len(result_types), len(regions), successors, segments
    )
    # ODS's invariants: required attributes, then the attributes' constraints.
    missing = [n for n in definition.required_attributes if n not in inherent]
    problems = [problem] if problem else []
    problems += [f"requires attribute '{n}'" for n in missing] + refused
    problems += [
        f"region #{index} ('{name}') failed to verify constraint: region with 1 blocks"
        for index, name in enumerate(definition.regions)
        if index < len(regions) and not regions[index].blocks
    ]
    if problems:
        return problems[0]
    tied = definition.attributes.get("tied_operands")
    if tied is not None:
        # One entry a result of the variadic field (a result each without one), each the
        # position of an operand of the field the results are tied to.
        count = len(result_types)
        if definition.variable_result is not None:
            count -= len(definition.result_list) - 1
        if "tied_operands" not in inherent:  # None tied, as the custom form says it.
            inherent["tied_operands"] = tied.kind.make([None] * count)
        problem = tied_problem(
            definition,
            tied.kind.value(inherent["tied_operands"]),  # type: ignore[attr-defined]
            count,
            segments,
            len(operands),
        )
        if problem is not None:
            return problem
    for field in definition.regions.values():
        if field.terminator is not None:
            drop_terminator(regions[definition.region_index[field.name]], field.terminator)
    extra: dict[str, Any] = {"segments": segments} if definition.segmented else {}
    extra.update(cls.generic_state(inherent, alias_values))
    attributes = shared_attributes({**inherent, **discardable})
    return cls(operands, result_types, attributes, regions, location=location, **extra)


def generic_properties(
    definition: OpDefinition,
    properties: Mapping[str, Attribute] | None,
    operands: int,
    location: Location,
) -> tuple[dict[str, Attribute], tuple[int, ...]] | None:
    """The attributes and operand segment sizes that the properties of the op's generic
    form with `operands` operands give, as MLIR converts them (the segments shared evenly
    where the op has SameVariadicOperandSize); None when one is a property the class does
    not declare (MLIR would drop it if IREE's op has none such; streamopt cannot tell).
    Raises MLIR's error where the conversion fails."""
    given = dict(properties or {})

    def refused(why: str) -> DiagnosticError:
        return error(
            f"invalid properties {print_attr_dict(given)} for op {definition.name}: {why}", location
        )

    same_size = definition.cls.same_variadic_operand_size
    has_properties = definition.attributes or (definition.segmented and not same_size)
    if properties is not None and not has_properties:  # Even `<{}>`, as MLIR refuses it.
        raise refused("this operation has empty properties")
    segments: tuple[int, ...] = (0,) * len(definition.operand_list)
    sizes = given.get("operandSegmentSizes") if definition.segmented else None
    if same_size:
        segments, sizes = same_size_segments(definition, operands), None
    elif sizes is not None:
        match = _I32_ARRAY.fullmatch(sizes.text)
        if match is None:
            raise refused(
                f"Invalid attribute `operandSegmentSizes` in property conversion: {sizes}"
            )
        segments = tuple(int(n) for n in match.group(1).split(",")) if match.group(1) else ()
        if len(segments) != len(definition.operand_list):
            raise refused(
                "for `operandSegmentSizes`: size mismatch in attribute conversion: "
                f"{len(segments)} vs {len(definition.operand_list)}"
            )
    inherent: dict[str, Attribute] = {}
    for name, attribute in given.items():
        field = definition.attributes.get(name)
        if field is None and name != "operandSegmentSizes":
            return None
        if field is None:
            continue  # Of an op that is segmented in IREE but not here: MLIR's count.
        found = field.kind.from_attribute(attribute)
        if found is None:
            raise refused(f"Invalid attribute `{name}` in property conversion: {attribute}")
        inherent[name] = found
    return inherent, segments


def generic_shape_problem(
    definition: OpDefinition,
    operands: int,
    results: int,
    regions: int,
    successors: int,
    segments: Sequence[int],
) -> str | None:
    """What IREE's verifier says first of a generic form with these counts that does not
    fit the op (ODS's traits, in their order), or None."""
    variadic_results = definition.variable_result is not None
    variable = definition.segmented or definition.variable is not None
    fixed = [f for f in definition.operand_list if not (f.variadic or f.optional)]
    problem = (
        _count_problem("region", regions, len(definition.regions), False)
        or _count_problem(
            "result", results, len(definition.result_list) - variadic_results, variadic_results
        )
        or (f"requires 0 successors but found {successors}" if successors else None)
        or _count_problem("operand", operands, len(fixed), variable)
    )
    if problem is not None or not variable:
        return problem
    counts = list(segments)
    if not definition.segmented:
        counts = [1] * len(definition.operand_list)
        counts[definition.variable] = operands - len(fixed)  # type: ignore[index]
    elif sum(counts) != operands and definition.cls.same_variadic_operand_size:
        # ODS shares the values out by whole numbers and leaves the rest unread (iree-opt
        # then drops them from the op it prints); streamopt refuses the op instead.
        return (
            f"operand count ({operands}) cannot be shared evenly by its "
            f"{sum(f.variadic for f in definition.operand_list)} variadic operand groups "
            "(SameVariadicOperandSize)"
        )
    elif sum(counts) != operands:
        return (
            f"operand count ({operands}) does not match with the total size ({sum(counts)}) "
            "specified in attribute 'operandSegmentSizes'"
        )
    start = 0
    for field, count in zip(definition.operand_list, counts):
        if not field.variadic and count != 1 and not (field.optional and count == 0):
            allowed = "0 or 1" if field.optional else "1"
            return (
                f"operand group starting at #{start} requires {allowed} element, but found {count}"
            )
        start += count
    return None


def tied_problem(
    definition: OpDefinition,
    positions: Sequence[int | None],
    results: int,
    segments: Sequence[int],
    operands: int,
) -> str | None:
    """What is wrong with a generic form's `tied_operands` (`positions`) for `results`
    tied results, or None: IREE's count check, and a position past the operands of the
    field the results are tied to (IREE checks none, and prints such a tie as a tie to
    another operand)."""
    if len(positions) != results:
        return "results/tied operand indices mismatch"
    field = next((f.tied_to for f in definition.result_list if f.variadic and f.tied_to), None)
    if field is None:
        return None
    index = definition.operand_index[field]
    if definition.segmented:
        values = segments[index]
    else:
        values = 1 + (
            operands - len(definition.operand_list) if index == definition.variable else 0
        )
    for result, position in enumerate(positions):
        if position is not None and not 0 <= position < values:
            return f"result #{result} tied to invalid operand index {position}"
    return None


def same_size_segments(definition: OpDefinition, operands: int) -> tuple[int, ...]:
    """The values of each operand field when `operands` values are shared evenly by the
    variadic fields (ODS's SameVariadicOperandSize)."""
    variadic = sum(f.variadic for f in definition.operand_list)
    each = (operands - len(definition.operand_list) + variadic) // variadic
    return tuple(each if f.variadic else 1 for f in definition.operand_list)


# MLIR's `array<i32: 1, 2>` (the values between the colon and the `>`).
_I32_ARRAY = re.compile(r"array<i32(?::\s*(-?\d+(?:\s*,\s*-?\d+)*))?\s*>")

# MLIR's words for an op with another number of operands, results or regions than its traits
# say (OpDefinition.cpp), by what is counted and that number.
_SINGLE = {"operand": "requires a single operand", "result": "requires one result"}


def _count_problem(what: str, found: int, expected: int, at_least: bool) -> str | None:
    """The trait's words when `found` values are not `expected` (or more, `at_least`)."""
    if at_least:
        if found >= expected:
            return None
        return f"expected {expected} or more {what}s, but found {found}"
    if found == expected:
        return None
    if expected == 0:
        return f"requires zero {what}s"
    if expected == 1:
        return _SINGLE.get(what, f"requires one {what}")
    if what == "operand":
        return f"expected {expected} operands, but found {found}"
    return f"expected {expected} {what}s"
