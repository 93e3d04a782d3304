"""str() of the formulas and conditions the reports print, the same text made faster.

Printing is a fifth to a third of a piecewise kernel's time: every piece's formula spells its
floors and ceilings again (`ceiling(C/128)` three times in each of twenty formulas), and a ratio's
pieces and its counts' pieces share their formula and condition objects.  Here an object printed
before is not printed again, and a floor or ceiling spelled before is not spelled again.

Why the text is str()'s: str(e) is `StrPrinter({"order": None}).doprint(e)`, the printer used
here, whose printing of a floor or ceiling is its name and its argument's text: a function of the
argument alone, whatever surrounds it (the parentheses a parent adds are its own) unless the
argument holds a Float (StrPrinter spells a Float by how deep it sits), which is never remembered.
Equal sympy objects have equal structure (== compares the type and the arguments), so they print
alike."""

from __future__ import annotations

_PRINTER: list = []  # the printer, made on first use: the module is imported without sympy
_printed: dict = {}  # id(object) -> (the object, kept alive so its id is never reused, its text)


def _printer():
    if not _PRINTER:
        import sympy
        from sympy.printing.str import StrPrinter

        class Printer(StrPrinter):
            def __init__(self) -> None:
                super().__init__({"order": None})
                self._rounded: dict = {}

            def _remembered(self, e, **kwargs) -> str:
                if kwargs or e.has(sympy.Float):
                    return self._print_Function(e, **kwargs)
                found = self._rounded.get(e)
                if found is None:
                    if len(self._rounded) > 8192:  # one process may report many files
                        self._rounded.clear()
                    found = self._rounded[e] = self._print_Function(e)
                return found

            _print_floor = _remembered
            _print_ceiling = _remembered

        _PRINTER.append(Printer())
    return _PRINTER[0]


def text(e) -> str:
    """str(e) for a sympy expression or condition, printed once per object."""
    found = _printed.get(id(e))
    if found is None:
        if len(_printed) > 8192:
            _printed.clear()
        import sympy

        found = _printed[id(e)] = (e, _printer().doprint(e) if isinstance(e, sympy.Basic) else str(e))
    return found[1]
