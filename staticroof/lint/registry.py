"""The lint rules: one `LintRule` per code, registered by the module of its group.

Lint codes are `RF` + three digits (RF for roofline), distinct from the analysis' SR### diagnostics
(which say what the analysis could not do; a lint rule says what the kernel costs):

    RF1xx  precision           RF2xx  memory access        RF3xx  roofline position
    RF4xx  fusion              RF9xx  analysis coverage

A rule reads the analysis results (kernel summaries, with the loop IR each was counted from)
and never the syntax, so a rule works unchanged for every front end.  Each rule's documentation
lives here with it: `staticroof lint --explain CODE` prints it and `docs/rules/CODE.md` is
generated from it (`python -m staticroof.lint.docs`).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..diagnostics import Location

CODE = re.compile(r"RF\d{3}")
GROUPS = {"RF1": "precision", "RF2": "memory access", "RF3": "roofline position", "RF4": "fusion",
          "RF9": "analysis coverage"}
_MODULES = ("precision", "access", "position", "fusion", "coverage")


@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    location: Location
    kernel: str | None = None
    # other lines a suppression comment may sit on (the kernel's own line)
    also: tuple = ()
    name: str = ""  # the rule's name (filled in by the engine)


@dataclass(frozen=True)
class LintRule:
    code: str
    name: str  # kebab-case, as ruff names its rules
    summary: str
    what: str  # what it finds
    why: str  # why it matters on the roofline
    example: str  # a kernel it fires on (C or CUDA)
    fix: str  # the same kernel fixed, with a sentence on what changed
    check: Callable = field(compare=False, repr=False)
    needs: str = ""  # a setting without which the rule cannot fire ("a machine", "a threshold")


RULES: dict = {}


def rule(code: str, name: str, summary: str, what: str, why: str, example: str, fix: str, needs: str = ""):
    """Register the decorated `check(ctx) -> iterable of Finding` under `code`."""
    def register(check):
        assert CODE.fullmatch(code) and code not in RULES, code
        RULES[code] = LintRule(code, name, summary, what.strip(), why.strip(), example.strip("\n"),
                               fix.strip("\n"), check, needs)
        return check
    return register


def load() -> dict:
    """Every rule, by code (importing the rule modules registers them)."""
    for module in _MODULES:
        importlib.import_module(f"{__package__}.rules.{module}")
    return dict(sorted(RULES.items()))


def matches(code: str, patterns) -> bool:
    """Is `code` named by one of `patterns` (codes or prefixes: `RF2`, `RF202`; `ALL` is every code)?"""
    return any(p == "ALL" or code.startswith(p) for p in patterns)


def valid_pattern(p: str) -> bool:
    return p == "ALL" or bool(re.fullmatch(r"RF\d{0,3}", p))
