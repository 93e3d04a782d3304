"""The pipeline, file by file: front end → analyses → summaries.  One file's failure never hides
another's results, and one kernel's failure never hides its neighbours'."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from . import crashes
from .diagnostics import Diagnostic, Location
from .ir import is_grid_size
from .options import AnalysisOptions, thaw

DEFAULTS = AnalysisOptions()


@dataclass
class Report:
    kernels: list = field(default_factory=list)  # KernelSummary
    file_diagnostics: list = field(default_factory=list)
    failed: bool = False  # some kernel or file could not be analyzed
    # the Python kernels' parameters and sizes, and as `#NAME` the C-family kernels' and the -D names a
    # C/CUDA source or its headers spell: what `--dtype` and `-D` can mean (cli.py warns of the rest)
    names: set = field(default_factory=set)


def run(files, options: AnalysisOptions = DEFAULTS) -> Report:
    """Each of `files` analyzed under `options` (staticroof/options.py): `options.all_functions`
    also reports drivers (`main`, setup functions: see frontends/c/drivers.py); a driver never fails
    the run either way.  `kernel_sizes` ({kernel name: {size: value}}, from the configuration) binds
    sizes of one kernel over the file's bindings.  `dtypes` ({None or kernel: {parameter: type}},
    from --dtype and the configuration) types the parameters a Python kernel's source leaves
    untyped.  `time_budget`: CPU seconds for the counting of one kernel before it falls back
    (analysis/fallback.py; None: STATICROOF_TIME_BUDGET or the default, 0: no budget)."""
    from .analysis import analyze, budget
    from .analysis.fallback import within_budget
    from .analysis.summary import summarize, unsupported
    from .frontends import language_of, load

    # plain dicts, as the front ends and the analyses take them (a copy each: none can alter the options)
    defines, launches, dtypes = thaw(options.defines), thaw(options.launches), thaw(options.dtypes)
    include_dirs, weights, kernel_sizes = list(options.include_dirs), thaw(options.weights), thaw(options.kernel_sizes)
    only, all_functions = options.only, options.all_functions
    cache_bytes, l1_bytes = options.cache_bytes, options.l1_bytes
    seconds = budget.seconds(options.time_budget)
    file_seconds = FILE_BUDGET_KERNELS * seconds  # 0: no budget

    report = Report()
    for path in files:
        key = crashes.file_key(path)
        lost = crashes.crashed(key, -1)
        if lost:  # an earlier attempt crashed while loading it (staticroof/crashes.py)
            report.file_diagnostics.append(Diagnostic("SR127", crashes.message("", lost), Location(str(path))))
            report.failed = True
            continue
        crashes.begin(key, -1, os.path.basename(str(path)))
        file_start = cpu_clock()  # the file's budget covers its loading too
        try:
            res, bindings = load(str(path), defines, include_dirs, launches, dtypes)
        except Exception as e:  # never a traceback: the other files are still analyzed
            report.file_diagnostics.append(
                Diagnostic("SR099", f"internal error: {type(e).__name__}: {e}", Location(str(path))))
            report.failed = True
            continue
        finally:
            crashes.end()
        report.file_diagnostics.extend(res.diagnostics)
        report.names.update(_kernel_names(res.kernels), (f"#{n}" for n in getattr(res, "names", ())))
        if any(d.severity == "error" for d in res.diagnostics):
            report.failed = True
        drivers: set = getattr(res, "drivers", set())
        items = []
        for kernel in res.kernels:
            items.append((kernel.location.line, "ok", kernel))
        for name, loc, d in res.failed:
            items.append((loc.line if loc else 0, "failed", (name, loc, d)))
        hidden = [item[0] if kind == "failed" else item.name for _, kind, item in items
                  if (item[0] if kind == "failed" else item.name) in drivers]
        if hidden and not all_functions and len(hidden) == len(items) and not only:
            report.file_diagnostics.append(Diagnostic(
                "SR006", f"no kernels: only drivers ({', '.join(sorted(set(hidden)))}), which `--all-functions` "
                "shows", Location(str(path))))
        for index, (_, kind, item) in enumerate(sorted(items, key=lambda t: t[0])):
            name = item[0] if kind == "failed" else item.name
            if name in drivers and not all_functions and not (only and _selected(name, only)):
                continue  # a driver is shown when asked for: --all-functions, or --kernel NAME
            if only and not _selected(name, only):
                continue
            if kind == "failed":
                _name, loc, d = item
                report.kernels.append(unsupported(name, loc, language_of(path), d))
                report.failed = report.failed or name not in drivers
                continue
            spent = cpu_clock() - file_start
            if file_seconds and spent > file_seconds:  # the rest of the file is not counted, each says why
                d = Diagnostic("SR126", f"`{item.name}`: not counted: the file's time budget ({file_seconds:g} s of "
                               f"CPU, {FILE_BUDGET_KERNELS} kernels' budgets) was spent on what came before it "
                               f"({spent:.1f} s); raise --time-budget (0: none)", item.location)
                report.kernels.append(unsupported(item.name, item.location, item.language, d))
                report.failed = report.failed or item.name not in drivers
                continue
            lost = crashes.crashed(key, index)
            if lost:  # an earlier attempt crashed in this kernel (or ran past its CPU limit): it alone is missing
                code = "SR126" if crashes.out_of_time(lost) else "SR127"
                d = Diagnostic(code, crashes.message(item.name, lost), item.location)
                summary = unsupported(item.name, item.location, item.language, d)
                report.kernels.append(summary)
                report.failed = report.failed or item.name not in drivers
                continue
            crashes.begin(key, index, item.name)
            release = crashes.cpu_limit(NATIVE_LIMIT_BUDGETS * seconds + NATIVE_LIMIT_MARGIN if seconds else 0)
            try:
                chosen = item
                bindings_k = _kernel_bindings(item.name, bindings, kernel_sizes)
                marks = [(k.diagnostics, len(k.diagnostics)) for k in (item, item.alternative) if k is not None]
                try:
                    with budget.limit(seconds):
                        if item.alternative is not None:
                            # the covering-grid model is kept only if the work does not depend on the grid
                            w = analyze(item, sizes=_sizes_for(item, bindings_k), weights=weights, flops_only=True)
                            if w.failed or any(is_grid_size(x) for c in w.total.flops.values()
                                               for x in c.generic().free_symbols):
                                chosen = item.alternative
                        result = analyze(chosen, sizes=_sizes_for(chosen, bindings_k), weights=weights)
                        summary = summarize(result, bindings_k, cache_bytes, l1_bytes)
                        if chosen is item and item.alternative is not None and _depends_on_grid(summary):
                            chosen = item.alternative
                            result = analyze(chosen, sizes=_sizes_for(chosen, bindings_k), weights=weights)
                            summary = summarize(result, bindings_k, cache_bytes, l1_bytes)
                except budget.OverTime:  # what the attempt said is withdrawn with it
                    budget.reset_isl()
                    for diags, n in marks:
                        del diags[n:]
                    result, summary = within_budget(chosen, _sizes_for(chosen, bindings_k), weights or {}, seconds,
                                                    bindings_k, cache_bytes, l1_bytes)
                _self_check(result, summary, _sizes_for(chosen, bindings_k), weights or {})
                summary.ir = chosen
            except budget.OverTime:  # past the budget outside a counting attempt (its fallback, the self-check)
                budget.reset_isl()
                d = Diagnostic("SR126", f"`{item.name}`: counting ran past its time budget ({seconds:g} s of CPU) "
                               "while finishing its result: not counted; raise --time-budget (0: none)", item.location)
                summary = unsupported(item.name, item.location, item.language, d)
            except Exception as e:  # never a traceback: one kernel's failure is its own
                d = Diagnostic("SR099", f"`{item.name}`: internal error: {type(e).__name__}: {e}", item.location)
                summary = unsupported(item.name, item.location, item.language, d)
            finally:
                release()
                crashes.end()
            report.kernels.append(summary)
            if summary.failed and item.name not in drivers:
                report.failed = True
    return once_each(report)


def once_each(report: Report) -> Report:
    """`report` with a kernel defined in a header reported once: every source that includes the header
    reports it again, and where the results agree (the same sizes, counts and exactness) the later
    copies say nothing new.  Copies that differ (a macro the includers define differently) all stay."""
    seen: dict = {}  # (file, line, col, name) -> the copies kept
    kept = []
    for k in report.kernels:
        copies = seen.setdefault((k.file, k.location.line, k.location.col, k.name), [])
        if any((k.exact, k.failed, k.sizes, k.total) == (o.exact, o.failed, o.sizes, o.total) for o in copies):
            continue
        copies.append(k)
        kept.append(k)
    report.kernels = kept
    return report


# A file's budget: this many kernels' budgets (issue #30 §15: 8 copies of a 2 KB nest took 156 s), then
# each kernel left is SR126, not counted.  `cpu_clock` is the process's CPU time (a test replaces it).
FILE_BUDGET_KERNELS = 3
# A kernel's hard CPU limit (crashes.cpu_limit: the process ends, the kernel is SR126): its budget for
# each of the three attempts (the count, at the sizes, the bound) and a margin, for native code the
# budget's signal cannot interrupt
NATIVE_LIMIT_BUDGETS, NATIVE_LIMIT_MARGIN = 3, 5.0
cpu_clock = time.process_time


def _kernel_names(kernels) -> set:
    """The parameters and size symbols (`n`, `x_shape0`, `trip_L12`) of the Python kernels among
    `kernels`; those of the C-family ones (`gridDim_x`) as `#NAME`, which only `-D` can mean."""
    out: set = set()
    for k in kernels:
        for model in (k, k.alternative):
            if model is not None:
                mark = "" if model.language == "python" else "#"
                out.update(f"{mark}{n}" for n in (*model.params, *model.sizes))
    return out


def _self_check(result, summary, sizes: dict, weights: dict) -> None:
    """An exact result is checked against independent counts first (SR121 when they disagree)."""
    from .analysis.selfcheck import check

    found = check(result, summary, sizes, weights)
    if found:
        summary.diagnostics.extend(found)
        summary.exact = False


def _selected(name: str, only: frozenset) -> bool:
    """`--kernel axpy` selects the kernel and every instantiation of it (`axpy<double>`)."""
    return name in only or name.split("<")[0] in only


def _depends_on_grid(summary) -> bool:
    """Did the covering-grid model leave the grid in the formulas (or fail to be exact)?"""
    if summary.failed or not summary.exact:
        return True
    t = summary.total
    exprs = [t.flops.expr, t.compulsory.expr, t.access.expr]
    return any(is_grid_size(s) for e in exprs for s in e.free_symbols)


def _kernel_bindings(name: str, bindings: dict, kernel_sizes: dict | None) -> dict:
    """The file's bindings with the kernel's own sizes over them (`axpy<double>` takes `axpy`'s)."""
    if not kernel_sizes:
        return bindings
    own = kernel_sizes.get(name) or kernel_sizes.get(name.split("<")[0])
    return {**bindings, **own} if own else bindings


def _sizes_for(kernel, bindings: dict) -> dict:
    from .analysis.summary import resolve_sizes

    return resolve_sizes(kernel, bindings)[0]


__all__ = ["Report", "run", "AnalysisOptions", "Diagnostic"]
