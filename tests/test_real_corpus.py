"""Real production kernels (tests/corpus, see its README) check exactly as llvm-mc 22 does.

The whole-file differential of the front-end issue, in CI: every kernel is assembled by llvm-mc 22
for its target, with the options its own build passes (MIOpen: `-mcpu=gfx908 -mattr=-xnack` and
`-defsym` for each configurable parameter), and checked by gcnemu with the same options
(`--arch gfx908:xnack- --defsym ...`). Both must accept it, or both refuse it with gcnemu
reporting an error on every line llvm-mc does and on no other line outside a macro body (llvm-mc
files those under `<instantiation>`). A kernel that assembles must also lint without an internal
error and resolve into a runnable Kernel: users step and lint these files as written.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from gcnemu.analysis.lint import lint
from gcnemu.asm import parse as parse_mod
from gcnemu.asm import resolve as resolve_mod
from gcnemu.asm.resolve import resolve

ROOT = Path(__file__).resolve().parent
CORPUS = ROOT / "corpus"
_spec = importlib.util.spec_from_file_location("corpus_diff", ROOT.parent / "tools" / "corpus_diff.py")
corpus_diff = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(corpus_diff)

MIOPEN = ["ROCM_METADATA_VERSION=5"]
# one configuration of the batch-norm kernel, as MIOpen's solver (backward_spatial_single.cpp)
# passes it for N=64, C=64, H=W=28, saved mean and variance
BATCHNORM = MIOPEN + ["MIO_BN_USESAVED=1", "MIO_BN_N=64", "MIO_BN_C=64", "MIO_BN_HW=784", "MIO_BN_NHW=50176",
                      "MIO_BN_CHW=50176", "MIO_BN_NCHW=3211264", "MIO_BN_LDS_SIZE=1024", "MIO_BN_LDSGCN_SIZE=16",
                      "MIO_BN_VARIANT=1", "MIO_BN_GRP0=1024", "MIO_BN_GRP1=1", "MIO_BN_GRP2=1",
                      "MIO_BN_NHW_FLOAT=0x47440000", "MIO_BN_GFX103X=0", "MIO_BN_GFX110X=0", "MIO_BN_GFX120X=0"]
# file -> (targets, --defsym list); files without a configuration of their own are checked with
# only the version symbol, which llvm-mc refuses line by line (they exercise `.error`, macros
# and error recovery)
OPTIONS: dict[str, tuple[list[str], list[str]]] = {
    "miopen/gcnAsmBNBwdTrainSpatial.s": (["gfx908:xnack-", "gfx90a:xnack-", "gfx908"], BATCHNORM),
    "miopen/Conv_Winograd_v21_1_3_fp32_f2x3_stride1.s": (["gfx908:xnack-", "gfx90a:xnack-"], MIOPEN),
}
ASSEMBLES = {"miopen/gcnAsmBNBwdTrainSpatial.s@gfx908:xnack-",
             "miopen/Conv_Winograd_v21_1_3_fp32_f2x3_stride1.s@gfx908:xnack-",
             "tensile/Custom_Cijk_Alik_Bljk_HHS_BH_UserArgs_MT128x16x128_MI16x16x1_SN_K1_MIWT2_1_triple_buffer.s@gfx942"}
# kernels written as `.long` machine words (Tensile ships some so): they check, but hold no instructions
ENCODED = {"tensile/Custom_Cijk_Ailk_Bljk_F8H_HHS_BH_Bias_AS_SAB_SAV_shortname1_gfx942.s"}


def cases() -> list[tuple[str, str, list[str]]]:
    out = []
    for f in sorted(CORPUS.rglob("*.s")):
        rel = str(f.relative_to(CORPUS))
        own = corpus_diff.target_of(f, "")
        targets, defsyms = OPTIONS.get(rel, ([own] if own else ["gfx908:xnack-", "gfx90a:xnack-"],
                                             MIOPEN if rel.startswith("miopen") else []))
        out += [(rel, t, defsyms) for t in targets]
    return out


CASES = cases()
IDS = [f"{rel}@{t}" for rel, t, _ in CASES]
HAVE_MC = Path(corpus_diff.LLVM_MC).exists()


def test_the_corpus_holds_real_kernels_of_two_projects_on_three_targets():
    assert {rel.split("/")[0] for rel, _, _ in CASES} == {"miopen", "tensile"}
    assert len({rel for rel, _, _ in CASES}) >= 10
    assert {t.split(":")[0] for _, t, _ in CASES} >= {"gfx908", "gfx90a", "gfx942"}


@pytest.mark.skipif(not HAVE_MC, reason="llvm-mc 22 not installed")
@pytest.mark.parametrize("rel,target,defsyms", CASES, ids=IDS)
def test_a_real_kernel_checks_as_llvm_mc_22_assembles_it(rel: str, target: str, defsyms: list[str]):
    path = CORPUS / rel
    ok, theirs, stderr, _ = corpus_diff.llvm_mc(path, target, [], defsyms)
    mine, _ = corpus_diff.gcnemu(path, target, [], defsyms)
    if ok:
        assert not mine, f"llvm-mc assembles {rel} for {target}; gcnemu says {sorted(mine.items())[:3]}"
        return
    real = {k for k in theirs if not k[0].startswith("<")}
    assert mine, f"llvm-mc refuses {rel} for {target} ({stderr.splitlines()[0]}); gcnemu accepts it"
    missing = sorted(real - set(mine))
    assert not missing, f"llvm-mc reports errors on lines gcnemu does not: {missing[:5]}"
    extra = sorted(k for k in set(mine) - real if not _inside_macro(path.parent / k[0], k[1]))
    assert not extra, f"gcnemu reports errors on lines llvm-mc does not: {extra[:5]}"


def test_the_configured_kernels_are_the_ones_that_assemble():
    """Pins which cases are clean, so that a regression cannot hide as 'both refuse it'."""
    if not HAVE_MC:
        pytest.skip("llvm-mc 22 not installed")
    clean = {f"{rel}@{t}" for rel, t, d in CASES if corpus_diff.llvm_mc(CORPUS / rel, t, [], d)[0]}
    assert ASSEMBLES <= clean
    assert sum(rel.startswith("tensile") or "igemm" in rel for rel in {c.split("@")[0] for c in clean}) >= 3


def _inside_macro(path: Path, line: int) -> bool:
    """gcnemu reports an error llvm-mc files under `<instantiation>` on the macro body's own line
    (with llvm-mc's instantiation notes); such a line lies inside a .macro/.rept ... .endm/.endr."""
    opened = 0
    for text in path.read_text(errors="replace").splitlines()[:line - 1]:  # the closing line is inside too
        word = text.split(maxsplit=1)[0].lower() if text.strip() else ""
        opened += word in (".macro", ".rept", ".irp", ".irpc")
        opened -= word in (".endm", ".endr", ".endmacro")
    return opened > 0


CLEAN = [c for c, i in zip(CASES, IDS) if (i in ASSEMBLES or "igemm" in i) and c[0] not in ENCODED]


@pytest.mark.parametrize("rel,target,defsyms", CLEAN, ids=[f"{r}@{t}" for r, t, _ in CLEAN])
def test_a_real_kernel_that_assembles_lints_and_resolves_as_written(rel: str, target: str, defsyms: list[str]):
    gpu, *features = target.split(":")
    parse_mod.DEFSYMS.clear()
    parse_mod.DEFSYMS.update({k: int(v, 0) for k, v in (d.split("=") for d in defsyms)})
    resolve_mod.TARGET_FEATURES.update({f[:-1]: f[-1] == "+" for f in features})
    try:
        path = CORPUS / rel
        prog = parse_mod.parse(path.read_bytes(), str(path), target=gpu)
        kernel = resolve(prog, gpu)
        diags = lint(prog, gpu)
    finally:
        parse_mod.DEFSYMS.clear()
        resolve_mod.TARGET_FEATURES.clear()
    assert len(kernel.instructions) > 100
    assert not [d for d in diags if d.severity == "error"], [d.message for d in diags if d.severity == "error"][:3]
