"""The macros the preprocessor predefines: what the host compiler (GCC on x86-64 Linux) and nvcc
define, the same set on every machine.

Real code selects its paths with them (`#if defined(__linux__) ... #else #error Unsupported
system`, `#ifdef __CUDACC__`, `#if __CUDACC_VER_MAJOR__ >= 11`, `#if __CUDA_ARCH__ >= 700`).  The
system preprocessor runs with `-undef` (its own, machine-dependent set removed) and both are given
exactly this set, plus GCC's dynamic built-ins (`__LINE__`, `__has_include`: GCC_BUILTINS, which
pcpp_child emulates) and its feature queries fixed at 0 (FEATURE_QUERIES): a result never depends
on whether the host has a C compiler, or which (tests/test_preprocessors_agree.py).  A user's
`-D NAME=VALUE` replaces a predefined value; `preprocess(..., undefines=[NAME])` removes one (the
command line has no `-U` yet).

The choices (README, "Usage"):
- the host: 64-bit Linux on x86-64 with GCC 12 (LP64, little-endian), the platform CUDA code is
  built on most; only the macros that select code, not the hundreds of `__INT_MAX__`-style ones;
- C: `__STDC__` 1, `__STDC_HOSTED__` 1, `__STDC_VERSION__` 201710L (C17);
- C++ (.cpp .cc .cxx .hpp): `__cplusplus` 201703L, no `__STDC_VERSION__`;
- CUDA (.cu .cuh): nvcc 12.4 (`__CUDACC_VER_MAJOR__` 12, `MINOR` 4, `BUILD` 131) compiling C++17
  (`__cplusplus` 201703L, no `__STDC_VERSION__`: C++ has none), and its *device* pass: kernels are
  what is analyzed, so `__CUDA_ARCH__` is 800 (sm_80: `#if __CUDA_ARCH__ >= 700` takes the device
  path, `__CUDA_ARCH__ < 800` fallbacks do not); `-D __CUDA_ARCH__=900` picks another.
"""

from __future__ import annotations

HOST_MACROS = {
    "__linux__": "1", "__linux": "1", "__gnu_linux__": "1", "__unix__": "1", "__unix": "1", "__ELF__": "1",
    "__x86_64__": "1", "__x86_64": "1", "__amd64__": "1", "__amd64": "1", "__LP64__": "1", "_LP64": "1",
    "__GNUC__": "12", "__GNUC_MINOR__": "2", "__GNUC_PATCHLEVEL__": "0",
    "__CHAR_BIT__": "8", "__SIZEOF_SHORT__": "2", "__SIZEOF_INT__": "4", "__SIZEOF_LONG__": "8",
    "__SIZEOF_LONG_LONG__": "8", "__SIZEOF_POINTER__": "8", "__SIZEOF_FLOAT__": "4", "__SIZEOF_DOUBLE__": "8",
    "__SIZEOF_SIZE_T__": "8", "__ORDER_LITTLE_ENDIAN__": "1234", "__ORDER_BIG_ENDIAN__": "4321",
    "__BYTE_ORDER__": "__ORDER_LITTLE_ENDIAN__",
    "__STDC__": "1", "__STDC_HOSTED__": "1",
}

C_MACROS = {**HOST_MACROS, "__STDC_VERSION__": "201710L"}

CPP_MACROS = {**HOST_MACROS, "__cplusplus": "201703L"}  # C++ host files (.cpp .cc .cxx .hpp): C++17

CUDA_VERSION = (12, 4, 131)  # the nvcc whose macros a .cu file sees

CUDA_MACROS = {
    **HOST_MACROS, "__cplusplus": "201703L",
    "__CUDACC__": "1", "__NVCC__": "1", "__CUDACC_VER_MAJOR__": str(CUDA_VERSION[0]),
    "__CUDACC_VER_MINOR__": str(CUDA_VERSION[1]), "__CUDACC_VER_BUILD__": str(CUDA_VERSION[2]),
    "__CUDA_ARCH__": "800",
}

# What GCC still defines under `-undef` (the C standard's own macros): each is removed on its command
# line, then defined again from the set above, so a `.cu` file has no `__STDC_VERSION__`.
CC_BUILTINS = ("__STDC_VERSION__", "__STDC_HOSTED__", "__STDC_UTF_16__", "__STDC_UTF_32__")

# GCC's dynamic built-ins, which `-undef` keeps: `#ifdef __LINE__` and `#if defined(__has_include)`
# are true under the system preprocessor, so pcpp_child defines each too (pcpp has only `__FILE__`,
# `__DATE__` and `__TIME__` as macros): `__has_include("x.h")`/`(<x.h>)` looks for the file in the
# include path (the main file's folder first, then -I, then the stubs), as `cc -E` does on the
# copy it is given; `__INCLUDE_LEVEL__` is 0 in the main file, 1 in what it includes...
GCC_BUILTINS = ("__LINE__", "__FILE__", "__COUNTER__", "__INCLUDE_LEVEL__", "__BASE_FILE__", "__FILE_NAME__",
                "__DATE__", "__TIME__", "__TIMESTAMP__", "__has_include", "__has_include_next")

# GCC's feature queries: their answers depend on the compiler's version, so both preprocessors get
# them as `NAME(x)` = 0 (no attribute or built-in is assumed present: code takes its portable path).
FEATURE_QUERIES = ("__has_attribute", "__has_builtin", "__has_c_attribute", "__has_cpp_attribute")

PREDEFINED_NAMES = frozenset(C_MACROS) | frozenset(CUDA_MACROS) | frozenset(CPP_MACROS)
