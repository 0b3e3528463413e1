"""Reading the project's imports as text (ast), for the layer tests: which modules
each module imports (module-level and function-level; under ``if TYPE_CHECKING:`` only
when asked: those never run, but a module that names another's types cannot be
understood without it), the import circles among them, and whether a module reaches a
package through any chain. Also: importing modules in a fresh interpreter with some
packages blocked."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OWN = ("bot", "cogs", "storage")


def modules_under(root: Path, tops: Iterable[str] = OWN) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for top in tops:
        for path in sorted((root / top).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imported_names(path: Path, name: str, *, types: bool = False) -> set[str]:
    """Dotted names ``path`` (module ``name``) imports; ``from a import b`` gives ``a.b``.
    ``types``: the imports under ``if TYPE_CHECKING:`` too."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child.test) and not types:
                for sub in child.orelse:
                    visit(sub)
                continue
            if isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - (child.level - 1)] if child.level > 1 else anchor
                    base = ".".join([*anchor, base] if base else anchor)
                found.update(f"{base}.{alias.name}" for alias in child.names)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def graph(root: Path = ROOT, tops: Iterable[str] = OWN, *, types: bool = False) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(own module -> own modules it imports, own module -> outside roots it imports).
    Importing ``a.b.c`` also runs the packages ``a`` and ``a.b``: those are edges too.
    ``types``: imports under ``if TYPE_CHECKING:`` are edges too."""
    modules = modules_under(root, tops)
    own: dict[str, set[str]] = {}
    outside: dict[str, set[str]] = {}
    for name, path in modules.items():
        own[name], outside[name] = set(), set()
        for imported in imported_names(path, name, types=types):
            if imported.split(".")[0] not in tops:
                outside[name].add(imported.split(".")[0])
                continue
            target = imported
            while target and target not in modules:
                target = target.rpartition(".")[0]
            parts = target.split(".")
            for i in range(1, len(parts) + 1):  # the packages on the way run too
                step = ".".join(parts[:i])
                if step in modules and step != name and not name.startswith(step + "."):
                    own[name].add(step)
    return own, outside


def chain_to(own: dict[str, set[str]], outside: dict[str, set[str]], start: str, root_name: str) -> list[str] | None:
    """An import chain from ``start`` to the outside package ``root_name``, or None."""
    seen = {start}
    paths = [[start]]
    while paths:
        path = paths.pop(0)
        if root_name in outside.get(path[-1], ()):
            return [*path, root_name]
        for nxt in sorted(own.get(path[-1], ())):
            if nxt not in seen:
                seen.add(nxt)
                paths.append([*path, nxt])
    return None


def circles(own: dict[str, set[str]]) -> list[list[str]]:
    """Import circles: strongly connected groups of two or more modules (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on.add(node)
        for nxt in own.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
    for node in sorted(own):
        if node not in index:
            visit(node)
    return found


def import_blocked(modules: Iterable[str], blocked: Iterable[str], cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Import ``modules`` in a fresh interpreter where importing any of ``blocked``
    (top-level packages) raises ImportError; prints "ok" when all imported."""
    code = (
        "import sys\n"
        f"BLOCKED = {sorted(set(blocked))!r}\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in BLOCKED: raise ImportError('blocked ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        f"import importlib\nfor m in {sorted(modules)!r}: importlib.import_module(m)\n"
        "print('ok')\n"
    )
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=120)
