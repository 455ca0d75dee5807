global_load_lds_dwordx3 v[2:3], off
global_load_lds_dwordx3 v[2:3], off sc0 nt sc1
global_load_lds_dwordx3 v[2:3], off offset:4
global_load_lds_dwordx3 v2, s[4:5] offset:4
global_load_lds_dwordx4 v[2:3], off
global_load_lds_dwordx4 v[2:3], off sc0 nt sc1
global_load_lds_dwordx4 v[2:3], off offset:4
global_load_lds_dwordx4 v2, s[4:5] offset:4
v_permlane16_swap_b32 v1, v2
v_permlane16_swap_b32_e32 v1, v2
v_permlane16_swap_b32_e64 v1, v2
v_permlane16_swap_b32 v1, v2 bound_ctrl:0
v_permlane16_swap_b32 v1, v2 fi:0
v_permlane16_swap_b32 v1, v2 bound_ctrl:1
v_permlane16_swap_b32 v1, v2 fi:1
v_permlane16_swap_b32 v1, v2 bound_ctrl:1 fi:1
v_permlane16_swap_b32_e64 v1, v2 bound_ctrl:1 fi:1
v_permlane32_swap_b32 v1, v2
v_permlane32_swap_b32_e32 v1, v2
v_permlane32_swap_b32_e64 v1, v2
v_permlane32_swap_b32 v1, v2 bound_ctrl:0
v_permlane32_swap_b32 v1, v2 fi:0
v_permlane32_swap_b32 v1, v2 bound_ctrl:1
v_permlane32_swap_b32 v1, v2 fi:1
v_permlane32_swap_b32 v1, v2 bound_ctrl:1 fi:1
v_permlane32_swap_b32_e64 v1, v2 bound_ctrl:1 fi:1
v_cvt_scalef32_f16_fp8 v1, v2, v3
v_cvt_scalef32_f16_fp8 v1, v2, v3 op_sel:[1,0,0]
v_cvt_scalef32_f16_fp8 v1, v2, v3 op_sel:[0,1,0]
v_cvt_scalef32_f16_fp8 v1, v2, v3 op_sel:[1,1,0]
v_cvt_scalef32_f16_fp8 v1, v2, v3 op_sel:[0,0,1]
v_cvt_scalef32_f16_fp8 v1, v2, v3 op_sel:[1,1,1]
v_cvt_scalef32_f16_fp8 v1, s1, v3
v_cvt_scalef32_f16_fp8 v1, s4, v3 op_sel:[1,1,1]
v_cvt_scalef32_f16_fp8 v1, 11, v3
v_cvt_scalef32_f16_fp8 v1, 44, v3 op_sel:[1,1,1]
v_cvt_scalef32_f32_fp8 v1, v2, v3
v_cvt_scalef32_f32_fp8 v1, v2, v3 op_sel:[1,0,0]
v_cvt_scalef32_f32_fp8 v1, v2, v3 op_sel:[0,1,1]
v_cvt_scalef32_f32_fp8 v1, s1, v3
v_cvt_scalef32_f32_fp8 v1, s3, v3 op_sel:[0,1,0]
v_cvt_scalef32_f32_fp8 v1, 11, v3
v_cvt_scalef32_f32_fp8 v1, 22, v3 op_sel:[1,0,1]
v_cvt_scalef32_f16_bf8 v1, v2, v3
v_cvt_scalef32_f16_bf8 v1, v2, v3 op_sel:[1,0,0]
v_cvt_scalef32_f16_bf8 v1, v2, v3 op_sel:[0,1,1]
v_cvt_scalef32_f16_bf8 v1, s1, v3
v_cvt_scalef32_f16_bf8 v1, s3, v3 op_sel:[0,1,0]
v_cvt_scalef32_f16_bf8 v1, 11, v3
v_cvt_scalef32_f16_bf8 v1, 44, v3 op_sel:[1,1,1]
v_cvt_scalef32_f32_bf8 v1, v2, v3
v_cvt_scalef32_f32_bf8 v1, v2, v3 op_sel:[1,1,0]
v_cvt_scalef32_f32_bf8 v1, s2, v3 op_sel:[1,0,1]
v_cvt_scalef32_f32_bf8 v1, 33, v3 op_sel:[0,1,1]
v_cvt_scalef32_pk_fp8_f32 v1, v1, v2, v3
v_cvt_scalef32_pk_fp8_f32 v1, v1, -v2, |v3|
v_cvt_scalef32_pk_fp8_f32 v1, v1, s2, 3
v_cvt_scalef32_pk_fp8_f32 v1, v1, v2, v3 op_sel:[0,0,0,1]
v_cvt_scalef32_pk_fp8_f32 v1, v1, -v2, |v3| op_sel:[0,0,0,1]
v_cvt_scalef32_pk_fp8_f32 v1, v1, s2, 3 op_sel:[0,0,0,1]
v_cvt_scalef32_pk_bf8_f32 v1, v1, v2, v3
v_cvt_scalef32_pk_bf8_f32 v1, v1, -v2, |v3|
v_cvt_scalef32_pk_bf8_f32 v1, v1, s2, 3 op_sel:[0,0,0,1]
v_cvt_scalef32_pk_f32_fp8 v[2:3], v2, v3
v_cvt_scalef32_pk_f32_fp8 v[2:3], v2, s3
v_cvt_scalef32_pk_f32_fp8 v[2:3], s2, 3
v_cvt_scalef32_pk_f32_fp8 v[2:3], v2, v3 op_sel:[1,0,0]
v_cvt_scalef32_pk_f32_bf8 v[2:3], v2, v3
v_cvt_scalef32_pk_f32_bf8 v[2:3], s2, 3 op_sel:[1,0,0]
v_cvt_scalef32_pk_fp8_f16 v1, v2, v3
v_cvt_scalef32_pk_fp8_f16 v1, -v2, |v3|
v_cvt_scalef32_pk_fp8_f16 v1, s2, 3
v_cvt_scalef32_pk_fp8_f16 v1, v2, v3 op_sel:[0,0,1]
v_cvt_scalef32_pk_fp8_f16 v1, -v2, |v3| op_sel:[0,0,1]
