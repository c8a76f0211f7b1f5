"""janko.at puzzle blocks: ``[begin]``, ``key value`` header lines, ``[problem]``,
``[solution]`` (and other sections such as ``[moves]``), ``[end]``.

The grid sections are returned as text with the line number they start on, so the clue
grid parser can report errors at their true place in the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import InputError

_SECTION = re.compile(r"\s*\[(\w+)\]\s*")


@dataclass
class JankoBlock:
    """The header fields and the sections of one block."""

    header: dict[str, str] = field(default_factory=dict)
    sections: dict[str, tuple[int, str]] = field(default_factory=dict)  #: name -> (line, text)


def looks_like_janko(text: str) -> bool:
    """True when the first non-blank line is ``[begin]`` or a ``[problem]`` section exists."""
    for line in text.split("\n"):
        if line.strip():
            return line.strip().lower() == "[begin]" or "[problem]" in text.lower()
    return False


def parse_janko(text: str, source: str = "<text>") -> JankoBlock:
    """Split a janko block into header and sections; ``[problem]`` is required."""
    block = JankoBlock()
    current: str | None = "header"
    start = 1
    body: list[str] = []
    ended = False

    def close() -> None:
        if current and current != "header":
            block.sections[current] = (start, "\n".join(body))

    for lineno, line in enumerate(text.split("\n"), 1):
        m = _SECTION.fullmatch(line)
        if m:
            name = m.group(1).lower()
            close()
            body = []
            if name == "begin":
                current = "header"
            elif name == "end":
                current = None
                ended = True
            else:
                if name in block.sections:
                    raise InputError(f"section [{name}] appears twice", source, lineno, 1)
                current, start = name, lineno + 1
            continue
        if current == "header":
            if line.strip():
                key, _, value = line.strip().partition(" ")
                key = key.rstrip("=").strip().lower()
                block.header[key] = value.strip().lstrip("=").strip()
        elif current is not None:
            body.append(line)
        elif line.strip() and ended:
            raise InputError("text after [end]", source, lineno, 1)
    close()
    if "problem" not in block.sections:
        raise InputError("janko block without a [problem] section", source)
    return block
