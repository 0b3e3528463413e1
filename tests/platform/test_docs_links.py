"""The docs hold together: every relative link and ``#anchor`` in README.md and
docs/**/*.md points at something that exists, and the README's install and test
commands are the ones CI runs (``.ci/run``, whose comment quotes them).

Anchors are computed from headings the way GitHub does: the heading's text without
its Markdown, lower-cased, everything but letters, digits, ``_``, ``-`` and spaces
dropped, spaces turned into ``-``; a repeated heading gets ``-1``, ``-2``, ...
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CI_SCRIPT = ROOT / ".ci" / "run"


def documents(root: Path = ROOT) -> list[Path]:
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


# ----------------------------------------------------------------------------- reading Markdown

_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_HTML_ANCHOR = re.compile(r"<a\s[^>]*?(?:name|id)\s*=\s*[\"']([^\"']+)[\"']", re.IGNORECASE)
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$")
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def prose_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) outside fenced code blocks and HTML comments."""
    text = _HTML_COMMENT.sub(lambda m: "\n" * m.group().count("\n"), text)
    lines, fence = [], None
    for number, line in enumerate(text.splitlines(), start=1):
        opened = _FENCE.match(line)
        if fence is None and opened:
            fence = opened.group(1)[0] * len(opened.group(1))
        elif fence is not None and line.strip().startswith(fence):
            fence = None
        elif fence is None:
            lines.append((number, line))
    return lines


def github_anchor(heading: str) -> str:
    """The id GitHub gives a heading (before any -1, -2 for repeats)."""
    text = _INLINE_LINK.sub(lambda m: re.sub(r"^!?\[|\]\(.*$", "", m.group(0), flags=re.DOTALL), heading)
    text = _CODE_SPAN.sub(lambda m: m.group(2), text)
    text = re.sub(r"<[^>]+>", "", text)
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every #anchor a link may name in ``path``."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _, line in prose_lines(path.read_text(encoding="utf-8")):
        found.update(_HTML_ANCHOR.findall(line))
        heading = _HEADING.match(line)
        if heading:
            slug = github_anchor(heading.group(2))
            repeat = seen.get(slug, 0)
            seen[slug] = repeat + 1
            found.add(slug if repeat == 0 else f"{slug}-{repeat}")
    return found


def link_targets(path: Path) -> list[tuple[int, str]]:
    """(line number, target) of every link in ``path``, code spans and code blocks left out."""
    targets = []
    for number, line in prose_lines(path.read_text(encoding="utf-8")):
        definition = _REFERENCE_DEFINITION.match(line)
        if definition:
            targets.append((number, definition.group(1)))
            continue
        for link in _INLINE_LINK.finditer(_CODE_SPAN.sub("", line)):
            targets.append((number, link.group(1)))
    return targets


def broken_links(paths: list[Path], root: Path = ROOT) -> list[str]:
    """One line per relative link or anchor in ``paths`` that leads nowhere."""
    problems = []
    for path in paths:
        where = path.relative_to(root).as_posix()
        for number, target in link_targets(path):
            if not target or _SCHEME.match(target) or target.startswith("//"):
                continue  # a web address (or mailto:): not checked here
            file_part, _, anchor = target.partition("#")
            linked = (path.parent / file_part).resolve() if file_part else path.resolve()
            if not linked.is_relative_to(root.resolve()):
                problems.append(f"{where}:{number}: {target} leads outside the repository")
            elif not linked.exists():
                problems.append(f"{where}:{number}: {target}: no such file")
            elif anchor and (linked.suffix != ".md" or anchor not in anchors(linked)):
                problems.append(f"{where}:{number}: {target}: no heading with the anchor #{anchor}")
    return problems


# ----------------------------------------------------------------------------- CI's commands


def ci_commands(script: str) -> dict[str, str]:
    """What ``.ci/run`` says and does: the command line its comment quotes (the README's
    install and test lines joined by ``&&``), the PostgreSQL package line it quotes, and
    the ``pip install`` and ``python -m pytest`` it runs."""
    found: dict[str, str] = {}
    for line in script.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            quoted = stripped.lstrip("#").strip()
            if "-m venv .venv" in quoted:
                found["quoted"] = quoted
            elif quoted.startswith("apt-get install"):
                found["postgresql"] = quoted.split("#")[0].strip()
        elif stripped.startswith("pip install"):
            found["pip"] = stripped
        elif stripped.startswith("python -m pytest"):
            found["pytest"] = " ".join(w for w in shlex.split(stripped) if w != "$@")
    return found


def code_lines(markdown: str) -> list[str]:
    """The lines inside fenced code blocks, stripped."""
    lines, fence = [], None
    for line in markdown.splitlines():
        opened = _FENCE.match(line)
        if fence is None and opened:
            fence = opened.group(1)[0] * len(opened.group(1))
        elif fence is not None and line.strip().startswith(fence):
            fence = None
        elif fence is not None:
            lines.append(line.strip())
    return lines


def command_mismatches(readme: str, script: str) -> list[str]:
    """Why the README's install and test lines differ from what ``.ci/run`` runs, if they do."""
    ci = ci_commands(script)
    missing = {"quoted", "postgresql", "pip", "pytest"} - set(ci)
    if missing:
        return [f".ci/run no longer shows {sorted(missing)}: update this test with it"]
    problems = []
    install, test = ci["quoted"].rsplit(" && ", 1)
    if not install.endswith(" && " + ci["pip"]):
        problems.append(f".ci/run runs `{ci['pip']}` but its comment quotes `{install}`")
    if test != ci["pytest"]:
        problems.append(f".ci/run runs `{ci['pytest']}` but its comment quotes `{test}`")
    code = code_lines(readme)
    if install not in code:
        problems.append(f"the README has no install line `{install}` (as .ci/run quotes it)")
    if test not in code:
        problems.append(f"the README has no test line `{test}` (as .ci/run runs it)")
    if ci["postgresql"] not in readme:
        problems.append(f"the README does not say `{ci['postgresql']}` (the PostgreSQL programs .ci/run installs)")
    return problems


# ----------------------------------------------------------------------------- the tests


def test_every_relative_link_and_anchor_in_the_docs_resolves():
    paths = documents()
    assert len(paths) > 10 and ROOT / "docs" / "README.md" in paths, paths
    assert broken_links(paths) == []


def test_the_readme_install_and_test_lines_are_what_ci_runs():
    assert command_mismatches((ROOT / "README.md").read_text(encoding="utf-8"), CI_SCRIPT.read_text(encoding="utf-8")) == []


def test_anchors_are_computed_as_github_does():
    assert github_anchor("SQLite or PostgreSQL: where one process stops") == "sqlite-or-postgresql-where-one-process-stops"
    assert github_anchor("The bot exits at start with one sentence (exit code 2)") == "the-bot-exits-at-start-with-one-sentence-exit-code-2"
    assert github_anchor('"This server\'s saved data cannot be read"') == "this-servers-saved-data-cannot-be-read"
    assert github_anchor("Modifier #6: Great A'Tuin (queen of coins)") == "modifier-6-great-atuin-queen-of-coins"
    assert github_anchor("`deckhand play`: a [terminal](x.md) table") == "deckhand-play-a-terminal-table"
    assert github_anchor("Enid: \"Last St. Francis of Assisi\"") == "enid-last-st-francis-of-assisi"


def test_the_link_checker_finds_planted_broken_links(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "other.md").write_text("# Other page\n\n## Twice\n\n## Twice\n", encoding="utf-8")
    (tmp_path / "README.md").write_text(
        "# Top\n\n"
        "[fine](docs/other.md) [fine anchor](docs/other.md#other-page) [repeat](docs/other.md#twice-1)\n"
        "[here](#top) [web](https://example.com/missing.md) `[in code](nowhere.md)`\n"
        "[gone](docs/missing.md)\n"
        "[bad anchor](docs/other.md#no-such-heading)\n"
        "[bad local](#nowhere)\n"
        "[escapes](../outside.md)\n"
        "```\n[in a block](missing.md)\n```\n"
        "<!-- [in a comment](missing.md) -->\n"
        "[ref]: docs/also-missing.md\n",
        encoding="utf-8",
    )
    problems = broken_links(documents(tmp_path), root=tmp_path)
    assert problems == [
        "README.md:5: docs/missing.md: no such file",
        "README.md:6: docs/other.md#no-such-heading: no heading with the anchor #no-such-heading",
        "README.md:7: #nowhere: no heading with the anchor #nowhere",
        "README.md:8: ../outside.md leads outside the repository",
        "README.md:13: docs/also-missing.md: no such file",
    ]


def test_the_command_check_fails_when_the_readme_or_ci_changes():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    script = CI_SCRIPT.read_text(encoding="utf-8")
    assert command_mismatches(readme, script) == []

    no_extra = readme.replace('pip install -e ".[test]"', "pip install -e .")
    assert any("no install line" in p for p in command_mismatches(no_extra, script))

    other_test = readme.replace("\npython -m pytest -n auto\n", "\npytest -q\n")
    assert any("no test line" in p for p in command_mismatches(other_test, script))

    ci_runs_other = script.replace('pip install -e ".[test]"\n', 'pip install ".[test]"\n')
    assert any(".ci/run runs `pip install" in p for p in command_mismatches(readme, ci_runs_other))
