"""MkDocs hook: the CLI reference page is generated from the typer app itself, so it
cannot drift from what `smtpuzzles --help` says. Typer may carry its own copy of click,
so commands and parameters are recognised by what they offer, not by click's classes."""

from __future__ import annotations

from typing import Any

import typer

MARKER = "<!-- cli-reference -->"


def _escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _command_markdown(command: Any, ctx: Any, depth: int) -> list[str]:
    lines = [f"{'#' * min(depth, 6)} `{ctx.command_path}`", ""]
    pieces = " ".join(command.collect_usage_pieces(ctx))
    lines += ["```text", f"{ctx.command_path} {pieces}".rstrip(), "```", ""]
    if command.help:
        lines += [command.help.strip(), ""]
    rows = []
    for param in command.get_params(ctx):
        if param.param_type_name == "argument":
            what = param.human_readable_name
            help_text = getattr(param, "help", None) or ""
            required = "required" if param.required else "optional"
            rows.append((f"`{what}`", f"{help_text} ({required})".strip()))
        elif param.param_type_name == "option" and not param.hidden:
            names = ", ".join(f"`{o}`" for o in [*param.opts, *param.secondary_opts])
            if not param.is_flag and param.metavar:
                names += f" `{param.metavar}`"
            help_text = param.help or ""
            if param.default not in (None, False, ()) and not param.is_flag:
                help_text += f" (default: `{param.default}`)"
            rows.append((names, help_text))
    if rows:
        lines += ["| argument or option | meaning |", "|---|---|"]
        lines += [f"| {_escape(a)} | {_escape(b)} |" for a, b in rows]
        lines.append("")
    if hasattr(command, "list_commands"):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is None or sub.hidden:
                continue
            sub_ctx = sub.context_class(sub, info_name=name, parent=ctx)
            lines += _command_markdown(sub, sub_ctx, depth + 1)
    return lines


def reference() -> str:
    """The markdown of every command, from the root down."""
    from smtpuzzles.cli import app

    command = typer.main.get_command(app)
    ctx = command.context_class(command, info_name="smtpuzzles")
    return "\n".join(_command_markdown(command, ctx, 2))


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Replace the marker on the CLI page with the generated reference."""
    if MARKER in markdown:
        return markdown.replace(MARKER, reference())
    return markdown
