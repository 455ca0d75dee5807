"""`gcnemu check --list-unmodelled`: what check accepts but run cannot execute, one mnemonic per line.

The lists are checked against the simulator itself (a semantics function or an engine op is what
makes run execute an instruction), not against the generated table the command reads, and a
listed mnemonic is shown to stop `gcnemu run`.
"""
from __future__ import annotations

import json

import pytest

from gcnemu.cli import main
from gcnemu.isa import mnemonics
from gcnemu.sim.pipes import ENGINE_OPS
from gcnemu.sim.semantics import lookup

TARGETS = ("gfx908", "gfx90a", "gfx942", "gfx950")

# made executable by issue 14 item 4: none of them may be listed any more
NOW_EXECUTED = ["v_div_scale_f32", "v_div_scale_f64", "v_div_fmas_f32", "v_div_fmas_f64", "v_div_fixup_f32",
                "v_div_fixup_f64", "v_div_fixup_f16", "v_div_fixup_legacy_f16", "global_atomic_add_x2",
                "global_atomic_cmpswap_x2", "global_atomic_smin_x2", "global_atomic_umax_x2", "global_atomic_xor_x2",
                "global_atomic_swap_x2", "global_atomic_inc_x2", "global_atomic_dec_x2", "flat_atomic_and_x2",
                "buffer_atomic_or_x2", "global_atomic_cmpswap", "buffer_atomic_inc", "s_sendmsg", "s_sendmsghalt",
                "s_icache_inv", "s_dcache_wb", "s_dcache_inv",
                # what real kernels and llc-22 output use (tools/corpus_unmodelled.py found them)
                "ds_add_u64", "ds_add_rtn_u64", "ds_cmpst_rtn_b32", "ds_cmpst_rtn_b64", "ds_wrxchg_rtn_b32",
                "ds_inc_rtn_u32", "ds_dec_rtn_u64", "ds_max_rtn_f32", "ds_min_rtn_f64", "ds_mskor_b32",
                "ds_wrxchg2_rtn_b64", "s_atomic_dec", "s_buffer_atomic_cmpswap_x2", "s_memtime", "s_memrealtime",
                "s_trap", "v_trig_preop_f64", "v_qsad_pk_u16_u8", "v_mqsad_pk_u16_u8", "v_mqsad_u32_u8",
                "s_incperflevel", "s_decperflevel", "s_ttracedata", "s_atc_probe"]
NOW_EXECUTED_BY_TARGET = {"gfx908": ["buffer_wbinvl1", "buffer_wbinvl1_vol"],
                          "gfx90a": ["buffer_wbl2", "buffer_invl2", "buffer_wbinvl1", "buffer_wbinvl1_vol"],
                          "gfx942": ["buffer_wbl2", "buffer_inv", "ds_pk_add_f16", "ds_pk_add_rtn_bf16",
                                     "global_atomic_add_f64", "ds_add_rtn_f64"],
                          "gfx950": ["buffer_wbl2", "buffer_inv", "ds_pk_add_rtn_f16", "buffer_atomic_max_f64",
                                     "v_prng_b32"]}


def listed(capsys, *argv) -> list[str]:
    assert main(["check", "--list-unmodelled", *argv]) == 0
    return capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("target", TARGETS)
def test_without_a_file_it_lists_the_targets_mnemonics_run_cannot_execute(capsys, target):
    got = listed(capsys, "--arch", target)
    table = mnemonics._table(target).rows
    want = sorted(m for m in table if m not in ENGINE_OPS and lookup(m) is None)
    assert got == want
    assert got == sorted(set(got)), "one line each, sorted"
    for m in NOW_EXECUTED + NOW_EXECUTED_BY_TARGET[target]:
        assert m in table and m not in got, m


def test_the_default_target_is_gfx90a_and_json_is_offered(capsys):
    assert listed(capsys) == listed(capsys, "--arch", "gfx90a")
    assert main(["check", "--list-unmodelled", "--arch", "gfx942", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["unmodelled"] == listed(capsys, "--arch", "gfx942")


KERNEL = """\
v_add_f32_e64 v0, v1, v2
v_div_scale_f32 v3, vcc, v1, v2, v1
global_atomic_cmpswap_x2 v[4:5], v0, v[6:9], s[0:1] glc
v_accvgpr_read v1, a2
buffer_wbl2
s_sendmsg sendmsg(MSG_GS_DONE, GS_OP_NOP)
v_cubeid_f32 v0, v1, v2, v3
ds_add_u64 v1, v[2:3]
v_cubeid_f32 v4, v5, v6, v7
v_trig_preop_f64 v[0:1], v[2:3], v4
v_screen_partition_4se_b32 v0, v1
s_setkill 1
v_bogus_f32 v0, v1
s_endpgm
"""


def test_with_files_it_lists_what_they_use_that_run_cannot_execute(capsys, tmp_path):
    k = tmp_path / "k.s"
    k.write_text(KERNEL)
    assert listed(capsys, "--arch", "gfx90a", str(k)) == ["s_setkill", "v_cubeid_f32", "v_screen_partition_4se_b32"]
    other = tmp_path / "o.s"
    other.write_text("image_load v[0:3], v4, s[8:15] dmask:0xf\nv_add_u32 v0, v1, v2\n")
    assert listed(capsys, "--arch", "gfx90a", str(k), str(other)) == ["image_load", "s_setkill", "v_cubeid_f32",
                                                                      "v_screen_partition_4se_b32"]
    assert main(["check", "--list-unmodelled", "--arch", "gfx90a", str(k)]) == 0
    assert "1 error" in capsys.readouterr().err, "the invalid line is not listed, and that is said"


def test_a_clean_file_lists_nothing(capsys, tmp_path):
    k = tmp_path / "k.s"
    k.write_text("v_div_fixup_f32 v0, v1, v2, v3\nglobal_atomic_add_x2 v0, v[2:3], s[0:1]\ns_endpgm\n")
    assert listed(capsys, str(k)) == []


@pytest.mark.parametrize("line,listed_", [("v_cubeid_f32 v0, v1, v2, v3", True),
                                          ("ds_add_u64 v1, v[2:3]", False),
                                          ("v_screen_partition_4se_b32 v1, v2", True),
                                          ("v_div_scale_f64 v[0:1], vcc, v[2:3], v[2:3], v[4:5]", False),
                                          ("v_accvgpr_write a1, v2", False)])
def test_listed_means_run_stops_there_and_unlisted_means_it_runs(capsys, tmp_path, line, listed_):
    k = tmp_path / "k.s"
    k.write_text(f"v_mov_b32 v1, 0\nv_mov_b32 v2, 1.0\nv_mov_b32 v3, 2.0\nv_mov_b32 v4, 0\nv_mov_b32 v5, 0\n"
                 f"{line}\ns_endpgm\n")
    assert (listed(capsys, str(k)) != []) == listed_
    rc = main(["run", str(k)])
    out = capsys.readouterr()
    if listed_:
        assert rc != 0 and "not modelled" in out.out + out.err
    else:
        assert rc == 0, out.out + out.err


def test_check_still_needs_a_file_without_the_option(capsys):
    assert main(["check"]) == 2
    assert "required: FILE" in capsys.readouterr().err
