"""pcpp, the pure-Python preprocessor, run in a child process of its own.

pcpp is used when the host has no C preprocessor.  In the analyzer's process a macro bomb would
grow it to gigabytes and a FIFO reached by a computed `#include` would block it forever, so
`preprocess._run_pcpp` starts this module as a separate Python process with the same limits as the
system preprocessor (memory, output size, wall-clock time; killed as a process group).  Here the
child refuses includes that are not regular files or are too large, caps what it writes, and
reports what went wrong in `result.json`.  It imports only the standard library, pcpp and
`staticroof.inputs`, so it starts quickly.

Usage (by `_run_pcpp` only): ``python -P this_file.py JOB_DIR``; JOB_DIR holds `job.json` (the
macros, include path, names and limits) and `input.c`; the child writes `output.i` and
`result.json` (``{"errors": [[file, line, message], ...], "stop": kind or null}``).
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from pathlib import Path


class _Stop(Exception):
    """Ends the run; `kind` says why (see `main`)."""

    def __init__(self, kind: str, message: str = "", file: str = "", line: int = 0):
        super().__init__(message)
        self.kind, self.message, self.file, self.line = kind, message, file, line


class _CappedWriter:
    """A text stream that stops the run once `limit` characters would be exceeded."""

    def __init__(self, stream, limit: int):
        self.stream, self.limit, self.written = stream, limit, 0

    def write(self, text: str) -> int:
        self.written += len(text)
        if self.written >= self.limit:
            raise _Stop("output")
        return self.stream.write(text)


def _preprocessor(job: dict, errors: list):
    from pcpp import Preprocessor

    from staticroof.inputs import InputError, read_text

    class _PP(Preprocessor):
        def on_error(self, file, line, msg):  # pcpp calls this for each preprocessing error
            errors.append((file, line, msg))

        def on_include_not_found(self, is_malformed, is_system_include, curdir, includepath):
            # where the system preprocessor says it: the #include line, in its file
            where = self.lastdirective
            file, line = (where.source, where.lineno) if where is not None else (job["path"], 0)
            errors.append((file, line, f"{includepath}: No such file or directory"))
            raise _Stop("error")

        def on_directive_unknown(self, directive, toks, ifpassthru, precedingtoks):
            # `#error` ends the run as it does the system preprocessor's (pcpp's own prints it and goes on)
            if directive.value == "error":
                text = "".join(t.value for t in toks).strip()
                errors.append((directive.source, directive.lineno, f"#error {text}"))
                raise _Stop("error")
            return super().on_directive_unknown(directive, toks, ifpassthru, precedingtoks)

        def on_file_open(self, is_system_include, includepath):
            # Probed for every directory of the include path: a missing file is an IOError (the
            # next directory is tried); one that is not a regular file or is too large ends the run.
            try:
                st = os.stat(includepath)
            except OSError as e:
                raise OSError(str(e)) from None
            where = self.lastdirective
            file, line = (where.source, where.lineno) if where is not None else (job["path"], 0)
            real = os.path.realpath(includepath)
            if not any(real == r or real.startswith(r.rstrip(os.sep) + os.sep) for r in job["allowed"]):
                # outside the project tree and the -I folders (confine.py): never opened
                via = f" (a link to {real})" if os.path.abspath(includepath) != real else ""
                raise _Stop("refused", f"#include {includepath}{via} is outside the project tree ({job['project']}) "
                                       "and the -I folders: not read (pass -I with its folder if it belongs to the "
                                       "project)", file, line)
            if stat.S_ISDIR(st.st_mode):
                raise OSError(f"{includepath}: is a folder")
            if not stat.S_ISREG(st.st_mode):
                raise _Stop("refused", f"#include {includepath}: not a regular file (a device, FIFO or folder "
                                       "is never read)", file, line)
            try:
                text = read_text(includepath, job["source_limit"])
            except InputError as e:
                raise _Stop("refused", f"#include {includepath}: {e}", file, line) from None
            import io

            # a header copy (preprocess._with_headers) starts `#line 1 "its name"`, which pcpp does
            # not apply: its name goes in pcpp's line markers, and the lines are the copy's without it
            marker = re.match(r'#line 1 ("(?:[^"\\]|\\.)*")\n', text)
            if marker:
                shown = json.loads(marker.group(1))
                self.rewrite_paths.append(("^" + re.escape(os.path.abspath(includepath)) + "$", lambda m: shown))
                text = text[marker.end():]
            return io.StringIO(text)

    class _GCC(_PP):
        """GCC's dynamic built-ins (predefined.GCC_BUILTINS), which `cc -E -undef` keeps: defined
        while not #undef'd; `__has_include` answered from the include path, `__INCLUDE_LEVEL__` from
        the include depth (`__LINE__`, `__COUNTER__` and `__FILE__` pcpp expands itself)."""

        def __init__(self):
            super().__init__()
            self.builtins = set(job.get("builtins", ()))

        def on_unknown_macro_in_defined_expr(self, tok):  # `#ifdef` and `defined(...)`
            return tok.value in self.builtins

        def on_unknown_macro_in_expr(self, ident):
            if ident == "__INCLUDE_LEVEL__" and ident in self.builtins:
                return max(self.include_depth - 1, 0)
            return super().on_unknown_macro_in_expr(ident)

        def undef(self, tokens):
            self.builtins.discard(tokens.split()[0] if isinstance(tokens, str) else tokens[0].value)
            return super().undef(tokens)

        def evalexpr(self, tokens):
            return super().evalexpr(_has_include(self, tokens, job["search"]))

    pp = _GCC()
    for name in job.get("queries", ()):
        pp.define(f"{name}(x) 0")
    for name, value in (("__BASE_FILE__", json.dumps(job["source"])), ("__TIMESTAMP__", '"??? ??? ?? ??:??:?? ????"')):
        pp.define(f"{name} {value}")
    pp.line_directive = "#line"
    pp.compress = 0
    for d in job["search"]:
        pp.add_path(d)
    # pcpp renames files relative to the current folder; the system preprocessor keeps the names
    # it is given, and so must we: the main file's as the caller wrote it, the others' as found.
    source = job["source"]
    pp.rewrite_paths = [("^" + re.escape(os.path.abspath(source)) + "$", lambda m: source)]
    # exactly the caller's macros (predefined.py), as the system preprocessor's `-undef` gives
    pp.undef("__PCPP__")
    for name, value in job["macros"].items():
        pp.define(f"{name} {value}")
    return pp


def _has_include(pp, tokens: list, search: list) -> list:
    """`tokens` (an `#if`'s) with each `__has_include(<h>)`/`("h")` (and `_next`) replaced by 1 or 0:
    is there such a file in the include path?  A malformed one is an error, as GCC's."""
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t.type != pp.t_ID or t.value not in ("__has_include", "__has_include_next") or t.value not in pp.builtins:
            i += 1
            continue
        j = i + 1
        while j < len(tokens) and tokens[j].type in pp.t_WS:
            j += 1
        if j >= len(tokens) or tokens[j].value != "(":  # `defined(__has_include)`, `#ifdef`
            i += 1
            continue
        end, depth = None, 0
        for k in range(j + 1, len(tokens)):  # the matching `)`: `__has_include(XSTR(SUB))`
            depth += {"(": 1, ")": -1}.get(tokens[k].value, 0)
            if depth < 0:
                end = k
                break
        if end is None:
            pp.on_error(t.source, t.lineno, f"missing ')' after \"{t.value}\" operand")
            return tokens
        spec = "".join(x.value for x in tokens[j + 1:end]).strip()
        if spec[:1] not in ('"', "<"):  # a macro naming the header
            spec = "".join(x.value for x in pp.expand_macros(list(tokens[j + 1:end]))).strip()
        if len(spec) < 3 or (spec[0], spec[-1]) not in (('"', '"'), ("<", ">")):
            pp.on_error(t.source, t.lineno, f'operator "{t.value}" requires a header-name')
            found = False
        else:
            name = spec[1:-1]
            found = any(os.path.isfile(os.path.join(d, name)) for d in search)
        t.type, t.value = pp.t_INTEGER, pp.t_INTEGER_TYPE(int(found))
        del tokens[i + 1:end + 1]
        i += 1
    return tokens


def run(job_dir: Path) -> dict:
    """Preprocess `job_dir/input.c` into `job_dir/output.i`; the result to report."""
    job = json.loads((job_dir / "job.json").read_text(encoding="utf-8"))
    src = (job_dir / "input.c").read_text(encoding="utf-8", errors="surrogateescape")
    errors: list = []
    stop = None
    try:
        pp = _preprocessor(job, errors)
        with open(job_dir / "output.i", "w", encoding="utf-8", errors="surrogateescape") as f:
            pp.parse(src, source=job["source"])
            pp.write(_CappedWriter(f, job["output_limit"]))
    except _Stop as e:
        stop = e.kind
        if e.message:
            errors.insert(0, (e.file or job["path"], e.line, e.message))
    except RecursionError:
        stop = "recursion"
    except MemoryError:
        stop = "memory"
    except Exception as e:  # pcpp's own failure, or C code that ran out of memory
        stop = "memory" if _near_memory_limit() else "crash"
        errors.insert(0, (job["path"], 0, f"pcpp failed: {type(e).__name__}: {e}"))
    return {"errors": errors, "stop": stop}


def _near_memory_limit() -> bool:
    """Did this process come within 10% of its address-space limit?  Under the limit, a failed
    allocation inside C code can surface as SystemError rather than MemoryError."""
    try:
        import resource

        limit = resource.getrlimit(resource.RLIMIT_AS)[0]
        peak = next(int(line.split()[1]) * 1024 for line in open("/proc/self/status", encoding="ascii")
                    if line.startswith("VmPeak:"))
    except (ImportError, OSError, StopIteration, ValueError):
        return False
    return limit != resource.RLIM_INFINITY and peak >= 0.9 * limit


def main(argv) -> int:
    job_dir = Path(argv[0])
    result = run(job_dir)
    (job_dir / "result.json").write_text(json.dumps(result), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
