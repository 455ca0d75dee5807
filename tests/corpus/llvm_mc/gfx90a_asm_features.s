v_pk_fma_f32 v[8:9], v[0:1], s[0:1], v[4:5]
v_pk_fma_f32 v[8:9], v[0:1], s[0:1], v[4:5] op_sel_hi:[0,0,0]
v_pk_fma_f32 v[8:9], v[0:1], s[0:1], v[4:5] op_sel:[0,0,1] op_sel_hi:[0,0,1]
v_pk_fma_f32 v[8:9], v[0:1], s[0:1], v[4:5] neg_lo:[1,1,1]
v_pk_fma_f32 v[8:9], v[0:1], s[0:1], v[4:5] neg_hi:[1,1,1]
v_pk_fma_f32 v[8:9], v[0:1], s[0:1], v[4:5] neg_lo:[1,1,1] neg_hi:[1,1,1]
v_pk_fma_f32 v[8:9], v[0:1], s[0:1], v[4:5] neg_lo:[1,0,0]
v_pk_fma_f32 v[8:9], v[0:1], s[0:1], v[4:5] neg_lo:[0,1,0]
v_pk_fma_f32 v[8:9], v[0:1], s[0:1], v[4:5] neg_lo:[0,0,1]
v_pk_fma_f32 v[8:9], v[0:1], s[0:1], v[4:5] neg_hi:[1,0,0]
v_pk_fma_f32 v[8:9], v[0:1], s[0:1], v[4:5] neg_hi:[0,1,0]
v_pk_fma_f32 v[8:9], v[0:1], s[0:1], v[4:5] neg_hi:[0,0,1]
v_pk_fma_f32 v[8:9], v[0:1], s[0:1], v[4:5] clamp
v_pk_fma_f32 v[0:1], v[4:5], v[8:9], v[16:17]
v_pk_fma_f32 v[0:1], v[2:3], v[4:5], 1.0
v_pk_mul_f32 v[254:255], v[8:9], v[16:17]
v_pk_mul_f32 v[4:5], v[254:255], v[16:17]
v_pk_mul_f32 v[4:5], s[2:3], v[16:17]
v_pk_mul_f32 v[4:5], s[100:101], v[16:17]
v_pk_mul_f32 v[4:5], flat_scratch, v[16:17]
v_pk_mul_f32 v[4:5], vcc, v[16:17]
v_pk_mul_f32 v[4:5], exec, v[16:17]
v_pk_mul_f32 v[4:5], v[8:9], v[254:255]
v_pk_mul_f32 v[4:5], v[8:9], s[2:3]
v_pk_mul_f32 v[4:5], v[8:9], s[100:101]
v_pk_mul_f32 v[4:5], v[8:9], flat_scratch
v_pk_mul_f32 v[4:5], v[8:9], vcc
v_pk_mul_f32 v[4:5], v[8:9], exec
v_pk_mul_f32 v[4:5], v[8:9], v[16:17]
v_pk_mul_f32 v[4:5], v[8:9], v[16:17] op_sel:[1,0]
v_pk_mul_f32 v[4:5], v[8:9], v[16:17] op_sel:[0,1]
v_pk_mul_f32 v[4:5], v[8:9], v[16:17] op_sel:[1,1]
v_pk_mul_f32 v[4:5], v[8:9], v[16:17] op_sel_hi:[0,0]
v_pk_mul_f32 v[4:5], v[8:9], v[16:17] op_sel_hi:[1,0]
v_pk_mul_f32 v[4:5], v[8:9], v[16:17] op_sel_hi:[0,1]
v_pk_mul_f32 v[4:5], v[8:9], v[16:17] neg_lo:[1,0]
v_pk_mul_f32 v[4:5], v[8:9], v[16:17] neg_lo:[0,1]
v_pk_mul_f32 v[4:5], v[8:9], v[16:17] neg_lo:[1,1]
v_pk_mul_f32 v[4:5], v[8:9], v[16:17] neg_hi:[1,0]
v_pk_mul_f32 v[4:5], v[8:9], v[16:17] neg_hi:[0,1]
v_pk_mul_f32 v[4:5], v[8:9], v[16:17] neg_hi:[1,1]
v_pk_mul_f32 v[4:5], v[8:9], v[16:17] clamp
v_pk_mul_f32 v[0:1], v[2:3], 1.0
v_pk_add_f32 v[254:255], v[8:9], v[16:17]
v_pk_add_f32 v[4:5], v[254:255], v[16:17]
v_pk_add_f32 v[4:5], s[2:3], v[16:17]
v_pk_add_f32 v[4:5], s[100:101], v[16:17]
v_pk_add_f32 v[4:5], flat_scratch, v[16:17]
v_pk_add_f32 v[4:5], vcc, v[16:17]
v_pk_add_f32 v[4:5], exec, v[16:17]
v_pk_add_f32 v[4:5], v[8:9], v[254:255]
v_pk_add_f32 v[4:5], v[8:9], s[2:3]
v_pk_add_f32 v[4:5], v[8:9], s[100:101]
v_pk_add_f32 v[4:5], v[8:9], flat_scratch
v_pk_add_f32 v[4:5], v[8:9], vcc
v_pk_add_f32 v[4:5], v[8:9], exec
v_pk_add_f32 v[4:5], v[8:9], v[16:17]
v_pk_add_f32 v[4:5], v[8:9], v[16:17] op_sel:[1,0]
v_pk_add_f32 v[4:5], v[8:9], v[16:17] op_sel:[0,1]
v_pk_add_f32 v[4:5], v[8:9], v[16:17] op_sel:[1,1]
v_pk_add_f32 v[4:5], v[8:9], v[16:17] op_sel_hi:[0,0]
v_pk_add_f32 v[4:5], v[8:9], v[16:17] op_sel_hi:[1,0]
v_pk_add_f32 v[4:5], v[8:9], v[16:17] neg_lo:[1,1]
v_pk_add_f32 v[4:5], v[8:9], v[16:17] neg_hi:[0,1]
v_pk_add_f32 v[4:5], v[8:9], v[16:17] clamp
v_pk_add_f32 v[0:1], v[2:3], 1.0
v_pk_mov_b32 v[0:1], v[2:3], v[4:5]
v_pk_mov_b32 v[0:1], flat_scratch, v[4:5]
v_pk_mov_b32 v[0:1], v[2:3], vcc
v_pk_mov_b32 v[0:1], v[2:3], s[0:1]
v_pk_mov_b32 v[0:1], v[2:3], v[2:3] op_sel_hi:[0,1]
v_pk_mov_b32 v[0:1], v[2:3], v[4:5] op_sel:[1,0]
v_pk_mov_b32 v[0:1], v[2:3], v[4:5] op_sel:[1,1]
v_pk_mov_b32 v[0:1], v[2:3], 4
v_pk_mov_b32 v[0:1], v[2:3], 2.0
buffer_wbl2
buffer_invl2
buffer_atomic_add_f64 v[4:5], off, s[8:11], s3 offset:4095
buffer_atomic_add_f64 v[4:5], off, s[12:15], s3 offset:4095
buffer_atomic_add_f64 v[4:5], off, s[96:99], s3 offset:4095
buffer_atomic_add_f64 v[4:5], off, s[8:11], s101 offset:4095
buffer_atomic_add_f64 v[4:5], off, s[8:11], m0 offset:4095
buffer_atomic_add_f64 v[4:5], off, s[8:11], 0 offset:4095
buffer_atomic_add_f64 v[4:5], off, s[8:11], -1 offset:4095
buffer_atomic_add_f64 v[4:5], v0, s[8:11], s3 idxen offset:4095
buffer_atomic_add_f64 v[4:5], v0, s[8:11], s3 offen offset:4095
buffer_atomic_add_f64 v[4:5], off, s[8:11], s3
buffer_atomic_add_f64 v[4:5], off, s[8:11], s3 offset:7
buffer_atomic_add_f64 v[4:5], off, s[8:11], s3 offset:4095 slc
buffer_atomic_min_f64 v[4:5], off, s[8:11], s3 offset:4095
buffer_atomic_min_f64 v[4:5], off, s[8:11], m0 offset:4095
buffer_atomic_min_f64 v[4:5], v0, s[8:11], s3 idxen offset:4095
buffer_atomic_min_f64 v[4:5], off, s[8:11], s3 offset:4095 slc
buffer_atomic_max_f64 v[4:5], off, s[8:11], s3 offset:4095
buffer_atomic_max_f64 v[4:5], off, s[8:11], -1 offset:4095
buffer_atomic_max_f64 v[4:5], v0, s[8:11], s3 offen offset:4095
buffer_atomic_max_f64 v[4:5], off, s[8:11], s3 offset:4095 slc
