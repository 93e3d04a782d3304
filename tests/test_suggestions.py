"""Issue #32 (messages): a name that matches nothing says which names are close."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from staticroof.cli import main
from staticroof.roofline import load_database
from staticroof.roofline.machines import similar

from helpers import SAMPLES


@pytest.mark.parametrize("spelled, name", [("A100-SXM4-80GB", "a100-80gb-sxm"),  # what nvidia-smi prints
                                           ("NVIDIA A100-SXM4-40GB", "a100-40gb-sxm"),
                                           ("NVIDIA GeForce RTX 4090", "rtx-4090"), ("Tesla V100-SXM2-32GB",
                                                                                      "v100-sxm2-32gb")])
def test_a_machine_name_as_nvidia_smi_prints_it_is_that_machine(spelled, name):
    """The same words in another case, order or punctuation (`sxm4` is `sxm`, vendor words dropped)
    name exactly one machine: it is used."""
    r = CliRunner().invoke(main, ["analyze", str(SAMPLES / "saxpy.c"), "--machine", spelled, "--format", "json"])
    assert r.exit_code == 0 and f'"machine": "{name}"' in r.output, r.output


@pytest.mark.parametrize("spelled, first", [("NVIDIA H100 80GB HBM3", "h100-pcie"),  # SXM or PCIe: not told
                                            ("H100 SXM5 80GB", "h100-sxm"), ("h200x", "h200-sxm")])
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


def test_a_missing_angle_header_near_the_source_names_the_i(tmp_path, monkeypatch):
    # polybench's layout: utilities/polybench.h beside the benchmark folders, included as <polybench.h>;
    # without -I it is an empty stub (SR004), and the note now names the -I that finds it
    (tmp_path / ".git").mkdir()  # the search stays inside this project
    (tmp_path / "utilities").mkdir()
    (tmp_path / "utilities" / "polybench.h").write_text("#define N 10\n")
    (tmp_path / "atax").mkdir()
    (tmp_path / "atax" / "atax.c").write_text("#include <polybench.h>\n"
                                              "void k(float *x) { for (int i = 0; i < 10; i++) x[i] *= 2.0f; }\n")
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["analyze", "atax/atax.c"])
    assert ("SR004 no stub for <polybench.h>; using an empty header (a file of that name is near the source: "
            "pass -I utilities)") in r.output, r.output
