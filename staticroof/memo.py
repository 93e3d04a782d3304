"""Per-process memo tables that stay bounded.

One process may analyze many files (a folder, a `-j` worker, the start-up server), so a table that
remembers results by canonical text must not grow without end.  A Bounded table forgets everything
once it holds more than its limit and an entry is added: a memo only saves work, so forgetting
changes no result, and clearing all at once keeps each insertion as cheap as a dict's.
"""

from __future__ import annotations


class Bounded(dict):
    """A dict that is emptied when an entry is added to it while it holds more than `limit`."""

    def __init__(self, limit: int):
        super().__init__()
        self.limit = limit

    def __setitem__(self, key, value) -> None:
        if len(self) > self.limit and key not in self:
            self.clear()
        super().__setitem__(key, value)
