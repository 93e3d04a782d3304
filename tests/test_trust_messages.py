"""Issue #30 §19 and §20: options and inputs that did nothing, or said the wrong thing, now say what is
wrong and exit non-zero."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from staticroof.cli import main

KERNEL = "void k(float *x, int n) { for (int i = 0; i < n; i++) x[i] *= 2.0f; }\n"


@pytest.mark.parametrize("value", ["inf", "nan", "1e300", "0", "-1", "604801"])
def test_server_idle_must_be_a_finite_number_of_seconds(value):
    # `--idle inf` said "server started" and the server died at once (its timer overflowed)
    r = CliRunner().invoke(main, ["server", "start", "--idle", value])
    assert r.exit_code == 2 and "is not a number of seconds in (0, 604800]" in r.output, r.output


def test_a_folder_without_sources_is_an_error(tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "notes.txt").write_text("nothing to analyze\n")
    (tmp_path / "docs" / "defs.h").write_text("#define N 4\n")  # a header alone is no source in a walk
    for folder in ("empty", "docs"):
        r = CliRunner().invoke(main, ["analyze", str(tmp_path / folder)])
        assert r.exit_code == 2 and "SR003 no source file in this folder" in r.output, r.output
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "k.c").write_text(KERNEL)
    r = CliRunner().invoke(main, ["analyze", str(tmp_path / "empty"), str(tmp_path / "src")])
    assert "SR003 no source file in this folder" in r.output and "k  [c, exact]" in r.output, r.output


@pytest.mark.parametrize("content", [None, '[machines.x]\nname = "x'], ids=["missing", "truncated"])
def test_a_bad_machine_file_is_an_error_without_machine(tmp_path, content):
    (tmp_path / "k.c").write_text(KERNEL)
    mf = tmp_path / "m.toml"
    if content is not None:
        mf.write_text(content)
    r = CliRunner().invoke(main, ["analyze", str(tmp_path / "k.c"), "--machine-file", str(mf)])
    assert r.exit_code == 2 and "m.toml" in r.output, r.output


def test_a_good_machine_file_without_machine_is_a_warning(tmp_path):
    (tmp_path / "k.c").write_text(KERNEL)
    r = CliRunner().invoke(main, ["analyze", str(tmp_path / "k.c"), "--machine-file", str(tmp_path / "m.toml")])
    assert r.exit_code == 2
    (tmp_path / "m.toml").write_text("")
    r = CliRunner().invoke(main, ["analyze", str(tmp_path / "k.c"), "--machine-file", str(tmp_path / "m.toml")])
    assert r.exit_code == 0 and "--machine-file without --machine" in r.output, r.output


def test_a_dangling_link_is_called_what_it_is(tmp_path):
    (tmp_path / "k.c").symlink_to(tmp_path / "gone.c")
    r = CliRunner().invoke(main, ["analyze", str(tmp_path / "k.c")])
    assert r.exit_code == 2 and f"a broken symbolic link (to {tmp_path / 'gone.c'}" in r.output, r.output


def test_plot_replaces_a_link_and_never_writes_through_it(tmp_path):
    # §18: `-o out.png` where out.png is a symbolic link: the link is replaced by the plot, its target
    # is left as it was
    (tmp_path / "target.txt").write_text("precious\n")
    (tmp_path / "out.png").symlink_to(tmp_path / "target.txt")
    (tmp_path / "k.c").write_text(KERNEL)
    r = CliRunner().invoke(main, ["plot", str(tmp_path / "k.c"), "--machine", "a100", "-D", "n=1000",
                                  "-o", str(tmp_path / "out.png")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "target.txt").read_text() == "precious\n"
    assert not (tmp_path / "out.png").is_symlink() and (tmp_path / "out.png").read_bytes()[:4] == b"\x89PNG"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.c", "out.png", "target.txt"]


def test_plot_on_a_full_disk_is_a_message(tmp_path):
    # §18: a write that fails (here: a file-size limit of 4 KiB, which fails the write as a full disk
    # would; Python ignores SIGXFSZ) is one line and exit 1, no traceback, no partial file left
    import resource
    import subprocess
    import sys

    (tmp_path / "k.c").write_text(KERNEL)

    def limit():  # pragma: no cover - in the child
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    p = subprocess.run([sys.executable, "-m", "staticroof", "plot", "k.c", "--machine", "a100", "-D", "n=1000",
                        "-o", "out.png"], cwd=tmp_path, capture_output=True, text=True, timeout=120, preexec_fn=limit)
    assert p.returncode == 1 and "staticroof: -o out.png: cannot write the plot: File too large" in p.stderr, p.stderr
    assert "Traceback" not in p.stderr
    assert sorted(q.name for q in tmp_path.iterdir()) == ["k.c"]


def test_an_unclosed_quote_in_an_ncu_csv_is_read_in_linear_time(tmp_path):
    # §13: a quoted field left open, then 220,000 lines (2.4 MB): each line re-counted the quotes of
    # the whole text so far (quadratic: minutes); now the quotes are counted line by line.  A hang
    # guard (the timeout), not a timing: the run takes well under a second
    import subprocess
    import sys

    head = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size",'
            '"Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"')
    (tmp_path / "bad.csv").write_text("\n".join([head, '"0","1","a","h","saxpy'] + ["x" * 10] * 220000))
    (tmp_path / "k.c").write_text(KERNEL)
    p = subprocess.run([sys.executable, "-m", "staticroof", "validate", "k.c", "--ncu", "bad.csv"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "bad.csv:2: truncated: a quoted field is not closed" in p.stderr, p.stderr
