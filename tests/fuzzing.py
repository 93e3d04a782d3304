"""Fuzz inputs for `staticroof analyze` and the oracle that judges each run (issue #11).

A case is a small folder of inputs (a source file, perhaps headers, a FIFO, a pyproject.toml) and
the command line to run on it.  Cases are made by mutating the real kernels in `samples/` and
`tests/data/` (byte flips, token edits, truncation at each kind of boundary, deep nesting, huge
literals and shifts, `#include` tricks, odd file names, encodings, CUDA constructs, options and
`-D` values) or by building kernels from a small grammar.  `generate(random.Random(i))` makes
case `i` of a long run: the same index always gives the same case, so a run can resume and a
failure can be reproduced from its number alone (the case is saved too).

The oracle that judges each run is in tests/fuzz_oracle.py.
"""

from __future__ import annotations

import base64
import random
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED_DIRS = ("samples", "tests/data")
SOURCE_SUFFIXES = (".c", ".cu")
HEADER_SUFFIXES = (".h", ".cuh")


def seed_files() -> list[Path]:
    """Every kernel source of the repository's samples and test data (headers come along)."""
    out = []
    for d in SEED_DIRS:
        out += [p for p in (ROOT / d).rglob("*") if p.is_file() and p.suffix in SOURCE_SUFFIXES]
    return sorted(out)


SEEDS = seed_files()


@dataclass
class Case:
    """One fuzz input.  `files` maps a path under the case's `src/` folder to its bytes; `main` is
    the file analyzed.  In `args`, `{src}`, `{outside}`, `{main}` and `{tag}` are replaced when the
    case is laid out (see `materialize`).  `expect` is an exit status known in advance (a usage
    error), else None."""

    seed: str
    main: str
    files: dict = field(default_factory=dict)
    args: list = field(default_factory=list)
    ops: list = field(default_factory=list)
    fifos: list = field(default_factory=list)
    expect: int | None = None
    cwd_src: bool = False  # run from src/ (paths given relative to it)
    no_cpp: bool = False  # the pure-Python preprocessor (STATICROOF_NO_CPP=1)

    def to_json(self) -> dict:
        d = asdict(self)
        d["files"] = {k: base64.b64encode(v).decode() for k, v in self.files.items()}
        return d

    @classmethod
    def from_json(cls, d: dict) -> Case:
        d = dict(d)
        d["files"] = {k: base64.b64decode(v) for k, v in d["files"].items()}
        return cls(**d)


# ---------------------------------------------------------------------------------- tokens

_TOKEN = re.compile(r"""
    (?P<comment>/\*.*?\*/|//[^\n]*)
  | (?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<number>(?:0[xX][0-9a-fA-F]+|\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)[uUlLfF]*)
  | (?P<ident>[A-Za-z_]\w*)
  | (?P<space>\s+)
  | (?P<punct><<<|>>>|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%=<>!&|^~?:;,.(){}\[\]#\\])
  | (?P<other>.)
""", re.S | re.X)


def tokens(text: str) -> list[tuple[str, str]]:
    return [(m.lastgroup, m.group()) for m in _TOKEN.finditer(text)]


VOCAB = ["for", "while", "do", "if", "else", "return", "break", "continue", "goto", "switch", "case",
         "default", "int", "float", "double", "half", "char", "unsigned", "long", "const", "static",
         "struct", "union", "enum", "typedef", "sizeof", "void", "restrict", "volatile", "extern",
         "__global__", "__device__", "__shared__", "__host__", "__restrict__", "template", "typename",
         "threadIdx", "blockIdx", "blockDim", "gridDim", ".x", ".y", "__syncthreads()", "auto",
         "(", ")", "{", "}", "[", "]", ";", ",", "=", "+=", "*", "/", "%", "<<", ">>", "<", ">", "?", ":",
         "++", "--", "->", ".", "&", "|", "^", "!", "~", "#", "##", "\\", "\n", "0", "1", "-1", "2.5f",
         "1e308", "0x7fffffff", "n", "i", "x[i]", "N", "'a'", '"s"', "/*", "*/", "//", "<<<", ">>>",
         "#define", "#if", "#endif", "#include", "#pragma", "__attribute__((unused))", "...", "[[", "]]"]


# ------------------------------------------------------------------------------- operators

def _lines(text: str) -> list[str]:
    return text.split("\n")


def op_byte_flip(rng: random.Random, case: Case) -> None:
    """Flip, set, insert or delete a few bytes."""
    data = bytearray(case.files[case.main])
    for _ in range(rng.choice([1, 1, 2, 3, 8])):
        if not data:
            data.extend(b"{")
        k = rng.randrange(len(data))
        r = rng.random()
        if r < 0.4:
            data[k] ^= 1 << rng.randrange(8)
        elif r < 0.6:
            data[k] = rng.choice([0, 0x80, 0xff, 0xc3, 0x0d, 0x0c, 0x5c, 0x22, 0x27, 0x23, rng.randrange(256)])
        elif r < 0.8:
            data[k:k] = rng.choice([b"\x00", b"\xff\xfe", b"\r", b"\\\n", b"??=", b"\xe2\x80\xae", b"\t", b"\x1a"])
        else:
            del data[k:k + rng.randrange(1, 16)]
    case.files[case.main] = bytes(data)


def op_tokens(rng: random.Random, case: Case) -> None:
    """Delete, insert, duplicate or swap tokens (comments and strings are tokens too)."""
    text = case.files[case.main].decode("utf-8", "surrogateescape")
    toks = list(tokens(text))
    if not toks:
        toks = [("punct", "{")]
    idents = sorted({t for kind, t in toks if kind == "ident"}) or ["x"]
    for _ in range(rng.choice([1, 1, 2, 4, 10])):
        k = rng.randrange(len(toks))
        r = rng.random()
        if r < 0.3:
            del toks[k]
        elif r < 0.55:
            toks.insert(k, ("x", rng.choice(VOCAB + idents) + rng.choice(["", " "])))
        elif r < 0.75:
            span = toks[k:k + rng.randrange(1, 40)]
            toks[k:k] = span
        elif r < 0.9:
            j = rng.randrange(len(toks))
            toks[k], toks[j] = toks[j], toks[k]
        else:
            toks[k] = ("x", rng.choice(idents))
        if not toks:
            toks = [("punct", ";")]
    case.files[case.main] = "".join(t for _, t in toks).encode("utf-8", "surrogateescape")


def op_truncate(rng: random.Random, case: Case) -> None:
    """Cut the file at a boundary of some kind: a byte, a line, a token, after `{`, before `}`,
    inside a comment, a string, a directive or a line continuation."""
    data = case.files[case.main]
    text = data.decode("utf-8", "surrogateescape")
    kind = rng.choice(["byte", "line", "token", "open", "close", "comment", "string", "directive", "multibyte",
                       "paren"])
    cuts = []
    if kind == "byte":
        cuts = list(range(len(data) + 1))
        case.files[case.main] = data[:rng.choice(cuts)] if cuts else b""
        return
    if kind == "line":
        cuts = [m.end() for m in re.finditer("\n", text)]
    elif kind == "token":
        pos, cuts = 0, []
        for _, t in tokens(text):
            pos += len(t)
            cuts.append(pos)
    elif kind == "open":
        cuts = [m.end() for m in re.finditer(r"\{", text)]
    elif kind == "close":
        cuts = [m.start() for m in re.finditer(r"\}", text)]
    elif kind == "paren":
        cuts = [m.end() for m in re.finditer(r"[(\[]", text)]
    elif kind == "comment":
        cuts = [m.start() + rng.randrange(1, max(2, len(m.group()))) for m in re.finditer(r"/\*.*?\*/", text, re.S)]
    elif kind == "string":
        cuts = [m.start() + 1 for m in re.finditer(r"\"[^\"\n]*\"", text)]
    elif kind == "directive":
        cuts = [m.start() + rng.randrange(1, max(2, len(m.group()))) for m in re.finditer(r"^\s*#[^\n]*", text, re.M)]
    elif kind == "multibyte":
        cuts = [m.start() + 1 for m in re.finditer(r"[^\x00-\x7f]", text)]
        if not cuts:
            text = text.replace("*/", " \u00e9\u4e2d */", 1)
            cuts = [m.start() + 1 for m in re.finditer(r"[^\x00-\x7f]", text)]
        raw = text.encode("utf-8", "surrogateescape")
        cut = len(text[:rng.choice(cuts)].encode("utf-8", "surrogateescape")) if cuts else len(raw)
        case.files[case.main] = raw[:cut]
        return
    if not cuts:
        cuts = [len(text) // 2]
    case.files[case.main] = text[:rng.choice(cuts)].encode("utf-8", "surrogateescape")


def _body_positions(text: str) -> list[int]:
    """Offsets just after a `;` or `{` inside a function body (statement boundaries)."""
    return [m.end() for m in re.finditer(r"[;{]\s*\n", text)] or [len(text)]


def _once(items: list, item: str) -> None:
    """Add a special file once: two `include` operations may pick the same one (the harness made the
    link twice: FileExistsError, a harness failure of fuzz case 5540)."""
    if item not in items:
        items.append(item)


def op_deep_nesting(rng: random.Random, case: Case) -> None:
    """Parentheses, braces, `if`s, loops, ternaries, `#if`s or a long `+` chain, shallow to absurd."""
    text = case.files[case.main].decode("utf-8", "surrogateescape")
    depth = rng.choice([10, 60, 150, 300, 1000, 3000, 20000])
    kind = rng.choice(["parens", "braces", "ifs", "fors", "ternary", "pp_if", "plus_chain", "brackets",
                       "casts", "unary", "macro_calls", "templates"])
    if kind == "parens":
        m = list(re.finditer(r"\b([A-Za-z_]\w*\s*\[[^\]\n]*\])", text))
        if m:
            hit = rng.choice(m)
            text = text[:hit.start()] + "(" * depth + hit.group() + ")" * depth + text[hit.end():]
            case.files[case.main] = text.encode("utf-8", "surrogateescape")
            return
        stmt = "x[0] = " + "(" * depth + "1.0f" + ")" * depth + ";\n"
    elif kind == "braces":
        stmt = "{" * depth + "x[0] = 1.0f;" + "}" * depth + "\n"
    elif kind == "ifs":
        depth = min(depth, 3000)
        stmt = "".join(f"if (i > {k}) " for k in range(depth)) + "x[i] = 2.0f * x[i];\n"
    elif kind == "fors":
        depth = min(depth, 400)
        stmt = "".join(f"for (int j{k} = 0; j{k} < 2; j{k}++) " for k in range(depth)) + "x[0] += 1.0f;\n"
    elif kind == "ternary":
        stmt = "x[0] = " + "".join(f"i > {k} ? {k}.0f : " for k in range(depth)) + "0.0f;\n"
    elif kind == "pp_if":
        depth = min(depth, 3000)
        stmt = "#if 1\n" * depth + "x[0] = 3.0f;\n" + "#endif\n" * depth
    elif kind == "plus_chain":
        stmt = "x[0] = " + " + ".join(f"x[{k % 7}]" for k in range(depth)) + ";\n"
    elif kind == "brackets":
        stmt = "x[" * depth + "0" + "]" * depth + " = 1.0f;\n"
    elif kind == "casts":
        stmt = "x[0] = " + "(float)" * depth + "x[1];\n"
    elif kind == "unary":
        stmt = "x[0] = " + "-" * depth + " x[1];\n"
    elif kind == "macro_calls":
        depth = min(depth, 1000)
        stmt = "#define F(a) ((a) + 1.0f)\nx[0] = " + "F(" * depth + "x[1]" + ")" * depth + ";\n"
    else:
        depth = min(depth, 1000)
        stmt = "typedef " + "A<" * depth + "int" + ">" * depth + " T;\n"
    pos = rng.choice(_body_positions(text))
    case.files[case.main] = (text[:pos] + stmt + text[pos:]).encode("utf-8", "surrogateescape")


HUGE = ["9" * 25, "9" * 5000, "1 << 63", "1 << 64", "(1 << 99999999999)", "0x" + "f" * 40, "18446744073709551616",
        "-9223372036854775808", "1e309", "1e99999", "1.0e-99999", "99999999999999999999999u", "0", "-1",
        "0x7fffffffffffffffLL", "(1<<62)*(1<<62)", "2147483648", "1/0", "1%0", "(-1) >> 70", "'\\xff'",
        "4294967296ULL * 4294967296ULL", "1" + "0" * 400 + ".0f", "0b1" + "0" * 100]


def op_huge_literal(rng: random.Random, case: Case) -> None:
    """Replace integer literals (a loop bound, a #define, an index offset) by huge or odd values,
    or add a huge shift."""
    text = case.files[case.main].decode("utf-8", "surrogateescape")
    nums = list(re.finditer(r"(?<![\w.])\d+(?![\w.])", text))
    for _ in range(rng.choice([1, 1, 2, 5])):
        if nums and rng.random() < 0.8:
            m = rng.choice(nums)
            text = text[:m.start()] + rng.choice(HUGE) + text[m.end():]
            nums = list(re.finditer(r"(?<![\w.])\d+(?![\w.])", text))
        else:
            pos = rng.choice(_body_positions(text))
            stmt = rng.choice(["x[0] = x[0] * (1 << {h});\n", "#define BIG ({h})\n",
                               "for (int q = 0; q < ({h}); q++) x[q] += 1.0f;\n",
                               "float big[{h}];\n", "x[({h})] = 1.0f;\n", "int s = 1 << {h};\n"])
            text = text[:pos] + stmt.format(h=rng.choice(HUGE)) + text[pos:]
    case.files[case.main] = text.encode("utf-8", "surrogateescape")


def op_include(rng: random.Random, case: Case) -> None:
    """An `#include` that points somewhere it must not: an absolute path, `../` out of every
    folder, /dev/zero, a FIFO, a folder, a missing or self-include, a huge header."""
    kind = rng.choice(["abs_quote", "abs_angle", "parent_angle", "parent_quote", "dev_zero", "dev_urandom",
                       "dev_null", "fifo", "folder", "missing_user", "missing_system", "self", "mutual",
                       "deep_missing_system", "header_sizes", "computed_missing", "angle_dot", "backslash",
                       "empty", "many", "symlink_zero", "symlink_loop", "symlink_out", "macro_bomb"])
    text = case.files[case.main].decode("utf-8", "surrogateescape")
    stem = Path(case.main).name
    lines = {
        "abs_quote": '#include "{outside}/abs/x.h"',
        "abs_angle": "#include <{outside}/abs/y.h>",
        "parent_angle": "#include <../../../../../../../../escape_{tag}/x.h>",
        "parent_quote": '#include "../escape_{tag}/x.h"',
        "dev_zero": '#include "/dev/zero"',
        "dev_urandom": "#include </dev/urandom>",
        "dev_null": '#include "/dev/null"',
        "fifo": '#include "pipe.h"',
        "folder": '#include "sub"',
        "missing_user": '#include "no_such_header_{tag}.h"',
        "missing_system": "#include <no_such_system_header.h>",
        "self": f'#include "{stem}"' if '"' not in stem and "\n" not in stem else '#include "self.h"',
        "mutual": '#include "a.h"',
        "deep_missing_system": "#include <sys/no/such/deep_{tag}.h>",
        "header_sizes": '#include "sizes_fz.h"',
        "computed_missing": '#define HDR "no_such_{tag}.h"\n#include HDR',
        "angle_dot": "#include <./x.h>",
        "backslash": '#include "..\\\\escape_{tag}\\\\x.h"',
        "empty": '#include ""',
        "many": "\n".join(f'#include "h{k % 3}.h"' for k in range(200)),
        "symlink_zero": '#include "zlink.h"',
        "symlink_loop": '#include "looplink.h"',
        "symlink_out": '#include "outlink.h"',
        "macro_bomb": "",
    }
    line = lines[kind]
    if kind == "fifo":
        _once(case.fifos, "pipe.h")
    elif kind == "folder":
        case.files["sub/keep.h"] = b"/* a folder named like a header */\n"
    elif kind == "self" and line.endswith('"self.h"'):
        case.files["self.h"] = b'#include "self.h"\n#define SELF 1\n'
    elif kind == "mutual":
        case.files["a.h"] = b'#include "b.h"\n#define A_N 64\n'
        case.files["b.h"] = b'#include "a.h"\n#define B_N 32\n'
    elif kind == "header_sizes":
        case.files["sizes_fz.h"] = rng.choice([b"#define N 64\n#define M (1 << 70)\n",
                                              b"#define N 99999999999999999999999999\n",
                                              "#define N 1\n/* caf\u00e9 */\n".encode("latin-1"),
                                              "#define N 8\n".encode("utf-16"), b"\x00\x01\x02binary\xff",
                                              b"#define N 16\n#if N\n#endif\n" * 50])
    elif kind == "symlink_zero":
        _once(case.fifos, "zlink.h@symlink=/dev/zero")
    elif kind == "symlink_loop":
        _once(case.fifos, "looplink.h@symlink")
    elif kind == "symlink_out":
        _once(case.fifos, "outlink.h@symlink={outside}/gone.h")  # dangling, outside the tree
    elif kind == "macro_bomb":
        # each macro twice the one before: 2**k statements (2**16 and more: see test_fuzz.py, macro bomb)
        k = rng.choice([4, 8, 12])
        line = "\n".join(["#define FZB0 x[0] = x[0] * 2.0f;"] + [f"#define FZB{j} FZB{j - 1} FZB{j - 1}"
                                                               for j in range(1, k + 1)])
        line += f"\nvoid fz_bomb(float *x) {{ FZB{k} }}"
    elif kind == "many":
        for k in range(3):
            case.files[f"h{k}.h"] = f"#ifndef H{k}\n#define H{k}\n#define HV{k} {k + 1}\n#endif\n".encode()
    if kind == "self" and not line.endswith('"self.h"'):
        line = line  # the main file includes itself (guarded by nothing: the preprocessor's depth limit)
    pos = 0 if rng.random() < 0.6 else rng.choice([m.end() for m in re.finditer("\n", text)] or [0])
    text = text[:pos] + line + "\n" + text[pos:]
    case.files[case.main] = text.encode("utf-8", "surrogateescape")


ODD_NAMES = ['q"uote', "back\\slash", "new\nline", "sp ace", "\u00fcn\u00ef c\u00f6d\u00e9", "-lead", "--help",
             "'$(touch pwned)'", ";rm -rf x", "%s%n%x", "{0}{main}", "tab\tname",
             'b"\n#define float double\n#line 1 "b',
             "\u202eevil", "x" * 200, "..dots", "#line", "a:1:2: error fake", "\u4e2d\u6587", "emoji\U0001f600",
             "cr\rname", "star*", "?", "[brackets]"]


def op_odd_name(rng: random.Random, case: Case) -> None:
    """Rename the analyzed file (and pass it as an absolute path, a relative one from its folder,
    after `--`, or through its folder)."""
    old = case.main
    suffix = Path(old).suffix
    name = rng.choice(ODD_NAMES) + suffix
    case.files[name] = case.files.pop(old)
    case.main = name
    how = rng.choice(["absolute", "relative", "dashdash", "folder", "dotslash"])
    case.args = [a for a in case.args if a not in ("{main}", "{src}", "{--main}")]
    if how == "absolute":
        case.args.append("{main}")
    elif how == "relative" or how == "dotslash":
        case.cwd_src = True
        shown = name if how == "relative" else "./" + name
        case.args.append(shown)
        if how == "relative" and name.startswith("-"):
            case.expect = 2  # an unknown option (`-lead.c`): a usage error
    elif how == "dashdash":
        case.args.append("{--main}")  # `-- PATH`, after every option (see fuzz_oracle.materialize)
    else:
        case.args.append("{src}")


def op_encoding(rng: random.Random, case: Case) -> None:
    """Re-encode the file: UTF-16 with or without a BOM, UTF-32, Latin-1 text, a UTF-8 BOM,
    invalid UTF-16, NUL bytes, random binary, an empty or BOM-only file."""
    text = case.files[case.main].decode("utf-8", "surrogateescape")
    kind = rng.choice(["utf16", "utf16le_nobom", "utf16be_bom", "utf32", "latin1", "utf8bom", "bad_utf16", "nul",
                       "binary", "empty", "bom_only", "latin1_ident", "cp1252", "mixed"])
    try:
        clean = text.encode("utf-8").decode("utf-8")
    except UnicodeError:
        clean = text.encode("utf-8", "surrogateescape").decode("latin-1")
    if kind == "utf16":
        data = clean.encode("utf-16")
    elif kind == "utf16le_nobom":
        data = clean.encode("utf-16-le")
    elif kind == "utf16be_bom":
        data = b"\xfe\xff" + clean.encode("utf-16-be")
    elif kind == "utf32":
        data = clean.encode("utf-32")
    elif kind == "latin1":
        data = ("/* r\u00e9sum\u00e9 \u00b5s */\n" + clean).encode("latin-1", "replace")
    elif kind == "latin1_ident":
        data = clean.replace("float", "flo\u00e9t", 1).encode("latin-1", "replace")
    elif kind == "cp1252":
        data = b"/* \x93quoted\x94 \x80 */\n" + clean.encode("utf-8")
    elif kind == "utf8bom":
        data = b"\xef\xbb\xbf" + clean.encode("utf-8")
    elif kind == "bad_utf16":
        data = b"\xff\xfe" + clean.encode("utf-16-le")[:-1] + b"\x00\xd8"
    elif kind == "nul":
        raw = clean.encode("utf-8")
        k = rng.randrange(len(raw) + 1)
        data = raw[:k] + b"\x00" + raw[k:]
    elif kind == "binary":
        data = bytes(rng.randrange(256) for _ in range(rng.choice([1, 16, 4096])))
    elif kind == "empty":
        data = b""
    elif kind == "bom_only":
        data = rng.choice([b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"])
    else:
        data = clean.encode("utf-8") + "\u00e9".encode("latin-1") + clean[:200].encode("utf-16")
    case.files[case.main] = data


CUDA_SNIPPETS = [
    "__global__ void fz_k(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; "
    "if (i < n) x[i] *= 2.0f; }\n",
    "void fz_launch(float *x, int n) { fz_k<<<(n + 255) / 256, 256>>>(x, n); }\n",
    "void fz_launch0(float *x) { fz_k<<<0, 0>>>(x, 0); }\n",
    "void fz_launch_bad(float *x) { fz_k<<<dim3(1 << 40), dim3(99999, 99999, 99999), 0, 0>>>(x, 1 << 30); }\n",
    "void fz_launch_empty(float *x) { fz_k<<<>>>(x); }\n",
    "__global__ void fz_sh(float *x) { __shared__ float s[1 << 30]; s[threadIdx.x] = x[threadIdx.x]; "
    "__syncthreads(); x[threadIdx.x] = s[0]; }\n",
    "__global__ void fz_ext(float *x) { extern __shared__ float s[]; s[threadIdx.x] = x[threadIdx.x]; }\n",
    "template <int B> __global__ void fz_t(float *x) { x[threadIdx.x * B] = 1.0f; }\n"
    "void fz_ti(float *x) { fz_t<0><<<1, 1>>>(x); fz_t<-1><<<1, 1>>>(x); fz_t<99999999999><<<1, 32>>>(x); }\n",
    "__global__ void fz_w(float *x) { float v = x[threadIdx.x]; v += __shfl_down_sync(0xffffffff, v, 99); "
    "x[0] = v; }\n",
    "__global__ void fz_a(float *x, int *h) { atomicAdd(&h[(int)x[threadIdx.x]], 1); }\n",
    "__global__ void __launch_bounds__(99999, 0) fz_lb(float *x) { x[threadIdx.w] = 0; }\n",
    "__global__ void fz_div(float *x) { x[1 / blockDim.x] = x[threadIdx.x % 0]; }\n",
    "__global__ void fz_lam(float *x) { auto f = [=] __device__ (int i) { return x[i]; }; x[0] = f(1); }\n",
    "__global__ void fz_h(half *x) { x[threadIdx.x] = __hmul(x[threadIdx.x], __float2half(2.0f)); }\n",
    "__global__ void fz_unroll(float *x) {\n#pragma unroll 99999\n for (int i = 0; i < 4; i++) x[i] = 0; }\n",
    "namespace fz { struct S { float a[4]; __device__ float get(int i) const { return a[i]; } }; }\n",
    "__global__ void fz_cg(float *x) { namespace cg = cooperative_groups; auto g = cg::this_thread_block(); "
    "g.sync(); x[g.thread_rank()] = 0; }\n",
    "__global__ void fz_rec(float *x, int n) { if (n > 0) fz_rec<<<1, 1>>>(x, n - 1); x[n] = 0; }\n",
    "__device__ float fz_d(float v); __global__ void fz_call(float *x) { x[threadIdx.x] = fz_d(x[threadIdx.x]); }\n",
    "texture<float, 1> fz_tex; __global__ void fz_tx(float *y) { y[threadIdx.x] = tex1Dfetch(fz_tex, threadIdx.x); }\n",
    "__global__ void fz_grid(float *x, long n) { for (long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; "
    "i += blockDim.x * gridDim.x) x[i] = 0; }\n",
    "dim3 fz_g(0, 0), fz_b(1 << 20, 2);\n",
    "static_assert(sizeof(float) == 4, \"fz\");\nconstexpr int FZ = 1 << 62;\n",
    "class FZ { public: __device__ FZ operator+(const FZ &o) const { return o; } };\n",
]


def op_cuda(rng: random.Random, case: Case) -> None:
    """Insert CUDA constructs (launches with odd configurations, shared memory, templates with odd
    arguments, intrinsics, lambdas) at the top level, in a .cu file or (sometimes) a .c one."""
    text = case.files[case.main].decode("utf-8", "surrogateescape")
    for _ in range(rng.choice([1, 1, 2, 3])):
        snippet = rng.choice(CUDA_SNIPPETS)
        ends = [m.end() for m in re.finditer(r"^\}\s*$", text, re.M)] or [len(text)]
        pos = rng.choice(ends + [len(text)])
        text = text[:pos] + "\n" + snippet + text[pos:]
    if rng.random() < 0.2 and case.main.endswith(".c"):
        new = case.main[:-2] + ".cu"
        case.files[new] = case.files.pop(case.main)
        case.args = ["{main}" if a == "{main}" else a for a in case.args]
        case.main = new
    case.files[case.main] = text.encode("utf-8", "surrogateescape")


def _size_names(text: str) -> list[str]:
    names = re.findall(r"\b(?:int|long|size_t|unsigned)\s+([A-Za-z_]\w*)\s*[,)]", text)
    names += re.findall(r"^\s*#\s*define\s+([A-Za-z_]\w*)\s+\d", text, re.M)
    return sorted(set(names)) or ["n"]


D_VALUES = ["100", "0", "1", "7", "-5", "abc", "1e30", "1<<64", "(1 << 62)", "9" * 30, "0x10", "1024u", "", "1 + 2",
            "$(id)", "`id`", "${HOME}", "1; rm -rf /", "1\n#define float double", "\"str\"", "3.5", "-0",
            "2147483648", "18446744073709551615", "x" * 5000, "\u00e9", "1 << 99999999999"]


def op_options(rng: random.Random, case: Case) -> None:
    """-D values for the file's sizes and for other names, and --cost, --cache, --grid, --block,
    --machine, --kernel, --format, -I, --all-functions with valid and invalid values."""
    text = case.files[case.main].decode("utf-8", "surrogateescape")
    sizes = _size_names(text)
    for _ in range(rng.choice([1, 2, 3, 5])):
        kind = rng.choice(["D", "D", "D", "Dname", "cost", "cache", "grid", "block", "machine", "kernel",
                           "format", "I", "all", "unit"])
        if kind == "D":
            case.args += ["-D", f"{rng.choice(sizes)}={rng.choice(D_VALUES)}"]
        elif kind == "Dname":
            name = rng.choice(["USE_DOUBLE", "__CUDA_ARCH__", "float", "p.n", "1n", "", "a-b", "N=", "=5", "a.b.c",
                               "_", "__STATICROOF__", "__SR_SIZE", "restrict", "i"])
            val = rng.choice(["", "=1", "=double", "=" + rng.choice(D_VALUES)])
            case.args += ["-D", name + val]
            # the name ends at the first `=` (`-D N==1` defines N as `=1`: a usage error only where N
            # is a size, which this operation does not know; fuzz cases 9300 and 12523)
            name, eq, _ = (name + val).partition("=")
            if not all(part.isidentifier() for part in name.split(".")) or ("." in name and not eq):
                case.expect = 2
        elif kind == "cost":
            name = rng.choice(["expf", "sqrtf", "exp", "", "nosuch", "x=y"])
            w, bad = rng.choice([("4", False), ("4.5", False), ("0", False), ("-1", True), ("nan", True),
                                 ("inf", True), ("1e400", True), ("", True), ("abc", True), ("1e-300", False),
                                 ("9" * 40, False), ("-0.0", False), ("0x10", True)])
            case.args += ["--cost", f"{name}={w}" if rng.random() < 0.9 else name]
            if bad or not name:
                case.expect = 2
        elif kind == "cache" and "--cache" not in case.args:  # one value (a second would override it)
            v, bad = rng.choice([("40MiB", False), ("1", False), ("0", True), ("0.5", True), ("1.5GB", False),
                                 ("-1", True), ("1e3", True), ("9" * 400, None), ("1 KiB", False), ("12XB", True),
                                 ("", True), ("99999999999999999999GiB", None), ("0.0000001GiB", False)])
            case.args += ["--cache", v]
            if bad:
                case.expect = 2
        elif kind in ("grid", "block") and f"--{kind}" not in case.args:  # a later one would override it
            dims, bad = rng.choice([("256", False), ("1,1,1", False), ("0", True), ("-1", True), ("1,2,3,4", True),
                                    ("a", True), ("", True), ("2147483648", kind == "grid"), ("1024", False),
                                    ("1025", kind == "block"), ("32,32", False), ("64,64", kind == "block"),
                                    ("1,70000", True), ("nosuchkernel=4", False), ("=4", False),
                                    ("k=a=4", True), (" 4", False), ("1,,2", True), ("9" * 30, True)])
            case.args += [f"--{kind}", dims]
            if bad:
                case.expect = 2
        elif kind == "machine" and "--machine" not in case.args:
            m = rng.choice(["a100", "h100", "v100", "nosuch", "xeon", ""])
            case.args += ["--machine", m]
            if m in ("nosuch", ""):
                case.expect = 2
        elif kind == "unit" and "--machine" not in case.args and "--unit" not in case.args:
            case.args += ["--unit", rng.choice(["tensor", "cuda"]), "--machine", "a100"]
        elif kind == "kernel":
            case.args += ["--kernel", rng.choice(["nosuch", "main", "saxpy", "k<float>", ""])]
        elif kind == "format":
            case.args += ["--format", "json"]
        elif kind == "I":
            case.args += ["-I", rng.choice(["{outside}/inc", "/dev", "{src}", "..", "/", "{src}/sub"])]
        elif kind == "all":
            case.args.append("--all-functions")


TOML_BODIES = [
    b"[tool.staticroof]\ninclude = 5\n",
    b"[tool.staticroof.sizes]\nN = \"abc\"\n",
    b"[tool.staticroof.sizes]\nN = 99999999999999999999999999999\nn = -1\n",
    b"[tool.staticroof.costs]\nexpf = nan\n",
    b"[tool.staticroof.costs]\nexpf = 4.5\nsqrtf = 1e308\n",
    b"[tool.staticroof.launch.saxpy]\ngrid = [0]\n",
    b"[tool.staticroof.launch.\"*\"]\nblock = [2048]\n",
    b"[tool.staticroof.launch.\"*\"]\nblock = [true]\n",
    b"[tool.staticroof]\nall-functions = \"yes\"\n",
    b"[tool.staticroof]\nall-functions = true\ninclude = [\"/dev\", \"../../..\"]\n",
    b"[tool]\nstaticroof = 3\n",
    b"[tool.staticroof\n",
    b"\xff\xfe\x00\x00binary",
    "[tool.staticroof.sizes]\n# caf\u00e9\nN = 64\n".encode("latin-1"),
    "[tool.staticroof.sizes]\nN = 64\n".encode("utf-16"),
    b"[tool.staticroof.machines.fz]\nbandwidth = 1e12\nfp32 = 1e13\n",
    b"[tool.staticroof.machines.fz]\nbandwidth = -1\nfp32 = nan\n",
    b"[tool.staticroof.machines.a100]\nl2_bytes = \"big\"\n",
    b"[tool.staticroof.sizes]\n" + b"".join(b"N%d = %d\n" % (k, k) for k in range(2000)),
    b"x = [" * 500 + b"]" * 500 + b"\n",
]

MACHINE_BODIES = [
    b"[machines.fz]\nbandwidth = 1e12\nfp32 = 1e13\n",
    b"[machines.fz]\nbandwidth = 0\nfp32 = 0\n",
    b"[machines.fz]\nbandwidth = -1e12\nfp32 = inf\n",
    b"[machines.fz]\nfp32 = 1e13\n",
    b"[machines.a100]\nbandwidth = \"fast\"\n",
    b"[machines.a100]\nl2_bytes = 1e400\n",
    b"[machines]\nfz = 5\n",
    b"machines = 3\n",
    b"\x00\x01binary",
    b"[machines.fz\n",
    b"[machines.fz]\nbandwidth = 1e12\nfp32 = 1e13\naliases = [\"a100\"]\n",
    b"[machines.fz]\nbandwidth = 1e12\nfp32 = 1e13\nl2_bytes = -5\nsms = 0\nsmem_bytes_per_sm = 1.5\n",
]


STATICROOF_TOML = [b'machine = ""\n', b"cache = 0\n", b'cache = "' + b"9" * 400 + b'"\n', b"cache = 1e400\n",
                   b"unit = 5\n", b"select = 5\n", b'[thresholds]\nx = "a"\n', b"[sizes]\nn = -1\n",
                   b'[sizes.saxpy]\nn = "x"\n', b"per-file-ignores = 3\n", b'[launch."*"]\ngrid = [99999999999]\n',
                   b'machine = "a100"\nunit = "tensor"\ncache = "1KiB"\n[sizes]\nn = 64\n', b"\xff\xfe\x00",
                   b"[sizes]\n" + b"n = 1\n" * 2]


def op_config(rng: random.Random, case: Case) -> None:
    """A pyproject.toml or staticroof.toml (found from the working folder, or named by --config)
    or a --machine-file, well-formed or not."""
    r = rng.random()
    if r < 0.15:
        case.files["staticroof.toml"] = rng.choice(STATICROOF_TOML)
        case.cwd_src = True
    elif r < 0.45:
        case.files["pyproject.toml"] = rng.choice(TOML_BODIES)
        if rng.random() < 0.5:
            case.args += ["--config", "{src}/pyproject.toml"]
        else:
            case.cwd_src = True
            case.args = ["{main}" if a == "{main}" else a for a in case.args]
    elif r < 0.9:
        case.files["m.toml"] = rng.choice(MACHINE_BODIES)
        case.args += ["--machine-file", "{src}/m.toml"]
        if "--machine" not in case.args:  # one machine (a second would override the first)
            case.args += ["--machine", rng.choice(["fz", "a100"])]
    else:
        case.args += [rng.choice(["--config", "--machine-file"]),
                      rng.choice(["/dev/zero", "{src}", "{src}/missing.toml", "{src}/pipe.toml"])]
        if "--machine" not in case.args:
            case.args += ["--machine", "a100"]
        if "{src}/pipe.toml" in case.args:
            _once(case.fifos, "pipe.toml")
        case.expect = 2


def op_paths(rng: random.Random, case: Case) -> None:
    """Extra paths: a missing file, an unsupported suffix, a folder, a FIFO, the same file twice,
    a hidden folder, a dangling symlink, a file without read permission."""
    kind = rng.choice(["missing", "suffix", "folder", "fifo", "twice", "hidden", "dirsuffix", "symlink_loop"])
    if kind == "missing":
        case.args.append("{src}/no_such_file.c")
        case.expect = 2
    elif kind == "suffix":
        case.files["notes.txt"] = b"not a kernel\n"
        case.args.append("{src}/notes.txt")
        case.expect = 2
    elif kind == "folder":
        case.files["deep/er/k2.c"] = case.files[case.main]
        case.args.append("{src}/deep")
    elif kind == "fifo":
        _once(case.fifos, "fifo.c")
        case.args.append("{src}/fifo.c")
        case.expect = 2
    elif kind == "twice":
        case.args.append("{main}")
    elif kind == "hidden":
        case.files[".hidden/k3.c"] = case.files[case.main]
        case.args.append("{src}")
    elif kind == "dirsuffix":
        case.files["folder.c/x.h"] = b"\n"
        case.args.append("{src}/folder.c")
    else:
        _once(case.fifos, "loop.c@symlink")  # two `paths` operations may both pick it (fuzz case 7880)
        case.args.append("{src}/loop.c")
        case.expect = 2


def op_pcpp(rng: random.Random, case: Case) -> None:
    """Use the pure-Python preprocessor (STATICROOF_NO_CPP=1) for this case."""
    case.no_cpp = True


OPERATORS = {
    "byte_flip": op_byte_flip, "tokens": op_tokens, "truncate": op_truncate, "deep_nesting": op_deep_nesting,
    "huge_literal": op_huge_literal, "include": op_include, "odd_name": op_odd_name, "encoding": op_encoding,
    "cuda": op_cuda, "options": op_options, "config": op_config, "paths": op_paths, "pcpp": op_pcpp,
}
# How often each operator is drawn: the text mutations most, the rare-but-slow ones less.
WEIGHTS = {"byte_flip": 10, "tokens": 12, "truncate": 8, "deep_nesting": 6, "huge_literal": 8, "include": 8,
           "odd_name": 5, "encoding": 5, "cuda": 8, "options": 12, "config": 4, "paths": 3, "pcpp": 3}


# ------------------------------------------------------------------------------- grammar

def _expr(rng: random.Random, depth: int, idx: list[str]) -> str:
    if depth <= 0 or rng.random() < 0.3:
        return rng.choice([f"x[{rng.choice(idx)}]", f"y[{rng.choice(idx)}]", "a", "2.0f", "0.5", "n",
                           f"x[{rng.choice(idx)} + {rng.randrange(4)}]", f"(float){rng.choice(idx)}"])
    r = rng.random()
    if r < 0.6:
        return f"({_expr(rng, depth - 1, idx)} {rng.choice('+-*/')} {_expr(rng, depth - 1, idx)})"
    if r < 0.75:
        return f"{rng.choice(['sqrtf', 'expf', 'fabsf', 'fmaxf', 'sinf'])}({_expr(rng, depth - 1, idx)})"
    if r < 0.9:
        return f"({_expr(rng, depth - 1, idx)} > 0 ? {_expr(rng, depth - 1, idx)} : {_expr(rng, depth - 1, idx)})"
    return f"-{_expr(rng, depth - 1, idx)}"


def _stmt(rng: random.Random, depth: int, idx: list[str], var: int) -> str:
    r = rng.random()
    target = rng.choice(["y", "x"])
    if depth <= 0 or r < 0.35:
        return f"{target}[{rng.choice(idx)}] {rng.choice(['=', '+=', '*='])} {_expr(rng, 2, idx)};"
    v = f"i{var}"
    if r < 0.7:
        bound = rng.choice(["n", "m", "N", f"{v[:-1]}0 + 1" if idx else "n", "n - 1", "16", "n / 2", "n * m"])
        step = rng.choice([f"{v}++", f"{v} += 2", f"{v}++", f"{v}--" if rng.random() < 0.1 else f"{v}++"])
        start = rng.choice(["0", "1", "0"])
        return f"for (int {v} = {start}; {v} < {bound}; {step}) {{ {_stmt(rng, depth - 1, idx + [v], var + 1)} }}"
    if r < 0.85:
        return (f"if ({rng.choice(idx)} {rng.choice(['<', '>', '==', '%2 =='])} {rng.choice(['n', '4', '0'])}) "
                f"{{ {_stmt(rng, depth - 1, idx, var)} }} else {{ {_stmt(rng, depth - 1, idx, var)} }}")
    if r < 0.93:
        return f"while ({rng.choice(idx)} < n) {{ {_stmt(rng, depth - 1, idx, var)} break; }}"
    return f"{{ float t = {_expr(rng, 2, idx)}; {target}[{rng.choice(idx)}] = t; }}"


def grammar_kernel(rng: random.Random) -> tuple[str, bytes]:
    """A C or CUDA kernel built from a small grammar of loops, conditionals and expressions (valid
    C, mostly within the analysis's model, sometimes just outside it)."""
    cuda = rng.random() < 0.35
    head = "#include <math.h>\n#define N 64\n"
    if cuda:
        body = _stmt(rng, rng.randrange(1, 4), ["i0"], 1)
        src = (head + "__global__ void fz(const float *x, float *y, float a, int n, int m) {\n"
               "  int i0 = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i0 < n) {\n    " + body + "\n  }\n}\n"
               "int main(void) { float *x, *y; fz<<<(N + 127) / 128, 128>>>(x, y, 2.0f, N, 8); return 0; }\n")
        return "fz.cu", src.encode()
    body = _stmt(rng, rng.randrange(1, 4), ["0"], 0)
    src = head + "void fz(const float *x, float *y, float a, int n, int m) {\n  " + body + "\n}\n"
    return "fz.c", src.encode()


# ------------------------------------------------------------------------------- cases

def base_case(seed: Path) -> Case:
    """The seed file as a case: it and every header beside it (so its includes resolve)."""
    rel = seed.relative_to(ROOT)
    files = {seed.name: seed.read_bytes()}
    for h in seed.parent.iterdir():
        if h.is_file() and h.suffix in HEADER_SUFFIXES:
            files[h.name] = h.read_bytes()
    return Case(seed=str(rel), main=seed.name, files=files, args=["{main}"])


def generate(rng: random.Random) -> Case:
    """A random case: a seed file (or a grammar kernel) and one to three operators."""
    if rng.random() < 0.12:
        name, data = grammar_kernel(rng)
        case = Case(seed="grammar", main=name, files={name: data}, args=["{main}"], ops=["grammar"])
        if rng.random() < 0.5:
            return case
    else:
        case = base_case(rng.choice(SEEDS))
    names = list(OPERATORS)
    weights = [WEIGHTS[n] for n in names]
    for op in rng.choices(names, weights, k=rng.choice([1, 1, 1, 2, 2, 3])):
        OPERATORS[op](rng, case)
        case.ops.append(op)
    if rng.random() < 0.3 and "--format" not in case.args:
        case.args += ["--format", "json"]
    return case


def case_for(index: int, seed: int = 0) -> Case:
    """Case `index` of a run (the same index, the same case)."""
    return generate(random.Random(f"{seed}:{index}"))
