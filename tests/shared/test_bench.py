"""``smtpuzzles bench``: one row shape for every puzzle, the same rows on a Dask cluster
as here, bad files as error rows, rows kept when the bench is stopped, ``--resume``."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTANCES = ROOT / "instances"
ROW_KEYS = {
    "puzzle",
    "case",
    "name",
    "size",
    "cells",
    "mode",
    "options",
    "timeout_s",
    "status",
    "stopped",
    "answer",
    "known",
    "verdict",
    "unique",
    "exit",
    "wall_s",
    "inner_s",
    "peak_mb",
    "worker",
    "error",
    "solution",
}


def bench(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "smtpuzzles", "bench", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


def report(*args: str) -> tuple[int, dict[str, Any], str]:
    done = bench(*args, "--json")
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, json.loads(done.stdout), done.stderr


def answers(rows: list[dict[str, Any]]) -> dict[str, tuple[Any, ...]]:
    """What must not depend on where a case ran: everything but times and places."""
    return {
        r["case"]: (r["status"], r["answer"], r["known"], r["verdict"], r["solution"]) for r in rows
    }


def hard_board(path: Path, seed: int) -> None:
    """A 30x30 board with 8 colours: `min` runs to any time limit a test sets."""
    rng = random.Random(seed)
    cells = [rng.randrange(8) for _ in range(900)]
    cells[:8] = range(8)
    rows = ("".join(str(c) for c in cells[r * 30 : (r + 1) * 30]) for r in range(30))
    path.write_text("\n".join(rows) + "\n")


def small_boards(folder: Path, n: int) -> None:
    for i in range(n):
        rng = random.Random(i)
        cells = [rng.randrange(3) for _ in range(16)]
        cells[:3] = [0, 1, 2]
        path = folder / f"a{i:02d}.txt"
        path.write_text("\n".join("".join(map(str, cells[r * 4 : r * 4 + 4])) for r in range(4)))


def jsonl_rows(path: Path) -> list[dict[str, Any]]:
    text = path.read_text() if path.exists() else ""
    assert text == "" or text.endswith("\n")  # only whole lines
    return [json.loads(line) for line in text.splitlines()]


def processes_of(parent: int) -> list[int]:
    """Live solver processes started by the bench (or worker) ``parent``."""
    mark = f"SMTPUZZLES_BENCH_PARENT={parent}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if mark in environ.split(b"\0") and state != "Z":
            found.append(int(entry.name))
    return found


def wait_for(test: Any, seconds: float) -> None:
    end = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < end, "gave up waiting"
        time.sleep(0.1)


@pytest.mark.parametrize("puzzle", ["floodit", "nurikabe", "koburin"])
def test_shipped_instances_give_one_row_shape_and_every_verdict_ok(puzzle: str) -> None:
    code, obj, _ = report(puzzle, str(INSTANCES / puzzle), "--jobs", "2")
    assert code == 0
    assert obj["rows"] and all(set(r) == ROW_KEYS for r in obj["rows"])
    assert {r["verdict"] for r in obj["rows"]} == {"ok"}
    assert obj["summary"]["checked"] == obj["summary"]["instances"] == len(obj["rows"])


def test_the_encoding_alone_is_benched_with_presolve_none() -> None:
    """``--presolve none`` reaches every solver: the encoding alone gives the same answers."""
    code, obj, _ = report("nurikabe", str(INSTANCES / "nurikabe"), "--presolve", "none")
    assert code == 0 and {r["verdict"] for r in obj["rows"]} == {"ok"}
    assert all("--presolve none" in r["options"] for r in obj["rows"])
    done = bench("nurikabe", str(INSTANCES / "nurikabe"), "--presolve", "some")
    assert done.returncode == 2 and done.stderr.count("\n") == 1


@pytest.mark.slow
@pytest.mark.parametrize("puzzle", ["floodit", "nurikabe", "koburin"])
def test_a_local_cluster_gives_the_rows_of_a_local_run(puzzle: str) -> None:
    _, here, _ = report(puzzle, str(INSTANCES / puzzle), "--jobs", "2")
    code, there, _ = report(puzzle, str(INSTANCES / puzzle), "--cluster", "local:2")
    assert code == 0
    assert answers(there["rows"]) == answers(here["rows"])
    assert all(r["worker"].startswith("tcp://127.0.0.1:") for r in there["rows"])


def test_bad_files_become_error_rows_and_the_rest_are_solved(tmp_path: Path) -> None:
    floodit = tmp_path / "floodit"
    floodit.mkdir()
    small_boards(floodit, 2)
    (floodit / "b_ragged.txt").write_text("012\n01\n")
    (floodit / "b_binary.txt").write_bytes(b"01\n\xff\xfe\n")
    code, obj, _ = report("floodit", str(floodit), str(tmp_path / "missing.txt"))
    assert code == 1
    status = {r["name"]: (r["status"], r["verdict"]) for r in obj["rows"]}
    assert status["a00.txt"][0] == status["a01.txt"][0] == "optimal"
    errors = {r["name"]: r["error"] for r in obj["rows"] if r["status"] == "error"}
    assert set(errors) == {"b_ragged.txt", "b_binary.txt", "missing.txt"}
    assert errors["b_binary.txt"].startswith(f"{floodit / 'b_binary.txt'}:2:1: not UTF-8")
    assert "b_ragged.txt:2:" in errors["b_ragged.txt"]
    assert obj["summary"]["errors"] == 3 and obj["summary"]["answered"] == 2


@pytest.mark.parametrize(
    "manifest",
    [b'{"a00.txt": 3', b'["a00.txt", 3]', b'{"a00.txt": "three"}', b"\x00\x01"],
    ids=["malformed", "list", "not-a-number", "binary"],
)
def test_a_bad_manifest_makes_error_rows_not_a_traceback(tmp_path: Path, manifest: bytes) -> None:
    small_boards(tmp_path, 1)
    (tmp_path / "manifest.json").write_bytes(manifest)
    code, obj, _ = report("floodit", str(tmp_path))
    assert code == 1
    [row] = obj["rows"]
    assert row["status"] == "error" and "manifest.json" in row["error"]


def test_a_binary_solutions_file_makes_error_rows(tmp_path: Path) -> None:
    (tmp_path / "dataset_t.txt").write_text("1231\n1232\n")
    (tmp_path / "solutions_optimal_t.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00")
    code, obj, _ = report("floodit", str(tmp_path / "dataset_t.txt"))
    assert code == 1
    assert [r["case"].rsplit("#", 1)[1] for r in obj["rows"]] == ["1", "2"]
    assert all("solutions_optimal_t.txt" in r["error"] for r in obj["rows"])


def test_known_optima_beside_a_dataset_are_checked(tmp_path: Path) -> None:
    (tmp_path / "dataset_t.txt").write_text("1231\n1232\n")
    (tmp_path / "solutions_optimal_t.txt").write_text("123\r\n1\r\n")  # the second is wrong
    code, obj, _ = report("floodit", str(tmp_path / "dataset_t.txt"))
    assert code == 1
    assert [(r["name"], r["known"], r["verdict"]) for r in obj["rows"]] == [
        ("dataset_t.txt#1", "3", "ok"),
        ("dataset_t.txt#2", "1", "WRONG"),
    ]
    code, obj, _ = report("floodit", str(tmp_path / "dataset_t.txt"), "--first", "1")
    assert code == 0 and len(obj["rows"]) == 1


@pytest.mark.parametrize("puzzle", ["nurikabe", "koburin"])
def test_an_unreadable_answer_file_is_an_error_row(tmp_path: Path, puzzle: str) -> None:
    source = INSTANCES / puzzle
    good, bad = sorted(source.glob("*.txt"))[:2]
    for f in (good, bad):
        shutil.copy(f, tmp_path / f.name)
        shutil.copy(f.with_suffix(".sol"), tmp_path / f.with_suffix(".sol").name)
    (tmp_path / bad.with_suffix(".sol").name).write_bytes(b"x - \xe9\n")
    code, obj, _ = report(puzzle, str(tmp_path))
    assert code == 1
    rows = {r["name"]: r for r in obj["rows"]}
    assert rows[good.name]["verdict"] == "ok"
    assert rows[bad.name]["status"] == "error"
    assert f"{bad.with_suffix('.sol').name}:1:5: not UTF-8" in rows[bad.name]["error"]


def test_a_malformed_koburin_answer_is_an_error_row(tmp_path: Path) -> None:
    puzzle = INSTANCES / "koburin" / "gen_8x8_s1.txt"
    shutil.copy(puzzle, tmp_path / puzzle.name)
    (tmp_path / "gen_8x8_s1.sol").write_text("8 8\nx - ?? -\n")
    code, obj, _ = report("koburin", str(tmp_path))
    assert code == 1
    [row] = obj["rows"]
    assert row["status"] == "error"
    assert "gen_8x8_s1.sol:" in row["error"] and "unexpected '??'" in row["error"]


@pytest.mark.parametrize(
    "puzzle, name, mark, other",
    [("nurikabe", "torus_06x06", "#", "."), ("koburin", "gen_8x8_s1", "x", "-")],
)
def test_a_wrong_answer_file_gives_a_wrong_verdict(
    tmp_path: Path, puzzle: str, name: str, mark: str, other: str
) -> None:
    for f in (INSTANCES / puzzle).glob(f"{name}.*"):
        shutil.copy(f, tmp_path / f.name)
    sol = tmp_path / f"{name}.sol"
    sol.write_text(sol.read_text().replace(mark, other, 1))
    code, obj, _ = report(puzzle, str(tmp_path))
    assert code == 1
    assert [r["verdict"] for r in obj["rows"]] == ["WRONG"]
    assert obj["summary"]["wrong"] == 1


@pytest.mark.parametrize(
    "result, verdict",
    [
        ({"status": "optimal", "length": 10}, "ok"),
        ({"status": "optimal", "length": 11}, "WRONG"),
        ({"status": "solved", "length": 12}, "ok"),
        ({"status": "solved", "length": 9}, "WRONG"),
        ({"status": "unsat"}, "WRONG"),
        ({"status": "unknown", "lower_bound": 8, "upper_bound": 12}, "ok"),
        ({"status": "unknown", "lower_bound": 11, "upper_bound": 12}, "WRONG"),
        ({"status": "unknown", "lower_bound": None, "upper_bound": 9}, "WRONG"),
        ({"status": "unknown", "lower_bound": None, "upper_bound": None}, None),
    ],
)
def test_floodit_verdicts_against_an_optimum_of_ten(
    result: dict[str, Any], verdict: str | None
) -> None:
    from smtpuzzles.bench.rows import verdict as judge

    assert judge("floodit", 10, result) == verdict


@pytest.mark.parametrize(
    "sig, code",
    [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGKILL, -signal.SIGKILL)],
    ids=["SIGINT", "SIGTERM", "SIGKILL"],
)
def test_a_stopped_bench_keeps_every_finished_row_and_no_child(
    tmp_path: Path, sig: signal.Signals, code: int
) -> None:
    small_boards(tmp_path, 3)
    hard_board(tmp_path / "z_hard.txt", 1)
    rows = tmp_path / "rows.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "smtpuzzles", "bench", "floodit", str(tmp_path)]
        + ["--jsonl", str(rows), "--timeout", "120"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        wait_for(lambda: len(jsonl_rows(rows)) == 3 and processes_of(proc.pid), 120)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == code, err
    assert "Traceback" not in err
    if sig != signal.SIGKILL:
        assert err.strip().endswith("--resume " + str(rows) + " runs the rest")
    assert [r["name"] for r in jsonl_rows(rows)] == ["a00.txt", "a01.txt", "a02.txt"]
    printed = [line for line in out.splitlines() if line.startswith("a0")]
    assert len(printed) == 3  # the finished rows were printed as they came
    wait_for(lambda: not processes_of(proc.pid), 10)


def test_resume_runs_only_the_cases_not_finished(tmp_path: Path) -> None:
    boards = tmp_path / "boards"
    boards.mkdir()
    small_boards(boards, 4)
    rows = tmp_path / "rows.jsonl"
    assert bench("floodit", str(boards), "--first", "2", "--jsonl", str(rows)).returncode == 0
    before = rows.read_text()
    with rows.open("a") as fh:
        fh.write('{"puzzle": "floodit", "case": "cut sh')  # a row a kill cut short
    code, obj, _ = report("floodit", str(boards), "--resume", str(rows))
    assert code == 0
    after = rows.read_text()
    assert after.startswith(before)
    lines = [json.loads(line) for line in after.splitlines()]
    assert [r["name"] for r in lines] == ["a00.txt", "a01.txt", "a02.txt", "a03.txt"]
    assert obj["rows"][:2] == lines[:2]  # the finished rows, as they were: not run again
    assert len(obj["rows"]) == 4
    again = bench("floodit", str(boards), "--resume", str(rows), "--timeout", "5")
    assert again.returncode == 2
    assert again.stderr.startswith(f"smtpuzzles: error: {rows}:1: a row of another run")
    assert rows.read_text() == after


def test_csv_holds_every_row_under_the_same_keys(tmp_path: Path) -> None:
    import csv

    table = tmp_path / "rows.csv"
    code, obj, _ = report("koburin", str(INSTANCES / "koburin"), "--csv", str(table))
    assert code == 0
    with table.open() as fh:
        found = list(csv.DictReader(fh))
    assert set(found[0]) == ROW_KEYS
    assert [r["case"] for r in found] == [r["case"] for r in obj["rows"]]
    assert [json.loads(r["solution"]) for r in found] == [r["solution"] for r in obj["rows"]]


def test_usage_errors_are_one_line(tmp_path: Path) -> None:
    for args, says in [
        (["floodit", "instances/floodit", "--mode", "exact"], "--mode 'exact'"),
        (["nurikabe", "instances/nurikabe", "--connectivity", "x"], "--connectivity 'x'"),
        (["koburin", str(tmp_path)], "no puzzles found"),
        (["koburin", "instances/koburin", "--cluster", "local:zero"], "local:N"),
    ]:
        done = bench(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stderr.startswith("smtpuzzles: error: ") and says in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1


def test_without_dask_the_cluster_option_says_how_to_install_it(tmp_path: Path) -> None:
    blocker = tmp_path / "distributed.py"
    blocker.write_text("raise ImportError('not installed')\n")
    done = subprocess.run(
        [sys.executable, "-m", "smtpuzzles", "bench", "koburin", "instances/koburin"]
        + ["--cluster", "local:1"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "smtpuzzles: error: --cluster needs Dask, which is not installed: "
        "pip install 'smtpuzzles[cluster]'"
    ]


@pytest.mark.slow
def test_a_worker_killed_mid_case_leaves_every_case_reported(tmp_path: Path) -> None:
    psutil = pytest.importorskip("psutil")
    for seed in range(4):
        hard_board(tmp_path / f"h{seed}.txt", seed)
    proc = subprocess.Popen(
        [sys.executable, "-m", "smtpuzzles", "bench", "floodit", str(tmp_path)]
        + ["--cluster", "local:2", "--timeout", "3", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        bench_process = psutil.Process(proc.pid)

        def solving_workers() -> list[int]:
            workers = bench_process.children(recursive=True)
            return [w.pid for w in workers if processes_of(w.pid)]

        wait_for(solving_workers, 120)
        victim = solving_workers()[0]
        os.kill(victim, signal.SIGKILL)
        out, err = proc.communicate(timeout=240)
    finally:
        proc.kill()
    assert "Traceback" not in err
    obj = json.loads(out)
    assert sorted(r["name"] for r in obj["rows"]) == [f"h{s}.txt" for s in range(4)]
    for row in obj["rows"]:
        assert row["status"] == "unknown" or "worker" in row["error"], row
    wait_for(lambda: not processes_of(victim), 10)


def test_cases_run_the_installed_package_not_the_current_folder(tmp_path: Path) -> None:
    """A folder holding a ``smtpuzzles/`` of its own (a source tree, say) is where users
    may run a bench from: its cases must still run the package ``smtpuzzles`` runs."""
    decoy = tmp_path / "smtpuzzles"
    decoy.mkdir()
    marker = tmp_path / "decoy-imported"
    (decoy / "__init__.py").write_text(f"open({str(marker)!r}, 'a').write('imported\\n')\n")
    board = tmp_path / "board.txt"
    board.write_text("0121\n1202\n2010\n0102\n")
    command = Path(sys.executable).with_name("smtpuzzles")
    done = subprocess.run(
        [str(command), "bench", "floodit", str(board), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert not marker.exists(), "a case imported the decoy in the current folder"
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(done.stdout)["rows"]
    assert row["status"] == "optimal" and row["error"] == ""


def test_a_case_forked_ahead_counts_its_time_from_its_case() -> None:
    """After the first case of a kind, each case runs in a process forked ahead of it
    (it solved a sample while it waited): its clock, and so its ``--timeout``, must
    start when it is handed its case, so the solver's own time stays within the wall
    time the bench measured."""
    code, obj, _ = report("koburin", str(INSTANCES / "koburin"), "--timeout", "60")
    assert code == 0
    rows = obj["rows"]
    assert len(rows) >= 5 and all(r["verdict"] == "ok" for r in rows)
    for row in rows:
        assert row["inner_s"] <= row["wall_s"] + 0.02, row


def test_the_api_returns_the_rows_of_the_command_line() -> None:
    import smtpuzzles
    from smtpuzzles.errors import InputError

    folder = str(INSTANCES / "koburin")
    rows = smtpuzzles.bench("koburin", folder, timeout=30, presolve="none")
    _, obj, _ = report("koburin", folder, "--timeout", "30", "--presolve", "none")
    assert answers(rows) == answers(obj["rows"])
    assert [set(r) for r in rows] == [ROW_KEYS] * len(rows)
    assert {r["options"] for r in rows} == {"--presolve none"}
    for bad in (
        {"presolve": "some"},
        {"engine": "smt"},  # Koburin has no --engine
        {"timeout": "5"},
        {"jobs": 0},
        {"mode": "min"},
    ):
        with pytest.raises(InputError):
            smtpuzzles.bench("koburin", folder, **bad)


def test_a_sample_run_in_a_warm_process_leaves_its_case_the_json_object(capsys) -> None:
    """The warm parent (and a Nurikabe case forked ahead) runs a sample command with
    ``--json`` before its case; the case then found its JSON object marked as printed,
    and an error ended it with no object on stdout."""
    from smtpuzzles import exits
    from smtpuzzles.bench import warm

    warm._solve_sample("floodit", "min")
    capsys.readouterr()
    exits.error_json(["floodit", "min", "x.txt", "--json"], 0.1, "x.txt: no such file", True)
    obj = json.loads(capsys.readouterr().out)
    assert obj["status"] == "error" and obj["error"] == "x.txt: no such file"
