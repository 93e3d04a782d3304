"""docs/architecture.md is the newcomer's map: every package and file it names must exist, and every
package of staticroof/ must be on it, with an `__init__.py` docstring that says what it may import."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"


def named_packages(text: str) -> set[str]:
    """The packages the map names: `**`staticroof/x/`**` paragraphs, and a sub-package by its leaf
    (`**`c/`**`) inside its parent's paragraph (frontends, trace)."""
    named = set(re.findall(r"\*\*`(staticroof/[\w/]+?)/?`\*\*", text))
    for parent in ("frontends", "trace"):
        paragraph = re.search(rf"\*\*`staticroof/{parent}/`\*\*(.*?)(?=\n- \*\*|\n## )", text, re.S)
        if paragraph:
            named |= {f"staticroof/{parent}/{leaf}" for leaf in re.findall(r"\*\*`(\w+)/`\*\*", paragraph.group(1))}
    return named


def problems(text: str, root: Path) -> list[str]:
    out = []
    for link in re.findall(r"\]\((\.\./[^)#]+)\)", text):
        if not (root / "docs" / link).resolve().exists():
            out.append(f"links to {link}, which does not exist")
    named = named_packages(text)
    for name in sorted(named):
        if not (root / name / "__init__.py").is_file():
            out.append(f"names {name}, which is not a package")
    packages = {str(p.parent.relative_to(root)) for p in (root / "staticroof").rglob("__init__.py")}
    for name in sorted(packages - named - {"staticroof", "staticroof/lint/rules"}):
        out.append(f"does not name the package {name}")
    return out


def test_the_map_names_what_exists_and_all_of_it():
    text = DOC.read_text(encoding="utf-8")
    assert len(re.findall(r"\]\(\.\./", text)) > 20  # the map links to the code it describes
    assert "staticroof/frontends/c" in named_packages(text)
    assert problems(text, ROOT) == []


def test_a_stale_map_is_caught():
    # the check is not vacuous: a renamed package, a dead link and a forgotten package are each found
    text = DOC.read_text(encoding="utf-8")
    stale = text.replace("**`staticroof/diff/`**", "**`staticroof/nosuchpackage/`**").replace(
        "(../staticroof/ir.py)", "(../staticroof/nosuchmodule.py)")
    found = problems(stale, ROOT)
    assert "names staticroof/nosuchpackage, which is not a package" in found
    assert "links to ../staticroof/nosuchmodule.py, which does not exist" in found
    assert "does not name the package staticroof/diff" in found


def test_every_language_package_says_what_it_may_import():
    for parent in ("frontends", "trace"):
        for init in sorted((ROOT / "staticroof" / parent).glob("*/__init__.py")):
            doc = " ".join((ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or "").split())
            assert "May import" in doc and "Imported by" in doc, f"{init} does not say what it may import"
