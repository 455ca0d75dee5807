v_mfma_f32_16x16x32_f16 v[0:3], v[0:3], v[0:3], v[0:3]
v_mfma_f32_16x16x32f16 v[0:3], v[0:3], v[0:3], v[0:3]
v_mfma_f32_16x16x32_f16 a[0:3], a[0:3], a[0:3], a[0:3]
v_mfma_f32_16x16x32f16 a[0:3], a[0:3], a[0:3], a[0:3]
v_mfma_f32_16x16x32_f16 v[0:3], a[0:3], v[0:3], 1.0
v_mfma_f32_16x16x32_f16 a[0:3], v[0:3], a[0:3], 1.0
v_mfma_f32_16x16x32_f16 v[0:3], v[0:3], v[0:3], v[0:3] blgp:5
v_mfma_f32_16x16x32_f16 a[0:3], a[0:3], a[0:3], a[0:3] blgp:1
v_mfma_f32_16x16x32_f16 a[0:3], a[0:3], a[0:3], a[0:3] cbsz:3
v_mfma_f32_16x16x32_f16 a[0:3], a[0:3], a[0:3], a[0:3] abid:1
v_mfma_f32_16x16x32_f16 a[0:3], a[0:3], a[0:3], a[0:3] cbsz:3 abid:1
v_mfma_f32_16x16x32_f16 a[0:3], v[0:3], v[0:3], a[4:7]
v_mfma_f32_16x16x32_f16 v[0:3], a[0:3], a[0:3], v[4:7]
v_mfma_f32_32x32x16_f16 v[0:15], v[0:3], v[0:3], v[0:15]
v_mfma_f32_32x32x16_f16 a[0:15], a[0:3], a[0:3], a[0:15]
v_mfma_f32_32x32x16f16 v[0:15], v[0:3], v[0:3], v[0:15]
v_mfma_f32_32x32x16f16 a[0:15], a[0:3], a[0:3], a[0:15]
v_mfma_f32_32x32x16_f16 v[0:15], v[0:3], v[0:3], 1.0
v_mfma_f32_32x32x16_f16 a[0:15], a[0:3], a[0:3], 1.0
v_mfma_f32_32x32x16_f16 v[0:15], v[0:3], v[0:3], v[0:15] blgp:5
v_mfma_f32_32x32x16_f16 a[0:15], a[0:3], a[0:3], a[0:15] blgp:2
v_mfma_f32_32x32x16_f16 v[0:15], v[0:3], v[0:3], v[0:15] cbsz:3
v_mfma_f32_32x32x16_f16 v[0:15], v[0:3], v[0:3], v[0:15] abid:1
v_mfma_f32_32x32x16_f16 a[0:15], a[0:3], a[0:3], a[0:15] cbsz:3 abid:1
v_mfma_f32_32x32x16_bf16 v[0:15], v[0:3], v[0:3], v[0:15]
v_mfma_f32_32x32x16_bf16 a[0:15], a[0:3], a[0:3], a[0:15]
v_mfma_f32_32x32x16bf16 v[0:15], v[0:3], v[0:3], v[0:15]
v_mfma_f32_32x32x16bf16 a[0:15], a[0:3], a[0:3], a[0:15]
v_mfma_f32_32x32x16_bf16 v[0:15], v[0:3], v[0:3], 1.0
v_mfma_f32_32x32x16_bf16 a[0:15], a[0:3], a[0:3], 1.0
v_mfma_f32_32x32x16_bf16 v[0:15], v[0:3], v[0:3], v[0:15] blgp:5
v_mfma_f32_32x32x16_bf16 a[0:15], a[0:3], a[0:3], a[0:15] blgp:2
v_mfma_f32_32x32x16_bf16 v[0:15], v[0:3], v[0:3], v[0:15] cbsz:3
v_mfma_f32_32x32x16_bf16 v[0:15], v[0:3], v[0:3], v[0:15] abid:1
v_mfma_f32_32x32x16_bf16 a[0:15], a[0:3], a[0:3], a[0:15] cbsz:3 abid:1
v_mfma_ld_scale_b32 v0, 64
v_mfma_ld_scale_b32 64, v0
v_mfma_ld_scale_b32 64, 64
v_mfma_ld_scale_b32 s0, s0
v_mfma_ld_scale_b32 s0, v0
v_mfma_ld_scale_b32 v0, s0
v_mfma_ld_scale_b32 vcc_lo, vcc_lo
v_mfma_ld_scale_b32 m0, m0
v_mfma_ld_scale_b32 vccz, vccz
v_mfma_ld_scale_b32 execz, execz
v_mfma_ld_scale_b32 v0, v0
v_mfma_ld_scale_b32 v1, v1
v_mfma_ld_scale_b32 0, 0
v_mfma_ld_scale_b32 1, 0
v_mfma_ld_scale_b32 v1, v1 op_sel:[1, 0]
v_mfma_ld_scale_b32 v1, v1 op_sel:[0, 1]
v_mfma_ld_scale_b32 v1, v1 op_sel:[1, 1]
v_mfma_ld_scale_b32 v1, v1 op_sel_hi:[1, 0]
v_mfma_ld_scale_b32 v1, v1 op_sel_hi:[0, 1]
v_mfma_ld_scale_b32 v1, v1 op_sel_hi:[1, 1]
v_mfma_ld_scale_b32 v1, v1 op_sel:[0,0] op_sel_hi:[0,0]
v_mfma_ld_scale_b32 v1, v1 op_sel:[1,0] op_sel_hi:[1,0]
v_mfma_ld_scale_b32 v1, v1 op_sel:[0,1] op_sel_hi:[0,1]
v_mfma_ld_scale_b32 v1, v1 op_sel:[0,1] op_sel_hi:[1,1]
