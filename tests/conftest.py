"""The suite's results must not depend on how fast the machine running it is: the per-kernel time
budget (staticroof/analysis/budget.py) is off unless a test sets one (tests/test_time_budget.py)."""

import os

import pytest

os.environ.setdefault("STATICROOF_TIME_BUDGET", "0")

# Commands the tests run in a process of their own never go through a start-up server the
# developer may have running (tests/test_server.py starts its own, in private folders).
os.environ["STATICROOF_SERVER"] = "0"


@pytest.fixture
def blocking_cc(tmp_path):
    """(environment, started folder) of a stand-in C compiler that blocks on files containing
    helpers.BLOCK (see helpers.make_blocking_cc); whatever a run leaves blocked is killed after the test."""
    from helpers import make_blocking_cc, stop_left

    env, started = make_blocking_cc(tmp_path / "blocking-cc")
    yield env, started
    stop_left(started)
