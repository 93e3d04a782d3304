"""The C++ front end (`.cpp .cc .cxx .hpp`): host C++ read by the CUDA front end's C++ layer.

A C++ file's kernels are plain functions (an OpenMP `parallel for` over arrays, a loop calling a
class's methods), read as the C front end reads a `.c` file: every function lowered, those without
loops or array accesses drivers.  The C++ (classes, templates, references, `std::` headers, lambdas)
is rewritten to C on tokens as for CUDA (source.py's `cuda_source`, every function rewritten),
and lowered with the CUDA lowering's class model (no launch: no thread loops, CPU semantics).
Kernels report the language `cpp`.  Beyond what CUDA device code has:

- a member function of a class is a kernel of its own, `Field2D::jacobi_sweep`, on an object in
  memory (methods.py);
- a function template is lowered once per instantiation the file makes, `axpby<double>`
  (templates.host_instances), and once with its types assumed float (SR114) when it makes none;
- `std::vector`, `std::span` and `std::array` hold arrays (containers.py).
"""

from __future__ import annotations

from ...diagnostics import Diagnostic
from ...ir import Kernel
from ...resources import grammars_dir
from ..c import drivers
from ..c.load import read_and_lower
from ..c.types import FLOAT
from ..c.values import node_location, node_location_or_file
from ..common.launch_config import Launch
from ..common.lowering import FrontendResult, Unsupported
from ..common.predefined import CPP_MACROS


def load_cpp(path: str, defines: dict, include_dirs=(), launches: dict | None = None):
    from ..c.frontend import lower_translation_unit
    from . import classes as CL, methods as M, overloads as OV
    from .frontend import CudaLowering
    from .source import cuda_source
    from .to_c import builtin_types

    def lower(pp):
        src = cuda_source(path, pp.text, pp.bindings, host=True)
        held = {}

        def setup(tu, ext):
            tu.overloads = OV.collect(ext)  # name -> every definition, for names defined more than once
            types = {**builtin_types(), **CL.types()}
            # a function template's type parameters: deduced at each inlined call (templates.bind_callee),
            # float until then (each kernel of one is lowered per instantiation below)
            tu.template_aliases, tu.template_defaults = {}, {}
            tu.explicit_targs = src.explicit  # `sq<double>(x)`'s arguments, by the call's place
            for alias, (_spelling, pname, it) in src.type_aliases.items():
                tu.template_aliases.setdefault(it.name, {})[pname] = alias
                tu.template_defaults[alias] = False
                types[alias] = FLOAT["fp32"]
            tu.types.builtin.update(types)
            held["tu"] = tu

        def lowering(tu, kernel, fn, tparams=None, instance=None):
            low = CudaLowering(tu, kernel, fn, Launch((1, 1, 1), (1, 1, 1)), tparams or {}, src.constants)
            M.bind_this(low, fn, instance)  # a member function: its object's members (methods.py)
            return low

        res = lower_translation_unit(path, src.ctext, pp.size_macros, str(grammars_dir()), "cpp", pp.bindings,
                                     lowering, setup)
        note = src.cxx.note if src.cxx is not None else (lambda kernel, name: None)
        for k in res.kernels:
            note(k, k.name)  # unknown types assumed opaque (SR141), under the C function's name
        if "tu" in held:
            _per_instance(res, held["tu"], src, path, lowering, note)
            _per_class_instance(res, held["tu"], path, lowering, note)
        for k in res.kernels:
            if M.is_member(k):
                M.prune_sizes(k)
        _member_names(res, M.kernel_name)
        # the class layer's own functions (`__srf_Field2D`, the fields) are no kernels
        res.kernels = [k for k in res.kernels if not k.name.startswith("__sr")]
        res.failed = [f for f in res.failed if not f[0].startswith("__sr")]
        res.drivers = {d for d in res.drivers if not d.startswith("__sr")}
        return res

    return read_and_lower(path, defines, include_dirs, "cpp", lower, predefined=CPP_MACROS,
                          stub_dirs=[grammars_dir() / "cuda"])


def _per_instance(res, tu, src, path: str, lowering, note) -> None:
    """Each function template lowered once per instantiation (its result named `f<double>`), in
    place of the one result lower_translation_unit gave it under the placeholder types."""
    from . import templates as T
    from .headers import template_params

    for name, it in src.kernel_items.items():
        params = template_params(it.template) if it.template else []
        fn = tu.funcs.get(name)
        if not params or fn is None:
            continue
        if name in tu.overloads:  # overloaded: lowered once as any function, its types assumed
            for k in res.kernels:
                if k.name == name:
                    for p in params:
                        if p.is_type:
                            k.diag("SR114", f"`{name}`: template type `{p.name}` of an overloaded function "
                                   "template is not instantiated for this analysis; assuming float", k.location)
            continue
        found = T.resolve_instances(name, it, src, params, lambda sp: T.resolve_type(sp, tu.types.builtin, tu),
                                    FLOAT["fp32"], labeled=True)
        variants = []
        for inst in found:
            why = [f"`{name}`: template type `{pname}` has no instantiation in this file (no call gives it or deduces "
                   "it from declared types, no explicit instantiation); assuming float" for pname in inst.assumed]
            variants.append((inst.name, inst.types, lambda tu_, k, f, v=inst.values: lowering(tu_, k, f, v), why))
        _relower(res, tu, fn, path, variants, note)


def _per_class_instance(res, tu, path: str, lowering, note) -> None:
    """Each member function of a class template lowered once per instantiation of its class that
    the file spells (`Grid<double>::step`), in place of its one result under float (SR114)."""
    from . import methods as M

    names = {k.name for k in res.kernels} | {f[0] for f in res.failed}
    for fname in sorted(names):
        found = M.instances(fname, tu)
        fn = tu.funcs.get(fname)
        if not found or fn is None:
            continue
        variants: list = [(M.kernel_name(fname, inst.label), inst.types,
                           lambda tu_, k, f, i=inst: lowering(tu_, k, f, None, i), []) for inst in found]
        _relower(res, tu, fn, path, variants, note)


def _relower(res, tu, fn, path: str, variants, note) -> None:
    """`fn`'s result (kernel, failure, driver) replaced by one per variant: (result name, alias ->
    C type bound while it is lowered, lowering(tu, kernel, fn), SR114 messages).  `note(kernel,
    name)`: the unknown types the function uses (SR141)."""
    name = fn.decl.name
    res.kernels = [k for k in res.kernels if k.name != name]
    res.failed = [f for f in res.failed if f[0] != name]
    res.drivers.discard(name)
    for result, types, make, why in variants:
        saved = {alias: tu.types.builtin.get(alias) for alias in types}
        tu.types.builtin.update(types)
        kernel = Kernel(name, "cpp", node_location_or_file(fn.decl, path))
        try:
            kernel.body = make(tu, kernel, fn).lower()
        except (Unsupported, RecursionError) as e:
            if tu.is_kernel(fn):
                what = f"unsupported {e}" if isinstance(e, Unsupported) else "expression nesting too deep"
                node = getattr(e, "node", None)
                res.failed.append((result, kernel.location, Diagnostic(
                    "SR002", f"`{result}`: {what}", node_location(node, path) if node else kernel.location)))
            continue
        finally:
            for alias, t in saved.items():
                if t is None:
                    tu.types.builtin.pop(alias, None)
                else:
                    tu.types.builtin[alias] = t
        for message in why:
            kernel.diag("SR114", message, kernel.location)
        note(kernel, name)
        if drivers.find(FrontendResult(kernels=[kernel]), tu):
            res.drivers.add(result)
        for pname, value in tu.pragma_sizes.items():
            s = kernel.sizes.get(pname)
            if s is not None:
                s.default, s.origin = value, "pragma"
        kernel.name = result
        res.kernels.append(kernel)


def _member_names(res, name_of) -> None:
    """Kernels, failures and drivers of member functions under their C++ names (`Field2D::step`);
    overloads of one name are told apart by a number (`Field2D::step#2`)."""
    seen: dict = {}

    def renamed(name: str) -> str:
        if name not in seen:
            new = name_of(name) or name
            k = sum(1 for v in seen.values() if v.split("#")[0] == new)
            seen[name] = new if k == 0 else f"{new}#{k + 1}"
        return seen[name]

    for k in res.kernels:
        k.name = renamed(k.name)
    res.failed = [(renamed(n), loc, d) for n, loc, d in res.failed]
    res.drivers = {renamed(d) for d in res.drivers}
