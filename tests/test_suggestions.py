"""Issue #32 (messages): a name that matches nothing says which names are close."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from staticroof.cli import main
from staticroof.roofline import load_database
from staticroof.roofline.machines import similar

from helpers import SAMPLES


@pytest.mark.parametrize("spelled, first", [("A100-SXM4-80GB", "a100-80gb-sxm"),  # what nvidia-smi prints
                                            ("NVIDIA GeForce RTX 4090", "rtx-4090"),
                                            ("H100 SXM5", "h100-sxm"), ("h200x", "h200-sxm")])
def test_a_machine_name_as_tools_print_it_is_suggested(spelled, first):
    assert similar(spelled, load_database())[0] == first
    r = CliRunner().invoke(main, ["analyze", str(SAMPLES / "saxpy.c"), "--machine", spelled])
    assert r.exit_code == 2 and f"unknown machine '{spelled}' (did you mean {first}" in r.output, r.output


def test_nothing_close_suggests_nothing():
    assert similar("zzz", load_database()) == []


def test_a_misspelled_kernel_name_is_suggested():
    r = CliRunner().invoke(main, ["analyze", str(SAMPLES / "saxpy.c"), "--kernel", "saxpi"])
    assert r.exit_code == 2 and "no kernel named saxpi (did you mean saxpy?)" in r.output, r.output
    r = CliRunner().invoke(main, ["analyze", str(SAMPLES / "saxpy.c"), "--kernel", "qqqq"])
    assert r.exit_code == 2 and r.output.strip() == "staticroof: no kernel named qqqq"
