"""C structs and unions (frontends/structs.py): layouts as a C compiler lays them out, integer
members as sizes (`p.n`, bindable with -D), pointer and array members as arrays, arrays of
structs counted by the member bytes a kernel touches, timers and flags that are not traffic.

Every expected value is derived by hand in the comment above it, at sizes on both sides of each
constant the kernel has."""

from __future__ import annotations

import pytest
import sympy

from staticroof.frontends.c import structs
from staticroof.frontends.c.frontend import TranslationUnit
from staticroof.frontends.c.parse import parse_translation_unit
from staticroof.frontends.c.types import CType
from staticroof.resources import grammars_dir

from helpers import analyze_source, codes, same, trace_agrees


def sym(name: str) -> sympy.Symbol:
    return sympy.Symbol(name)


def arrays(k) -> dict:
    """name -> (compulsory read, compulsory write) in bytes at the sizes in force."""
    return {name: (a.read.value, a.write.value) for name, a in k.total.arrays.items()}


# ---------------------------------------------------------------------------------------------
# Layouts

LAYOUTS = """
typedef struct { float x, y, z, vx, vy, vz, m; } body_t;
struct mixed { char c; double d; short s; };
struct nested { char tag; struct mixed m; int k; };
union number { int i; double d; char bytes[12]; };
struct flags { unsigned a : 3; unsigned b : 30; unsigned char c; };
struct flags2 { char c; int x : 4; int : 0; char d; };
struct flags3 { char c; int : 20; char d; };
struct anon { int kind; union { float f; double g; }; struct { short lo, hi; }; char end; };
struct arr { char name[5]; double v[3]; int n; };
struct flex { int n; float data[]; };
struct self { struct self *next; float v; };
"""


@pytest.fixture(scope="module")
def tu():
    ext, _, _ = parse_translation_unit(LAYOUTS, "layouts.c")
    return TranslationUnit("layouts.c", ext, {}, str(grammars_dir()))


def _t(tu, spelling: str) -> CType:
    kind, _, tag = spelling.partition(" ")
    if not tag:
        return tu.types.resolve(tu.types.typedefs[kind])
    return CType("struct", tag)


@pytest.mark.parametrize("spelling, size, align", [
    ("body_t", 28, 4),  # seven floats: 7 * 4, aligned as a float
    ("struct mixed", 24, 8),  # c at 0, d at 8 (aligned to 8), s at 16; 18 rounded up to 8: 24
    ("struct nested", 40, 8),  # tag at 0, m (24 B, align 8) at 8, k at 32; 36 rounded up to 8: 40
    ("union number", 16, 8),  # the largest member is bytes[12]; rounded up to d's alignment 8: 16
    # a in bits 0-2; b (30 bits) would straddle the first 32-bit unit: bits 32-61; c at byte 8;
    # 9 rounded up to 4: 12
    ("struct flags", 12, 4),
    # c at 0; x in bits 8-11; `int : 0` closes the unit: d at byte 4; 5 rounded up to 4: 8
    ("struct flags2", 8, 4),
    # c at 0; the unnamed 20 bits take bits 8-27 and do not align the struct; d at byte 4: 5
    ("struct flags3", 5, 1),
    # kind at 0; the anonymous union (8 B, align 8) at 8; the anonymous struct (two shorts) at 16;
    # end at 20; 21 rounded up to 8: 24
    ("struct anon", 24, 8),
    ("struct arr", 40, 8),  # name[5] at 0, v[3] at 8 (align 8) to 32, n at 32; 36 rounded to 8: 40
    ("struct flex", 4, 4),  # a flexible array member adds no size
    ("struct self", 16, 8),  # a pointer to itself (8) and a float at 8; 12 rounded up to 8: 16
])
def test_layouts_follow_the_c_abi(tu, spelling, size, align):
    assert structs.size_align(tu, _t(tu, spelling)) == (size, align)


def test_member_offsets_look_through_anonymous_members(tu):
    anon = _t(tu, "struct anon")
    # f and g share the union at 8; lo and hi are the anonymous struct's at 16 and 18
    assert [structs.find(tu, anon, m)[0] for m in ("kind", "f", "g", "lo", "hi", "end")] == [0, 8, 8, 16, 18, 20]
    nested = _t(tu, "struct nested")
    assert structs.find(tu, nested, "k")[0] == 32
    flags = structs.layout(tu, _t(tu, "struct flags"))
    # a: byte 0 bit 0; b: byte 4 bit 0 (moved to the next unit); c: byte 8
    assert [(m.name, m.offset, m.bit_offset) for m in flags.members] == [("a", 0, 0), ("b", 4, 0), ("c", 8, 0)]


# ---------------------------------------------------------------------------------------------
# A classic C loop-benchmark function: timers through a struct, global arrays, unknown calls

TSVC_STYLE = """
#include <stdio.h>
#include <sys/time.h>

#define LEN_1D 32000
#define LEN_2D 256
#ifndef iterations
#define iterations 1000
#endif

typedef float real_t;

__attribute__((aligned(64))) real_t a[LEN_1D], b[LEN_1D], c[LEN_1D], d[LEN_1D], e[LEN_1D];
__attribute__((aligned(64))) real_t aa[LEN_2D][LEN_2D], bb[LEN_2D][LEN_2D], cc[LEN_2D][LEN_2D];

struct args_t {
    struct timeval t1;
    struct timeval t2;
    void *arg_info;
};

int dummy(real_t[LEN_1D], real_t[LEN_1D], real_t[LEN_1D], real_t[LEN_1D], real_t[LEN_1D],
          real_t[LEN_2D][LEN_2D], real_t[LEN_2D][LEN_2D], real_t[LEN_2D][LEN_2D], real_t);
void initialise_arrays(const char *name);
real_t calc_checksum(const char *name);

real_t s000(struct args_t *func_args)
{
    initialise_arrays(__func__);
    gettimeofday(&func_args->t1, NULL);
    for (int nl = 0; nl < 2 * iterations; nl++) {
        for (int i = 0; i < LEN_1D; i++) {
            a[i] = b[i] + 1;
        }
        dummy(a, b, c, d, e, aa, bb, cc, 0.);
    }
    gettimeofday(&func_args->t2, NULL);
    return calc_checksum(__func__);
}

real_t s1112(struct args_t *func_args)
{
    initialise_arrays(__func__);
    gettimeofday(&func_args->t1, NULL);
    for (int nl = 0; nl < iterations * 3; nl++) {
        for (int i = LEN_1D - 1; i >= 0; i--) {
            a[i] = b[i] + (real_t)1.;
        }
        dummy(a, b, c, d, e, aa, bb, cc, 0.);
    }
    gettimeofday(&func_args->t2, NULL);
    return calc_checksum(__func__);
}

typedef real_t (*test_function_t)(struct args_t *);

void time_function(test_function_t vector_func, void *arg_info)
{
    struct args_t func_args = {.arg_info = arg_info};
    double result = vector_func(&func_args);
    double tic = func_args.t1.tv_sec + (func_args.t1.tv_usec / 1000000.0);
    double toc = func_args.t2.tv_sec + (func_args.t2.tv_usec / 1000000.0);
    double taken = toc - tic;
    printf("%10.3f\\t%f\\n", taken, result);
}
"""


@pytest.mark.parametrize("length, reps", [(100, 3), (32000, 1000)])
def test_benchmark_suite_timers_through_a_struct(tmp_path, length, reps):
    ks = analyze_source(TSVC_STYLE, tmp_path, {"LEN_1D": str(length), "iterations": str(reps)}, name="tsvc.c")
    s000, s1112 = ks["s000"], ks["s1112"]
    for k in (s000, s1112):
        # the unknown calls are SR105 (approximate); the timers are neither traffic nor errors
        assert not k.failed and "SR002" not in codes(k) and "SR105" in codes(k)
        assert not any(name.startswith("func_args") for name in k.total.arrays)
    # s000: 2*iterations repetitions of a[i] = b[i] + 1 over LEN_1D: one fp32 add each; compulsory:
    # b read once and a written once, 4 B per element each
    L, it = sym("LEN_1D"), sym("iterations")
    assert same(s000.total.flops.expr, 2 * L * it) and s000.total.flops.value == 2 * length * reps
    assert same(s000.total.compulsory.expr, 8 * L) and s000.total.compulsory.value == 8 * length
    # s1112: the same body counted down, 3*iterations times
    assert same(s1112.total.flops.expr, 3 * L * it) and s1112.total.compulsory.value == 8 * length


# ---------------------------------------------------------------------------------------------
# Arrays of structs: an n-body step

NBODY = """
#include <math.h>
#define SOFTENING 1e-9f

typedef struct { float x, y, z, vx, vy, vz, m; } body_t;

/* All-pairs accelerations, then a velocity and a position update. */
void nbody_step(body_t *bodies, int n, float dt)
{
    for (int i = 0; i < n; i++) {
        float ax = 0.0f, ay = 0.0f, az = 0.0f;
        for (int j = 0; j < n; j++) {
            float dx = bodies[j].x - bodies[i].x;
            float dy = bodies[j].y - bodies[i].y;
            float dz = bodies[j].z - bodies[i].z;
            float d2 = dx * dx + dy * dy + dz * dz + SOFTENING;
            float inv = 1.0f / sqrtf(d2);
            float s = bodies[j].m * inv * inv * inv;
            ax += s * dx;
            ay += s * dy;
            az += s * dz;
        }
        bodies[i].vx += dt * ax;
        bodies[i].vy += dt * ay;
        bodies[i].vz += dt * az;
    }
    for (int i = 0; i < n; i++) {
        bodies[i].x += bodies[i].vx * dt;
        bodies[i].y += bodies[i].vy * dt;
        bodies[i].z += bodies[i].vz * dt;
    }
}

/* Only the positions: the velocities and masses stay in memory, untouched. */
void drift(body_t *bodies, int n, float dt)
{
    for (int i = 0; i < n; i++) {
        bodies[i].x += 0.5f * dt;
        bodies[i].y += 0.5f * dt;
    }
}

/* A struct copy reads the whole struct (every member), as C says. */
void kinetic(const body_t *bodies, int n, float *e)
{
    for (int i = 0; i < n; i++) {
        body_t b = bodies[i];
        e[i] = 0.5f * b.m * (b.vx * b.vx + b.vy * b.vy + b.vz * b.vz);
    }
}
"""


@pytest.mark.parametrize("n", [1, 7, 100])
def test_nbody_array_of_structs(tmp_path, n):
    ks = analyze_source(NBODY, tmp_path, {"n": str(n)}, name="nbody.c")
    k = ks["nbody_step"]
    assert k.exact, [str(d) for d in k.diagnostics]
    # per pair (i, j): 3 subtractions; d2: 3 products and 3 sums; 1/sqrtf: a division and a
    # special call (1 FLOP by default); s: 3 products; ax, ay, az: 3 products and 3 sums
    # = 3 + 6 + 2 + 3 + 6 = 20.  Per i: 3 x (dt*a, +=) = 6, then 3 x (v*dt, +=) = 6.
    N = sym("n")
    assert same(k.total.flops.expr, 20 * N**2 + 12 * N) and k.total.flops.value == 20 * n * n + 12 * n
    # every member is touched: x, y, z, vx, vy, vz, m read (7 x 4n) and all but m written (6 x 4n)
    got = arrays(k)
    for m in ("x", "y", "z", "vx", "vy", "vz"):
        assert got[f"bodies[].{m}"] == (4 * n, 4 * n)
    assert got["bodies[].m"] == (4 * n, 0)
    assert k.total.compulsory.value == 52 * n
    rec = k.total.arrays["bodies[].m"].record
    assert rec == {"parent": "bodies", "member": "m", "record_bytes": 28, "member_offset": 24}

    d = ks["drift"]
    # 2 FLOPs per member update (0.5f*dt, +=), two members; only x and y move: 4 + 4 B read and
    # written per body (16n), not the 28 B of the struct
    assert d.exact and d.total.flops.value == 4 * n and d.total.compulsory.value == 16 * n
    assert set(d.total.arrays) == {"bodies[].x", "bodies[].y"}

    e = ks["kinetic"]
    # the copy reads all 7 members (28 B per body); e[i] written (4 B); W: 3 products, 2 sums,
    # 0.5f*m and the product with the sum = 7
    assert e.exact and e.total.flops.value == 7 * n and e.total.compulsory.value == 32 * n


def test_struct_size_in_the_reports(tmp_path):
    import json

    from click.testing import CliRunner

    from staticroof.cli import main

    p = tmp_path / "nbody.c"
    p.write_text(NBODY)
    r = CliRunner().invoke(main, ["analyze", str(p), "--kernel", "drift", "-D", "n=10"])
    assert "bodies[].x (fp32): read 4*n B" in r.output and "of bodies: 28 B structs, at byte 0" in r.output
    r = CliRunner().invoke(main, ["analyze", str(p), "--kernel", "drift", "-D", "n=10", "--format", "json"])
    arrays_ = json.loads(r.output)["kernels"][0]["bytes"]["arrays"]
    assert arrays_["bodies[].y"]["record"] == {"parent": "bodies", "member": "y", "record_bytes": 28,
                                                "member_offset": 4}


# ---------------------------------------------------------------------------------------------
# Pointer-to-struct and by-value parameters: sizes and arrays per member path

PARAMS = """
#define NCOEF 4

struct params {
    int n;
    float dt;
    float *out;
    double coef[NCOEF];
    struct { int nx, ny; } grid;
};

void scale(struct params *p, const float *x)
{
    for (int i = 0; i < p->n; i++)
        p->out[i] = p->dt * x[i] * (float)p->coef[i % NCOEF];
}

void by_value(struct params s, const float *x, float *y)
{
    for (int j = 0; j < s.grid.ny; j++)
        for (int i = 0; i < s.grid.nx; i++)
            y[j * s.grid.nx + i] = s.dt * x[j * s.grid.nx + i];
}

struct range { int lo, hi; };

void window(int n, const double *x, double *y)
{
    struct range r = {1, n - 1};
    for (int i = r.lo; i < r.hi; i++)
        y[i] = x[i - 1] + x[i] + x[i + 1];
}
"""


@pytest.mark.parametrize("n", [3, 4, 5, 1000])  # on both sides of NCOEF = 4
def test_pointer_to_struct_members(tmp_path, n):
    k = analyze_source(PARAMS, tmp_path, {"p.n": str(n)}, name="params.c")["scale"]
    assert k.exact, [str(d) for d in k.diagnostics]
    assert k.sizes == {"p.n": n}
    # two fp32 products per i (the cast of the double is free)
    assert k.total.flops.value == 2 * n
    # x read and p->out written: 4n each; p->dt read once: 4; coef[i % 4] touches min(n, 4)
    # doubles: 8 min(n, 4)
    got = arrays(k)
    assert got["x"] == (4 * n, 0) and got["p->out"] == (0, 4 * n) and got["p->dt"] == (4, 0)
    assert got["p->coef"] == (8 * min(n, 4), 0)
    assert k.total.compulsory.value == 8 * n + 4 + 8 * min(n, 4)


@pytest.mark.parametrize("nx, ny", [(1, 1), (16, 3)])
def test_by_value_struct_with_a_nested_anonymous_struct(tmp_path, nx, ny):
    # -D by full path and by the last name when no other size has it
    for defines in ({"s.grid.nx": str(nx), "s.grid.ny": str(ny)}, {"nx": str(nx), "ny": str(ny)}):
        k = analyze_source(PARAMS, tmp_path, defines, name="params.c")["by_value"]
        assert k.exact and k.sizes == {"s.grid.nx": nx, "s.grid.ny": ny}
        # one product per element; x read and y written, 4 B each
        assert same(k.total.flops.expr, sym("s.grid.nx") * sym("s.grid.ny"))
        assert k.total.flops.value == nx * ny and k.total.compulsory.value == 8 * nx * ny


def test_an_ambiguous_short_name_binds_nothing(tmp_path):
    src = """
struct a_t { int n; }; struct b_t { int n; };
void two(struct a_t *p, struct b_t *q, float *x) { for (int i = 0; i < p->n + q->n; i++) x[i] = 0.0f; }
"""
    k = analyze_source(src, tmp_path, {"n": "10"}, name="two.c")["two"]
    # p.n and q.n both end in n: -D n is not theirs; W and Q stay formulas in both
    assert k.total.compulsory.value is None
    assert same(k.total.compulsory.expr, 4 * (sym("p.n") + sym("q.n")))
    k = analyze_source(src, tmp_path, {"p.n": "10", "q.n": "6"}, name="two.c")["two"]
    assert k.total.compulsory.value == 64


@pytest.mark.parametrize("n", [2, 3, 50])
def test_local_struct_members_are_values(tmp_path, n):
    k = analyze_source(PARAMS, tmp_path, {"n": str(n)}, name="params.c")["window"]
    assert k.exact
    # i from r.lo = 1 to r.hi - 1 = n - 2: n - 2 iterations of 2 fp64 sums; x read at 0..n-1, y
    # written at 1..n-2 (8 B each); at n = 2 the loop does not run: nothing
    assert k.total.flops.value == 2 * (n - 2)
    assert k.total.compulsory.value == (8 * n + 8 * (n - 2) if n > 2 else 0)


MISSPELLED = """
struct range { int lo, hi; };

void halve(int n, float *x)
{
    struct range r = {.lo = 0, .high = n};  /* not a member: a compiler rejects it */
    for (int i = r.lo; i < n; i++)
        x[i] = x[i] * 0.5f;
}
"""


@pytest.mark.parametrize("n", [1, 7])
def test_a_designator_that_is_no_member_costs_its_statement(tmp_path, n):
    k = analyze_source(MISSPELLED, tmp_path, {"n": str(n)}, name="halve.c")["halve"]
    # the declaration of r is not counted (SR123 at its line, 6), never an internal error; without
    # it r is not tracked, so the loop from r.lo (line 7) is not counted either: W = 0
    bad = [d.location.line for d in k.diagnostics if d.code == "SR123"]
    assert "SR099" not in codes(k) and bad == [6, 7], [str(d) for d in k.diagnostics]
    assert not k.exact and k.total.flops.value == 0


# ---------------------------------------------------------------------------------------------
# Unions, bit-fields, global structs, sizeof

CELLS = """
#define N 64

struct cell {
    unsigned type : 4;
    unsigned flags : 12;
    float value;
    union { float f; int i; } aux;
};

struct grid_t {
    int nx;
    double u[N][N];
} grid;

void relax(struct cell *cells, int n)
{
    for (int i = 0; i < n; i++)
        cells[i].aux.f = 2.0f * cells[i].value;
}

void damp(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            grid.u[i][j] *= 0.5;
}

void fill(float *x)
{
    for (int i = 0; i < (int)sizeof(struct cell); i++)
        x[i] = 1.0f;
}
"""


@pytest.mark.parametrize("n", [1, 9])
def test_unions_and_bit_fields(tmp_path, n):
    ks = analyze_source(CELLS, tmp_path, {"n": str(n)}, name="cells.c")
    k = ks["relax"]
    assert k.exact
    # type and flags share the first 4-byte unit (bits 0-3, 4-15); value at 4; aux at 8; 12 B
    assert k.total.flops.value == n and arrays(k) == {"cells[].value": (4 * n, 0), "cells[].aux.f": (0, 4 * n)}
    assert k.total.arrays["cells[].aux.f"].record["record_bytes"] == 12
    assert k.total.arrays["cells[].aux.f"].record["member_offset"] == 8
    # sizeof(struct cell) = 12: twelve stores
    assert ks["fill"].total.compulsory.value == 48


@pytest.mark.parametrize("size", [16, 64, 65])  # the struct's array member is N x N
def test_array_member_of_a_global_struct(tmp_path, size):
    k = analyze_source(CELLS, tmp_path, {"N": str(size)}, name="cells.c")["damp"]
    assert k.exact
    # N^2 fp64 products; each double of grid.u read and written once
    assert k.total.flops.value == size * size and arrays(k) == {"grid.u": (8 * size * size, 8 * size * size)}


# ---------------------------------------------------------------------------------------------
# CUDA: a struct of parameters by value; an array of structs with float4 members

PARAMS_CU = """
#include <cuda_runtime.h>

struct Params {
    int n;
    float alpha;
    const float *x;
};

typedef struct { float4 pos; float4 vel; } particle_t;

__global__ void axpy_params(Params p, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < p.n)
        y[i] = p.alpha * p.x[i] + y[i];
}

__global__ void drift(particle_t *ps, int n, float dt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        ps[i].pos.x += dt * ps[i].vel.x;
        ps[i].pos.y += dt * ps[i].vel.y;
        ps[i].pos.z += dt * ps[i].vel.z;
    }
}

int main(void)
{
    Params p;
    float *y = 0;
    particle_t *ps = 0;
    p.n = 1000;
    axpy_params<<<(p.n + 255) / 256, 256>>>(p, y);
    drift<<<(p.n + 127) / 128, 128>>>(ps, p.n, 0.01f);
    return 0;
}
"""


@pytest.mark.parametrize("n", [200, 256, 300])  # on both sides of the block of 256
def test_cuda_struct_by_value_parameters(tmp_path, n):
    ks = analyze_source(PARAMS_CU, tmp_path, {"p.n": str(n), "n": str(n)}, name="params.cu")
    k = ks["axpy_params"]
    assert k.exact, [str(d) for d in k.diagnostics]
    # n threads pass the guard: a product and a sum each; p.x read, y read and written (4 B)
    assert same(k.total.flops.expr, 2 * sym("p.n")) and k.total.flops.value == 2 * n
    assert arrays(k) == {"p.x": (4 * n, 0), "y": (4 * n, 4 * n)}
    d = ks["drift"]
    assert d.exact, [str(x) for x in d.diagnostics]
    # 3 lanes of pos read and written, 3 lanes of vel read (4 B each); W 2 per lane
    assert d.total.flops.value == 6 * n
    assert arrays(d) == {"ps[].pos": (12 * n, 12 * n), "ps[].vel": (12 * n, 0)}
    assert d.total.arrays["ps[].vel"].record == {"parent": "ps", "member": "vel", "record_bytes": 32,
                                                 "member_offset": 16}


# ---------------------------------------------------------------------------------------------
# The trace does not run struct kernels yet: it says so instead of booking accesses elsewhere

def test_the_trace_refuses_struct_kernels_cleanly(tmp_path):
    from staticroof.trace import TraceError, run as run_trace

    p = tmp_path / "nbody.c"
    p.write_text(NBODY)
    with pytest.raises(TraceError, match="struct"):
        run_trace(str(p), "drift", {"n": 4}, "c")
    p = tmp_path / "window.c"
    p.write_text(PARAMS)
    with pytest.raises(TraceError, match="struct member access"):
        run_trace(str(p), "window", {"n": 4}, "c")


def test_a_store_to_a_size_member_is_said(tmp_path):
    src = """
struct job { int n; float *out; };
void reset(struct job *j) { j->n = 10; for (int i = 0; i < j->n; i++) j->out[i] = 0.0f; }
"""
    k = analyze_source(src, tmp_path, {"j.n": "4"}, name="job.c")["reset"]
    # j->n is the size j.n throughout; the store to it is SR102 and the result approximate:
    # 4 stores of 4 B at j.n = 4
    assert not k.exact and "SR102" in codes(k) and k.total.compulsory.value == 16


TIMED = """
#include <sys/time.h>
#define LEN 1000
typedef double real_t;
real_t x[LEN], y[LEN];
struct args_t { struct timeval t1, t2; void *arg_info; };

int dummy(real_t *a, real_t *b) { return a == b; }

real_t scale_timed(struct args_t *func_args, int reps)
{
    gettimeofday(&func_args->t1, NULL);
    for (int nl = 0; nl < reps; nl++) {
        for (int i = 1; i < LEN; i++)
            y[i] = 0.5 * (x[i] + x[i - 1]);
        dummy(x, y);
    }
    gettimeofday(&func_args->t2, NULL);
    return y[LEN - 1];
}
"""


@pytest.mark.parametrize("length, reps", [(2, 1), (50, 3)])
def test_timer_struct_kernel_agrees_with_the_trace(tmp_path, length, reps):


    p = tmp_path / "timed.c"
    p.write_text(TIMED)
    sizes = {"LEN": length, "reps": reps}
    k = analyze_source(TIMED, tmp_path, {n: str(v) for n, v in sizes.items()}, name="timed.c")["scale_timed"]
    assert k.exact, [str(d) for d in k.diagnostics]
    # reps x (LEN - 1) x (a sum and a product, fp64); dummy compares pointers (no access).
    # Compulsory: x[0..LEN-1] read (8 LEN), y[1..LEN-1] written (8 (LEN - 1)); the final y[LEN-1]
    # read follows its write (0 B): 16 LEN - 8
    assert k.total.flops.value == 2 * reps * (length - 1)
    assert k.total.compulsory.value == 16 * length - 8
    trace_agrees(p, "scale_timed", sizes, k)


ARG_INFO = """
#include <sys/time.h>
#define LEN_1D 32000
#define iterations 100
typedef float real_t;
real_t a[LEN_1D + 8], b[LEN_1D];
struct args_t { struct timeval t1, t2; void *arg_info; };
int dummy(real_t *, real_t *, real_t);

real_t s431(struct args_t *func_args)
{
    int k1 = ((struct { int a; int b; } *)func_args->arg_info)->a;
    gettimeofday(&func_args->t1, NULL);
    for (int nl = 0; nl < iterations; nl++) {
        for (int i = 0; i < LEN_1D; i++)
            a[i] = a[i + k1] + b[i];
        dummy(a, b, 0.);
    }
    gettimeofday(&func_args->t2, NULL);
    return 0;
}
"""


@pytest.mark.parametrize("k1", [0, 1, 5])
def test_sizes_passed_through_a_void_pointer_member(tmp_path, k1):
    # the int the benchmark passes in arg_info is the size func_args.arg_info.a (`->` is `.` in a size)
    k = analyze_source(ARG_INFO, tmp_path, {"LEN_1D": "100", "iterations": "2", "func_args.arg_info.a": str(k1)},
                       name="s431.c")["s431"]
    assert not k.failed and codes(k) == {"SR105"}  # dummy alone
    assert k.sizes["func_args.arg_info.a"] == k1
    # 2 x 100 sums; a read at k1..k1+99 (first accesses: reads, 100 elements; at k1 = 0 each a[i] is read
    # before it is written), a written at 0..99, b read: 4 B each
    assert k.total.flops.value == 200 and k.total.compulsory.value == 4 * 300
