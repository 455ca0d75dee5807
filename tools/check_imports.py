"""Print the import graph between gcnemu's stages and exit 1 if it has a circle.

A stage is a subpackage (asm, isa, sim, analysis, ...) or a root module. Imports inside
functions count too: a lazy import is still a dependency. tests/test_layout.py runs this."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent / "gcnemu"


def stage_graph(root: Path = ROOT) -> nx.DiGraph:
    graph = nx.DiGraph()
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        pkg = parts if path.name == "__init__.py" else parts[:-1]
        src = parts[1] if len(parts) > 1 else "__init__"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = pkg[: len(pkg) - (node.level - 1)]
                target = base + (node.module.split(".") if node.module else [])
                names = [a.name for a in node.names] if len(target) == 1 else []
                for dst in ([target[1]] if len(target) > 1 else names):
                    if dst != src:
                        graph.add_edge(src, dst)
    return graph


def main() -> int:
    graph = stage_graph()
    cycles = list(nx.simple_cycles(graph))
    for a, b in sorted(graph.edges):
        print(f"{a} -> {b}")
    if cycles:
        print("circles:", cycles)
        return 1
    print("no circles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
