"""The README and the docs say only what is true: every `console` block's commands run
and print what is shown, every `pycon` block passes as a doctest, the site builds in
strict mode, and the benchmark pages are what the results files give.

In a `console` block, a line `$ COMMAND` is run by bash from the project folder, and the
lines up to the next `$ ` are its expected stdout and stderr together. Times may differ
(`0.054 s`, `"elapsed_s": 0.029`), and a line `...` stands for any number of lines.
"""

from __future__ import annotations

import doctest
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w+)\n(.*?)^```$", re.M | re.S)
TIME = re.compile(r"\d+\.\d+(?= ?s\b)|(?<=\"elapsed_s\": )\d+(?:\.\d+)?")
# History and the circumstances of development have no place in a user's guide ("this
# machine" is left out: the bench page uses it for the user's own machine).
FORBIDDEN = re.compile(r"session|issue [0-9]|20[0-9][0-9]-[0-9][0-9]|engineers", re.I)


def blocks(page: Path, kind: str) -> list[str]:
    """The bodies of the fenced blocks of one kind in a page."""
    return [body for lang, body in FENCE.findall(page.read_text()) if lang == kind]


def pairs(body: str) -> list[tuple[str, list[str]]]:
    """(command, expected lines) for every `$ ` line of one console block."""
    found: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            found.append((line[2:], []))
        elif found:
            found[-1][1].append(line)
    return found


def commands(page: Path) -> list[tuple[str, list[str]]]:
    """(command, expected lines) for every command of the page's console blocks."""
    return [pair for body in blocks(page, "console") for pair in pairs(body)]


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether the output fits the expected lines, with times free and `...` as a gap."""
    pattern = ""
    for line in expected:
        if line.strip() == "...":
            pattern += r"(?:[^\n]*\n)*?"
        else:
            pattern += re.escape(TIME.sub("<T>", line.rstrip())).replace("<T>", r"[0-9.]+")
            pattern += r"\n"
    text = "".join(line.rstrip() + "\n" for line in actual)
    return re.fullmatch(pattern, text) is not None


CASES = [
    pytest.param(command, expected, id=f"{page.name}:{i + 1}")
    for page in PAGES
    for i, (command, expected) in enumerate(commands(page))
]


def run(command: str) -> list[str]:
    """The lines a shown command prints, stdout then stderr, run as a reader would."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    env.pop("COLUMNS", None)
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return (done.stdout + done.stderr).splitlines()


@pytest.mark.parametrize(("command", "expected"), CASES)
def test_shown_command_prints_what_is_shown(command: str, expected: list[str]) -> None:
    actual = run(command)
    assert matches(expected, actual), "\n".join(["got:", *actual])


def test_matching_frees_times_and_gaps_but_nothing_else() -> None:
    assert matches(["time: 0.054 s", "...", "end"], ["time: 1.5 s", "a", "b", "end"])
    assert matches(['{"elapsed_s": 0.029}'], ['{"elapsed_s": 12}'])
    assert not matches(["length: 10"], ["length: 11"])
    assert not matches(["a", "...", "end"], ["a", "b"])
    assert not matches(["a"], ["a", "extra"])


@pytest.mark.parametrize("page", [p for p in PAGES if blocks(p, "pycon")], ids=lambda p: p.name)
def test_python_examples_run(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for i, body in enumerate(blocks(page, "pycon")):
        test = parser.get_doctest(body, {}, f"{page.name}[{i}]", str(page), 0)
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_readme_is_short_and_timeless() -> None:
    assert len((ROOT / "README.md").read_text().splitlines()) <= 300
    for page in PAGES:
        for number, line in enumerate(page.read_text().splitlines(), 1):
            assert not FORBIDDEN.search(line), f"{page.name}:{number}: {line}"


def test_benchmark_pages_come_from_results_files() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "make_results.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None, reason="mkdocs not installed")
def test_site_builds_in_strict_mode(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "cli" / "index.html").read_text().count("smtpuzzles floodit min") > 0


def update(page: Path) -> None:
    """Rewrite the shown output of the page's commands that have no `...` gap."""

    def block(match: re.Match[str]) -> str:
        if match.group(1) != "console":
            return match.group(0)
        lines: list[str] = []
        for command, expected in pairs(match.group(2)):
            shown = expected
            if not any(x.strip() == "..." for x in expected):
                actual = run(command)
                shown = expected if matches(expected, actual) else [x.rstrip() for x in actual]
            lines += [f"$ {command}", *shown]
        return "```console\n" + "".join(x + "\n" for x in lines) + "```"

    page.write_text(FENCE.sub(block, page.read_text()))


if __name__ == "__main__":
    # python tests/shared/test_docs.py: refresh the shown output after a deliberate change.
    for page in PAGES:
        update(page)
