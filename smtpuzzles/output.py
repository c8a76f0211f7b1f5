"""Output files (``-o``, ``--svg``, ``--cnf``) and folders (``--smtlib``, ``--proof``):
decided before any solving, written atomically.

An output is only ever a regular file, or a folder of regular files. A device, FIFO,
socket or folder at a file's path (or behind a symlink) is refused, and so is an
existing file unless the user forces it: a rename over it would replace a device node
or a link, and silently drop a read-only file's protection. :func:`refuse_bad_outputs` says
all of this up front, so a run that will be refused never prints its answer first;
:func:`write_output` then writes through a temporary file in the same folder and a
rename, so a reader never sees half a file.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from .errors import InputError


def _describe(mode: int) -> str | None:
    """What a non-regular file is, in words (``None`` for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _identity(path: str | Path) -> tuple[int, int] | None:
    """(device, inode) of what ``path`` names after following links, if it exists."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


def _lstat_output(path: Path, noun: str, role: str) -> os.stat_result | None:
    """What an output ``path`` is now, without following a link (``None``: nothing
    there yet); refuses an empty name, ``-``, and a path that cannot be looked at.
    ``noun`` (file or folder) and ``role`` name it in those messages."""
    name = str(path)
    if name in ("", "-"):
        raise InputError(f"an output {noun} needs a name ('-' is not one)", name or "''")
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise InputError(f"cannot use as {role}: {reason}", name) from None


def _check_one(path: Path, force: bool) -> None:
    """Refuse ``path`` as an output unless it is, or will become, a regular file."""
    name = str(path)
    link = _lstat_output(path, "file", "output")
    if link is not None:
        try:
            target = os.stat(path)
        except OSError:
            target = None  # a dangling symlink: the rename would replace the link
        if stat.S_ISLNK(link.st_mode):
            what = "a broken symlink" if target is None else "a symlink"
            shown = _describe(target.st_mode) if target is not None else None
            if shown is not None:
                what += f" to {shown}"
            raise InputError(f"refusing to write over {what}; name the file itself", name)
        shown = _describe(link.st_mode)
        if shown is not None:
            raise InputError(f"refusing to write to {shown}: outputs are regular files", name)
        if not force:
            read_only = not link.st_mode & 0o222 or not os.access(path, os.W_OK)
            what = "read-only file exists" if read_only else "file exists"
            raise InputError(f"{what}; use --force to replace it", name)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise InputError("the folder does not exist", name)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InputError("cannot write in this folder (permission denied)", name)


def refuse_bad_outputs(
    paths: Sequence[Path | None],
    inputs: Sequence[str],
    force: bool,
    folders: Sequence[tuple[Path | None, str, Sequence[str]]] = (),
    names: Sequence[str] = (),
) -> None:
    """Decide, before any solving, that every output in ``paths`` may be written.

    Refuses (one :class:`InputError` line naming the path): devices, FIFOs, sockets,
    folders and symlinks (to anything: a rename would replace the link itself), an
    existing file unless ``force`` (read-only or not: it keeps its mode), a missing or
    unwritable folder, two outputs naming the same file, and an output that is one of
    ``inputs`` (``-`` and URLs among them are skipped). ``None`` entries are outputs not
    asked for. ``names`` are the options of ``paths`` and then of ``folders``, in order
    (for the message when two name the same path).

    ``folders`` are output folders: (path, file name prefix, extensions), each checked
    by :func:`check_folder`, and never the same path as another output.
    """
    given = [Path(p) for p in paths if p is not None]
    labels = [n for p, n in zip([*paths, *(f[0] for f in folders)], names) if p is not None]
    everything = given + [Path(f[0]) for f in folders if f[0] is not None]
    seen: dict[str, int] = {}
    for i, path in enumerate(everything):
        key = os.path.normcase(os.path.abspath(path))
        if key in seen:
            both = " and ".join(labels[j] for j in (seen[key], i)) if labels else "two options"
            raise InputError(f"names two outputs ({both}); give them different paths", str(path))
        seen[key] = i
    for folder, prefix, extensions in folders:
        if folder is not None:
            check_folder(Path(folder), prefix, extensions, inputs, force)
    targets = [(path, _identity(path)) for path in given]
    for i, (path, ident) in enumerate(targets):
        for other, other_ident in targets[i + 1 :]:
            if ident is not None and ident == other_ident:
                raise InputError(f"is the same file as {other}; give two files", str(path))
    for source in inputs:
        if source == "-" or "\n" in source:
            continue
        ident = _identity(source)
        for path, out in targets:
            same_name = os.path.abspath(path) == os.path.abspath(source)
            if same_name or (ident is not None and out == ident):
                raise InputError("refusing to overwrite an input file", str(path))
    for path in given:
        _check_one(path, force)


def check_folder(
    folder: Path, prefix: str, extensions: Sequence[str], inputs: Sequence[str], force: bool
) -> None:
    """Refuse ``folder`` as an output folder unless it is a folder (or can be made one)
    in which files can be written, and holds no file ``<prefix>.*<extension>`` (one of
    ``extensions``) unless ``force``: the files a run writes there are named so. An
    input of the run is never such a file."""
    name = str(folder)
    link = _lstat_output(folder, "folder", "output folder")
    if link is None:
        parent = folder.parent if str(folder.parent) else Path(".")
        if not parent.is_dir():
            raise InputError("cannot make this folder: its parent is not a folder", name)
        _probe(parent, name)
        return
    if stat.S_ISLNK(link.st_mode):
        raise InputError("refusing to write into a symlink; name the folder itself", name)
    if not stat.S_ISDIR(link.st_mode):
        what = _describe(link.st_mode) or "a file"
        raise InputError(f"is {what}, not a folder: give a folder for these files", name)
    _probe(folder, name)
    ours = [
        entry
        for entry in sorted(os.listdir(folder))
        if entry.startswith(prefix + ".") and entry.endswith(tuple(extensions))
    ]
    for source in inputs:
        if source == "-" or "\n" in source:
            continue
        ident = _identity(source)
        for entry in ours:
            if ident is not None and _identity(folder / entry) == ident:
                raise InputError("refusing to overwrite an input file", str(folder / entry))
    if ours and not force:
        raise InputError(f"{ours[0]} exists in this folder; use --force to replace it", name)


def _probe(folder: Path, name: str) -> None:
    """Make and remove a file in ``folder``: the one sure test that files can be written
    there (permissions say nothing for root, nor on /proc or a read-only mount)."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=".smtpuzzles.", suffix=".probe", dir=folder)
        os.close(fd)
        os.unlink(tmp)
    except OSError as exc:
        raise InputError(f"cannot write in this folder: {exc.strerror or exc}", name) from None


def make_folder(folder: Path) -> None:
    """Make the output folder ``folder`` (checked by :func:`check_folder`) if missing."""
    try:
        Path(folder).mkdir(exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot make this folder: {exc.strerror or exc}", str(folder)) from None


def write_output(path: Path, text: str, force: bool = False) -> None:
    """Write ``text`` to the regular file ``path`` atomically (a temporary file in the
    same folder, then a rename), after the same checks as :func:`refuse_bad_outputs`.

    A forced replacement keeps the old file's permission bits; a new file gets the
    usual ``0666`` less the umask. Raises :class:`InputError` (one line) when the file
    may not or cannot be written; never leaves the temporary file behind.
    """
    path = Path(path)
    _check_one(path, force)
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = new_file_mode()
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror or exc}", str(path)) from None
    replace_atomically(path, lambda fh: fh.write(text), mode)


def replace_atomically(
    path: Path, fill: Callable[[IO[Any]], object], mode: int, binary: bool = False
) -> None:
    """Make ``path`` (already checked) hold what ``fill`` writes to the open file it is
    given (text in UTF-8, or bytes if ``binary``), with permission bits ``mode``: a
    temporary file in the same folder, then a rename, so a reader never sees half a
    file. An ``OSError`` becomes one :class:`InputError` line; the temporary file is
    never left behind."""
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror or exc}", str(path)) from None
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8") as fh:
            fill(fh)
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise InputError(f"cannot write: {exc.strerror or exc}", str(path)) from None
        raise


def new_file_mode() -> int:
    """The permission bits of a new file: ``0666`` less the umask."""
    return 0o666 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
