"""Make docs/results.md, and the marked figure blocks of the other docs pages, from the
results files in benchmarks/results/, so that every published figure comes from a file a
benchmark script wrote. `--check` fails when a page differs from what the files give."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DOCS = HERE.parent / "docs"
RESULTS = HERE / "results"
BLOCK = re.compile(r"(<!-- results: (\w+) -->\n).*?(<!-- /results -->)", re.S)


def _s(value: Any, digits: int = 2) -> str:
    """Seconds for a table cell."""
    return "-" if value is None else f"{value:.{digits}f}"


def _table(head: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def provenance(data: dict[str, Any], name: str) -> str:
    """Where a table comes from: script, versions, machine (the date is in the file)."""
    m = data["machine"]
    load = ", ".join(str(x) for x in m.get("load_at_start") or [])
    at_start = f", load {load} at the start" if load else ""
    script = data["command"].split()[0]
    commit = f" (commit {data['commit']})" if data.get("commit") else ""
    args = " ".join(data["command"].split()[1:])
    return (
        f"*smtpuzzles {data['package_version']}{commit}, z3 {data['z3_version']}, Python "
        f"{data['python']}; {m['cpu']}, {m['cores']} cores{at_start}. "
        f"Made by `python {script}{' ' + args if args else ''}`; the rows and the date are "
        f"in `benchmarks/results/{name}.json`.*"
    )


def _slowest(v: dict[str, Any]) -> str:
    return f"{_s(v['slowest_wall_s'])} ({v['slowest']})" if v.get("slowest") else "-"


def floodit_pc19(d: dict[str, Any]) -> str:
    s, t = d["summary"], d["settings"]
    head = ["boards", "proven optimal", "wrong", "median s", "90th pct s", "max s"]
    head += ["median CPU s", "median `elapsed_s`", "total s"]
    row = [t["boards"], s["optimal"], s["wrong"], _s(s["median_wall_s"]), _s(s["p90_wall_s"])]
    row += [_s(s["max_wall_s"]), _s(s.get("median_cpu_s")), _s(s["median_elapsed_s"])]
    row += [_s(s["total_wall_s"], 1)]
    return (
        _table(head, [row])
        + (
            f"\n\nWhole processes, `min`, `--jobs {t['jobs']}`, {t['timeout_s']:g} s limit; every "
            "length compared with the dataset's known optimum."
        )
        + _open(d["rows"], ("optimal",))
    )


def floodit_99problems(d: dict[str, Any]) -> str:
    head = ["family (rows_cols_colours)", "boards", "proven optimal", "median s"]
    head += ["median CPU s", "slowest s", "peak MB"]
    rows = [
        [f, v["boards"], v["proven"], _s(v["median_wall_s"]), _s(v.get("median_cpu_s"))]
        + [_slowest(v), round(v["peak_mb"])]
        for f, v in d["by_family"].items()
    ]
    s, t = d["summary"], d["settings"]
    return (
        _table(head, rows)
        + (
            f"\n\n{s['optimal']} of {s['instances']} proven optimal within {t['timeout_s']:g} s, "
            f"{s['wrong']} wrong (every length compared with the file's optimum)."
        )
        + _open(d["rows"], ("optimal",))
    )


def _run_cell(r: dict[str, Any]) -> str:
    return f"{_s(r['wall_s'])} s ({_s(r.get('cpu_s'))} CPU), {r['status']}, {r.get('length')}"


def floodit_baseline(d: dict[str, Any]) -> str:
    by = {(r["instance"], r["variant"]): r for r in d["rows"]}
    rows = []
    for board in d["settings"]["boards"]:
        ours, ref = by[(board, "smtpuzzles")], by[(board, "reference")]
        ratio = f"{ref['cpu_s'] / ours['cpu_s']:.1f}x" if ours.get("cpu_s") else "-"
        rows.append([board, _run_cell(ours), _run_cell(ref), ratio])
    s = d["summary"]
    head = ["board", "smtpuzzles (time, status, length)"]
    head += ["`--encoding reference` (time, status, length)", "CPU ratio"]
    return _table(head, rows) + (
        f"\n\nMedian CPU time ratio {d['median_ratio_reference_to_smtpuzzles']}x; peak memory "
        f"{round(s['smtpuzzles']['peak_mb'])} MB against {round(s['reference']['peak_mb'])} MB. "
        "Both run board by board in the same run, whole processes, "
        f"{d['settings']['timeout_s']:g} s limit."
    )


def floodit_cfrs(d: dict[str, Any]) -> str:
    by = {(r["instance"], r["variant"]): r for r in d["rows"]}
    rows = []
    for board in d["settings"]["boards"]:
        z3_run, cadical = by[(board, "z3")], by[(board, "cadical")]
        known = z3_run.get("known")
        rows.append([board, "?" if known is None else known, _run_cell(z3_run), _run_cell(cadical)])
    head = ["board", "optimum", "Z3 (time, status, length)", "`--engine cadical`"]
    return _table(head, rows) + (
        f"\n\nBoth engines board by board in the same run, whole processes, "
        f"{d['settings']['timeout_s']:g} s limit; an optimal length is compared with the "
        "known optimum where there is one."
    )


def floodit_ideas(d: dict[str, Any]) -> str:
    totals = d["total_cpu_s"]
    rows = []
    for name in d["settings"]["variants"]:
        s = d["summary"][name]
        rows.append(
            [f"`{name}`" if name != "default" else "default", d["median_ratio_to_default"][name]]
            + [_s(totals["pc19"][name], 1), _s(totals["99problems"][name], 1)]
            + [f"{s['optimal']} / {s['instances']}"]
        )
    pc19 = sum(1 for b in d["settings"]["boards"] if b.startswith("pc19"))
    hard = ", ".join(b for b in d["settings"]["boards"] if not b.startswith("pc19"))
    head = ["variant", "median CPU time ratio to default", f"total CPU s, first {pc19} pc19"]
    head += [f"total CPU s, {hard}", "proven optimal"]
    return _table(head, rows) + (
        "\n\n`min`, whole processes, the variants of one board back to back, "
        f"{d['settings']['timeout_s']:g} s limit."
    )


def nurikabe_janko_distance(d: dict[str, Any]) -> str:
    head = ["cells", "puzzles", "solved", "median s", "median CPU s", "slowest solved s"]
    rows = [
        [c, v["puzzles"], v["solved"], _s(v["median_wall_s"]), _s(v.get("median_cpu_s"))]
        + [_slowest(v)]
        for c, v in d["by_class"].items()
    ]
    s, t = d["summary"], d["settings"]
    return (
        _table(head, rows)
        + (
            f"\n\n{s['answered']} of {s['instances']} solved within {t['timeout_s']:g} s, "
            f"{s['wrong']} wrong (every answer compared with its `.sol`); the median `elapsed_s` "
            f"{_s(s['median_elapsed_s'], 3)} s; whole processes, `--jobs {t['jobs']}`."
        )
        + _open(d["rows"], ("solved",))
    )


def _variant(row: dict[str, Any]) -> str:
    """`lazy: ` for a run of a named variant of a side-by-side table, else nothing."""
    name = row.get("variant", "")
    return f"{name}: " if name and not name.startswith("#") and name != "min" else ""


def _open(rows: list[dict[str, Any]], answered: tuple[str, ...]) -> str:
    """A sentence naming the runs without an answer, with the CPU time each had."""
    missed = [r for r in rows if r["status"] not in answered]
    if not missed:
        return ""
    named = ", ".join(
        f"{r['instance']} ({_variant(r)}{r['status']} after {_s(r['wall_s'], 1)} s, "
        f"{_s(r.get('cpu_s'), 1)} s of CPU)"
        for r in missed
    )
    return f" Not answered within the limit: {named}."


def _strategies(d: dict[str, Any], names: tuple[str, ...]) -> str:
    head = ["connectivity", "solved", "wrong", "median s", "max s", "median CPU s"]
    head += ["median `elapsed_s`", "total s", "peak MB"]
    rows = []
    for name in names:
        s = d["summary"][name]
        rows.append(
            [f"`{name}`", f"{s['answered']} / {s['instances']}", s["wrong"]]
            + [_s(s["median_wall_s"]), _s(s["max_wall_s"]), _s(s.get("median_cpu_s"))]
            + [_s(s["median_elapsed_s"], 3), _s(s["total_wall_s"], 1), round(s["peak_mb"])]
        )
    return _table(head, rows)


def nurikabe_connectivity(d: dict[str, Any]) -> str:
    t = d["settings"]
    return (
        _strategies(d, ("distance", "lazy"))
        + (
            f"\n\nEvery {t['every']}th janko puzzle and the seed004 ones ({t['puzzles']} "
            f"puzzles), both strategies back to back per puzzle, {t['timeout_s']:g} s limit. "
            f"Median CPU time ratio lazy / distance {d['median_ratio_lazy_to_distance']}; lazy "
            f"faster on {d['lazy_faster']}."
        )
        + _open(d["rows"], ("solved",))
    )


def koburin_janko(d: dict[str, Any]) -> str:
    return (
        _strategies(d, ("lazy", "distance"))
        + (
            f"\n\nThe janko corpus ({d['settings']['puzzles']} puzzles, 8x8 to 12x12), both "
            "strategies back to back per puzzle, whole processes; answers compared with the "
            "`.sol` files. Median CPU time ratio distance / lazy "
            f"{d['median_ratio_distance_to_lazy']}."
        )
        + _open(d["rows"], ("solved",))
    )


def explain_janko(d: dict[str, Any]) -> str:
    """`explain` over the odd janko half: per size band, status, CPU and the steps."""
    out = []
    for band, v in d["summary"].items():
        if not isinstance(v, dict) or "puzzles" not in v:
            continue
        cpu, grade, steps = v["cpu_s"], v.get("grade") or {}, v.get("steps") or {}
        limits = "/".join(f"{x:g}" for x in v.get("cpu_limit_s", []))
        walls = "/".join(f"{x:g}" for x in v.get("wall_limit_s", []) if x)
        limits = ", ".join(x for x in (limits, walls and f"{walls} wall") if x) or "-"
        out.append(
            [
                band,
                limits,
                v.get("in_half", "-"),
                v["puzzles"],
                v["status"].get("complete", 0),
                v.get("complete_within_10_cpu_s", "-"),
                _s(cpu.get("median")),
                _s(cpu.get("p90")),
                _s(cpu.get("max")),
                grade.get("median", "-"),
                steps.get("median", "-"),
                (v.get("largest_step") or {}).get("median", "-"),
            ]
        )
    head = ["puzzles", "limit s", "in the half", "run", "complete", "complete in 10 CPU s"]
    head += ["CPU median"]
    head += ["CPU p90"]
    head += ["CPU max", "grade median", "steps median", "largest step median"]
    text = _table(head, out)
    sizes = d["summary"]["all"]["step_sizes"]
    text += "\n\nStep sizes (premises: steps): " + ", ".join(f"{k}: {n}" for k, n in sizes.items())
    by_proxy = d["summary"].get("grade_by_proxy")
    if by_proxy:
        medians = ", ".join(
            f"level {k}: {g.get('median')} ({g.get('n')})" for k, g in by_proxy.items()
        )
        text += (
            f". Grade median by presolve level (puzzles): {medians}; Spearman's rank "
            f"correlation of grade and level {d['summary'].get('spearman_grade_proxy')}"
        )
    text += ". CPU seconds per process; a run ends at the limit its settings give."
    again = d["summary"]["all"].get("run_again")
    if again:
        runs = max(len(r["cpu_runs"]) for r in d["rows"] if "cpu_runs" in r)
        over = max(part.get("again_over", 0) for part in d["settings"])
        whole = d["summary"]["all"]
        same = "the same steps in every run" if whole["same_steps_every_run"] else "steps differ"
        text += (
            f" {again} puzzles over {over:g} CPU s in their first run (or stopped by the cap)"
            f" were run"
            f" {runs} times in all and count with their least CPU ({same}); in their first"
            f" runs {whole['first_run_at_most_10_s']} of {whole['puzzles']} took at most 10 s."
        )
    return text


_FAMILY = {
    "pc19": "pc19, first boards (14x14, 6 colours)",
    "r14c8": "random 14x14, 8 colours",
    "r12c12": "random 12x12, 12 colours",
    "r10c15": "random 10x10, 15 colours",
    "99problems": "99problems (12x12 to 20x20, 6 to 10 colours)",
}


def floodit_peers(d: dict[str, Any]) -> str:
    head = ["family", "boards", "proven optimal", "ColorFill solved", "wrong"]
    head += ["ColorFill CPU s", "smtpuzzles CPU s, a process per board", "ratio"]
    head += ["smtpuzzles CPU s, one process", "ratio"]
    benched = all("bench_cpu_s" in f["summary"] for f in d["families"])
    if benched:
        head += ["`smtpuzzles bench` CPU s", "ratio"]
    rows = []
    for f in d["families"]:
        s = f["summary"]
        rows.append(
            [_FAMILY.get(f["family"], f["family"]), s["boards"], s["proven_optimal"]]
            + [s["colorfill_solved"], s["wrong"], _s(s["colorfill_cpu_s"], 1)]
            + [_s(s["process_cpu_s"], 1), _ratio(s["ratio_process"])]
            + [_s(s["one_process_cpu_s"], 1), _ratio(s["ratio_one_process"])]
            + ([_s(s["bench_cpu_s"], 1), f"{s['ratio_bench']:.2f}x"] if benched else [])
        )
    return (
        _table(head, rows)
        + (
            "\n\n`min` against ColorFill's optimal A* (Puchert's heuristic), both on the same "
            "boards in the same run; ratio: smtpuzzles' CPU over ColorFill's (below 1: "
            "smtpuzzles is faster). ColorFill solves a family in one JVM (a new one goes on "
            "after a board it could not finish in time or memory), start-up and JIT included; "
            "smtpuzzles once as a fresh process per board (start-up and imports in every "
            "board), once with all boards in one process"
            + (
                ", and once as one `smtpuzzles bench` (a process per board forked by a warm "
                "parent; the CPU of the bench and all its processes)"
                if benched
                else ""
            )
            + ". wrong: a length called optimal "
            "that differs from ColorFill's or from the known optimum, or an answer the checker "
            f"rejects. {d['settings']['timeout_s']:g} s per board."
        )
        + "".join(_peers_open(f) for f in d["families"])
    )


def _peers_open(family: dict[str, Any]) -> str:
    """The boards of a family that either solver left open, and why."""
    said = []
    peer = family.get("colorfill") or {}
    unsolved = peer.get("unsolved", {})
    if unsolved:
        why = {"time": "out of time"}
        heap = f" (heap {peer['xmx']})" if peer.get("xmx") else ""
        boards = ", ".join(f"{b} ({why.get(r, r)})" for b, r in sorted(unsolved.items()))
        said.append(f"ColorFill{heap} left {len(unsolved)} open: {boards}.")
    open_ = [r["board"] for r in family["rows"] if r["process_status"] != "optimal"]
    if open_:
        said.append(f"smtpuzzles left {len(open_)} open: {', '.join(open_)}.")
    if not said:
        return ""
    return f"\n\n{_FAMILY.get(family['family'], family['family'])}: " + " ".join(said)


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}x"


def fuzz(d: dict[str, Any]) -> str:
    kinds = ["tracebacks", "hangs", "bad_json", "wrong_answers", "timeout_overshoots"]
    kinds += ["slow_ctrl_c", "bad_exit"]
    newer = "bad_outputs" in next(iter(d["totals"].values()))
    kinds += ["bad_outputs"] if newer else []
    head = ["puzzle", "cases", *[k.replace("_", " ") for k in kinds]]
    head += ["`--timeout` runs", "latest end past the limit", "Ctrl-C runs", "answers checked"]
    head += ["past 0.5 s on the clock", "generate / bench / API cases"] if newer else []
    forked = all(t["run"].get("forked") for t in d["totals"].values())
    head += ["brute-force checked", "also run fresh", "fresh/forked disagree"] if forked else []
    rows = []
    for name, t in d["totals"].items():
        rows.append(
            [name, t["cases"], *[t[k] for k in kinds], t["timeout_runs"]]
            + [f"{t['max_overshoot_s']:.2f} s", t["ctrl_c_runs"], t["checked_runs"]]
        )
        if newer:
            kind = t.get("surfaces", {})
            rows[-1] += [t["raw_overshoots"] + t["raw_slow_ctrl_c"]]
            rows[-1] += [" / ".join(str(kind.get(k, 0)) for k in ("generate", "bench", "api"))]
        if forked:
            rows[-1] += [t["oracle_runs"], t["fresh_sample"]["cases"], t["disagreements"]]
    runs = {p: t["run"] for p, t in d["totals"].items()}
    said = "; ".join(
        f"{p}: commit {r.get('commit')}, {r['jobs']} case{'s' * (r['jobs'] != 1)} at a time, "
        f"seed {r['seed']}, "
        f"{r['wall_s'] / 60:.0f} min"
        for p, r in runs.items()
    )
    load = (
        " On a machine other processes share, the half second stretches as the run's clock "
        "time did against its processor time (at most "
        f"{d.get('stretch_cap', 6):g} times); the runs past 0.5 s on the clock whatever the "
        "load are counted beside it."
        if newer
        else ""
    )
    how = (
        " Each case is a process forked from a parent that has imported the package once "
        "(its own process group, folder, streams, exit status and clock: what a fresh process "
        "would pay to start is skipped), and one case in "
        f"{d.get('fresh_every', 20)} runs again as a fresh `python -m smtpuzzles` process, "
        "judged alike; the two disagree when, neither stopped by a limit or Ctrl-C, they "
        "end with another exit code, error line or status. Answers on small puzzles the "
        "harness made (not mutated) are compared with brute force, exit 1 included."
        if forked
        else ""
    )
    loads = (
        f" Load {', '.join(map(str, d['load_before']))} at the start, "
        f"{', '.join(map(str, d['load_after']))} at the end."
        if forked and "load_before" in d
        else ""
    )
    return _table(head, rows) + (
        "\n\nEach case is one process on a random or shipped puzzle, often mutated, with "
        "random options, a `--timeout` in most, a `--memory` cap or a Ctrl-C in some. A "
        f"limit is honoured when the process ends within {d['prompt_s']:g} s of it, start-up "
        f"included{' in a fresh process' if forked else ''}.{load}{how} Runs: {said}.{loads}"
    )


def limits(d: dict[str, Any]) -> str:
    head = ["case", "`--timeout`", "`--memory`", "runs", "latest end past the limit", "peak MB"]
    head += ["Ctrl-C runs", "latest end after a Ctrl-C", "held"]
    rows = []
    for c in d["cases"]:
        over = c["max_over_s"]
        stops = c.get("ctrl_c_runs", [])
        late = c.get("max_ctrl_c_s")
        rows.append(
            [c["case"], f"{c['timeout_s']:g} s", f"{c['memory_mb']} MB" if c["memory_mb"] else "-"]
            + [len(c["runs"]), f"{over:.2f} s" if over >= 0 else "ended before it"]
            + [round(c["max_peak_mb"]), len(stops), "-" if late is None else f"{late:.2f} s"]
            + ["yes" if c["held"] else "**no**"]
        )
    parts = ", ".join(f"{part:g}" for part in d.get("ctrl_c_at", ()))
    return _table(head, rows) + (
        f"\n\nEach case alone, a whole process as a user runs it, with `--json`; held: every "
        f"run ended within {d['prompt_s']:g} s of its `--timeout` and of its Ctrl-C (sent at "
        f"{parts} of the time limit), printed one JSON object and no traceback, and under "
        f"`--memory` peaked within the cap above a trivial run's {d['baseline_peak_mb']} MB."
    )


RENDER: dict[str, tuple[str, Callable[[dict[str, Any]], str]]] = {
    "floodit_pc19": ("Flood-It: pc19, `min`", floodit_pc19),
    "floodit_99problems": ("Flood-It: 99problems, `min`", floodit_99problems),
    "floodit_99problems_cadical": (
        "Flood-It: 99problems, `min --engine cadical`",
        floodit_99problems,
    ),
    "floodit_baseline": ("Flood-It: against the baseline", floodit_baseline),
    "floodit_cfrs": ("Flood-It: color-flood-rs's boards, both engines", floodit_cfrs),
    "floodit_ideas": ("Flood-It: each idea on and off", floodit_ideas),
    "nurikabe_janko_distance": ("Nurikabe: the janko corpus", nurikabe_janko_distance),
    "nurikabe_connectivity": ("Nurikabe: distance against lazy", nurikabe_connectivity),
    "koburin_janko": ("Koburin: the janko corpus", koburin_janko),
    "floodit_peers": ("Flood-It: beside ColorFill", floodit_peers),
    "floodit_peers_99problems": ("Flood-It: 99problems beside ColorFill", floodit_peers),
    "limits": ("Time and memory limits", limits),
    "explain_janko_nurikabe": ("Nurikabe: explain over the odd janko half", explain_janko),
    "explain_janko_koburin": ("Koburin: explain over the odd janko half", explain_janko),
    "explain_janko_nurikabe_upto10": (
        "Nurikabe: explain over the odd janko half up to 10x10, run again",
        explain_janko,
    ),
    "explain_janko_nurikabe_z3smt": (
        "Nurikabe: explain over the odd janko half, Z3's SMT solver answering",
        explain_janko,
    ),
    "explain_janko_koburin_z3smt": (
        "Koburin: explain over the odd janko half, Z3's SMT solver answering",
        explain_janko,
    ),
    "explain_janko_nurikabe_sample": (
        "Nurikabe: explain over every fourth puzzle of the odd janko half, CaDiCaL answering",
        explain_janko,
    ),
    "explain_janko_koburin_sample": (
        "Koburin: explain over every fourth puzzle of the odd janko half, CaDiCaL answering",
        explain_janko,
    ),
    "fuzz": ("Fuzzing the command line", fuzz),
}


def section(name: str) -> str | None:
    """A table and its provenance from one results file, or None when there is none."""
    path = RESULTS / f"{name}.json"
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    return RENDER[name][1](data) + "\n\n" + provenance(data, name)


def results_page() -> str:
    parts = [
        "# Benchmarks",
        "",
        "Every table here is made by `python benchmarks/make_results.py` from a results file "
        "that a script in `benchmarks/` wrote; run the script again to measure on your "
        "machine (the corpora are read from `../shared/data` beside the project, or from "
        "`--data`). Times are wall-clock seconds of whole processes, start-up included. "
        '"CPU" is the CPU time the process used, which a loaded machine disturbs far less, '
        "so comparisons between variants use it; `elapsed_s` is the time the tool reports in "
        "its JSON. The load at the start of each run is given with its table.",
    ]
    for name, (title, _) in RENDER.items():
        text = section(name)
        if text is not None:
            anchor = name.replace("_", "-")
            parts += ["", f"## {title} {{#{anchor}}}", "", text]
    return "\n".join(parts) + "\n"


def fill_blocks(text: str) -> str:
    """Fill each `<!-- results: NAME -->` block of a page with NAME's table."""

    def one(match: re.Match[str]) -> str:
        body = section(match.group(2))
        if body is None:
            body = f"*No results file yet: run `python benchmarks/{match.group(2)}.py`.*"
        return f"{match.group(1)}{body}\n{match.group(3)}"

    return BLOCK.sub(one, text)


def pages() -> dict[Path, str]:
    """Every generated page and filled page, as it should read."""
    out = {DOCS / "results.md": results_page()}
    for path in sorted(DOCS.glob("*.md")):
        if path.name != "results.md":
            text = path.read_text()
            filled = fill_blocks(text)
            if filled != text or BLOCK.search(text):
                out[path] = filled
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="fail if a page is stale")
    args = parser.parse_args()
    stale = []
    for path, text in pages().items():
        if not path.exists() or path.read_text() != text:
            stale.append(path)
            if not args.check:
                path.write_text(text)
    if args.check and stale:
        sys.exit("stale: " + ", ".join(str(p.relative_to(HERE.parent)) for p in stale))


if __name__ == "__main__":
    main()
