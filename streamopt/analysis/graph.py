"""Graph algorithms the analyses and lowerings share."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import TypeVar

Node = TypeVar("Node", bound=Hashable)


def strongly_connected_components(
    nodes: Iterable[Node], successors: Callable[[Node], Sequence[Node]]
) -> list[list[Node]]:
    """The strongly connected components of the graph, each listed after every component it
    reaches (so a callee's component comes before its callers', a value's sources before it).

    Tarjan's algorithm without recursion, linear in nodes plus edges; `successors` is called
    once per node.
    """
    index_of: dict[Node, int] = {}
    low: dict[Node, int] = {}
    edges: dict[Node, Sequence[Node]] = {}
    on_stack: set[Node] = set()
    stack: list[Node] = []
    components: list[list[Node]] = []
    counter = 0
    for start in nodes:
        if start in index_of:
            continue
        work: list[tuple[Node, int]] = [(start, 0)]
        while work:
            node, position = work.pop()
            if position == 0:
                index_of[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
                edges[node] = successors(node)
            following = edges[node]
            if position < len(following):
                work.append((node, position + 1))
                successor = following[position]
                if successor not in index_of:
                    work.append((successor, 0))
                elif successor in on_stack:
                    low[node] = min(low[node], index_of[successor])
                continue
            if low[node] == index_of[node]:
                component: list[Node] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(component)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return components
