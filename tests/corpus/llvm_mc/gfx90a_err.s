ds_add_src2_u32 v1
ds_add_src2_f32 v1
ds_sub_src2_u32 v1
ds_rsub_src2_u32 v1
ds_inc_src2_u32 v1
ds_dec_src2_u32 v1
ds_min_src2_i32 v1
ds_max_src2_i32 v1
ds_min_src2_u32 v1
ds_max_src2_u32 v1
ds_and_src2_b32 v1
ds_or_src2_b32 v1
ds_xor_src2_b32 v1
ds_min_src2_f32 v1
ds_max_src2_f32 v1
ds_add_src2_u64 v1
ds_sub_src2_u64 v1
ds_rsub_src2_u64 v1
ds_inc_src2_u64 v1
ds_dec_src2_u64 v1
ds_min_src2_i64 v1
ds_max_src2_i64 v1
ds_min_src2_u64 v1
ds_max_src2_u64 v1
ds_and_src2_b64 v1
ds_or_src2_b64 v1
ds_xor_src2_b64 v1
ds_min_src2_f64 v1
ds_max_src2_f64 v1
ds_write_src2_b32 v1
ds_write_src2_b64 v1
image_gather4 v[5:8], v1, s[8:15], s[12:15]
image_gather4h v[251:254], v[1:2], s[8:15], s[12:15] dmask:0x1
image_get_lod v5, v1, s[8:15], s[12:15]
v_mul_legacy_f32_e32 v5, v1, v2
v_mul_legacy_f32_sdwa v5, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD
v_mul_legacy_f32_dpp v5, v1, v2  quad_perm:[0,1,2,3] row_mask:0x0 bank_mask:0x0
v_interp_p1_f32 v5, v1, attr0.x
v_interp_p1_f32_e64 v5, v2, attr0.x
v_interp_p2_f32 v5, v1, attr0.x
v_interp_mov_f32 v5, p10, attr0.x
v_interp_p1ll_f16 v5, v2, attr0.x
v_interp_p1lv_f16 v5, v2, attr0.x, v3
v_interp_p2_legacy_f16 v5, v2, attr0.x, v3
v_interp_p2_f16 v5, v2, attr0.x, v3
v_mov_b32_dpp v5, v1 row_share:1 row_mask:0x0 bank_mask:0x0
v_ceil_f64_dpp v[0:1], v[2:3] quad_perm:[1,1,1,1] row_mask:0xf bank_mask:0xf
v_ceil_f64_dpp v[0:1], v[2:3] row_shl:1 row_mask:0xf bank_mask:0xf
v_ceil_f64_dpp v[0:1], v[2:3] wave_ror:1 row_mask:0xf bank_mask:0xf
v_cvt_u32_f64 v5, v[0:1] quad_perm:[0,2,1,1] row_mask:0xf bank_mask:0xf
v_ceil_f64_dpp v[0:1], v[2:3] row_share:1 row_mask:0xf bank_mask:0xf
flat_atomic_add v2, v[2:3], a2 glc
flat_atomic_add a2, v[2:3], v2 glc
tbuffer_store_format_xyzw v[0:3], off, s[4:7],  dfmt:15,  nfmt:2, s1 tfe
buffer_store_dwordx4 v[0:3], off, s[12:15], s4 offset:4095 glc tfe
ds_write2_b64 v1, a[4:5], v[2:3] offset1:255
ds_write2_b64 v1, v[4:5], a[2:3] offset1:255
ds_wrxchg2st64_rtn_b32 v[6:7], v1, a2, a3 offset0:127
image_load v[0:4], v2, s[0:7] dmask:0xf unorm tfe
image_sample_lz v[0:3], v[0:1], s[4:11], s[16:19] dmask:0xf
image_sample_d v[0:3], v[0:1], s[4:11], s[16:19] dmask:0xf
image_sample_o v[0:3], v[0:1], s[4:11], s[16:19] dmask:0xf
image_sample_cl v[0:3], v[0:1], s[4:11], s[16:19] dmask:0xf
image_sample_cd v[0:3], v[0:1], s[4:11], s[16:19] dmask:0xf
image_sample_b v[0:3], v[0:1], s[4:11], s[16:19] dmask:0xf
v_mov_b32_sdwa v1, src_lds_direct dst_sel:DWORD
v_add_f32_sdwa v5, v1, lds_direct dst_sel:DWORD
v_ashrrev_i16 v0, lds_direct, v0
v_add_f32 v5, v1, lds_direct
ds_gws_init a1 offset:65535 gds
ds_gws_init a255 offset:65535 gds
ds_gws_sema_br v1 offset:65535 gds
ds_gws_sema_br v255 offset:65535 gds
ds_gws_barrier a3 offset:4 gds
ds_gws_barrier a255 offset:4 gds
ds_ordered_count v5, v1 offset:65535 gds
exp pos0 v3, v2, v1, v0
global_load_lds_dword v[2:3], off
scratch_load_lds_dword v2, off
ds_read_b32 v0, v1 gds
v_dot4_i32_i8 v0, v1, v2, v3 op_sel:[0,0]
v_dot4_i32_i8 v0, v1, v2, v3 op_sel:[0,1]
v_dot4_i32_i8 v0, v1, v2, v3 op_sel:[1,1]
v_dot4_i32_i8 v0, v1, v2, v3 op_sel_hi:[0,0]
v_dot4_i32_i8 v0, v1, v2, v3 op_sel_hi:[1,1]
v_dot4_i32_i8 v0, v1, v2, v3 op_sel:[0,0] op_sel_hi:[0,1]
v_dot4_i32_i8 v0, v1, v2, v3 op_sel:[1,0] op_sel_hi:[1,1]
v_dot4_u32_u8 v0, v1, v2, v3 op_sel:[0,0]
v_dot4_u32_u8 v0, v1, v2, v3 op_sel_hi:[1,0]
v_dot4_u32_u8 v0, v1, v2, v3 op_sel:[1,1] op_sel_hi:[1,1]
v_dot4c_i32_i8 v0, v1, v2, v3 op_sel:[0,0]
v_dot4c_i32_i8 v0, v1, v2, v3 op_sel_hi:[1,1]
v_dot4c_i32_i8 v0, v1, v2, v3 op_sel:[0,1] op_sel_hi:[1,0]
v_dot4c_i32_i8 v0, v1, v2, v3 op_sel:[1,1] op_sel_hi:[1,1]
v_dot8_i32_i4 v0, v1, v2, v3 op_sel:[0,0]
v_dot8_i32_i4 v0, v1, v2, v3 op_sel_hi:[1,0]
v_dot8_i32_i4 v0, v1, v2, v3 op_sel:[1,0] op_sel_hi:[0,1]
v_dot8_u32_u4 v0, v1, v2, v3 op_sel:[1,1]
v_dot8_u32_u4 v0, v1, v2, v3 op_sel_hi:[0,1]
v_dot8_u32_u4 v0, v1, v2, v3 op_sel:[0,1] op_sel_hi:[1,1]
v_dot8c_i32_i4 v0, v1, v2, v3 op_sel:[1,0]
v_dot8c_i32_i4 v0, v1, v2, v3 op_sel_hi:[0,1]
v_dot8c_i32_i4 v0, v1, v2, v3 op_sel:[1,1] op_sel_hi:[1,0]
