"""The suite's results must not depend on how fast the machine running it is: the per-kernel time
budget (staticroof/analysis/budget.py) is off unless a test sets one (tests/test_time_budget.py)."""

import os

os.environ.setdefault("STATICROOF_TIME_BUDGET", "0")

# Commands the tests run in a process of their own never go through a start-up server the
# developer may have running (tests/test_server.py starts its own, in private folders).
os.environ["STATICROOF_SERVER"] = "0"
