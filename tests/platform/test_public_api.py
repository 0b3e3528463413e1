"""Issue 38 item 5: the code uses discord.py's, aiohttp's, aiosqlite's and Pillow's public
API. Every ``x._name`` in bot/, storage/ and cogs/ (and ``getattr``/``setattr``/``hasattr``
of a constant ``"_name"``) where ``_name`` is private to one of those libraries (defined
in their installed source: a function, class, attribute, slot or module name with one
leading underscore) and not defined by our own code is a reach into the library's
internals: it fails here unless :data:`ALLOWED` lists it with its reason (a reach kept
because bench/load.py measured it needed, in one module named for what it replaces).

"Defined by our own code" is judged from the file of the access: what it defines
(``self._x``, its classes and functions) and what the modules of ours it imports define
(``card._key`` of bot/rules/cards.py's cards, ``i18n._``). A project-wide judgement
missed storage/db.py's ``connection._execute(fn, connection._conn)`` into aiosqlite
(main before issue 38), because storage/pg.py and bot/pictures/picture_pool.py, which
storage/db.py does not import, define an ``_execute`` and a ``_conn`` of their own.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OURS = ("bot", "storage", "cogs")
LIBRARIES = ("discord", "aiohttp", "aiosqlite", "PIL")

#: ``(our file, attribute)``: the reaches kept, each with its reason. Empty: none is kept.
ALLOWED: dict[tuple[str, str], str] = {}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


class _Definitions(ast.NodeVisitor):
    """The private names a body of source defines: functions, classes, names assigned
    (module and class level), attributes assigned (``self._x = ...``), parameters
    and ``__slots__`` entries."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def _add(self, name: str) -> None:
        if _private(name):
            self.names.add(name)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._add(node.name)
        for arg in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs):
            self._add(arg.arg)
        self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._add(node.name)
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Store):
            self._add(node.id)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.ctx, ast.Store):
            self._add(node.attr)
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        if any(isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets):
            for value in ast.walk(node.value):
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    self._add(value.value)
        self.generic_visit(node)

    def visit_alias(self, node: ast.alias) -> None:
        self._add((node.asname or node.name).split(".")[0])


@functools.cache
def _defined_in_file(path: Path) -> frozenset[str]:
    found = _Definitions()
    try:
        found.visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
    except (SyntaxError, UnicodeDecodeError):
        pass  # a library's file for another Python version
    return frozenset(found.names)


def _defined_in(files: list[Path]) -> set[str]:
    return set().union(*map(_defined_in_file, files))


@functools.cache
def library_private_names() -> dict[str, set[str]]:
    """Each library's private names, read from its installed source at test time (so a
    library that adds one is checked against it from then on)."""
    names = {}
    for library in LIBRARIES:
        spec = importlib.util.find_spec(library)
        assert spec is not None and spec.submodule_search_locations, f"{library} is not installed"
        files = [p for location in spec.submodule_search_locations for p in Path(location).rglob("*.py")]
        names[library] = _defined_in(files)
    return names


def our_files() -> list[Path]:
    return sorted(p for package in OURS for p in (ROOT / package).rglob("*.py"))


def _our_module(name: str) -> Path | None:
    """The file of one of our modules (``bot.rules.cards``), or None."""
    if name.split(".")[0] not in OURS:
        return None
    base = ROOT.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imported(path: Path, tree: ast.Module) -> list[Path]:
    """Our modules the file imports (``import a.b``, ``from a import b``, ``from a.b import c``)."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1]) if path.is_relative_to(ROOT) else ""
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1] if package else []
                base = ".".join([*parent, base] if base else parent)
            names.append(base)
            names += [f"{base}.{alias.name}" for alias in node.names]
    return [found for found in map(_our_module, names) if found is not None]


def reaches(files: list[Path], private: dict[str, set[str]]) -> list[tuple[str, int, str, str]]:
    """``(file, line, attribute, libraries)`` of each access to a library's private name
    that neither the file nor a module of ours it imports defines (``libraries``: those
    defining it, comma separated); ``self._x`` and ``cls._x`` are our own."""
    found = []
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        ours = _defined_in([path, *_imported(path, tree)])
        for node in ast.walk(tree):
            name = None
            if isinstance(node, ast.Attribute) and _private(node.attr):
                if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                    name = node.attr
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "setattr", "hasattr", "delattr")
                  and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
                  and _private(node.args[1].value)):
                name = node.args[1].value
            if name is None or name in ours:
                continue
            libraries = ", ".join(library for library, names in private.items() if name in names)
            if libraries:
                where = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
                found.append((where, node.lineno, name, libraries))
    return found


def test_no_private_attribute_of_discord_aiohttp_aiosqlite_or_pillow_is_touched():
    found = reaches(our_files(), library_private_names())
    unexplained = [f"{file}:{line}: .{name} ({library})" for file, line, name, library in found if (file, name) not in ALLOWED]
    assert not unexplained, "private attributes of libraries touched (use the public API, or measure and list it in ALLOWED):\n" + "\n".join(unexplained)


def test_every_allowed_reach_is_still_made_and_has_its_reason():
    found = {(file, name) for file, _, name, _ in reaches(our_files(), library_private_names())}
    for key, reason in ALLOWED.items():
        assert key in found, f"{key} is allowed but no longer made: drop it from ALLOWED"
        assert len(reason.split()) >= 5, f"{key} needs its reason"


def test_a_planted_reach_into_each_library_is_caught(tmp_path):
    """The check finds what it is for: each of the reaches issue 38 named, planted in a
    module of ours, is reported, and an attribute our own code defines is not."""
    planted = tmp_path / "planted.py"
    planted.write_text(
        "async def answer(interaction, form, connection, image):\n"
        "    state = interaction._state\n"  # discord.py's
        "    fields = form._fields\n"  # aiohttp's FormData
        "    await connection._execute(print)\n"  # aiosqlite's
        "    image._new(image.im)\n"  # Pillow's
        "    return getattr(interaction, '_view_store', None)\n"  # discord.py's, by name
        "\n"
        "class Ours:\n"
        "    def __init__(self):\n"
        "        self._ours_only = 1\n"
        "\n"
        "def read(thing):\n"
        "    return thing._ours_only\n",
        encoding="utf-8",
    )
    private = library_private_names()
    found = {name: libraries.split(", ") for _, _, name, libraries in reaches([planted], private)}
    planted_from = {"_state": "discord", "_fields": "aiohttp", "_execute": "aiosqlite", "_new": "PIL", "_view_store": "discord"}
    assert set(found) == set(planted_from)  # and not ``thing._ours_only``
    for name, library in planted_from.items():
        assert library in found[name], (name, found[name])
