"""Print the import graph between gcnemu's stages and exit 1 if it has a circle, between stages
or between the modules of one package.

A stage is a subpackage (asm, isa, sim, analysis, ...) or a root module. Imports inside
functions count too: a lazy import is still a dependency (moving an import into a function
hides a circle from Python, not from the reader). tests/test_layout.py runs this."""
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


def module_graph(root: Path = ROOT) -> nx.DiGraph:
    """Module -> module edges (dotted names under gcnemu) for every relative import; `from . import
    x` names the submodule x when it is one."""
    graph = nx.DiGraph()
    modules = set()
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        modules.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        me = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        pkg = parts[:-1]
        graph.add_node(me)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.ImportFrom) and node.level):
                continue
            base = pkg[: len(pkg) - (node.level - 1)]
            target = ".".join(base + (node.module.split(".") if node.module else []))
            for a in node.names:
                sub = f"{target}.{a.name}"
                dst = sub if sub in modules else target
                if dst != me and dst in modules:
                    graph.add_edge(me, dst)
    return graph


def package_circles(graph: nx.DiGraph) -> list[list[str]]:
    """Circles among the modules of one package (edges between packages are the stage graph's)."""
    inner = nx.DiGraph([(a, b) for a, b in graph.edges if a.rsplit(".", 1)[0] == b.rsplit(".", 1)[0]])
    return [sorted(c) for c in nx.strongly_connected_components(inner) if len(c) > 1]


def main() -> int:
    graph = stage_graph()
    cycles = list(nx.simple_cycles(graph))
    for a, b in sorted(graph.edges):
        print(f"{a} -> {b}")
    inner = package_circles(module_graph())
    if cycles or inner:
        if cycles:
            print("circles between stages:", cycles)
        for c in inner:
            print(f"circle inside {c[0].rsplit('.', 1)[0]}: {', '.join(m.rsplit('.', 1)[1] for m in c)}")
        return 1
    print("no circles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
