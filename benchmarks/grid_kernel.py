"""The grid runner's scaling workload, shared by bench_grid.py and report.py.

A vector kernel with a compute loop: each workgroup reads its 64 floats, runs `iters` fused
multiply-adds on them and writes them back, so a workgroup is a few hundred wave-instructions,
like a small real tile. Kept apart so report.py can time it on an older release too (bench_grid
imports modules an older release lacks).
"""

SCALING_KERNEL = """\
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer A: f32[{n}] = arange({n}) -> s[4:5]
//   buffer C: f32[{n}] = zeros({n}) -> s[6:7]
  s_lshl_b32 s9, s2, 6
  v_add_u32 v1, s9, v0
  v_lshlrev_b32 v1, 2, v1
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  s_mov_b32 s10, {iters}
  v_mov_b32 v3, 0
loop:
  v_fmac_f32 v3, v2, v2
  s_sub_u32 s10, s10, 1
  s_cmp_lg_u32 s10, 0
  s_cbranch_scc1 loop
  global_store_dword v1, v3, s[6:7]
  s_endpgm
"""
