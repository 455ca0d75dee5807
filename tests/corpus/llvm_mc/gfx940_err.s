v_mac_f32 v0, v1, v2
v_mac_f32_e64 v5, v1, v2
v_mac_f32_dpp v5, v1, v2 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf
v_mac_f32_dpp v5, v1, v2 dpp8:[7,6,5,4,3,2,1,0]
v_mac_f32_sdwa v5, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:DWORD src1_sel:DWORD
v_mad_f32 v0, v1, v2, v3
v_madak_f32 v0, v1, v2, 0
v_madmk_f32 v0, v1, 0, v2
v_mad_legacy_f32 v0, v1, v2, v3
v_mov_b64 v[2:3], v[4:5] row_shl:1
v_mov_b64 v[2:3], -v[4:5]
v_mov_b64 v[2:3], |v[4:5]|
v_mov_b64 v[2:3], v[4:5] dst_sel:BYTE_0 dst_unused:UNUSED_PRESERVE src0_sel:DWORD
v_mov_b64_sdwa v[2:3], v[4:5]
buffer_invl2
global_load_dword v2, v[2:3], off glc
global_load_dword v2, v[2:3], off slc
global_load_dword v2, v[2:3], off scc
s_load_dword s2, s[2:3], 0x0 sc0
buffer_atomic_swap v5, off, s[8:11], s3 glc
buffer_atomic_swap v5, off, s[8:11], s3 slc
buffer_wbl2 glc
buffer_wbl2 scc
v_dot2_u32_u16 v0, 1, v0, s2 op_sel:[0,1,0,1] op_sel_hi:[0,0,1,1]
v_cvt_f32_fp8 v1, sext(v3) src0_sel:BYTE_1
v_cvt_pk_f32_bf8 v[2:3], sext(v3) src0_sel:BYTE_1
v_cvt_sr_bf8_f32 v1, v2, -v3
v_cvt_sr_fp8_f32 v1, v2, -v3
v_cvt_sr_fp8_f32 v1, v2, v3 clamp
v_cvt_sr_fp8_f32 v1, v2, v3 mul:2
v_cvt_pk_fp8_f32 v1, v2, v3 clamp
v_cvt_pk_fp8_f32 v1, v2, v3 mul:2
s_getreg_b32 s1, hwreg(HW_REG_FLAT_SCR_LO)
s_getreg_b32 s1, hwreg(HW_REG_FLAT_SCR_HI)
s_getreg_b32 s1, hwreg(HW_REG_XNACK_MASK)
s_getreg_b32 s1, hwreg(HW_REG_HW_ID1)
s_getreg_b32 s1, hwreg(HW_REG_HW_ID2)
s_getreg_b32 s1, hwreg(HW_REG_POPS_PACKER)
ds_ordered_count v5, v1 offset:65535 gds
exp pos0 v3, v2, v1, v0
global_load_dword v[2:3], off lds
scratch_load_dword v2, off lds
