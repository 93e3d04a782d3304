"""GitHub Actions workflow commands: `::warning file=src/gemm.c,line=9,col=6,title=...::message`,
which the Actions runner turns into annotations on the pull request's changed lines.

Escaping follows the runner's rules (actions/toolkit, `command.ts`): in the message `%`, CR and LF
become `%25`, `%0D`, `%0A`; in a property value `:` and `,` become `%3A` and `%2C` as well.
"""

from __future__ import annotations

_COMMAND = {"error": "error", "warning": "warning", "note": "notice"}


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def command(a) -> str:
    """One annotation (staticroof.reports.annotation.Annotation) as a workflow command line."""
    props = []
    if a.file:
        props.append(f"file={_prop(a.file)}")
        if a.line:
            props.append(f"line={a.line}")
            if a.col:
                props.append(f"col={a.col}")
    title = f"staticroof {a.code}" + (f" {a.title}" if a.title else "")
    props.append(f"title={_prop(title)}")
    return f"::{_COMMAND.get(a.level, 'warning')} {','.join(props)}::{_data(a.message)}"


def render(annotations) -> str:
    return "".join(command(a) + "\n" for a in annotations)
