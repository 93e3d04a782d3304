"""Arithmetic as Numba compiles it, checked against Numba itself (issue #29 §6): each rule of
staticroof/frontends/python/arithmetic.py is compiled here with numba.njit and an explicit
signature, and the FLOPs of its LLVM IR (fmul, fdiv, fadd, fsub; fneg and fabs are sign changes,
free) are counted along every path through the function: the most any path executes must be
what staticroof counts, both the rule itself and the analysis of a kernel `y[i] = <expression>`
at one element.  The special functions the IR calls (llvm.pow, llvm.sqrt, llvm.exp2, hypot) must
be the ones counted.  The argument types the front end gives each kernel of the Python test data
must be the ones Numba compiles it with.

A quick subset runs by default (about 40 small compiles, a few seconds); the full exponent sweep
and the every-kernel type sweep are `@pytest.mark.slow`.
"""

from __future__ import annotations

import re
import textwrap

import pytest

from staticroof.frontends.python import arithmetic

from helpers import ROOT, analyze_file

numba = pytest.importorskip("numba")
np = pytest.importorskip("numpy")

_FLOP = re.compile(r"=\s+(?:fast\s+)?(fmul|fdiv|fadd|fsub)\b[^<]*?(?:<(\d+) x)?")
_SPECIAL = re.compile(r"call [^@]*@(llvm\.(?:pow|sqrt|exp2)\.f(?:32|64)|hypotf?|numba_cpow)\(")
_SPECIAL_NAMES = {"llvm.pow.f64": "pow", "llvm.pow.f32": "powf", "llvm.sqrt.f64": "sqrt", "llvm.sqrt.f32": "sqrtf",
                  "llvm.exp2.f64": "exp2", "llvm.exp2.f32": "exp2f", "hypot": "hypot", "hypotf": "hypotf",
                  "numba_cpow": "numba_cpow"}
_NP = {"fp64": "float64", "fp32": "float32", "complex128": "complex128", "complex64": "complex64"}


def _main_function(ir: str) -> str:
    """The compiled function's own body (not the CPython wrapper or the cfunc)."""
    for m in re.finditer(r"^define [^\n]*@([\w.$]+)\(.*?^}", ir, re.S | re.M):
        if not m.group(1).startswith(("cpython.", "cfunc.")):
            return m.group(0)
    raise AssertionError("no compiled function in the IR")


def ir_paths(body: str):
    """(the most FLOPs any path from the entry executes, the special calls on that path), or None
    if the function loops (its count depends on how often)."""
    blocks: dict = {}
    order: list = []
    name = "entry"
    for line in body.splitlines()[1:]:
        m = re.match(r"^([\w.\-]+):", line)
        if m:
            name = m.group(1)
            continue
        b = blocks.setdefault(name, {"flops": 0, "special": [], "succ": []})
        if name not in order:
            order.append(name)
        f = _FLOP.search(line)
        if f:
            b["flops"] += int(f.group(2) or 1)
        s = _SPECIAL.search(line)
        if s:
            b["special"].append(_SPECIAL_NAMES[s.group(1)])
        if line.strip().startswith(("br ", "switch ")) or re.match(r"^\s+i\d+ -?\d+, label %", line):
            b["succ"] += re.findall(r"label %([\w.\-]+)", line)  # (a switch's cases: one a line)
    memo: dict = {}
    visiting: set = set()

    def best(n):
        if n in memo:
            return memo[n]
        if n in visiting:
            raise _Loop
        visiting.add(n)
        b = blocks[n]
        tails = [best(s) for s in b["succ"]] or [(0, [])]
        top = max(tails, key=lambda t: t[0])
        visiting.discard(n)
        memo[n] = (b["flops"] + top[0], b["special"] + top[1])
        return memo[n]

    try:
        return best(order[0])
    except _Loop:
        return None


class _Loop(Exception):
    pass


def compiled(expr: str, args: dict, ret: str):
    """Numba's IR of `def f(<args>): return <expr>` for the argument types `args` (name ->
    dtype), as (FLOPs of its costliest path, its special calls)."""
    names = ", ".join(args)
    scope: dict = {"np": np}
    exec(f"def f({names}):\n    return {expr}\n", scope)  # the test's own rule, not a user file
    sig = f"{_NP.get(ret, ret)}({', '.join(_NP.get(t, t) for t in args.values())})"
    fn = numba.njit(sig)(scope["f"])
    return ir_paths(_main_function(fn.inspect_llvm(fn.signatures[0])))


def analyzed(expr: str, args: dict, ret: str, tmp_path):
    """staticroof's count of `y[i] = <expr>` with each name an array element: (W, special calls,
    the kernel)."""
    params = ", ".join([*args, "y"])
    sig = ", ".join(f"{_NP.get(t, t)}[:]" for t in [*args.values(), ret])
    body = re.sub(r"\b(" + "|".join(args) + r")\b", r"\1[i]", expr)
    src = (f"import numpy as np\nfrom numba import njit\n\n\n@njit(\"void({sig})\")\n"
           f"def kernel({params}):\n    for i in range(y.shape[0]):\n        y[i] = {body}\n")
    p = tmp_path / "rule.py"
    p.write_text(src)
    k = analyze_file(p, {"y_shape0": "1"})[0]["kernel"]
    assert not k.failed, [str(d) for d in k.diagnostics]
    return int(k.total.flops.value), int(k.total.special.value or 0), k


# -- powers -------------------------------------------------------------------------------

QUICK_EXPONENTS = [0, 1, 2, 3, 4, 5, 7, 8, 15, -1, -2, 65536, 65537]
SLOW_EXPONENTS = [*range(-20, 70), 100, 127, 128, 255, 1000, 4097, 65535, -65536, -65537, 100000]


def _expected_power(k: int, prec: str):
    cost = arithmetic.power(prec, "int64", k)
    return cost.flops, [arithmetic_name(cost.special, prec)] if cost.special else []


def arithmetic_name(special, prec):
    return special + ("f" if prec == "fp32" else "")


def test_the_powi_rule_by_hand():
    # binary exponentiation, multiplies by 1.0 folded: floor(log2 k) squarings, popcount(k) - 1
    # multiplies into the result.  The table: x**2 1, x**3 2, x**4 2, x**5 3, x**6 3, x**7 4,
    # x**8 3; x**-1 one division (1.0 / x), x**-2 a multiply and a division.
    table = {2: 1, 3: 2, 4: 2, 5: 3, 6: 3, 7: 4, 8: 3, 15: 6, 16: 4, 17: 5, 100: 8, 65536: 16}
    for k, n in table.items():
        assert arithmetic.powi_multiplies(k) == n, k
    assert arithmetic.power("fp64", "int64", -1) == arithmetic.Cost("fp64", 1)
    assert arithmetic.power("fp64", "int64", -2) == arithmetic.Cost("fp64", 2)
    assert arithmetic.power("fp64", "int64", 0) == arithmetic.Cost("fp64", 0)
    assert arithmetic.power("fp32", "int64", 3) == arithmetic.Cost("fp32", 2)  # float32 ** 3 stays float32
    assert arithmetic.power("fp64", "int64", 65537).special == "pow"  # beyond Numba's expansion


@pytest.mark.parametrize("k", QUICK_EXPONENTS)
def test_integer_power_matches_numba_ir(k):
    assert compiled(f"x ** {k}", {"x": "fp64"}, "fp64") == _expected_power(k, "fp64")


@pytest.mark.parametrize("k", [2, 3, 8, -2])
def test_float32_integer_power_matches_numba_ir(k):
    assert compiled(f"x ** {k}", {"x": "fp32"}, "fp32") == _expected_power(k, "fp32")


@pytest.mark.slow
@pytest.mark.parametrize("prec", ["fp64", "fp32"])
def test_every_integer_power_matches_numba_ir(prec):
    # slow: about 100 compiles per precision
    bad = [(k, compiled(f"x ** {k}", {"x": prec}, prec), _expected_power(k, prec)) for k in SLOW_EXPONENTS]
    assert [b for b in bad if b[1] != b[2]] == []


# expression, argument types, result type, (W, specials) derived by hand from the rules above
EXPRESSIONS = [
    # the example (two bases: LLVM would share x*x between x**3 and x**8 of one x, which
    # staticroof does not model, as it does not in C): 2 + 3 multiplies and an add, no special
    ("x ** 3 + w ** 8", {"x": "fp64", "w": "fp64"}, "fp64", (6, [])),
    # float exponents: LLVM rewrites 2.0 (x*x), 0.5 (sqrt; fabs is free), -1.0 (1/x), 1.0 and 0.0
    ("x ** 2.0", {"x": "fp64"}, "fp64", (1, [])),
    ("x ** 0.5", {"x": "fp64"}, "fp64", (0, ["sqrt"])),
    ("x ** -1.0", {"x": "fp64"}, "fp64", (1, [])),
    ("x ** 1.0", {"x": "fp64"}, "fp64", (0, [])),
    ("x ** 3.0", {"x": "fp64"}, "fp64", (0, ["pow"])),
    ("x ** 1.5", {"x": "fp64"}, "fp64", (0, ["pow"])),
    ("x ** p", {"x": "fp64", "p": "fp64"}, "fp64", (0, ["pow"])),
    ("2.0 ** x", {"x": "fp64"}, "fp64", (0, ["exp2"])),
    ("3.0 ** x", {"x": "fp64"}, "fp64", (0, ["pow"])),
    # integers: no FLOP; a negative literal exponent is int(1.0 / k**3): the powers in int64, one
    # fp64 division
    ("k ** 3", {"k": "int64"}, "int64", (0, [])),
    ("k ** -3", {"k": "int64"}, "int64", (1, [])),
    # complex: multiply 4 mul + 2 add; add 2; z - r 1 (z.imag - 0.0 folds); r - z 2; division 9
    # (either branch of CPython's algorithm: 3 div, 3 mul, 3 add); z / r 8 (0.0 * ratio folds)
    ("z * w", {"z": "complex128", "w": "complex128"}, "complex128", (6, [])),
    ("z + w", {"z": "complex128", "w": "complex128"}, "complex128", (2, [])),
    ("z - w", {"z": "complex128", "w": "complex128"}, "complex128", (2, [])),
    ("z / w", {"z": "complex128", "w": "complex128"}, "complex128", (9, [])),
    ("z * r", {"z": "complex128", "r": "fp64"}, "complex128", (6, [])),
    ("z + r", {"z": "complex128", "r": "fp64"}, "complex128", (2, [])),
    ("z - r", {"z": "complex128", "r": "fp64"}, "complex128", (1, [])),
    ("r - z", {"z": "complex128", "r": "fp64"}, "complex128", (2, [])),
    ("z / r", {"z": "complex128", "r": "fp64"}, "complex128", (8, [])),
    ("r / z", {"z": "complex128", "r": "fp64"}, "complex128", (9, [])),
    ("z * w", {"z": "complex64", "w": "complex64"}, "complex64", (6, [])),
    ("z / w", {"z": "complex64", "w": "complex64"}, "complex64", (9, [])),
    # 1j * z: (0 + 1i)(a + bi): the two multiplies by 1.0 fold -> 2 mul + 2 add
    ("1j * z", {"z": "complex128"}, "complex128", (4, [])),
    # |z| is hypot(re, im); the parts are free
    ("abs(z)", {"z": "complex128"}, "fp64", (0, ["hypot"])),
    ("abs(z)", {"z": "complex64"}, "fp32", (0, ["hypotf"])),
    ("z.real * z.imag", {"z": "complex128"}, "fp64", (1, [])),
    # a square: re*im once (LLVM's CSE of re*im and im*re): 3 mul + 2 add
    ("z ** 2", {"z": "complex128"}, "complex128", (5, [])),
]


@pytest.mark.parametrize("expr,args,ret,expected", EXPRESSIONS,
                         ids=[f"{e}:{'/'.join(a.values())}" for e, a, _r, _x in EXPRESSIONS])
def test_expression_matches_numba_ir_and_the_analysis(expr, args, ret, expected, tmp_path):
    flops, special = compiled(expr, args, ret)
    # the IR counts one complex product's re*im twice only when the operands differ; z * z would
    # share it (CSE), which is why each rule multiplies two different values
    assert (flops, sorted(special)) == (expected[0], sorted(expected[1])), expr
    w, calls, k = analyzed(expr, args, ret, tmp_path)
    # each special call counts one FLOP in W (the cost table's weight)
    assert (w, calls) == (expected[0] + len(expected[1]), len(expected[1])), (expr, w, calls)
    assert k.exact, [str(d) for d in k.diagnostics]


def test_a_run_time_integer_exponent_loops_and_is_approximate(tmp_path):
    # x ** n with n an argument: Numba's loop (two multiplies per bit of |n|), so no fixed count:
    # the IR has a loop, and the analysis says so (SR170) and is approximate
    assert compiled("x ** n", {"x": "fp64", "n": "int64"}, "fp64") is None
    src = textwrap.dedent('''\
        from numba import njit


        @njit("void(float64[:], float64[:], int64)")
        def powers(x, y, n):
            for i in range(x.shape[0]):
                y[i] = x[i] ** n
        ''')
    p = tmp_path / "runtime_power.py"
    p.write_text(src)
    k = analyze_file(p, {"x_shape0": "4"})[0]["powers"]
    assert not k.exact
    assert [d.code for d in k.diagnostics if d.code == "SR170"] == ["SR170"]


def test_a_complex_power_other_than_two_calls_numba_cpow():
    assert compiled("z ** 3", {"z": "complex128"}, "complex128") == (0, ["numba_cpow"])
    assert arithmetic.power("complex128", "int64", 3).why


def test_numba_sum_starts_from_zero():
    # np.sum of n elements is n adds, not n - 1: the accumulator's phi starts at 0.0
    fn = numba.njit("float64(float64[::1])")(lambda x: np.sum(x))
    body = _main_function(fn.inspect_llvm(fn.signatures[0]))
    assert re.search(r"phi double \[ 0\.000000e\+00", body)


# -- types --------------------------------------------------------------------------------

_DTYPE = {"float64": "fp64", "float32": "fp32", "int64": "int64", "int32": "int32", "complex128": "complex128",
          "complex64": "complex64", "bool": "bool", "uint8": "uint8", "int16": "int16", "int8": "int8"}


def _numba_arg(t) -> tuple:
    """(IR dtype, rank) of a Numba argument type."""
    if isinstance(t, numba.types.Array):
        return _DTYPE[str(t.dtype)], t.ndim
    return _DTYPE[str(t)], 0


def _front_end_types(path) -> dict:
    from staticroof.frontends.python.frontend import load

    res, _ = load(str(path), {})
    out = {}
    for k in res.kernels:
        types = {n: (a.dtype, len(a.dims)) for n, a in k.arrays.items()}
        types.update({n: (t, 0) for n, t in getattr(k, "scalar_types", {}).items()})
        out[k.name] = types
    return out


def _numba_types(path) -> dict:
    """Numba's argument types of each kernel of the file that has a signature string, compiled
    one by one (the file run without its decorators): a kernel Numba cannot compile here (np.linalg
    needs SciPy) is left out."""
    import ast

    tree = ast.parse(path.read_text())
    sigs = {}
    for f in tree.body:
        if isinstance(f, ast.FunctionDef):
            for d in f.decorator_list:
                if isinstance(d, ast.Call) and d.args and isinstance(d.args[0], ast.Constant) \
                        and isinstance(d.args[0].value, str) and getattr(d.func, "id", getattr(d.func, "attr", "")) \
                        in ("njit", "jit", "numba_jit"):
                    sigs[f.name] = d.args[0].value
            f.decorator_list = []
    scope: dict = {"__name__": f"sr_data_{path.stem}"}
    exec(compile(tree, str(path), "exec"), scope)  # test data: its functions, undecorated
    out = {}
    for name, sig in sigs.items():
        try:
            fn = numba.njit(sig)(scope[name])
        except (ImportError, numba.core.errors.TypingError) as e:
            if "scipy" in str(e).lower():
                continue
            raise
        params = list(fn.py_func.__code__.co_varnames[:fn.py_func.__code__.co_argcount])
        out[name] = dict(zip(params, (_numba_arg(t) for t in fn.signatures[0]), strict=True))
    return out


def _check_types(path):
    ours, theirs = _front_end_types(path), _numba_types(path)
    assert theirs, path
    bad = []
    for kernel, types in theirs.items():
        got = ours.get(kernel)
        assert got is not None, (path.name, kernel)
        bad += [(kernel, p, got.get(p), t) for p, t in types.items() if got.get(p) != t]
    assert bad == []


def test_argument_types_of_the_arithmetic_kernels_match_numba():
    _check_types(ROOT / "tests" / "data" / "python" / "numba_arith.py")


def _typed_files():
    files = sorted((ROOT / "samples").glob("*_numba.py")) + sorted((ROOT / "tests" / "data" / "python").glob("*.py"))
    return [p for p in files if "@njit(\"" in p.read_text() or "@jit(\"" in p.read_text()]


@pytest.mark.slow
@pytest.mark.parametrize("path", _typed_files(), ids=lambda p: p.name)
def test_argument_types_of_every_typed_python_kernel_match_numba(path):
    # slow: compiles every kernel of the file with Numba (a few seconds a file)
    _check_types(path)


def test_a_complex_square_of_a_local_is_five(tmp_path):
    # z * z of one value: LLVM computes re*im once -> 3 multiplies, a subtraction and an add (5);
    # the analysis knows a local is one value (the same element read twice is counted 6)
    assert compiled("z * z", {"z": "complex128"}, "complex128") == (5, [])
    p = tmp_path / "square.py"
    p.write_text(textwrap.dedent('''\
        from numba import njit


        @njit("void(complex128[:], complex128[:])")
        def square(z, y):
            for i in range(z.shape[0]):
                t = z[i]
                y[i] = t * t
        '''))
    k = analyze_file(p, {"z_shape0": "1"})[0]["square"]
    assert k.exact and int(k.total.flops.value) == 5


def test_ufunc_output_keyword_and_positional_agree(tmp_path):
    # np.sqrt(x, out=y) (NumPy's keyword) and np.sqrt(x, y) (Numba's positional output): n sqrt
    # calls (W = n), x read and y written, 8 B each: Q = 16n; no temporary array
    p = tmp_path / "outs.py"
    p.write_text(textwrap.dedent('''\
        import numpy as np
        from numba import njit


        @njit("void(float64[:], float64[:])")
        def keyword(x, y):
            np.sqrt(x, out=y)


        @njit("void(float64[:], float64[:])")
        def positional(x, y):
            np.sqrt(x, y)
        '''))
    kernels = analyze_file(p, {"y_shape0": "7", "x_shape0": "7"})[0]
    for name in ("keyword", "positional"):
        k = kernels[name]
        assert k.exact and (int(k.total.flops.value), int(k.total.compulsory.value)) == (7, 112), name
