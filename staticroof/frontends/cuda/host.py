"""The C++ front end (`.cpp .cc .cxx .hpp`): host C++ read by the CUDA front end's C++ layer.

A C++ file's kernels are plain functions (an OpenMP `parallel for` over arrays, a loop calling a
class's methods), read as the C front end reads a `.c` file: every function lowered, those without
loops or array accesses drivers.  The C++ (classes, templates, references, `std::` headers, lambdas)
is rewritten to C on tokens as for CUDA (frontend.py's `cuda_source`, every function rewritten),
and lowered with the CUDA lowering's class model (no launch: no thread loops, CPU semantics).
Kernels report the language `cpp`.
"""

from __future__ import annotations

from ...resources import grammars_dir
from ..c.load import read_and_lower
from ..common.launch_config import Launch
from ..common.predefined import CPP_MACROS


def load_cpp(path: str, defines: dict, include_dirs=(), launches: dict | None = None):
    from ..c.frontend import lower_translation_unit
    from . import classes as CL, overloads as OV
    from .frontend import CudaLowering, builtin_types, cuda_source

    def lower(pp):
        src = cuda_source(path, pp.text, pp.bindings, host=True)

        def setup(tu, ext):
            tu.overloads = OV.collect(ext)  # name -> every definition, for names defined more than once
            tu.types.builtin.update({**builtin_types(), **CL.types()})

        def lowering(tu, kernel, fn):
            return CudaLowering(tu, kernel, fn, Launch((1, 1, 1), (1, 1, 1)), {}, src.constants)

        res = lower_translation_unit(path, src.ctext, pp.size_macros, str(grammars_dir()), "cpp", pp.bindings,
                                     lowering, setup)
        # the class layer's own functions (`__srm_Scaler_apply_0`) are read where they are called
        res.kernels = [k for k in res.kernels if not k.name.startswith("__sr")]
        res.drivers = {d for d in res.drivers if not d.startswith("__sr")}
        return res

    return read_and_lower(path, defines, include_dirs, "cpp", lower, predefined=CPP_MACROS,
                          stub_dirs=[grammars_dir() / "cuda"])
