"""A lint rule's documentation page (`lint --explain CODE`, `docs/rules/CODE.md`).

`python -m staticroof.lint.docs [FOLDER]` writes every page (default `docs/rules`); a test checks
the committed pages are what the rules say, so the two never drift apart."""

from __future__ import annotations

import sys
from pathlib import Path


def render(rule) -> str:
    needs = f"\nIt needs {rule.needs}; without it the rule never fires.\n" if rule.needs else ""
    return (f"# {rule.code} {rule.name}\n\n{rule.summary[0].upper()}{rule.summary[1:]}.\n{needs}\n"
            f"## What it finds\n\n{rule.what}\n\n## Why it matters on the roofline\n\n{rule.why}\n\n"
            f"## Example\n\n{rule.example}\n\n## Fix\n\n{rule.fix}\n\n"
            f"Silence it on one line with `// staticroof: ignore[{rule.code}]` (on the finding's line or the "
            f"kernel's), or in the configuration with `ignore = [\"{rule.code}\"]` or `per-file-ignores`.\n")


def index(rules: dict) -> str:
    rows = "".join(f"| [{c}]({c}.md) | `{r.name}` | {r.summary} |\n" for c, r in rules.items())
    return ("# Lint rules\n\n`staticroof lint` reports these codes (`staticroof lint --explain CODE` prints a "
            "page).\n\n"
            "| code | name | finds |\n|---|---|---|\n" + rows)


def pages() -> dict:
    """{file name: text} for every page."""
    from .registry import load

    rules = load()
    out = {f"{code}.md": render(r) for code, r in rules.items()}
    out["README.md"] = index(rules)
    return out


def main(argv=None) -> None:
    folder = Path((argv or sys.argv[1:] or ["docs/rules"])[0])
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in pages().items():
        (folder / name).write_text(text, encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover
    main()
