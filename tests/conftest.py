"""The suite's results must not depend on how fast the machine running it is: the per-kernel time
budget (staticroof/analysis/budget.py) is off unless a test sets one (tests/test_time_budget.py)."""

import os

os.environ.setdefault("STATICROOF_TIME_BUDGET", "0")
