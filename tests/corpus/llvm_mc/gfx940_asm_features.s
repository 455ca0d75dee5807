global_load_dword v2, v[2:3], off sc0
global_load_dword v2, v[2:3], off nosc0
global_load_dword v2, v[2:3], off sc1
global_load_dword v2, v[2:3], off nosc1
global_load_dword v2, v[2:3], off nt
global_load_dword v2, v[2:3], off nont
s_load_dword s2, s[2:3], 0x0 glc
buffer_load_dword v5, off, s[8:11], s3 sc0 nt sc1
flat_atomic_add_f32 v[2:3], v1
flat_atomic_add_f32 v[2:3], a1
flat_atomic_add_f32 v4, v[2:3], v1 sc0
flat_atomic_add_f32 a4, v[2:3], a1 sc0
flat_atomic_pk_add_f16 v4, v[2:3], v1 sc0
flat_atomic_pk_add_f16 a4, v[2:3], a1 sc0
flat_atomic_pk_add_f16 v[2:3], v1
flat_atomic_pk_add_f16 v[2:3], a1
flat_atomic_pk_add_bf16 v4, v[2:3], v1 sc0
flat_atomic_pk_add_bf16 a4, v[2:3], a1 sc0
flat_atomic_pk_add_bf16 v[2:3], v1
flat_atomic_pk_add_bf16 v[2:3], a1
global_atomic_pk_add_bf16 v4, v[2:3], v1, off sc0
global_atomic_pk_add_bf16 a4, v[2:3], a1, off sc0
global_atomic_pk_add_bf16 v[2:3], v1, off
global_atomic_pk_add_bf16 v[2:3], a1, off
ds_pk_add_f16 v2, v1
ds_pk_add_f16 v2, a1
ds_pk_add_rtn_f16  v3, v2, v1
ds_pk_add_rtn_f16  a3, v2, a1
ds_pk_add_bf16 v2, v1
ds_pk_add_bf16 v2, a1
ds_pk_add_rtn_bf16  v3, v2, v1
ds_pk_add_rtn_bf16  a3, v2, a1
global_load_lds_dword v[2:3], off
global_load_lds_dword v[2:3], off sc0 nt sc1
global_load_lds_dword v[2:3], off offset:4
global_load_lds_dword v2, s[4:5] offset:4
global_load_lds_ubyte v[2:3], off
global_load_lds_sbyte v[2:3], off
global_load_lds_sshort v[2:3], off
global_load_lds_ushort v[2:3], off
scratch_load_lds_dword v2, off
scratch_load_lds_dword v2, s4
scratch_load_lds_dword v2, s4 offset:4
scratch_load_lds_dword off, s4 offset:4
scratch_load_lds_dword off, off offset:4
scratch_load_lds_ubyte v2, off
scratch_load_lds_sbyte v2, off
scratch_load_lds_ushort v2, off
scratch_load_lds_sshort v2, off
s_getreg_b32 s1, hwreg(HW_REG_XCC_ID)
s_getreg_b32 s1, hwreg(HW_REG_SQ_PERF_SNAPSHOT_DATA)
s_getreg_b32 s1, hwreg(HW_REG_SQ_PERF_SNAPSHOT_DATA1)
s_getreg_b32 s1, hwreg(HW_REG_SQ_PERF_SNAPSHOT_PC_LO)
s_getreg_b32 s1, hwreg(HW_REG_SQ_PERF_SNAPSHOT_PC_HI)
s_getreg_b32 s1, hwreg(19)
s_getreg_b32 s1, hwreg(20)
s_getreg_b32 s1, hwreg(21)
s_getreg_b32 s1, hwreg(22)
s_getreg_b32 s1, hwreg(23)
s_getreg_b32 s1, hwreg(24)
s_getreg_b32 s1, hwreg(25)
v_mov_b64 v[2:3], v[4:5]
v_mov_b64 v[2:3], v[4:5]  row_newbcast:1
v_mov_b64 v[2:3], s[4:5]
v_mov_b64 v[2:3], 1
v_mov_b64 v[2:3], 0x64
v_lshl_add_u64 v[2:3], s[4:5], v7, v[8:9]
v_lshl_add_u64 v[2:3], v[4:5], 0, 1
v_lshl_add_u64 v[2:3], v[4:5], 3, s[2:3]
v_lshl_add_u64 v[2:3], s[4:5], 4, v[2:3]
buffer_wbl2 sc1
buffer_wbl2 sc0
buffer_wbl2 sc0 sc1
buffer_inv sc0
buffer_inv sc1
buffer_inv sc0 sc1
buffer_atomic_swap v5, off, s[8:11], s3 sc0
buffer_atomic_swap v5, off, s[8:11], s3 nt
v_fmac_f64_e32 v[4:5], v[2:3], v[4:5]
v_fmac_f64_e32 v[254:255], v[2:3], v[4:5]
v_fmac_f64_e32 v[4:5], v[254:255], v[4:5]
v_fmac_f64_e32 v[4:5], flat_scratch, v[4:5]
v_fmac_f64_e32 v[4:5], vcc, v[4:5]
v_fmac_f64_e32 v[4:5], exec, v[4:5]
v_fmac_f64_e32 v[4:5], 0, v[4:5]
v_fmac_f64_e32 v[4:5], -1, v[4:5]
v_fmac_f64_e32 v[4:5], 0.5, v[4:5]
v_fmac_f64_e32 v[4:5], -4.0, v[4:5]
v_fmac_f64_e32 v[4:5], 0xaf123456, v[4:5]
v_fmac_f64_e32 v[4:5], 0x3f717273, v[4:5]
v_fmac_f64_e32 v[4:5], v[2:3], v[254:255]
v_fmac_f64_e64 v[4:5], v[2:3], v[8:9]
v_fmac_f64_e64 v[254:255], v[2:3], v[8:9]
v_fmac_f64_e64 v[4:5], v[254:255], v[8:9]
v_fmac_f64_e64 v[4:5], flat_scratch, v[8:9]
v_fmac_f64_e64 v[4:5], vcc, v[8:9]
v_fmac_f64_e64 v[4:5], exec, v[8:9]
v_fmac_f64_e64 v[4:5], 0, v[8:9]
v_fmac_f64_e64 v[4:5], -1, v[8:9]
v_fmac_f64_e64 v[4:5], 0.5, v[8:9]
v_fmac_f64_e64 v[4:5], -4.0, v[8:9]
v_fmac_f64_e64 v[4:5], v[2:3], v[254:255]
v_fmac_f64_e64 v[4:5], v[2:3], flat_scratch
v_fmac_f64_e64 v[4:5], v[2:3], vcc
v_fmac_f64_e64 v[4:5], v[2:3], exec
v_fmac_f64_e64 v[4:5], v[2:3], 0
v_fmac_f64_e64 v[4:5], v[2:3], -1
v_fmac_f64_e64 v[4:5], v[2:3], 0.5
v_fmac_f64_e64 v[4:5], v[2:3], -4.0
v_fmac_f64_e64 v[4:5], -v[2:3], v[8:9]
v_fmac_f64_e64 v[4:5], v[2:3], -v[8:9]
v_fmac_f64_e64 v[4:5], -v[2:3], -v[8:9]
v_fmac_f64_e64 v[4:5], |v[2:3]|, v[8:9]
v_fmac_f64_e64 v[4:5], v[2:3], |v[8:9]|
v_fmac_f64_e64 v[4:5], |v[2:3]|, |v[8:9]|
v_fmac_f64_e64 v[4:5], v[2:3], v[8:9] clamp
v_fmac_f64_e64 v[4:5], v[2:3], v[8:9] mul:2
v_fmac_f64_e64 v[4:5], v[2:3], v[8:9] mul:4
v_fmac_f64_e64 v[4:5], v[2:3], v[8:9] div:2
v_fmamk_f32 v0, v2, 100.0, v3
v_fmaak_f32 v0, v2, v3, 100.0
global_atomic_add_f32 v0, v[0:1], v2, off sc0 sc1
global_atomic_add_f32 v[0:1], v2, off sc1
global_atomic_add_f32 v0, v2, s[0:1] sc1
global_atomic_add_f32 v1, v0, v2, s[0:1] sc0 sc1
global_atomic_pk_add_f16 v0, v[0:1], v2, off sc0 sc1
flat_atomic_add_f64 v[0:1], v[0:1], v[2:3] sc0 sc1
flat_atomic_add_f64 v[0:1], v[2:3] sc1
flat_atomic_min_f64 v[0:1], v[2:3] sc1
flat_atomic_max_f64 v[0:1], v[2:3] sc1
global_atomic_add_f64 v[0:1], v[2:3], off sc1
global_atomic_min_f64 v[0:1], v[2:3], off sc1
global_atomic_max_f64 v[0:1], v[2:3], off sc1
buffer_atomic_add_f32 v4, off, s[8:11], s3 sc1
buffer_atomic_pk_add_f16 v4, off, s[8:11], s3 sc1
buffer_atomic_add_f64 v[4:5], off, s[8:11], s3 sc1
buffer_atomic_max_f64 v[4:5], off, s[8:11], s3 sc1
buffer_atomic_min_f64 v[4:5], off, s[8:11], s3 sc1
v_cvt_f32_bf8 v1, s3
v_cvt_f32_bf8 v1, 3
