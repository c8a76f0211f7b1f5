"""SMT-LIB 2 text: the builders every encoding writes its rules with, and the model of a
script (:class:`Script`: rules as commented blocks) that is both printed and parsed by
Z3, so what a reader sees is what was solved. Z3 parses text once, much cheaper than
building terms through the Python API.

Only standard syntax: counting is an ``ite`` sum, never a pseudo-Boolean term, so the
printed scripts stay readable by other solvers.
"""

from __future__ import annotations

import html
import re
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import z3lazy as z3

_OTHER = re.compile(r"[^A-Za-z0-9.\-+=<>!@$%^&*?/]")


def escape(name: str) -> str:
    """A cell's name as a piece of an SMT-LIB symbol (``black_<piece>``).

    Letters, digits and most punctuation stay; every other character, and ``_`` and ``~``
    themselves, become ``~<hex>~``. The mapping is one-to-one and ``_`` never survives, so
    names joined with ``_`` (``loop_<a>_<b>``) cannot collide, whatever an adjacency
    table calls its cells (``a_b`` and ``c`` against ``a`` and ``b_c``).
    """
    return _OTHER.sub(lambda m: f"~{ord(m.group()):x}~", name)


def or_(terms: Sequence[str]) -> str:
    """``(or ...)``; one term stands alone, none is ``false``."""
    if not terms:
        return "false"
    return terms[0] if len(terms) == 1 else f"(or {' '.join(terms)})"


def and_(terms: Sequence[str]) -> str:
    """``(and ...)``; one term stands alone, none is ``true``."""
    if not terms:
        return "true"
    return terms[0] if len(terms) == 1 else f"(and {' '.join(terms)})"


def not_(term: str) -> str:
    """``(not t)``, or ``x`` for ``(not x)`` so scripts stay readable."""
    inner = term[5:-1] if term.startswith("(not ") and term.endswith(")") else None
    if inner is not None and not any(ch in inner for ch in " ()"):
        return inner
    return f"(not {term})"


def plus(terms: Sequence[str]) -> str:
    """``(+ ...)`` of integer terms; one stands alone (cvc5 rejects a one-argument ``+``)."""
    if not terms:
        return "0"
    return terms[0] if len(terms) == 1 else f"(+ {' '.join(terms)})"


def count(terms: Sequence[str]) -> str:
    """How many of the Boolean ``terms`` hold, as an ``ite`` sum."""
    return plus([f"(ite {t} 1 0)" for t in terms])


# ------------------------------------------------------------------------- scripts

#: What a question's script answers, as its ``(check-sat)`` prints it.
ANSWERS = ("sat", "unsat", "unknown")


@dataclass
class Block:
    """One rule of a formula as text: a name, the rule in words, then its lines.

    ``declarations`` are the ``declare-fun`` lines of the variables the block brings in
    (a Flood-It move's variables, a region's distances); ``asserts`` are terms, each
    printed as one ``(assert ...)`` line.
    """

    rule: str
    says: str = ""
    asserts: list[str] = field(default_factory=list)
    declarations: list[str] = field(default_factory=list)

    def text(self) -> str:
        """The block as it is printed and parsed: its comment, declarations, asserts."""
        lines = [f"; -- {self.rule}"]
        lines += [f"; {line}" for line in textwrap.wrap(self.says, 86)]
        lines += self.declarations
        lines += [f"(assert {t})" for t in self.asserts]
        return "\n".join(lines) + "\n"


@dataclass
class Script:
    """A formula as the text that is both printed and fed to the solver.

    ``title`` and ``legend`` are comment lines (the legend maps each variable family to
    the puzzle's cells); ``declarations`` are the puzzle's own variables; ``blocks`` the
    rules, one :class:`Block` each; ``facts`` what presolving proved, unit assertions
    implied by the rules; ``question`` what one question adds (a goal, solutions
    forbidden, connectivity cuts); ``commands`` other commands before ``(check-sat)``
    (Z3's ``minimize``); ``answer`` the answer the question has, where known.
    """

    title: list[str] = field(default_factory=list)
    legend: list[str] = field(default_factory=list)
    declarations: list[str] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    facts: Block | None = None
    question: list[Block] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)
    answer: str | None = None
    logic: str = "QF_LIA"

    def parts(self) -> list[Block]:
        """The rules, the facts and the question's blocks, in the order they are read."""
        facts = [self.facts] if self.facts is not None and self.facts.asserts else []
        return [*self.blocks, *facts, *self.question]

    def body(self) -> str:
        """Declarations and blocks without ``set-logic`` and ``check-sat``: the text the
        solver parses (:meth:`text` wraps it)."""
        head = "\n".join(self.declarations) + "\n" if self.declarations else ""
        return head + "".join(block.text() for block in self.parts())

    def text(self) -> str:
        """The complete script, from ``(set-logic ...)`` to ``(check-sat)``."""
        lines = [f"; {line}" for line in self.title]
        lines.append(f"(set-logic {self.logic})")
        lines += [f"; {line}" for line in self.legend]
        lines.append(self.body().rstrip("\n"))
        lines += self.commands
        if self.answer is not None:
            lines.append(f"; expected answer: {self.answer}")
        lines.append("(check-sat)")
        return "\n".join(line for line in lines if line) + "\n"

    def asking(self, question: Sequence[Block] = (), answer: str | None = None) -> Script:
        """This formula with ``question``'s blocks added and its answer noted."""
        return replace(self, question=[*self.question, *question], answer=answer)

    def size(self) -> dict[str, int]:
        """Assertions, Boolean and integer variables (the counts ``--dry-run`` shows)."""
        declared = self.declarations + [d for b in self.parts() for d in b.declarations]
        return {
            "assertions": sum(len(b.asserts) for b in self.parts()),
            "bool_vars": sum(d.endswith("() Bool)") for d in declared),
            "int_vars": sum(d.endswith("() Int)") for d in declared),
        }

    def __str__(self) -> str:
        return self.text()

    def _repr_markdown_(self) -> str:
        """The script rule by rule in a notebook: each block's comment as a heading,
        its SMT-LIB beneath it."""
        out = [f"**{html.escape(line, quote=False)}**  " for line in self.title]
        if self.legend:
            out.append("\n" + "\n".join(f"- `{line}`" for line in self.legend))
        sizes = self.size()
        out.append(
            f"\n{sizes['assertions']} assertions over {sizes['bool_vars']} Boolean and "
            f"{sizes['int_vars']} integer variables ({self.logic})"
        )
        for block in self.parts():
            rule, says = (html.escape(text, quote=False) for text in (block.rule, block.says))
            out.append(f"\n#### {rule}\n\n{says}")
            code = block.declarations + [f"(assert {t})" for t in block.asserts]
            out.append("```smt\n" + "\n".join(code) + "\n```")
        if self.commands:
            out.append("```smt\n" + "\n".join(self.commands) + "\n```")
        return "\n".join(out) + "\n"


@dataclass
class Question:
    """One question a run asked the solver: its complete script and the answer it got
    (``sat``, ``unsat`` or ``unknown``). ``name`` says which (``optimum-27``,
    ``below-26``, ``puzzle``, ``another``) and names its file."""

    name: str
    script: str
    answer: str


def question(name: str, script: Script, answer: str) -> Question:
    """A :class:`Question` whose script notes its answer."""
    if answer not in ANSWERS:
        raise ValueError(f"unknown answer {answer!r}; expected one of {ANSWERS}")
    return Question(name, replace(script, answer=answer).text(), answer)


def join_questions(questions: Sequence[Question]) -> str:
    """Every question's complete script on one stream, each headed by a comment of its
    name and answer, joined by ``(reset)``: a solver reading it prints one answer each."""
    scripts = [f"; question {q.name}: {q.answer}\n{q.script}" for q in questions]
    return "(reset)\n".join(scripts)


#: The SMT-LIB version the scripts are written in.
SMTLIB_VERSION = "2.6"

#: The licence the SMT-LIB library asks benchmark files to carry.
LICENSE = "https://creativecommons.org/licenses/by/4.0/"

#: The kinds of benchmark the SMT-LIB library knows (``:category``).
CATEGORIES = ("crafted", "random", "industrial")


@dataclass
class Source:
    """What a benchmark file's ``:source`` says: the puzzle and question it asks about,
    and how it was made (``command``: the command line that wrote it)."""

    application: str
    command: str = ""
    category: str = "crafted"
    generated_on: str = ""


def is_standard(script: str) -> bool:
    """Is ``script`` standard SMT-LIB 2 (not Z3's Optimize dialect)?"""
    return "(minimize" not in script and "(maximize" not in script


def benchmark(q: Question, source: Source) -> str:
    """``q``'s script as a file of the SMT-LIB benchmark library: the header its
    submission rules ask for (``:smt-lib-version``, ``set-logic``, ``:source``,
    ``:license``, ``:category``), ``:status`` on the line before ``(check-sat)``, and a
    final ``(exit)``. A script in Z3's dialect keeps its note and gets no header."""
    if source.category not in CATEGORIES:
        raise ValueError(f"unknown category {source.category!r}; expected one of {CATEGORIES}")
    lines = q.script.rstrip("\n").splitlines()
    if not is_standard(q.script):
        return f"; question {q.name}: {q.answer}\n{q.script.rstrip()}\n(exit)\n"
    logic = next((ln for ln in lines if ln.startswith("(set-logic ")), "(set-logic QF_LIA)")
    body = [
        ln
        for ln in lines
        if not ln.startswith(("(set-logic ", "(set-info :status", "; expected answer:"))
        and ln not in ("(check-sat)", "(exit)")
    ]
    from . import __version__

    about = [
        f"Generated by: smtpuzzles {__version__}",
        *([f"Generated on: {source.generated_on}"] if source.generated_on else []),
        f"Application: {source.application}; question {q.name}",
        "Target solver: Z3 (any QF_LIA solver reads it)",
        *([f"Command: {source.command}"] if source.command else []),
    ]
    described = "\n".join(line.replace("|", "/").replace("\\", "/") for line in about)
    head = [
        f"(set-info :smt-lib-version {SMTLIB_VERSION})",
        logic,
        f"(set-info :source |\n{described}\n|)",
        f'(set-info :license "{LICENSE}")',
        f'(set-info :category "{source.category}")',
    ]
    tail = [f"(set-info :status {q.answer})", "(check-sat)", "(exit)"]
    return "\n".join(head + body + tail) + "\n"


def write_questions(
    questions: Sequence[Question],
    folder: str | Path,
    name: str,
    source: Source,
    force: bool = False,
) -> list[Path]:
    """One benchmark file per question (:func:`benchmark`),
    ``<folder>/<name>.<question>.smt2``, each written whole or not at all; returns the
    paths. The folder is made if missing (checked up front by the caller)."""
    from .output import make_folder, write_output

    folder = Path(folder)
    make_folder(folder)
    paths = []
    for q in questions:
        path = folder / f"{name}.{q.name}.smt2"
        write_output(path, benchmark(q, source), force)
        paths.append(path)
    return paths


# ---------------------------------------------------- scripts of Z3 terms, and sizes


def smtlib_script(
    assertions: Iterable[z3.BoolRef],
    logic: str = "QF_LIA",
    comments: Sequence[str] = (),
) -> str:
    """A complete SMT-LIB 2 script of Z3 terms, as Z3 prints them: for formulas built
    through the Python API (the reference Flood-It encoding); the puzzles' own formulas
    are :class:`Script` text.

    Standard syntax only, as long as the terms are (``ite`` sums, not pseudo-Boolean
    atoms): other solvers such as cvc5 read it.
    """
    assertions = list(assertions)
    printer = z3.Solver(ctx=assertions[0].ctx if assertions else None)
    for a in assertions:
        printer.add(a)
    body = printer.to_smt2().splitlines()
    body = [line for line in body if not line.startswith("; benchmark generated")]
    head = [f"; {c}" for c in comments]
    kept: list[str] = []
    for line in body:
        kept.append(line)
        if line.startswith("(set-info :status"):
            kept.append(f"(set-logic {logic})")
    if not any(line.startswith("(set-logic") for line in kept):
        kept.insert(0, f"(set-logic {logic})")
    return "\n".join(head + kept).rstrip() + "\n"


#: The comment that marks a script in Z3's Optimize dialect.
OPTIMIZE_NOTE = "Z3 dialect: (minimize ...) is a Z3 extension, not standard SMT-LIB 2"


def optimize_script(opt: z3.Optimize, comments: Sequence[str] = ()) -> str:
    """The script of a Z3 ``Optimize`` built through the Python API (Z3's own dialect:
    ``minimize`` is no SMT-LIB 2)."""
    head = [f"; {c}" for c in comments]
    head.append(f"; {OPTIMIZE_NOTE}")
    return "\n".join(head) + "\n(set-logic QF_LIA)\n" + opt.sexpr().rstrip() + "\n"


def formula_size(assertions: Sequence[z3.BoolRef]) -> dict[str, int]:
    """Counts a ``--dry-run`` prints: assertions, Boolean and integer constants."""
    seen: set[int] = set()
    bools = ints = 0
    stack: list[z3.ExprRef] = list(assertions)
    while stack:
        e = stack.pop()
        key = e.get_id()
        if key in seen:
            continue
        seen.add(key)
        if z3.is_const(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            if z3.is_bool(e):
                bools += 1
            elif z3.is_int(e):
                ints += 1
            continue
        stack.extend(e.children())
    return {"assertions": len(assertions), "bool_vars": bools, "int_vars": ints}
