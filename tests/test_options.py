"""The one options object (staticroof/options.py): every field is in a cache key or says why not,
each one in a key changes it, the object crosses processes intact, and the pipeline and its
callers take it whole."""

from __future__ import annotations

import dataclasses
import inspect
import pickle

import pytest

from staticroof.cache import runner
from staticroof.lint import cached
from staticroof.lint.settings import Settings
from staticroof.options import ANALYSIS, PLACEMENT, AnalysisOptions, FrozenMap


def _machine():
    from staticroof.roofline import get, load_database

    return get("a100", load_database())


# A value other than the default for every field: a field added without one fails
# test_every_field_has_a_variant, so it cannot be added without its key being checked here.
VARIANTS = {
    "defines": {"N": "64"},
    "include_dirs": ["inc"],
    "weights": {"expf": 4},
    "only": {"scale_add"},
    "launches": {None: {"grid": (4,), "block": (256,)}},
    "kernel_sizes": {"scale_add": {"N": 64}},
    "dtypes": {None: {"x": "float32"}},
    "all_functions": True,
    "cache_bytes": 40 * 2**20,
    "l1_bytes": 196608,
    "time_budget": 0.5,
    "machine": _machine,
    "unit": "tensor",
    "jobs": 4,
}


def _variant(name: str) -> AnalysisOptions:
    value = VARIANTS[name]
    return AnalysisOptions(**{name: value() if callable(value) else value})


FIELDS = [f.name for f in dataclasses.fields(AnalysisOptions)]


def _kind(name: str):
    return next(f for f in dataclasses.fields(AnalysisOptions) if f.name == name).metadata["key"]


@pytest.fixture
def source(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.c").write_text("void k(int n, float *x) { for (int i = 0; i < n; i++) x[i] = 0; }\n")
    return "k.c"


def test_every_field_has_a_variant_and_a_key_or_a_reason():
    assert sorted(VARIANTS) == sorted(FIELDS)
    for f in dataclasses.fields(AnalysisOptions):
        assert f.metadata.get("key", "missing") in (ANALYSIS, PLACEMENT, None), f.name
        if f.metadata["key"] is None:
            assert f.metadata.get("why"), f"{f.name}: in no key, and no reason given"
        assert getattr(_variant(f.name), f.name) != getattr(AnalysisOptions(), f.name), f.name


@pytest.mark.parametrize("name", FIELDS)
def test_each_field_is_in_its_key(source, name):
    """An analysis field changes the analysis entry's key (and so lint's); a placement field lint's
    alone (the analysis is stored before any machine places it); the others neither."""
    base, other = AnalysisOptions(), _variant(name)
    settings = Settings()

    def lint_key(options):
        return runner.file_key(source, cached.KIND, cached.key_options(options, settings))

    analysis_differs = runner.key_of(source, other) != runner.key_of(source, base)
    lint_differs = lint_key(other) != lint_key(base)
    kind = _kind(name)
    assert analysis_differs == (kind == ANALYSIS), name
    assert lint_differs == (kind in (ANALYSIS, PLACEMENT)), name
    assert runner.key_of(source, AnalysisOptions()) == runner.key_of(source, base)  # and keys are stable


def test_an_unclassified_field_is_refused():
    @dataclasses.dataclass(frozen=True)
    class More(AnalysisOptions):
        extra: int = 0

    with pytest.raises(TypeError, match="extra"):
        More().key_fields()


def test_options_are_frozen_hashable_and_cross_processes():
    o = AnalysisOptions(defines={"N": "64", "M": None}, include_dirs=["a", "b"], only={"k"},
                        launches={None: {"grid": [4], "block": (256,)}}, kernel_sizes={"k": {"N": 8}},
                        dtypes={None: {"x": "float32"}, "k": {"y": "int32"}}, machine=_machine(), jobs=None)
    assert isinstance(o.defines, FrozenMap) and o.include_dirs == ("a", "b") and o.only == frozenset({"k"})
    assert o.launches[None]["grid"] == (4,)  # lists frozen to tuples
    hash(o)
    again = pickle.loads(pickle.dumps(o))
    assert again == o and hash(again) == hash(o) and again.key_fields() == o.key_fields()
    assert list(again.defines) == ["N", "M"]  # in the order given: -D's order reaches the preprocessor
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.jobs = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        o.defines["N"] = "1"  # type: ignore[index]
    thawed = o.kernel_sizes.thaw()  # a plain dict, a copy: altering it alters nothing here
    thawed["k"]["N"] = 9
    assert o.kernel_sizes["k"]["N"] == 8
    assert dataclasses.replace(o, jobs=1).key_fields() == o.key_fields()


def test_the_pipeline_and_its_callers_take_one_options_object():
    from staticroof import pipeline
    from staticroof.cache import printed
    from staticroof.lint import engine

    assert list(inspect.signature(pipeline.run).parameters) == ["files", "options"]
    assert list(inspect.signature(runner.run).parameters) == ["files", "options", "cache", "config_path"]
    assert list(inspect.signature(runner.analyze_each).parameters) == ["files", "options"]
    assert list(inspect.signature(printed.run).parameters)[:2] == ["files", "options"]
    assert list(inspect.signature(engine.analyze_file).parameters)[:2] == ["path", "options"]


def test_the_command_line_goes_over_the_configuration(tmp_path):
    from staticroof.cli import options_from
    from staticroof.config import Config, load

    cfg_path = tmp_path / "staticroof.toml"
    cfg_path.write_text('include = ["inc"]\ncache = "1MiB"\ntime-budget = 3\njobs = 2\nall-functions = true\n'
                        '[sizes]\nN = 10\nM = 20\n[sizes.k]\nN = 5\nK = 7\n[costs]\nexpf = 4\n'
                        '[dtypes]\nx = "float32"\n[launch.k]\ngrid = [8]\n')
    cfg = load(cfg_path)
    o = options_from(cfg, defines=["N=64"], include_dirs=["cli"], costs=["logf=2"], blocks=["k=128"],
                     dtypes=["y=int32"], kernels=["k"], jobs=1)
    assert dict(o.defines) == {"N": "64", "M": "20"}
    assert o.include_dirs == ("cli", str((tmp_path / "inc").resolve()))
    assert o.kernel_sizes.thaw() == {"k": {"K": 7}}  # -D N wins over the kernel's own N
    assert dict(o.weights) == {"expf": 4, "logf": 2}
    assert o.launches.thaw() == {"k": {"grid": (8,), "block": (128,)}}
    assert o.dtypes.thaw() == {None: {"x": "float32", "y": "int32"}}
    assert o.only == {"k"} and o.cache_bytes == 2**20 and o.l1_bytes is None
    assert o.time_budget == 3 and o.jobs == 1
    assert o.all_functions is False  # the flag's: `analyze` and `plot` add the configuration's
    m = options_from(cfg, machine_name="a100", cache=None)
    assert m.cache_bytes == 2**20 and m.l1_bytes == m.machine.smem_bytes_per_sm  # `cache` wins over the L2
    bare = options_from(Config(), machine_name="a100")
    assert bare.cache_bytes == bare.machine.l2_bytes
