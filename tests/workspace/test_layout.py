"""The package's shape: no import cycles, small modules, no references outside the repository."""

import ast

from evalkit.paths import ROOT

PACKAGE = ROOT / "evalkit"
MAX_LINES = 350


def _module_name(path):
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path, name):
    """evalkit modules imported by ``path`` (relative imports resolved), any nesting depth."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("evalkit")}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            if base.startswith("evalkit"):
                for a in node.names:  # "from . import x" may import a submodule
                    found.add(f"{base}.{a.name}" if (PACKAGE.parent / f"{base}.{a.name}".replace(".", "/")).with_suffix(".py").exists()
                              or (PACKAGE.parent / f"{base}.{a.name}".replace(".", "/") / "__init__.py").exists()
                              else base)
    return found


def _graph():
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    return {name: {m for m in _imports(path, name) if m in modules and m != name}
            for name, path in modules.items()}


def _cycle(graph):
    state, stack = {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        state[node] = "done"
        stack.pop()
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_no_import_cycles_between_evalkit_modules():
    graph = _graph()
    # package __init__ files only re-export lazily; an edge into a package is an edge into its __init__
    assert _cycle(graph) is None, " -> ".join(_cycle(graph))


def _package(module):
    """The package a module belongs to: ``evalkit.<package>``, or ``evalkit`` for the top-level modules."""
    parts = module.split(".")
    return f"evalkit.{parts[1]}" if len(parts) > 1 and (PACKAGE / parts[1]).is_dir() else "evalkit"


def _package_graph(graph):
    packages = {}
    for module, imported in graph.items():
        here = _package(module)
        packages.setdefault(here, set()).update(p for p in map(_package, imported) if p != here)
    return packages


def test_no_import_cycles_between_evalkit_packages():
    # layers only point down: base modules <- formats, measures, stats <- simulate <- ... <- workspace
    packages = _package_graph(_graph())
    assert {"evalkit", "evalkit.formats", "evalkit.papers", "evalkit.workspace"} <= set(packages)
    cycle = _cycle(packages)
    assert cycle is None, "package cycle: " + " -> ".join(cycle)


#: evalkit's layers, lowest first (the order of evalkit/__init__.py's docstring).
LAYERS = ("evalkit", "evalkit.measures", "evalkit.formats", "evalkit.stats", "evalkit.simulate",
          "evalkit.evaluate", "evalkit.declare", "evalkit.papers", "evalkit.workspace", "evalkit.explore")


def test_every_package_imports_only_layers_below_it():
    packages = _package_graph(_graph())
    assert set(packages) == set(LAYERS)
    upward = sorted(f"{a} -> {b}" for a, imported in packages.items() for b in imported
                    if LAYERS.index(b) >= LAYERS.index(a))
    assert not upward


def test_package_graph_folds_modules_into_their_packages():
    graph = {"evalkit.formats.trec": {"evalkit.workspace.outputs"},
             "evalkit.workspace.outputs": {"evalkit.errors"},
             "evalkit.workspace.cli": {"evalkit.formats.trec"}, "evalkit.errors": set()}
    packages = _package_graph(graph)
    assert packages == {"evalkit.formats": {"evalkit.workspace"},
                        "evalkit.workspace": {"evalkit", "evalkit.formats"}, "evalkit": set()}
    assert _cycle(packages) == ["evalkit.formats", "evalkit.workspace", "evalkit.formats"]


def test_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_modules_are_small():
    long = {str(p.relative_to(ROOT)): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines (make each a package, a file per experiment): {long}"


def test_nothing_points_outside_the_repository():
    files = [ROOT / "README.md", *PACKAGE.rglob("*.py"), *(ROOT / "notebooks").glob("*.ipynb"),
             *(ROOT / "docs").glob("*.md")]
    for f in files:
        text = f.read_text()
        assert "../shared" not in text and "DESIGN.md" not in text, f.relative_to(ROOT)
