"""The util dialect, one module per group of IREE's ops (UtilOps.td): `structural` (functions,
calls, returns, initializers), `globals` (globals and pointers to them), `lists`, `buffers`
(host bytes and strings), `arithmetic` (casts, comparisons, ranges, alignment, sizes) and
`hints` (compiler hints, null, status); `base` holds what they share.

Syntax follows the assemblyFormat and custom printers of IREE's UtilOps.td/UtilOps.cpp
(custom<SymbolVisibility>, custom<TypeOrAttr>, custom<TiedFunctionResultList>). Symbol
references (`callee`, `global`) are kept as `SymbolRefAttr`s in the attribute dictionary under
MLIR's names, so a pass that renames a symbol finds every use by scanning attributes.

Importing the package registers the util ops but those of `buffers`, `lists` and `arithmetic`,
which register when one of their ops is first met (`streamopt.dialects.DEFERRED_MODULES`); the
op classes are importable from the package, and those three modules' from the module."""

from __future__ import annotations

from streamopt.dialects.util.base import *  # noqa: F403
from streamopt.dialects.util.globals import *  # noqa: F403
from streamopt.dialects.util.hints import *  # noqa: F403
from streamopt.dialects.util.structural import *  # noqa: F403
