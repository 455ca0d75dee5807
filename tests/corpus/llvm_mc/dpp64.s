v_ceil_f64 v[0:1], v[2:3] row_newbcast:1
v_cvt_f32_f64 v5, v[0:1] row_newbcast:15
v_cvt_i32_f64 v5, v[0:1] row_newbcast:1
v_cvt_u32_f64 v5, v[0:1] row_newbcast:2
v_floor_f64 v[4:5], v[0:1] row_newbcast:15
v_fmac_f64 v[0:1], v[2:3], v[4:5] row_newbcast:2
v_fract_f64 v[4:5], v[0:1] row_newbcast:1
v_frexp_exp_i32_f64 v5, v[0:1] row_newbcast:1
v_frexp_mant_f64 v[4:5], v[0:1] row_newbcast:1
v_rcp_f64 v[4:5], v[0:1] row_newbcast:1
v_rndne_f64 v[4:5], v[0:1] row_newbcast:1
v_rsq_f64 v[4:5], v[0:1] row_newbcast:1
v_sqrt_f64 v[4:5], v[0:1] row_newbcast:1
v_trunc_f64 v[4:5], v[0:1] row_newbcast:1
