"""Spec tests for gcnemu.isa.mnemonics, plus a differential test against llvm-mc 22.

The differential tests run only where llvm-mc 22 is installed (LLVM_MC, or
/usr/lib/llvm-22/bin/llvm-mc, or llvm-mc-22 / llvm-mc on PATH); elsewhere they
skip.  They ask llvm-mc about each spelling without operands, which tells the
mnemonic verdict apart from operand errors:

* "invalid instruction[, did you mean: a, b?]"   unknown on every AMDGPU target
* "instruction not supported on this GPU"         exists, but on other targets only
* "<sfx> variant of this instruction is not supported"   suffix not valid for it
* anything else (operand errors, or success)     the spelling exists
"""
from __future__ import annotations

import os
import random
import re
import shutil
import subprocess

import pytest

from gcnemu.isa import mnemonics as M

TARGETS = M.TARGETS


# --------------------------------------------------------------------------
# spec
# --------------------------------------------------------------------------

@pytest.mark.parametrize("name,expected", [
    ("buffer_load_dword", ["gfx908", "gfx90a", "gfx942", "gfx950"]),
    ("s_waitcnt", ["gfx908", "gfx90a", "gfx942", "gfx950"]),
    ("global_load_lds_dwordx4", ["gfx950"]),
    ("global_load_lds_dword", ["gfx942", "gfx950"]),  # earlier: "global_load_dword ... lds"
    ("ds_read_b64_tr_b16", ["gfx950"]),
    ("v_mov_b64", ["gfx942", "gfx950"]),
    ("v_mfma_f64_4x4x4f64", ["gfx90a", "gfx942", "gfx950"]),
    ("v_mfma_f64_4x4x4_4b_f64", ["gfx942", "gfx950"]),
    ("v_mfma_f32_32x32x8f16", ["gfx908", "gfx90a", "gfx942", "gfx950"]),
    ("v_mfma_f32_16x16x32_f16", ["gfx950"]),
    ("v_mfma_i32_16x16x32_i8", ["gfx942", "gfx950"]),
    ("v_mfma_f32_16x16x8xf32", ["gfx942"]),
    ("v_pk_fma_f32", ["gfx90a", "gfx942", "gfx950"]),
    ("v_mad_f32", ["gfx908", "gfx90a"]),
    ("exp", ["gfx908"]),
    ("image_sample", ["gfx908", "gfx90a"]),
    ("image_load", ["gfx908", "gfx90a"]),
    ("v_interp_p1_f32", ["gfx908"]),
    ("s_waitcnt_vscnt", []),
    ("v_add_nc_u32", []),
    ("s_endpgm", ["gfx908", "gfx90a", "gfx942", "gfx950"]),
])
def test_targets_having(name, expected):
    assert M.targets_having(name) == expected


def test_suffix_forms():
    assert M.exists("v_add_u32_e64", "gfx90a")
    assert M.exists("v_add_u32_e32", "gfx90a")
    assert M.exists("v_add_u32_sdwa", "gfx90a")
    assert M.exists("v_add_u32_dpp", "gfx90a")
    assert not M.exists("v_add_u32_e64_dpp", "gfx90a")      # VOP3 DPP is gfx11+
    assert M.exists("v_cmp_eq_f32_sdwa", "gfx908")
    assert not M.exists("v_cmp_eq_f32_dpp", "gfx908")       # no VOPC DPP before gfx11
    assert not M.exists("v_mad_f32_e32", "gfx90a")          # VOP3-only
    assert M.exists("v_mad_f32_e64", "gfx90a")
    assert not M.exists("v_pk_fma_f32_e32", "gfx90a")
    # llvm-mc accepts (and ignores) _e32 on every default-variant mnemonic
    assert M.exists("s_mov_b32_e32", "gfx942")
    assert not M.exists("s_mov_b32_e64", "gfx942")


def test_mnemonics_set():
    for t in TARGETS:
        names = M.mnemonics(t)
        assert isinstance(names, frozenset)
        assert "buffer_load_dword" in names and "s_endpgm" in names
        assert all(n == n.lower() for n in names)
    assert "v_add_u32_e64" in M.mnemonics("gfx90a")
    assert "v_mov_b64" not in M.mnemonics("gfx90a")
    assert "v_mov_b64_e32" in M.mnemonics("gfx942")
    assert "ds_read_b64_tr_b16" in M.mnemonics("gfx950")
    assert len(M.mnemonics("gfx950")) > len(M.mnemonics("gfx942")) > 2500


def test_case_and_target_names():
    assert M.exists("V_ADD_U32_E64", "GFX90A")
    with pytest.raises(ValueError):
        M.exists("s_nop", "gfx1100")


@pytest.mark.parametrize("spelling,target,family", [
    ("s_mov_b32", "gfx908", "SOP1"),
    ("s_add_u32", "gfx908", "SOP2"),
    ("s_movk_i32", "gfx908", "SOPK"),
    ("s_cmp_eq_u32", "gfx908", "SOPC"),
    ("s_waitcnt", "gfx950", "SOPP"),
    ("s_load_dwordx4", "gfx90a", "SMEM"),
    ("v_mov_b32", "gfx90a", "VOP1"),
    ("v_add_u32", "gfx90a", "VOP2"),
    ("v_add_u32_e64", "gfx90a", "VOP3"),
    ("v_add_u32_sdwa", "gfx90a", "SDWA"),
    ("v_add_u32_dpp", "gfx90a", "DPP"),
    ("v_cmp_eq_f32", "gfx942", "VOPC"),
    ("v_fma_f32", "gfx942", "VOP3"),
    ("v_mad_u64_u32", "gfx942", "VOP3"),
    ("v_pk_fma_f32", "gfx942", "VOP3P"),
    ("v_mfma_f32_32x32x8f16", "gfx908", "VOP3P-MAI"),
    ("v_accvgpr_read_b32", "gfx908", "VOP3P-MAI"),
    ("v_accvgpr_mov_b32", "gfx90a", "VOP1"),
    ("v_mfma_scale_f32_16x16x128_f8f6f4", "gfx950", "VOP3PX2-MAI"),
    ("ds_read_b128", "gfx950", "DS"),
    ("flat_load_dword", "gfx942", "FLAT"),
    ("global_load_dword", "gfx942", "GLOBAL"),
    ("scratch_load_dword", "gfx942", "SCRATCH"),
    ("buffer_load_dword", "gfx942", "MUBUF"),
    ("tbuffer_load_format_x", "gfx942", "MTBUF"),
    ("image_load", "gfx908", "MIMG"),
    ("exp", "gfx908", "EXP"),
    ("v_interp_p1_f32", "gfx908", "VINTRP"),
    ("s_mov_b32_e32", "gfx908", "SOP1"),
])
def test_encoding(spelling, target, family):
    assert M.encoding(spelling, target) == family


def test_encoding_missing():
    assert M.encoding("v_mov_b64", "gfx90a") is None
    assert M.encoding("nonsense", "gfx90a") is None


def test_every_row_has_a_family():
    for t in TARGETS:
        for name in M.mnemonics(t):
            row = M.info(name, t)
            assert row is not None and row.family != "?", (t, name)


def test_aliases():
    row = M.info("v_mfma_f64_4x4x4f64", "gfx942")
    assert row.canonical == "v_mfma_f64_4x4x4_4b_f64"
    assert M.info("v_mfma_f64_4x4x4f64", "gfx90a").canonical == "v_mfma_f64_4x4x4f64"
    assert M.info("v_mul_lo_i32", "gfx908").canonical == "v_mul_lo_u32"


@pytest.mark.parametrize("typo,target,expected", [
    ("v_addd_u32", "gfx90a", "v_add_u32"),
    ("s_mov_b3", "gfx908", "s_mov_b32"),
    ("buffer_load_dwrod", "gfx942", "buffer_load_dword"),
    ("global_load_dwordx44", "gfx950", "global_load_dwordx4"),
    ("v_mad_f3", "gfx90a", "v_mad_f32"),           # llvm-mc itself offers nothing here
    ("v_add_u32_e6", "gfx90a", "v_add_u32_e64"),
    ("v_mfma_f64_4x4x4f6", "gfx942", "v_mfma_f64_4x4x4f64"),
    ("s_wait_cnt", "gfx90a", "s_waitcnt"),
])
def test_suggest(typo, target, expected):
    assert M.suggest(typo, target) == expected


def test_suggest_nothing_close():
    assert M.suggest("qqqqqqqqqqqqqqqq", "gfx90a") is None


def test_suggestions_like_llvm():
    assert M.suggestions("s_mov_b3", "gfx908") == ["s_cmov_b32", "s_mov_b32"]
    assert M.suggestions("v_cmp_eq_f32_e3", "gfx942") == [
        "v_cmp_eq_f32_e32", "v_cmp_neq_f32_e32", "v_cmpx_eq_f32_e32"]
    assert M.suggestions("v_mad_f3", "gfx908") == []
    assert M.suggestions("v_mfma_f64_4x4x4f6", "gfx908") == []


def test_suggest_is_fast():
    import time
    M.suggest("warmup", "gfx950")
    t = time.perf_counter()
    for q in ("v_mfma_f32_32x32x8_f1", "global_atomic_pk_add_bf1", "zzzzzzzzzzzzzzzzzzzzzzz"):
        M.suggest(q, "gfx950")
    assert time.perf_counter() - t < 1.0


# --------------------------------------------------------------------------
# differential against llvm-mc 22
# --------------------------------------------------------------------------

def _find_llvm_mc() -> str | None:
    for cand in (os.environ.get("LLVM_MC"), "/usr/lib/llvm-22/bin/llvm-mc",
                 shutil.which("llvm-mc-22"), shutil.which("llvm-mc")):
        if cand and os.path.exists(cand):
            out = subprocess.run([cand, "--version"], capture_output=True, text=True).stdout
            if re.search(r"LLVM version 22\.", out):
                return cand
    return None


LLVM_MC = _find_llvm_mc()
needs_llvm = pytest.mark.skipif(LLVM_MC is None, reason="llvm-mc 22 not installed")
VARIANT_RE = re.compile(r"\w+ variant of this instruction is not supported")


def _verdicts(target: str, lines: list[str]) -> list[str]:
    """llvm-mc's first error per line ('' when the line assembles)."""
    r = subprocess.run([LLVM_MC, "-arch=amdgcn", f"-mcpu={target}", "-o", os.devnull],
                       input="\n".join(lines) + "\n", capture_output=True, text=True)
    errs: dict[int, str] = {}
    for l in r.stderr.splitlines():
        m = re.match(r"<stdin>:(\d+):\d+: error: (.*)", l)
        if m:
            errs.setdefault(int(m.group(1)) - 1, m.group(2).strip())
    return [errs.get(i, "") for i in range(len(lines))]


def _exists_per_llvm(err: str) -> bool:
    return not (err.startswith("invalid instruction") or err.startswith("instruction not supported")
                or VARIANT_RE.match(err) or err.startswith("instruction requires"))


def _all_rows(target):
    return sorted({M.info(s, target).name for s in M.mnemonics(target)})


@needs_llvm
@pytest.mark.parametrize("target", TARGETS)
def test_differential_existing(target):
    """~300 sampled mnemonics: llvm-mc agrees they exist, with exactly the listed suffixes."""
    rng = random.Random(f"mnemonics-{target}")
    rows = _all_rows(target)
    sample = rng.sample(rows, min(300, len(rows)))
    lines, expect = [], []
    for name in sample:
        row = M.info(name, target)
        for sfx in ("",) + M.SUFFIXES:
            spelling = f"{name}_{sfx}" if sfx else name
            listed = sfx == "" or sfx in row.suffixes
            if row.canonical != row.name and not listed:
                continue  # aliases pass llvm-mc's mnemonic check with any suffix, then fail on operands
            lines.append(spelling)
            expect.append(listed)
    got = _verdicts(target, lines)
    bad = [(l, e, g) for l, e, g in zip(lines, expect, got) if _exists_per_llvm(g) != e]
    assert not bad, bad[:20]


@needs_llvm
@pytest.mark.parametrize("target", TARGETS)
def test_differential_other_targets(target):
    """Mnemonics of the other CDNA targets that are missing here: 'not supported on this GPU'."""
    others = sorted({M.info(s, t).name for t in TARGETS if t != target for s in M.mnemonics(t)}
                    - set(_all_rows(target)))
    assert others
    got = _verdicts(target, others)
    bad = [(n, g) for n, g in zip(others, got) if g != "instruction not supported on this GPU"]
    assert not bad, bad[:20]


def _mutate(rng: random.Random, name: str) -> str:
    i = rng.randrange(len(name))
    op = rng.choice("dis")
    c = rng.choice("abcdefgilmnorstuvx0123468_")
    if op == "d":
        return name[:i] + name[i + 1:]
    if op == "i":
        return name[:i] + c + name[i:]
    return name[:i] + c + name[i + 1:]


@needs_llvm
@pytest.mark.parametrize("target", TARGETS)
def test_differential_typos(target):
    """Typos: llvm-mc's verdict matches exists(), and its did-you-mean list matches suggestions()."""
    rng = random.Random(f"typos-{target}")
    rows = _all_rows(target)
    typos = sorted({t for t in (_mutate(rng, rng.choice(rows)) for _ in range(300))
                    if t[:1].isalpha()})
    got = _verdicts(target, typos)
    for typo, err in zip(typos, got):
        assert _exists_per_llvm(err) == M.exists(typo, target), (typo, err)
        if err.startswith("invalid instruction"):
            m = re.search(r"did you mean: (.*)\?$", err)
            theirs = m.group(1).split(", ") if m else []
            assert M.suggestions(typo, target) == theirs, (typo, err)
