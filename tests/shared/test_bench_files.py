"""The files and addresses a bench is given: every bad one is refused with one line on
standard error and exit 2, before any case runs, and no input is ever overwritten."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NURIKABE = ROOT / "instances" / "nurikabe"


def bench(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "smtpuzzles", "bench", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


def refused(done: subprocess.CompletedProcess[str], says: str) -> None:
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("smtpuzzles: error: "), done.stderr
    assert says in lines[0], lines[0]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A Nurikabe puzzle with its answer beside it, and a Flood-It board with a
    manifest of optima."""
    shutil.copy(NURIKABE / "hex_05x06.txt", tmp_path)
    shutil.copy(NURIKABE / "hex_05x06.sol", tmp_path)
    boards = tmp_path / "boards"
    boards.mkdir()
    (boards / "b.txt").write_text("0121\n1202\n2010\n0102\n")
    (boards / "manifest.json").write_text('{"b.txt": 6}\n')
    return tmp_path


@pytest.mark.parametrize(
    "puzzle, where, option, target",
    [
        ("floodit", "boards", "--csv", "boards/manifest.json"),
        ("floodit", "boards", "--jsonl", "boards/manifest.json"),
        ("nurikabe", ".", "--jsonl", "hex_05x06.sol"),
        ("nurikabe", ".", "--csv", "hex_05x06.sol"),
        ("nurikabe", "hex_05x06.txt", "--jsonl", "hex_05x06.sol"),
    ],
)
def test_known_answers_are_never_overwritten(
    folder: Path, puzzle: str, where: str, option: str, target: str
) -> None:
    before = (folder / target).read_bytes()
    refused(bench(puzzle, where, option, target, cwd=folder), "refusing to overwrite an input")
    assert (folder / target).read_bytes() == before


def test_two_options_never_name_one_file(folder: Path) -> None:
    done = bench("nurikabe", ".", "--csv", "rows", "--jsonl", "./rows", cwd=folder)
    refused(done, "--jsonl and --csv name the same file")
    assert not (folder / "rows").exists()


@pytest.mark.parametrize("option", ["--jsonl", "--csv"])
def test_a_device_is_no_row_file(folder: Path, option: str) -> None:
    refused(bench("nurikabe", ".", option, "/dev/full", cwd=folder), "not a regular file")


def test_a_file_that_takes_nothing_is_one_line(folder: Path) -> None:
    refused(bench("nurikabe", ".", "--csv", "/proc/version", cwd=folder), "cannot write")


def test_resume_reads_regular_files_only(folder: Path) -> None:
    refused(bench("nurikabe", ".", "--resume", "/dev/full", cwd=folder), "not a regular file")
    os.mkfifo(folder / "fifo")
    refused(bench("nurikabe", ".", "--resume", "fifo", cwd=folder), "not a regular file")
    (folder / "dir").mkdir()
    refused(bench("nurikabe", ".", "--resume", "dir", cwd=folder), "a folder")


@pytest.mark.parametrize("key, value", [("wall_s", "fast"), ("answer", None), ("exit", "0")])
def test_a_resumed_row_of_the_wrong_shape_is_refused(folder: Path, key: str, value: object) -> None:
    rows = folder / "rows.jsonl"
    done = bench("nurikabe", "hex_05x06.txt", "--jsonl", str(rows), cwd=folder)
    assert done.returncode == 0, done.stderr
    row = json.loads(rows.read_text())
    rows.write_text(json.dumps({**row, key: value}) + "\n")
    done = bench("nurikabe", "hex_05x06.txt", "--resume", str(rows), cwd=folder)
    refused(done, f"rows.jsonl:1: not a bench row ({key!r}")


@pytest.mark.parametrize(
    "address, says",
    [("tls://127.0.0.1:1", "cannot reach the Dask scheduler"), ("local:99999", "at most")],
)
def test_bad_cluster_addresses_are_one_line(folder: Path, address: str, says: str) -> None:
    pytest.importorskip("distributed")
    refused(bench("nurikabe", ".", "--cluster", address, cwd=folder), says)


def test_the_summary_says_what_was_compared() -> None:
    from smtpuzzles.bench.rows import summary, summary_lines

    row = dict.fromkeys(("wall_s", "inner_s", "peak_mb", "cells", "verdict"))
    rows = [{**row, "status": "optimal", "verdict": "WRONG"}, {**row, "status": "unknown"}]
    text = "\n".join(summary_lines(summary(rows)))
    assert "0 agree, 1 wrong, 1 without a verdict" in text
    assert "checked 0" not in text
