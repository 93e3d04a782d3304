"""The ncu command line that collects every metric `staticroof validate` compares, for
`staticroof profile` and for users who profile on another machine and bring the CSV back."""

from __future__ import annotations

METRICS = (
    "gpu__time_duration.sum",
    "dram__bytes_read.sum", "dram__bytes_write.sum",
    "lts__t_bytes.sum", "l1tex__t_bytes.sum",
    *(f"sm__sass_thread_inst_executed_op_{p}{op}_pred_on.sum" for p in "fdh" for op in ("fma", "add", "mul")),
    *(f"launch__{what}_dim_{axis}" for what in ("grid", "block") for axis in "xyz"),
    "device__attribute_display_name",
    # the roofs, from the device itself (measured.report_roofs)
    "sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained",
    "sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained",
    "sm__cycles_elapsed.avg.per_second", "dram__bytes.sum.peak_sustained", "dram__cycles_elapsed.avg.per_second",
)


def command(app: list[str], ncu: str = "ncu", clock_control: str | None = None) -> list[str]:
    """`ncu --csv --page raw --metrics ... [--clock-control MODE] APP ARGS...`; clock control is
    left at ncu's default (base clocks) unless given."""
    out = [ncu, "--csv", "--page", "raw", "--metrics", ",".join(METRICS)]
    if clock_control:
        out += ["--clock-control", clock_control]
    return out + list(app)
