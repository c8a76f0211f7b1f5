"""``generate --grade``: the puzzle made has the grade ``rate`` gives it (the real
``rate`` command run on the file written), ``--grade`` reads rate's bands, numbers and
ranges and refuses anything else, and a batch's manifest carries each puzzle's rate
grade and number."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from oracles.cli import assert_bad_input, benched, cli, generated, run_process

from smtpuzzles.cli.generating import Grade, bands, parse_grade
from smtpuzzles.errors import InputError
from smtpuzzles.forced import GRADE_BANDS, grade_words


def rated(kind: str, path: Path) -> dict:
    """What ``smtpuzzles KIND rate PATH --json`` prints (exit 0 asserted)."""
    result = cli(kind, "rate", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_bands_are_rates_words_end_to_end() -> None:
    named = bands()
    assert list(named) == [words for _, words in GRADE_BANDS]
    for words, (low, high) in named.items():
        assert grade_words(low) == words
        if high is not None:
            assert grade_words(high) == words and grade_words(high + 1) != words
    assert named["easy"][0] == 0 and named["fiendish"][1] is None


@pytest.mark.parametrize(
    "text, low, high",
    [
        ("easy", 0, 15),
        ("medium", 16, 25),
        (" Hard ", 26, 35),
        ("fiendish", 36, None),
        ("30", 30, 30),
        ("25-35", 25, 35),
        ("30-", 30, None),
        ("0", 0, 0),
    ],
)
def test_grade_reads_words_numbers_and_ranges(text: str, low: int, high: int | None) -> None:
    wanted = parse_grade(text)
    assert wanted is not None and (wanted.low, wanted.high) == (low, high)
    assert wanted.holds(low) and not wanted.holds(low - 1)
    assert high is None or not wanted.holds(high + 1)


@pytest.mark.parametrize("text", ["", "extreme", "35-25", "-5", "3.5", "1-2-3", "30 35", "1e3"])
def test_a_bad_grade_is_refused(text: str) -> None:
    with pytest.raises(InputError, match="--grade"):
        parse_grade(text)


@pytest.mark.parametrize("kind", ["nurikabe", "koburin"])
@pytest.mark.parametrize("value", ["extreme", "35-25", "x-"])
def test_a_bad_grade_is_one_line_and_exit_2(kind: str, value: str, tmp_path: Path) -> None:
    result = cli(kind, "generate", "6", "6", "--grade", value, "-o", str(tmp_path / "p.txt"))
    assert_bad_input(result)
    assert "--grade" in result.stderr and not (tmp_path / "p.txt").exists()


def test_a_grade_says_itself_with_its_range() -> None:
    assert str(Grade(26, 35, "hard")) == "grade hard (26-35)"
    assert str(Grade(30, 30, "30")) == "grade 30"
    assert str(Grade(30, None, "30-")) == "grade 30-"


@pytest.mark.parametrize(
    "kind, size, seed, grade",
    [
        ("nurikabe", "7", "1", "easy"),
        ("nurikabe", "7", "1", "16-25"),
        ("koburin", "6", "1", "medium"),
        ("koburin", "6", "2", "15-"),
        pytest.param("nurikabe", "12", "1", "easy", marks=pytest.mark.slow),
        pytest.param("koburin", "10", "1", "hard", marks=pytest.mark.slow),
    ],
)
def test_the_puzzle_made_has_the_grade_rate_gives_it(
    kind: str, size: str, seed: str, grade: str, tmp_path: Path
) -> None:
    made = tmp_path / "made.txt"
    argv = [kind, "generate", size, size, "--seed", seed, "--grade", grade, "-o", str(made)]
    # a limit far past the usual time (under 30 s of processor time): on a loaded
    # machine the candidates are the same, only slower to rate
    result = cli(*argv, "--timeout", "300")
    assert result.exit_code == 0, result.stderr
    facts = rated(kind, made)
    wanted = parse_grade(grade)
    assert wanted is not None and facts["status"] == "complete"
    assert wanted.holds(facts["grade"]), (grade, facts)
    exact = cli(*argv[:-2], "--grade", str(facts["grade"]), "-o", str(tmp_path / "again.txt"))
    assert exact.exit_code == 0, exact.stderr
    assert rated(kind, tmp_path / "again.txt")["grade"] == facts["grade"]


@pytest.mark.parametrize("kind, seed", [("nurikabe", "1"), ("koburin", "1")])
def test_a_graded_batch_lists_rates_grade_and_number(kind: str, seed: str, tmp_path: Path) -> None:
    folder = tmp_path / "made"
    argv = [kind, "generate", "6", "6", "--seed", seed, "--count", "2", "--grade", "0-"]
    puzzles = generated([*argv, "--timeout", "120"], folder)
    assert len(puzzles) == 2
    for entry in puzzles:
        assert entry["file"].endswith(".txt") and (folder / entry["file"]).exists()
        facts = rated(kind, folder / entry["file"])
        assert entry["rating"] == facts["grade"] and isinstance(entry["rating"], int)
        assert entry["grade"] == facts["words"] == grade_words(entry["rating"])
    rows = benched(kind, folder, tmp_path / "rows.jsonl")
    assert len(rows) == 2 and all(r["verdict"] == "ok" for r in rows), rows


@pytest.mark.parametrize("kind", ["nurikabe", "koburin"])
def test_an_ungraded_batch_names_its_files_and_rates_nothing(kind: str, tmp_path: Path) -> None:
    folder = tmp_path / "made"
    puzzles = generated([kind, "generate", "6", "6", "--count", "2"], folder)
    for entry in puzzles:
        assert entry["file"].endswith(".txt") and (folder / entry["file"]).exists()
        assert entry["grade"] is None and entry["rating"] is None


def test_a_grade_not_reached_in_time_is_exit_3_and_says_so(tmp_path: Path) -> None:
    """Koburin's 8x8 puzzles are never fiendish, and in 4 s the generator is far from
    running out of candidates: the time runs out, and the command says which grade it
    missed and prints nothing. Run as a process of its own, as a user runs it, with no
    other test's signals around it."""
    made = tmp_path / "made.txt"
    argv = ["koburin", "generate", "8", "8", "--grade", "fiendish", "--timeout", "4"]
    run = run_process([*argv, "-o", str(made)], hard_limit_s=60)
    assert run.returncode == 3, (run.returncode, run.stderr)
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and "time limit" in lines[0] and "fiendish" in lines[0], lines
    assert not made.exists() and run.stdout == ""


@pytest.mark.parametrize("spent", [False, True])
def test_candidates_run_out_or_time_up_is_said_once(
    spent: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    """A maker that gives up (``None``) after rating candidates has run out of them,
    unless the time was up when it gave up (it reads the clock before the alarm comes):
    then it is the time limit. Either way one line and exit 3, the grade named."""
    import typer

    from smtpuzzles.cli.generating import Judge, make_each
    from smtpuzzles.cli.options import Shared
    from smtpuzzles.limits import Budget

    wanted = parse_grade("fiendish")
    assert wanted is not None
    judge = Judge("koburin", wanted)

    def make(seed: int, budget: Budget):  # type: ignore[no-untyped-def]
        judge.rated, judge.nearest = 3, 20
        if spent:
            budget.started -= 3600.0  # the clock says the time is up; no alarm yet
        return None

    with pytest.raises(typer.Exit) as ended:
        make_each(Shared(timeout=600.0), None, 0, "koburin", make, judge)
    assert ended.value.exit_code == 3
    lines = capsys.readouterr().err.splitlines()
    said = "time limit reached before" if spent else "no puzzle of grade fiendish"
    assert len(lines) == 1 and lines[0].startswith(f"smtpuzzles: error: {said}"), lines
    assert "fiendish" in lines[0] and "3 rated; nearest rated 20" in lines[0], lines


def test_ctrl_c_while_rating_prints_nothing_and_exits_130() -> None:
    """Koburin's 10x10 candidates are made in a fraction of a second, so after two
    seconds it is rating one: Ctrl-C ends the explanation and the command."""
    argv = ["koburin", "generate", "10", "10", "--grade", "fiendish"]
    run = run_process(argv, interrupt_after=2.0, hard_limit_s=60)
    assert run.returncode == 130, (run.returncode, run.stderr)
    assert run.stdout == "" and run.stderr.splitlines() == ["smtpuzzles: error: interrupted"]
    assert run.wall_s < 2.0 * run.stretch + 5.0, (run.wall_s, run.stretch)


def test_the_time_limit_holds_while_rating() -> None:
    argv = ["nurikabe", "generate", "12", "12", "--grade", "fiendish", "--timeout", "4"]
    run = run_process(argv, hard_limit_s=60)
    assert run.returncode == 3, (run.returncode, run.stderr)
    assert run.stdout == "" and run.stderr.count("\n") == 1 and "time limit" in run.stderr
    assert run.wall_s <= 4 * run.stretch + 1.0, (run.wall_s, run.stretch)


def test_the_help_gives_rates_bands() -> None:
    """The help names the bands with their grades as rate has them."""
    from smtpuzzles.cli.generating import GRADE

    text = GRADE[0].__metadata__[0].help
    for words, (low, high) in bands().items():
        assert f"{words} ({low}-{high})" in text or f"{words} ({low} and up)" in text, words


def test_a_koburin_puzzle_moved_either_way_stays_unique_with_its_answer() -> None:
    """``--grade``'s moves: shown ``?`` keep the answer; numbers taken away leave a
    puzzle the solver proves unique, with the answer the move gives, and no more ``?``
    than ``--max-unknown`` allows."""
    from smtpuzzles.limits import Budget
    from smtpuzzles.puzzles.koburin import problems, solve
    from smtpuzzles.puzzles.koburin.generate import generate, steer

    moves = {1: 0, -1: 0}
    for seed in range(1, 5):
        made = generate(10, 10, seed)
        assert made is not None
        puzzle, answer, _ = made
        for verdict in moves:
            moved = steer(puzzle, answer, verdict, seed, Budget(), 0.1)
            if moved is None:
                continue
            moves[verdict] += 1
            p, a = moved
            assert problems(p, a.black, a.edges) == []
            outcome = solve(p, unique=True)
            assert outcome.unique is True and outcome.solution.black == a.black
            values = list(p.clues.values())
            if verdict > 0:
                assert set(p.clues) == set(puzzle.clues) and None not in values
                assert a == answer
            else:
                assert set(p.clues) < set(puzzle.clues)
                assert sum(v is None for v in values) <= 0.1 * len(values)
    assert all(moves.values()), moves


@pytest.mark.parametrize(
    "text, lean",
    [("easy", 1), ("12", 1), ("0-15", 1), ("medium", 0), ("10-18", 0), ("0-", 0)]
    + [("20-30", 0), ("hard", -1), ("fiendish", -1), ("26-", -1), ("40", -1)],
)
def test_a_grade_leans_the_first_candidate_only_when_wholly_off_medium(
    text: str, lean: int
) -> None:
    """The generators' ordinary candidates mostly rate medium: a range wholly below it
    leans the first candidate easier, one wholly above harder, any other not at all."""
    wanted = parse_grade(text)
    assert wanted is not None and wanted.lean() == lean
