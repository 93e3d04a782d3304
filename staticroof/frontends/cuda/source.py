"""A .cu (or C++) file rewritten as C text: every item split at top level, each device (or, for a
C++ file, every) function's C++ rewritten on tokens, classes emitted as structs, host launch sites
and template instantiations collected.  The lowering (frontend.py) and the trace executor both
start from this `CudaSource`."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..c import structs
from ..common.tokens import render, tokenize
from . import (
    aliases as AL,
    classes as CL,
    containers as CN,
    ctors as CT,
    statements as CX,
    templates as T,
)
from .grammar import table
from .headers import clean_params, template_params
from .launch import fold, host_sites
from .to_c import builtin_types, new_token, to_c
from .toplevel import Item, brace_of, method_name, prototype_name, split_items, without_alignas

_CXX_ONLY = {"::", "class", "template", "operator", "namespace", "using", "public", "private", "new", "delete",
             "typename", "<<<", "std", "virtual", "this"}


@dataclass
class CudaSource:
    """A .cu file rewritten as C: what the lowering and the trace executor both start from."""

    ctext: str
    kernel_items: dict
    sites: dict
    tparam_info: dict
    type_aliases: dict
    constants: set
    instances: dict = field(default_factory=dict)  # template kernel -> [templates.Instance]
    explicit: dict = field(default_factory=dict)  # call place -> its explicit template arguments
    cxx: CX.Context | None = None  # what the C++ rewrites found (unknown types)
    references: set = field(default_factory=set)  # writable reference parameters (see clean_params)


def cuda_source(path: str, text: str, bindings: dict, host: bool = False) -> CudaSource:
    """Tokenize, split and rewrite a preprocessed .cu file as C (see the module docstring); `host`:
    a C++ file (host.py), whose every function is rewritten, as the C front end reads every one."""
    tokens = CL.rename_operators(without_alignas(tokenize(text, path)))
    items = split_items(tokens)
    # the items as split, for the C++ rewrites' context: CL.begin marks some (a member defined
    # outside its class is no function then), and shallow copies keep them as they were
    as_split = [Item(it.tokens, it.is_function, it.name, it.header, it.body, it.template) for it in items]
    CL.begin(items)
    CN.begin()
    CT.begin(tokens, items)
    AL.begin(items)
    templates = {it.name for it in items if it.is_function and it.template}
    cxx = CX.Context(tokens, set(builtin_types()) | set(table()["types"]), as_split)
    constants = set()
    # launch sites: fold host code with file-scope integer constants and the user's bindings
    env = dict(bindings)
    for it in items:
        if it.is_function:
            continue
        words = {t.text for t in it.tokens}
        if "const" in words or "constexpr" in words:
            toks = [t for t in it.tokens if t.text not in ("static", "const", "constexpr", "int", "unsigned",
                                                           "long", "size_t", "auto", ";")]
            if len(toks) >= 3 and toks[0].kind == "id" and toks[1].text == "=":
                env.setdefault(toks[0].text, fold(toks[2:], env))
        if "__constant__" in words:
            constants |= {t.text for t in it.tokens if t.kind == "id"}
    every: list = []
    sites = host_sites(items, env, every)  # through host wrappers, with their callers' arguments
    template_kernels = {it.name: it for it in items if it.is_function and it.template and "__global__" in it.qualifiers}
    instances = T.instances(items, env, template_kernels, template_params, every)
    if host:  # a C++ file's function templates: one result per instantiation (host.py)
        instances.update(T.host_instances(as_split, template_params))
    # the C text: context declarations that are plain C, then every device function rewritten
    chunks = []
    kernel_items = {}
    used = {t.text for it in items if it.is_function and (host or {"__global__", "__device__"} & it.qualifiers)
            for t in it.tokens if t.kind == "id"}
    type_aliases = {}
    tparam_info = {}
    references: set = set()  # where writable reference parameters are named (see clean_params)
    for it in items:
        cdef = getattr(it, "class_def", None)
        if cdef is not None:  # its member functions' C++ statements rewritten as any function's
            cdef.chunks = [CX.prepare(h, b, cxx, method_name(h)) for h, b in cdef.chunks]
            text = CL.emit(it, lambda toks, ren: to_c(toks, templates, ren))
            chunks.append(CN.pending() + text)  # its std::vector types' typedefs first (containers.py)
            continue
        if it.is_function and (host or {"__global__", "__device__"} & it.qualifiers):
            params = template_params(it.template) if it.template else []
            renames, tvals = {}, {}
            site = sites.get(it.name)
            for k, p in enumerate(params):
                arg = site.template_args[k] if site and k < len(site.template_args) else p.default
                if p.is_type:
                    alias = f"__sr_{it.name}_{p.name}"
                    renames[p.name] = alias
                    type_aliases[alias] = (arg if isinstance(arg, str) else None, p.name, it)
                else:
                    tvals[p.name] = arg if isinstance(arg, int) else None
            tparam_info[it.name] = tvals
            header, body = CX.prepare(it.header, it.body, cxx, it.name)
            head = clean_params(to_c(header, templates, renames), references)
            body = to_c(body, templates, renames)
            brace = brace_of(it)
            chunks.append(CN.pending() + render(head + [brace] + body + [new_token(it.tokens[-1], "}")]))
            kernel_items[it.name] = it
        elif it.tokens and it.tokens[0].text == "using" and not it.template:  # `using real = float;`
            if it.tokens[1].text not in CL.registry().aliases:  # a class type's: CL.using_typedefs
                tdef = [new_token(it.tokens[0], "typedef", "id"), *it.tokens[3:-1], it.tokens[1], it.tokens[-1]]
                text = render(to_c(cxx.declaration(tdef), templates, {}))
                chunks.append(CN.pending() + text)
        elif not it.is_function and it.tokens and _CXX_ONLY.isdisjoint(texts := [t.text for t in it.tokens]):
            name = prototype_name(it.tokens, texts)
            if name is not None and name not in used:
                continue  # a library prototype no kernel calls: parsing it would only cost time
            text = render(to_c(cxx.declaration(it.tokens), templates, {}))
            chunks.append(CN.pending() + text)
    prelude = "".join(f"typedef int {name};\n" for name in sorted(builtin_types()))
    prelude += "typedef int __sr_auto;\n" + CX.PRELUDE
    prelude += "".join(f"typedef int {alias};\n" for alias in sorted(type_aliases))
    usings = CL.using_typedefs(lambda toks, ren: to_c(toks, templates, ren))
    prelude += CL.prelude() + usings
    prelude += structs.tag_typedefs(items)  # C++ names a struct by its tag: `Params p`
    ctext = '#line 1 "<staticroof-cuda-prelude>"\n' + prelude + "".join(chunks)
    explicit = T.explicit_calls(as_split, template_params)
    return CudaSource(ctext, kernel_items, sites, tparam_info, type_aliases, constants, instances, cxx=cxx,
                      explicit=explicit, references=references)
