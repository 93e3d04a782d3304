"""The C preprocessor step: stub headers instead of the system's, size macros kept symbolic.

Two things make this more than `cpp file.c`:

- **Headers.** Includes of system headers resolve to the stubs in `grammars/include`, never to the
  host's headers; a system header with no stub becomes an empty file and a note.  User headers
  are found beside the including file and through ``-I``.
- **Sizes.** ``#define N 1024`` would erase the name ``N`` before the parser sees it, so integer
  macros are rewritten to ``__SR_SIZE(N, 1024)``; the front end turns that into the size symbol
  ``N`` with default 1024.  Which definition is active (``#ifdef LARGE_DATASET``...) stays the
  preprocessor's business.  A ``-D`` naming such a macro (or a function parameter) binds the size
  instead of being substituted into the text; a ``-D`` for anything the directives test is passed
  to the preprocessor.

The system preprocessor (`cc -E`) is used when present, pcpp (pure Python, in a child process:
`pcpp_child`) otherwise; both run under the same limits and with the same predefined macros
(`predefined`: GCC's on x86-64 Linux, and nvcc's for CUDA).  A missing user header's error names
the `-I` that finds it (`header_folders`).
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ...diagnostics import Diagnostic, Location, line_name
from ...inputs import SOURCE_LIMIT, InputError, is_regular, read_text
from ...resources import grammar_path
from .confine import Confinement, parse_make_deps
from .predefined import C_MACROS, CC_BUILTINS, FEATURE_QUERIES, GCC_BUILTINS, PREDEFINED_NAMES

SIZE_MARK = "__SR_SIZE"

_DEFINE = re.compile(r"^(\s*#\s*define\s+)([A-Za-z_]\w*)([ \t]+)(.*?)\s*$")
# one line: an `#include <cs` left open must not run on to a `>` lines later (a "name" of
# whole functions, created as a stub file)
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.M)
INCLUDE_LINE = _INCLUDE  # (kind `<` or `"`, name) of each #include line, for readers of other trees (diff)
_DIRECTIVE_NAMES = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|elifdef|elifndef)\b(.*)$", re.M)
_DEFINED = re.compile(r"\bdefined\s*(?:\(\s*[A-Za-z_]\w*\s*\)|[A-Za-z_]\w*)")
_IDENT = re.compile(r"[A-Za-z_]\w*")

# GNU spellings real code uses, mapped to what pycparser accepts.
_COMPAT = {
    "__restrict__": "restrict", "__restrict": "restrict", "__inline__": "inline", "__inline": "inline",
    "__attribute__(x)": "", "__extension__": "", "__asm__(x)": "", "__volatile__": "volatile",
    "__const": "const", "__signed__": "signed",
}


@dataclass
class Preprocessed:
    text: str = ""
    size_macros: dict = field(default_factory=dict)  # name -> default value in the file
    bindings: dict = field(default_factory=dict)  # -D values that bind sizes, not macros
    diagnostics: list = field(default_factory=list)
    ok: bool = True
    missing: list = field(default_factory=list)  # user headers not found, read as empty (SR131)
    spelled: set = field(default_factory=set)  # the -D names the file or its user headers spell (cli warns of the rest)


def _int_value(text: str):
    """The value of an integer constant expression made of literals, or None."""
    t = re.sub(r"(?<=[0-9a-fA-FxX])[uUlL]+\b", "", text.strip())
    if not t or _IDENT.search(re.sub(r"0[xX][0-9a-fA-F]+", "0", t)):
        return None
    try:
        tree = ast.parse(t.replace("/", "//"), mode="eval")
    except SyntaxError:
        return None
    try:
        v = _evaluate(tree.body)
    except (_NotConstant, ZeroDivisionError, RecursionError):
        return None
    return v


# Integer constants wider than this are not sizes (and `1 << 99999999999` must never be computed).
MAX_CONSTANT_BITS = 64


class _NotConstant(Exception):
    pass


_BINOPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
           ast.FloorDiv: lambda a, b: abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1),  # C truncates
           ast.Mod: lambda a, b: a - b * (abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)),
           ast.BitOr: lambda a, b: a | b, ast.BitAnd: lambda a, b: a & b}


def _evaluate(node) -> int:
    """An integer constant expression of literals and C operators, each intermediate value within
    MAX_CONSTANT_BITS (else _NotConstant: the macro stays a plain macro)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        v = node.value
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _evaluate(node.operand)
        v = -v if isinstance(node.op, ast.USub) else v
    elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.LShift, ast.RShift)):
        a, b = _evaluate(node.left), _evaluate(node.right)
        if not 0 <= b < MAX_CONSTANT_BITS:
            raise _NotConstant
        v = a << b if isinstance(node.op, ast.LShift) else a >> b
    elif isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        v = _BINOPS[type(node.op)](_evaluate(node.left), _evaluate(node.right))
    else:
        raise _NotConstant
    if v.bit_length() > MAX_CONSTANT_BITS:
        raise _NotConstant
    return v


_INTEGER_TYPES = (r"(?:(?:unsigned|signed|const|long|short|int|char|size_t|ssize_t|ptrdiff_t|u?int(?:8|16|32|64)_t"
                  r"|index_t|idx_t)\s+)+")


def _integer_declared(name: str, text: str) -> bool:
    """Is `name` declared with an integer type in `text` (a parameter or local: a size, so a -D
    for it must be an integer, not text for the preprocessor to paste)?"""
    return re.search(rf"\b{_INTEGER_TYPES}{re.escape(name)}\s*[,)=;\[]", text) is not None


def _bad_size_value(name: str, value, as_int, default) -> str:
    """Why a -D value cannot be the size `name`, or "" (SR007: a usage error, exit 2)."""
    if value is None:
        return "a size needs a value"
    if as_int is None:
        return (f"a size needs an integer constant within {MAX_CONSTANT_BITS} bits "
                f"(`{name}` is a size: a parameter or #define of the source)")
    if as_int < 0 and not (default is not None and default < 0):
        return "a size is a count and cannot be negative"
    return ""


def directive_names(text: str, values_only: bool = False) -> set:
    """Identifiers that conditional directives mention.  With `values_only`, only those whose
    *value* an `#if`/`#elif` uses (not mere `defined` tests): these must stay real macros."""
    names = set()
    for m in _DIRECTIVE_NAMES.finditer(text):
        kind, rest = m.groups()
        if values_only:
            if kind not in ("if", "elif"):
                continue
            rest = _DEFINED.sub(" ", rest)
        names |= set(_IDENT.findall(rest))
    return names - {"defined"}


def rewrite_sizes(text: str, tested: set | None = None) -> tuple[str, dict]:
    """Rewrite `#define NAME <integer>` lines so the name survives preprocessing.  `tested`: the
    names whose value an `#if` uses anywhere in the translation unit (they stay macros)."""
    tested = directive_names(text, values_only=True) if tested is None else tested
    sizes: dict = {}
    lines = text.split("\n")
    for k, line in enumerate(lines):
        m = _DEFINE.match(line)
        if not m or m.group(2) in tested or m.group(2).startswith("_"):
            continue
        value = _int_value(m.group(4))
        if value is None:
            continue
        name = m.group(2)
        sizes.setdefault(name, value)
        lines[k] = f"{m.group(1)}{name}{m.group(3)}{SIZE_MARK}({name}, {value})"
    return "\n".join(lines), sizes


def _stub_dir() -> Path:
    return grammar_path("include")


def _read_header(path: Path) -> str:
    """A header's text, within the input size limit (InputError otherwise)."""
    return read_text(path, SOURCE_LIMIT)


def _stub_name_ok(name: str) -> bool:
    """May an empty stub be created for `<name>`?  Only for a plain relative path: an absolute
    name or one with `..` would put the stub outside our temporary folder, and one longer than a
    file name can be fails to be created (the preprocessor then reports the header missing)."""
    parts = PurePosixPath(name).parts
    return (bool(parts) and not PurePosixPath(name).is_absolute() and ".." not in parts and "\\" not in name
            and all(len(p.encode("utf-8", "surrogateescape")) <= 255 for p in parts) and len(name) <= 1024)


def _missing_system_headers(path: Path, text: str, include_dirs, stubs, confine: Confinement, seen=None,
                            refused=None):
    """(header, Location) for each <...> include that neither the stubs nor -I dirs provide.
    `refused` collects (message, Location) for includes that name something that is not a regular
    file (a device, FIFO or folder), a header too large to read or one outside the allowed folders
    (`confine`): those are never opened."""
    seen = set() if seen is None else seen
    refused = [] if refused is None else refused
    out = []
    for m in _INCLUDE.finditer(text):
        kind, name = m.groups()
        line = text.count("\n", 0, m.start()) + 1
        loc = Location(str(path), line, m.start(2) - m.start() + 1)
        search = ([path.parent] if kind == '"' else []) + list(include_dirs) + list(stubs)
        if any(os.path.lexists(Path(d) / name) and not is_regular(Path(d) / name) for d in search):
            refused.append((f"#include {name}: not a regular file (a device, FIFO or folder is never read)", loc))
            continue
        first = next((Path(d) / name for d in search[:len(search) - len(stubs)] if os.path.lexists(Path(d) / name)),
                     None)
        shown = f"{kind}{name}{'>' if kind == '<' else kind}"
        if first is not None and not confine.allows(first):
            refused.append((confine.refusal(shown, first), loc))
            continue
        found = next((Path(d) / name for d in search[:len(search) - len(stubs)] if is_regular(Path(d) / name)),
                     None)
        if found is not None and not confine.allows(found):
            refused.append((confine.refusal(shown, found), loc))
            continue
        if found is not None:
            if found not in seen:
                seen.add(found)
                try:
                    sub = _read_header(found)
                except InputError as e:
                    refused.append((f"#include {name}: {e}", loc))
                    continue
                out += _missing_system_headers(found, sub, include_dirs, stubs, confine, seen, refused)
            continue
        if any(is_regular(Path(d) / name) for d in stubs):
            continue
        if kind == "<" and _stub_name_ok(name):
            out.append((name, loc))
    return out


def _resolve_include(includer: Path, kind: str, name: str, search, stubs, confine: Confinement):
    """(resolved path, path as the preprocessor names it) of a user header, or None for a stub, a
    header that is not found (the preprocessor reports that one) or one outside the allowed folders
    (never read: _missing_system_headers refuses it)."""
    dirs = ([includer.parent] if kind == '"' else []) + list(search)
    for d in dirs:
        f = Path(d) / name
        if is_regular(f):
            if not confine.allows(f):
                return None
            real = f.resolve()
            if any(real.is_relative_to(s.resolve()) for s in stubs):
                return None
            return real, str(f)
    return None


def _user_headers(path: Path, text: str, search, stubs, confine: Confinement, for_key: bool = False) -> dict:
    """{resolved path: (display path, text)} for every user header `text` reaches.  `for_key`: each
    text's directives read as the preprocessor reads them (comments dropped, continued lines joined),
    and ValueError for an include the preprocessor computes from a macro (cache_key_text)."""
    found: dict = {}

    def visit(includer, t):
        for m in _INCLUDE.finditer(cache_key_text(t) if for_key else t):
            h = _resolve_include(includer, m.group(1), m.group(2), search, stubs, confine)
            if h is None or h[0] in found:
                continue
            try:
                found[h[0]] = (h[1], _read_header(h[0]))
            except InputError:
                continue
            visit(h[0], found[h[0]][1])

    visit(path, text)
    return found


_STRING_OR_COMMENT = re.compile(r'("(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\')|/\*.*?\*/|//[^\n]*', re.S)
_COMPUTED_INCLUDE = re.compile(r"^[ \t]*#[ \t]*include[ \t]*(?![<\"\s])\S", re.M)


def cache_key_text(text: str) -> str:
    """`text` with its comments dropped and continued lines joined, so `#include /*c*/ "h.h"` and a
    backslash-continued `#include` are found as the preprocessor finds them; ValueError for an
    `#include MACRO`, whose file only the preprocessor knows (such a file is not cached: issue #30 §6)."""
    text = text.replace("\\\n", "")
    text = _STRING_OR_COMMENT.sub(lambda m: m.group(1) or " ", text)
    if _COMPUTED_INCLUDE.search(text):
        raise ValueError("an #include computed from a macro")
    return text


def included_headers(path: str, text: str, include_dirs=(), stub_dirs=()) -> list:
    """[(the header's name as the preprocessor names it, its text)] for every user header that
    `text` (the contents of `path`) reaches, as `preprocess` finds them: what a result depends on
    besides the file itself (the cache's key, staticroof/cache).  Every `#include` line counts,
    also one inside an `#if` that is false, so the list may be longer than what is compiled.
    ValueError when an include is computed from a macro (see cache_key_text): no key then."""
    p = Path(path)
    stubs = [Path(d) for d in stub_dirs] + [_stub_dir()]
    confine = Confinement(p, include_dirs, stubs)
    found = _user_headers(p, text, [p.parent, *map(Path, include_dirs), *stubs], stubs, confine, for_key=True)
    return [found[real] for real in sorted(found)]


def _redirect(includer: Path, text: str, search, stubs, copies: dict, confine: Confinement) -> str:
    """Point `#include`s of user headers at their rewritten copies."""
    def sub(m):
        h = _resolve_include(includer, m.group(1), m.group(2), search, stubs, confine)
        return f'#include "{copies[h[0]]}"' if h is not None and h[0] in copies else m.group(0)

    return _INCLUDE.sub(sub, text)


def _with_headers(path: Path, text: str, search, stubs, root: Path, confine: Confinement):
    """The file and the user headers it includes with their integer `#define`s rewritten as sizes
    (so `-D N=64` rebinds a size defined in a header as it does one in the file): each header is
    copied, rewritten, under a temporary folder, keeping its own name in line markers (`#line`).
    Returns (text, size macros, names the directives test, the identifiers the file and headers spell)."""
    headers = _user_headers(path, text, search, stubs, confine)
    texts = [text] + [t for _, t in headers.values()]
    idents = set().union(*(_IDENT.findall(t) for t in texts))
    tested = set().union(*(directive_names(t) for t in texts))
    values = set().union(*(directive_names(t, values_only=True) for t in texts))
    src, sizes = rewrite_sizes(text, values)
    if not headers:
        return src, sizes, tested, idents
    copies = {real: root / "headers" / str(k) / real.name for k, real in enumerate(headers)}
    for real, (shown, htext) in headers.items():
        body, found = rewrite_sizes(htext, values)
        for name, value in found.items():
            sizes.setdefault(name, value)
        copies[real].parent.mkdir(parents=True, exist_ok=True)
        marker = f'#line 1 "{line_name(shown)}"\n'
        copies[real].write_text(marker + _redirect(real, body, search, stubs, copies, confine))
    return _redirect(path, src, search, stubs, copies, confine), sizes, tested, idents


def system_compiler():
    """The C compiler whose preprocessor runs (`cc`, `gcc` or `clang` on PATH), or None."""
    for cand in ("cc", "gcc", "clang"):
        exe = shutil.which(cand)
        if exe:
            return exe
    return None


def preprocess(path: str, text: str, defines: dict, include_dirs=(), extra_macros: dict | None = None,
               use_system: bool | None = None, stub_dirs=(), predefined: dict | None = None,
               undefines=()) -> Preprocessed:
    """Preprocess `text` (the contents of `path`).  `defines` is the user's -D NAME -> value|None,
    `undefines` the user's -U NAME; `predefined` the language's macros (predefined.C_MACROS by
    default; the CUDA front end passes CUDA_MACROS), `extra_macros` more of them."""
    import tempfile  # here: a cached run reads headers for its keys and never preprocesses

    out = Preprocessed()
    p = Path(path)
    include_dirs = [str(d) for d in include_dirs]
    stubs = [Path(d) for d in stub_dirs] + [_stub_dir()]
    # Everything this run writes (rewritten header copies, empty stubs, the preprocessor's input and
    # output) lives in one temporary folder, removed however the run ends (an error, Ctrl-C).
    work = None
    try:  # mkdtemp inside: a signal (SIGTERM/SIGHUP/SIGQUIT end the run) right after it still cleans up
        work = Path(tempfile.mkdtemp(prefix="staticroof-pp-"))
        confine = Confinement(p, include_dirs, [*stubs, work])
        search = [p.parent, *map(Path, include_dirs), *stubs]
        src, out.size_macros, tested, idents = _with_headers(p, text, search, stubs, work, confine)
        out.spelled = {n for n in defines if all(part in idents for part in n.split("."))}
        macros = {**_COMPAT, **(C_MACROS if predefined is None else predefined), "__STATICROOF__": "1",
                  **(extra_macros or {})}
        _preprocess(out, path, p, text, src, tested, defines, include_dirs, stubs, macros, set(undefines),
                    use_system, work, confine)
    finally:
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
    return out


def _preprocess(out: Preprocessed, path, p: Path, text, src, tested, defines, include_dirs, stubs, macros: dict,
                undefines: set, use_system, work: Path, confine: Confinement) -> None:
    for name, value in defines.items():
        as_int = None if value is None else _int_value(str(value))
        # `-D __CUDA_ARCH__=900`, `-D _LP64`: always the preprocessor's
        reserved = name.startswith("__") or name in PREDEFINED_NAMES
        is_size = name in out.size_macros or (not reserved and name not in tested and _integer_declared(name, text))
        if is_size or (as_int is not None and name not in tested and not reserved):
            why = _bad_size_value(name, value, as_int, out.size_macros.get(name))
            if why:
                shown_value = "" if value is None else f"={value}"
                out.diagnostics.append(Diagnostic("SR007", f"-D {name}{shown_value}: {why}"))
                out.ok = False
                return
            out.bindings[name] = as_int
        else:
            macros[name] = "1" if value is None else str(value)
    for name in undefines:
        macros.pop(name, None)
    refused: list = []
    missing = _missing_system_headers(p, text, include_dirs, stubs, confine, refused=refused)
    if refused:
        for msg, loc in refused:
            out.diagnostics.append(Diagnostic("SR005", msg, loc))
        out.ok = False
        return
    stub_root = None
    if missing:
        stub_root = work / "stubs"
        for name, loc in missing:
            f = stub_root / name
            if not f.resolve().is_relative_to(stub_root.resolve()):
                continue  # never reached: _stub_name_ok refuses such names
            near = [d for d in header_folders(name, p.parent, exclude=[p.parent, *map(Path, include_dirs)])
                    if not d.resolve().is_relative_to(work.resolve())]
            f.parent.mkdir(parents=True, exist_ok=True)
            f.touch()
            hint = (f" (a file of that name is near the source: pass {', '.join(f'-I {_shown(f)}' for f in near)})"
                    if near else "")
            out.diagnostics.append(Diagnostic("SR004", f"no stub for <{name}>; using an empty header{hint}", loc))
    search = [str(p.parent)] + include_dirs + [str(d) for d in stubs] + ([str(stub_root)] if stub_root else [])
    if use_system is None:
        use_system = system_preprocessor_available()
    cc = system_compiler() if use_system else None
    empty = work / "missing"  # the user headers not found, as empty files (SR131)
    for _ in range(MISSING_HEADERS + 1):
        before = len(out.diagnostics)
        if cc is not None:
            _run_cc(cc, path, f'#line 1 "{line_name(path)}"\n' + src, macros, search + [str(empty)], out, work,
                    confine)
        else:
            _run_pcpp(path, src, macros, search + [str(empty)], out, work, confine)
        if out.ok:
            return
        _explain_missing_header(out, p, text, include_dirs)
        name = _missing_user_header(out.diagnostics[-1]) if len(out.diagnostics) > before else None
        if name is None or name in out.missing or len(out.missing) >= MISSING_HEADERS:
            return
        # read it as empty and go on: the kernels that use none of what it declares lose nothing
        d = out.diagnostics.pop()
        del out.diagnostics[before:]
        out.diagnostics.append(Diagnostic("SR131", d.message.replace(": No such file or directory",
                                                                     " not found: read as empty", 1), d.location))
        out.missing.append(name)
        f = empty / name
        f.parent.mkdir(parents=True, exist_ok=True)
        f.touch()
        out.ok, out.text = True, ""


_NOT_FOUND = re.compile(r"^(.+?): No such file or directory$")
MISSING_HEADERS = 8  # user headers read as empty in one file, at most (then the file is SR005)


def _missing_user_header(d: Diagnostic) -> str | None:
    """The name of the quoted header a preprocessor error says it could not find, if it is one that
    can be an empty file of the work folder."""
    if d.code != "SR005":
        return None
    m = re.match(r"^(.+?): No such file or directory \(a user header", d.message)
    name = m.group(1).strip() if m else None
    return name if name is not None and _stub_name_ok(name) else None

# The search for a missing user header: from the including file's folder up to this many folders
# (not above a repository's root, a folder with `.git`), then down, visiting at most this many
# folders (hidden ones skipped, links not followed); at most this many places are named.
HEADER_SEARCH_UP = 3
HEADER_SEARCH_FOLDERS = 4000
HEADER_SEARCH_SHOWN = 3


def _explain_missing_header(out: Preprocessed, p: Path, text: str, include_dirs) -> None:
    """A missing `#include "name"` (SR005): name the `-I` that finds it, with each folder near the
    file that has a file of that name."""
    if not out.diagnostics or out.diagnostics[-1].code != "SR005":
        return
    d = out.diagnostics[-1]
    m = _NOT_FOUND.match(d.message)
    if m is None:
        return
    name = m.group(1).strip()
    if not _stub_name_ok(name):
        return
    includer = Path(d.location.file) if d.location is not None and d.location.file else p
    start = includer.parent if includer.parent.is_dir() else p.parent
    places = header_folders(name, start, exclude=[start, *map(Path, include_dirs)])
    if places:
        shown = ", ".join(f"-I {_shown(f)}" for f in places)
        hint = f"a file of that name is near the source: pass {shown}"
    else:
        hint = "pass -I with the folder that holds it"
    loc = d.location
    if loc is not None and loc.line:  # the column of the opening quote, as cc says it (pcpp gives none)
        try:
            line = (text if includer == p else _read_header(includer)).split("\n")[loc.line - 1]
        except (InputError, IndexError):
            line = ""
        inc = _INCLUDE.match(line)
        if inc is not None:
            loc = Location(loc.file, loc.line, inc.start(2) - inc.start())
    out.diagnostics[-1] = Diagnostic(d.code, f"{d.message} (a user header: {hint})", loc)


def header_folders(name: str, start: Path, exclude=()) -> list:
    """Folders F near `start` (see HEADER_SEARCH_UP) where F/name is a regular file, nearest the
    top first, at most HEADER_SEARCH_SHOWN; a bounded walk."""
    root = start.resolve()
    for _ in range(HEADER_SEARCH_UP):
        if (root / ".git").exists() or root.parent == root:
            break
        root = root.parent
    skip = set()
    for e in exclude:
        try:
            skip.add(Path(e).resolve())
        except OSError:
            continue
    found: list = []
    queue, visited = [root], 0
    while queue and visited < HEADER_SEARCH_FOLDERS and len(found) < HEADER_SEARCH_SHOWN:
        folder = queue.pop(0)
        visited += 1
        if folder not in skip and is_regular(folder / name):
            found.append(folder)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        queue += [Path(e.path) for e in entries
                  if not e.name.startswith(".") and e.is_dir(follow_symlinks=False)]
    return found


def _shown(folder: Path) -> str:
    """A folder as a `-I` argument: relative to the current folder when it is under it."""
    try:
        return str(folder.relative_to(Path.cwd().resolve())) or "."
    except ValueError:
        return str(folder)


# Limits on the system preprocessor (documented in the README, "Limits"): an include of a huge
# generated file or a macro bomb must end with a message, not exhaust the machine.
CPP_TIMEOUT = 60  # seconds
CPP_OUTPUT_LIMIT = 256 * 1024 * 1024  # bytes of preprocessed text
CPP_MEMORY_LIMIT = 1024 ** 3  # bytes of address space per preprocessor process (its peak RSS stays near half)


def _limited(args: list) -> tuple:
    """(command, preexec_fn) running `args` under the limits.  A POSIX shell sets them and execs
    the preprocessor: no Python code runs between fork and exec, so subprocess can use vfork, and
    this process (sympy and isl loaded, hundreds of MB) is never copied (~4.5 ms of CPU and ~20 ms
    of wall time per file).  A limit the shell cannot set is left, as setrlimit's failure was."""
    sh = shutil.which("sh") if os.name == "posix" else None
    if sh is None:
        return args, (_limits if os.name == "posix" else None)
    script = (f"ulimit -f {-(-CPP_OUTPUT_LIMIT // 512)} 2>/dev/null; ulimit -v {CPP_MEMORY_LIMIT // 1024} "
              '2>/dev/null; exec "$0" "$@"')  # -f in 512-byte blocks, -v in KiB (POSIX)
    return [sh, "-c", script, *args], None


def _limits():  # pragma: no cover - runs in the child between fork and exec
    import resource

    for what, value in ((resource.RLIMIT_FSIZE, CPP_OUTPUT_LIMIT), (resource.RLIMIT_AS, CPP_MEMORY_LIMIT)):
        try:
            resource.setrlimit(what, (value, value))
        except (ValueError, OSError):
            pass


def _run_cc(cc, path, src, macros, search, out: Preprocessed, work: Path, confine: Confinement) -> None:
    import subprocess  # here, not with the module: a cached run reads its headers, never runs them

    # -undef: none of the host's own macros; the C standard's that it keeps are removed too, so the
    # macros are exactly `macros` (predefined.py), as pcpp's are
    args = [cc, "-E", "-x", "c", "-std=c11", "-nostdinc", "-undef", *(f"-U{n}" for n in CC_BUILTINS)]
    args += [f"-D{n}(x)=0" for n in FEATURE_QUERIES]  # as pcpp_child's (GCC warns "redefined")
    if macros.get("__STDC__") != "1":
        args.append("-U__STDC__")  # GCC's own is 1
    for name, value in macros.items():
        if name != "__STDC__" or value != "1":
            args.append(f"-D{name}={value}")
    for d in search:
        args.append(f"-I{d}")
    source, result, errors = work / "input.c", work / "output.i", work / "errors.txt"
    source.write_text(src, encoding="utf-8", errors="surrogateescape")
    deps = work / "deps.d"  # the files it opened, checked against `confine` after the run
    deps.unlink(missing_ok=True)
    args += ["-MD", "-MF", str(deps), "-MT", "x", str(source)]
    posix = os.name == "posix"
    command, preexec = _limited(args)
    try:
        with open(result, "wb") as fout, open(errors, "wb") as ferr:
            # A session of its own: on a timeout the whole group (cc and its cc1) is killed.
            proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=fout, stderr=ferr,
                                    start_new_session=posix, preexec_fn=preexec)
            try:
                _wait(proc, posix)
            except BaseException:  # the timeout, or Ctrl-C: never leave a preprocessor running
                _kill(proc, posix)
                raise
    except subprocess.TimeoutExpired:
        out.diagnostics.append(Diagnostic("SR005", f"the C preprocessor ran longer than {CPP_TIMEOUT} s "
                                                   "(an include of a huge or endless file?)", Location(path)))
        out.ok = False
        return
    except OSError as e:
        out.diagnostics.append(Diagnostic("SR005", f"the C preprocessor failed to run: {e}", Location(path)))
        out.ok = False
        return
    size = result.stat().st_size
    if proc.returncode != 0 or size >= CPP_OUTPUT_LIMIT:
        stderr = errors.read_bytes()[:65536].decode("utf-8", "replace")
        if size >= CPP_OUTPUT_LIMIT or proc.returncode in (-25, 153):  # SIGXFSZ
            msg, loc = (f"preprocessed text larger than {_bytes(CPP_OUTPUT_LIMIT)} "
                        "(an include of a huge or endless file, or a macro that expands without end?)"), Location(path)
        elif "memory" in stderr.lower():  # cc1's "out of memory allocating ...": it exits 1, no signal
            msg, loc = (f"the C preprocessor ran out of its {_bytes(CPP_MEMORY_LIMIT)} of memory "
                        "(an include of a huge or endless file, or a macro that expands without end?)"), Location(path)
        elif proc.returncode < 0:
            msg, loc = f"the C preprocessor was stopped by {_signal_name(-proc.returncode)}", Location(path)
        else:
            msg, loc = _first_cpp_error(stderr, path)
        out.diagnostics.append(Diagnostic("SR005", msg, loc))
        out.ok = False
        return
    opened = parse_make_deps(deps.read_text(encoding="utf-8", errors="surrogateescape")) if deps.exists() else None
    outside = _outside(opened, confine)
    if outside is not None:
        out.diagnostics.append(Diagnostic("SR005", outside, Location(path)))
        out.ok = False
        return
    out.text = result.read_text(encoding="utf-8", errors="replace")


def _outside(opened: list[str] | None, confine: Confinement) -> str | None:
    """The error when the preprocessor opened a file outside the allowed folders (a computed
    `#include MACRO` the first check cannot see), or when what it opened cannot be told."""
    if opened is None:
        return "the C preprocessor's list of the files it opened could not be read: its output is not used"
    for f in opened:
        if not os.path.lexists(f):
            return ("the C preprocessor's list of the files it opened names one that is not there: "
                    "its output is not used")
        if not confine.allows(f):
            return confine.refusal(f'"{f}"', f)
    return None


def _wait(proc, posix: bool) -> None:
    """Wait for the preprocessor, at most CPP_TIMEOUT seconds (then subprocess.TimeoutExpired).  A
    timer kills it at the timeout and the wait blocks: `Popen.wait(timeout)` polls with sleeps of up
    to 50 ms, which a preprocessor run of ~10 ms pays in full."""
    import subprocess
    import threading

    expired = threading.Event()

    def stop():
        expired.set()
        _signal_group(proc, posix)

    timer = threading.Timer(CPP_TIMEOUT, stop)
    timer.daemon = True
    timer.start()
    try:
        proc.wait()
    finally:
        timer.cancel()
    if expired.is_set():
        raise subprocess.TimeoutExpired(proc.args, CPP_TIMEOUT)


def _signal_group(proc, posix: bool) -> None:
    try:
        if posix:
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    except (ProcessLookupError, PermissionError, OSError):
        pass


def _kill(proc, posix: bool) -> None:
    _signal_group(proc, posix)
    proc.wait()


_CPP_ERR = re.compile(r"^(.*?):(\d+):(?:(\d+):)?\s*(?:fatal )?error:\s*(.*)$", re.M)


def _first_cpp_error(stderr: str, path: str):
    m = _CPP_ERR.search(stderr)
    if not m:
        lines = [s for s in stderr.strip().splitlines() if not s.startswith("<command-line>")]
        return (lines or ["preprocessor error"])[0], Location(path)
    f = m.group(1)
    if f in ("<stdin>", "-"):
        f = path
    return m.group(4).strip(), Location(f, int(m.group(2)), int(m.group(3) or 1))


def _run_pcpp(path, src, macros, search, out: Preprocessed, work: Path, confine: Confinement) -> None:
    """pcpp in a child Python process (`pcpp_child`) under the system preprocessor's limits: its
    own session, CPP_MEMORY_LIMIT of address space, CPP_OUTPUT_LIMIT of output, CPP_TIMEOUT
    seconds, then the whole group is killed.  A macro bomb or an endless include ends in SR005."""
    import subprocess

    job = work / "pcpp"
    job.mkdir(exist_ok=True)  # (run again when a missing user header is read as empty)
    (job / "input.c").write_text(src, encoding="utf-8", errors="surrogateescape")
    (job / "job.json").write_text(json.dumps({
        "path": str(path), "source": line_name(path), "search": [str(d) for d in search], "macros": macros,
        "builtins": GCC_BUILTINS, "queries": FEATURE_QUERIES, "source_limit": SOURCE_LIMIT,
        "output_limit": CPP_OUTPUT_LIMIT,
        "allowed": [str(r) for r in confine.roots], "project": str(confine.project)}), encoding="utf-8")
    # -P: the current folder (whatever repository we analyze) is not searched for modules; the
    # child finds staticroof.inputs where this process found it.
    boot = ("import runpy, sys; sys.path.insert(0, sys.argv[1]); sys.argv = sys.argv[2:]; "
            "runpy.run_path(sys.argv[0], run_name='__main__')")
    child = Path(__file__).with_name("pcpp_child.py")
    args = [sys.executable, "-P", "-c", boot, str(Path(__file__).resolve().parents[2]), str(child), str(job)]
    posix = os.name == "posix"
    where = Location(path)
    try:
        with open(job / "errors.txt", "wb") as ferr:
            proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=ferr,
                                    start_new_session=posix, preexec_fn=_limits if posix else None)
            try:
                proc.wait(timeout=CPP_TIMEOUT)
            except BaseException:  # the timeout, or Ctrl-C: never leave a preprocessor running
                _kill(proc, posix)
                raise
    except subprocess.TimeoutExpired:
        out.diagnostics.append(Diagnostic("SR005", f"the C preprocessor (pcpp) ran longer than {CPP_TIMEOUT} s "
                                                   "(a macro that expands without end?)", where))
        out.ok = False
        return
    except OSError as e:
        out.diagnostics.append(Diagnostic("SR005", f"the C preprocessor (pcpp) failed to run: {e}", where))
        out.ok = False
        return
    result = _pcpp_result(job / "result.json")
    output = job / "output.i"
    size = output.stat().st_size if output.exists() else 0
    stop = result.get("stop") if result else None
    errors = result.get("errors") if result else None
    if stop == "output" or size >= CPP_OUTPUT_LIMIT or proc.returncode in (-25, 153):  # SIGXFSZ
        msg = (f"preprocessed text larger than {_bytes(CPP_OUTPUT_LIMIT)} "
               "(an include of a huge or endless file, or a macro that expands without end?)")
    elif stop == "recursion":
        msg = "#include or macro nesting too deep for the preprocessor (a file that includes itself?)"
    elif stop == "memory" or proc.returncode < 0:
        how = f" (stopped by {_signal_name(-proc.returncode)})" if proc.returncode < 0 else ""
        msg = (f"the C preprocessor (pcpp) ran out of its {_bytes(CPP_MEMORY_LIMIT)} of memory{how} "
               "(a macro that expands without end?)")
    elif errors:
        f, line, msg = errors[0]
        where = Location(str(f or path), int(line or 0))
    elif result is None or proc.returncode != 0:
        last = (job / "errors.txt").read_bytes()[-4096:].decode("utf-8", "replace").strip().splitlines()
        msg = f"the C preprocessor (pcpp) failed (exit status {proc.returncode}): {last[-1] if last else 'no output'}"
    else:
        out.text = output.read_text(encoding="utf-8", errors="surrogateescape")
        return
    out.diagnostics.append(Diagnostic("SR005", msg, where))
    out.ok = False


def _pcpp_result(path: Path):
    """The child's result.json, or None when it died before writing one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _bytes(n: int) -> str:
    """A limit as the README states it: 1 GiB, 256 MiB (a test's smaller limits in bytes)."""
    for unit, name in ((2**30, "GiB"), (2**20, "MiB")):
        if n % unit == 0:
            return f"{n // unit} {name}"
    return f"{n:,} bytes"


def _signal_name(number: int) -> str:
    try:
        return f"{signal.Signals(number).name} (signal {number})"
    except ValueError:
        return f"signal {number}"


def system_preprocessor_available() -> bool:
    return system_compiler() is not None and os.environ.get("STATICROOF_NO_CPP") is None
