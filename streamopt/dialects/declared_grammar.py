"""The grammar rules of declared ops, as their assembly formats give them.

grammar/stream.lark holds the rule of every op; for an op declared with an `assembly_format`
(streamopt.ir.opdef) that rule is generated from the format, and this module is what keeps the
file in step: `python -m streamopt.dialects.declared_grammar` rewrites the declared ops' rules
in place (each `!op_...:` line, followed by the rules of its optional groups), and
`test_declared_ops.py` fails when the file differs from what it would write.
"""

from __future__ import annotations

import re
from pathlib import Path

from streamopt.dialects import OPS, load_all, rule_name_for_op
from streamopt.ir.opdef import DeclaredOp


def declared_rules() -> dict[str, str]:
    """Rule name -> the rule's lines (the op rule, then its optional groups' rules)."""
    load_all()
    rules: dict[str, str] = {}
    for name, cls in sorted(OPS.items()):
        if not (issubclass(cls, DeclaredOp) and cls.assembly_format):
            continue
        rule = rule_name_for_op(name)
        body, *groups = cls.definition.format.grammar().split("\n")
        rules[rule] = "\n".join([f'!{rule}: "{name}" {body}', *groups])
    return rules


def synced(grammar: str) -> str:
    """`grammar` with each declared op's rule (and its group rules) as its format gives it."""
    for rule, text in declared_rules().items():
        # The op's line and the group rules right after it.
        pattern = re.compile(
            rf"^!{re.escape(rule)}:.*\n(?:!{re.escape(rule)}__g\d+:.*\n)*", re.MULTILINE
        )
        match = pattern.search(grammar)
        if match is None:
            raise KeyError(f"grammar/stream.lark has no rule {rule}")
        grammar = grammar[: match.start()] + text + "\n" + grammar[match.end() :]
    return grammar


def main() -> None:
    path = Path(__file__).resolve().parents[2] / "grammar" / "stream.lark"
    text = path.read_text()
    new = synced(text)
    if new != text:
        path.write_text(new)
        print(f"rewrote the declared ops' rules in {path}")


if __name__ == "__main__":
    main()
