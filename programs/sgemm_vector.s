// sgemm_vector.s -- a classic register-blocked SGEMM tile without MFMA: one workgroup of
// 256 work-items computes C (64 x 64, f32) = A (64 x 64) x B (64 x 64), every work-item a
// 4 x 4 block of C with v_fmac_f32 (the "64 x 64 x 8 tile, 4 x 4 per thread" kernel of the
// hand-tuned HIP SGEMM notes), K streamed in 8 stages of KT = 8 through LDS.
//
// Data: A, B, C f32[64,64] row-major; kernel arguments {A, B, C} via s[0:1].
// Threads: tid = 16 ty + tx (tx, ty 0..15) owns C[4 ty + i][4 tx + j], i, j = 0..3, in
//   v[64 + 4 i + j]. Wave w holds ty = 4w .. 4w+3.
// LDS (two buffers, 0x0000 and 0x2000): As = A tile transposed, As[k][m] at 272 k + 4 m
//   (rows padded from 256 to 272 bytes so the transposing writes of 32 lanes hit 32
//   banks), Bs[k][n] at 0x1000 + 256 k + 4 n. Per k, a work-item reads its 4 A values
//   As[k][4ty..+3] and 4 B values Bs[k][4tx..+3] with two ds_read_b128 (broadcast reads).
// Staging through VGPRs (global_load -> ds_write -> ds_read), the double-buffering pattern
//   of the notes' kernels 7.4 / 3.5:
//   - stage s+1's loads go out at the start of stage s: A[m][k0 + 2c .. +1] (m = tid >> 2,
//     c = tid & 3) and B[k0 + (tid >> 5)][2 (tid & 31) .. +1], one global_load_dwordx2 each;
//   - the 8 k-steps of stage s read LDS four k-steps ahead into 4 register sets
//     (v[32:63]) with s_waitcnt lgkmcnt(6/6/6/6/6/4/2/0): LDS returns in order;
//   - then s_waitcnt vmcnt(0), the staged values go to the *other* LDS buffer (A with one
//     ds_write2_b32 = the transpose, B with ds_write_b64), s_waitcnt lgkmcnt(0) and one
//     s_barrier per stage: that buffer was last read in stage s-1, before the previous barrier.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 256
//   buffer A: f32[64,64] = randn(seed=21)
//   buffer B: f32[64,64] = randn(seed=22)
//   buffer C: f32[64,64] = nan
//   arg: A, B, C
//   expect C = f64(A) @ f64(B) : tol 1e-4
//   expect hazards: none
//   # measured: VALU busy 42% of the run (1024 v_fmac per wave x 4 clocks); stall cycles per
//   # wave: pipe busy ~1790 (the CU's LDS pipe: 4 waves of ds_read_b128), barrier ~740,
//   # waitcnt lgkmcnt ~600, waitcnt vmcnt ~490 (mostly the prologue's first load)
//   expect cycles: 9250..10220
//   expect stall pipe busy: 2075..2808
//   expect stall barrier: 341..462
//   expect stall waitcnt lgkmcnt: 220..300
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
	.globl sgemm_vector
	.p2align 8
	.type sgemm_vector,@function
sgemm_vector:
	s_load_dwordx4 s[4:7], s[0:1], 0x0        // A, B
	s_load_dwordx2 s[8:9], s[0:1], 0x10       // C
	v_and_b32 v0, 0x3ff, v0                   // tid
	// staging addresses
	v_lshrrev_b32 v1, 2, v0                   // m = tid >> 2
	v_and_b32 v2, 3, v0                       // c = tid & 3
	v_lshlrev_b32 v3, 3, v2
	v_lshl_add_u32 v3, v1, 8, v3              // A: 256 m + 8 c (+ 32 per stage, in s[4:5])
	v_mul_u32_u24 v4, 0x220, v2               // As write: 272 (2c) ...
	v_lshl_add_u32 v4, v1, 2, v4              //   ... + 4 m; the second k is 68 dwords further
	v_lshlrev_b32 v5, 3, v0                   // B: 8 tid (+ 2048 per stage, in s[6:7])
	v_add_u32 v6, 0x1000, v5                  // Bs write: 0x1000 + 8 tid
	// compute addresses
	v_and_b32 v7, 15, v0                      // tx
	v_lshrrev_b32 v8, 4, v0                   // ty
	v_lshlrev_b32 v9, 4, v8                   // As read: 16 ty (+ 272 k)
	v_lshlrev_b32 v10, 4, v7
	v_add_u32 v10, 0x1000, v10                // Bs read: 0x1000 + 16 tx (+ 256 k)
	v_lshlrev_b32 v11, 10, v8                 // C: 256 (4 ty) ...
	v_lshl_add_u32 v11, v7, 4, v11            //   ... + 16 tx
	v_mov_b32 v64, 0
	v_mov_b32 v65, 0
	v_mov_b32 v66, 0
	v_mov_b32 v67, 0
	v_mov_b32 v68, 0
	v_mov_b32 v69, 0
	v_mov_b32 v70, 0
	v_mov_b32 v71, 0
	v_mov_b32 v72, 0
	v_mov_b32 v73, 0
	v_mov_b32 v74, 0
	v_mov_b32 v75, 0
	v_mov_b32 v76, 0
	v_mov_b32 v77, 0
	v_mov_b32 v78, 0
	v_mov_b32 v79, 0
	s_mov_b32 s10, 8                          // stages
	s_waitcnt lgkmcnt(0)
	// prologue: stage 0 -> LDS buffer 0
	global_load_dwordx2 v[12:13], v3, s[4:5]
	global_load_dwordx2 v[14:15], v5, s[6:7]
	s_add_u32 s4, s4, 32                      // next stage: 8 columns of A further
	s_addc_u32 s5, s5, 0
	s_add_u32 s6, s6, 0x800                   // 8 rows of B further
	s_addc_u32 s7, s7, 0
	s_waitcnt vmcnt(0)
	ds_write2_b32 v4, v12, v13 offset1:68     // As[2c][m], As[2c+1][m]
	ds_write_b64 v6, v[14:15]                 // Bs[k][n], Bs[k][n+1]
	v_xor_b32 v4, 0x2000, v4                  // staging writes go to buffer 1 next
	v_xor_b32 v6, 0x2000, v6
	s_waitcnt lgkmcnt(0)
	s_barrier

.Lstage:
	s_cmp_eq_u32 s10, 1                       // last stage: nothing to prefetch
	s_cbranch_scc1 .Lcompute
	global_load_dwordx2 v[12:13], v3, s[4:5]  // stage s+1 into VGPRs, in flight during the math
	global_load_dwordx2 v[14:15], v5, s[6:7]
	s_add_u32 s4, s4, 32
	s_addc_u32 s5, s5, 0
	s_add_u32 s6, s6, 0x800
	s_addc_u32 s7, s7, 0
.Lcompute:
	ds_read_b128 v[32:35], v9 offset:0        // As[0][4ty..4ty+3]
	ds_read_b128 v[36:39], v10 offset:0       // Bs[0][4tx..4tx+3]
	ds_read_b128 v[40:43], v9 offset:272        // As[1][4ty..4ty+3]
	ds_read_b128 v[44:47], v10 offset:256       // Bs[1][4tx..4tx+3]
	ds_read_b128 v[48:51], v9 offset:544        // As[2][4ty..4ty+3]
	ds_read_b128 v[52:55], v10 offset:512       // Bs[2][4tx..4tx+3]
	ds_read_b128 v[56:59], v9 offset:816        // As[3][4ty..4ty+3]
	ds_read_b128 v[60:63], v10 offset:768       // Bs[3][4tx..4tx+3]
	s_waitcnt lgkmcnt(6)                         // k = 0 has arrived
	v_fmac_f32 v64, v32, v36
	v_fmac_f32 v65, v32, v37
	v_fmac_f32 v66, v32, v38
	v_fmac_f32 v67, v32, v39
	v_fmac_f32 v68, v33, v36
	v_fmac_f32 v69, v33, v37
	v_fmac_f32 v70, v33, v38
	v_fmac_f32 v71, v33, v39
	v_fmac_f32 v72, v34, v36
	v_fmac_f32 v73, v34, v37
	v_fmac_f32 v74, v34, v38
	v_fmac_f32 v75, v34, v39
	v_fmac_f32 v76, v35, v36
	v_fmac_f32 v77, v35, v37
	v_fmac_f32 v78, v35, v38
	v_fmac_f32 v79, v35, v39
	ds_read_b128 v[32:35], v9 offset:1088        // As[4][4ty..4ty+3]
	ds_read_b128 v[36:39], v10 offset:1024       // Bs[4][4tx..4tx+3]
	s_waitcnt lgkmcnt(6)                         // k = 1 has arrived
	v_fmac_f32 v64, v40, v44
	v_fmac_f32 v65, v40, v45
	v_fmac_f32 v66, v40, v46
	v_fmac_f32 v67, v40, v47
	v_fmac_f32 v68, v41, v44
	v_fmac_f32 v69, v41, v45
	v_fmac_f32 v70, v41, v46
	v_fmac_f32 v71, v41, v47
	v_fmac_f32 v72, v42, v44
	v_fmac_f32 v73, v42, v45
	v_fmac_f32 v74, v42, v46
	v_fmac_f32 v75, v42, v47
	v_fmac_f32 v76, v43, v44
	v_fmac_f32 v77, v43, v45
	v_fmac_f32 v78, v43, v46
	v_fmac_f32 v79, v43, v47
	ds_read_b128 v[40:43], v9 offset:1360        // As[5][4ty..4ty+3]
	ds_read_b128 v[44:47], v10 offset:1280       // Bs[5][4tx..4tx+3]
	s_waitcnt lgkmcnt(6)                         // k = 2 has arrived
	v_fmac_f32 v64, v48, v52
	v_fmac_f32 v65, v48, v53
	v_fmac_f32 v66, v48, v54
	v_fmac_f32 v67, v48, v55
	v_fmac_f32 v68, v49, v52
	v_fmac_f32 v69, v49, v53
	v_fmac_f32 v70, v49, v54
	v_fmac_f32 v71, v49, v55
	v_fmac_f32 v72, v50, v52
	v_fmac_f32 v73, v50, v53
	v_fmac_f32 v74, v50, v54
	v_fmac_f32 v75, v50, v55
	v_fmac_f32 v76, v51, v52
	v_fmac_f32 v77, v51, v53
	v_fmac_f32 v78, v51, v54
	v_fmac_f32 v79, v51, v55
	ds_read_b128 v[48:51], v9 offset:1632        // As[6][4ty..4ty+3]
	ds_read_b128 v[52:55], v10 offset:1536       // Bs[6][4tx..4tx+3]
	s_waitcnt lgkmcnt(6)                         // k = 3 has arrived
	v_fmac_f32 v64, v56, v60
	v_fmac_f32 v65, v56, v61
	v_fmac_f32 v66, v56, v62
	v_fmac_f32 v67, v56, v63
	v_fmac_f32 v68, v57, v60
	v_fmac_f32 v69, v57, v61
	v_fmac_f32 v70, v57, v62
	v_fmac_f32 v71, v57, v63
	v_fmac_f32 v72, v58, v60
	v_fmac_f32 v73, v58, v61
	v_fmac_f32 v74, v58, v62
	v_fmac_f32 v75, v58, v63
	v_fmac_f32 v76, v59, v60
	v_fmac_f32 v77, v59, v61
	v_fmac_f32 v78, v59, v62
	v_fmac_f32 v79, v59, v63
	ds_read_b128 v[56:59], v9 offset:1904        // As[7][4ty..4ty+3]
	ds_read_b128 v[60:63], v10 offset:1792       // Bs[7][4tx..4tx+3]
	s_waitcnt lgkmcnt(6)                         // k = 4 has arrived
	v_fmac_f32 v64, v32, v36
	v_fmac_f32 v65, v32, v37
	v_fmac_f32 v66, v32, v38
	v_fmac_f32 v67, v32, v39
	v_fmac_f32 v68, v33, v36
	v_fmac_f32 v69, v33, v37
	v_fmac_f32 v70, v33, v38
	v_fmac_f32 v71, v33, v39
	v_fmac_f32 v72, v34, v36
	v_fmac_f32 v73, v34, v37
	v_fmac_f32 v74, v34, v38
	v_fmac_f32 v75, v34, v39
	v_fmac_f32 v76, v35, v36
	v_fmac_f32 v77, v35, v37
	v_fmac_f32 v78, v35, v38
	v_fmac_f32 v79, v35, v39
	s_waitcnt lgkmcnt(4)                         // k = 5 has arrived
	v_fmac_f32 v64, v40, v44
	v_fmac_f32 v65, v40, v45
	v_fmac_f32 v66, v40, v46
	v_fmac_f32 v67, v40, v47
	v_fmac_f32 v68, v41, v44
	v_fmac_f32 v69, v41, v45
	v_fmac_f32 v70, v41, v46
	v_fmac_f32 v71, v41, v47
	v_fmac_f32 v72, v42, v44
	v_fmac_f32 v73, v42, v45
	v_fmac_f32 v74, v42, v46
	v_fmac_f32 v75, v42, v47
	v_fmac_f32 v76, v43, v44
	v_fmac_f32 v77, v43, v45
	v_fmac_f32 v78, v43, v46
	v_fmac_f32 v79, v43, v47
	s_waitcnt lgkmcnt(2)                         // k = 6 has arrived
	v_fmac_f32 v64, v48, v52
	v_fmac_f32 v65, v48, v53
	v_fmac_f32 v66, v48, v54
	v_fmac_f32 v67, v48, v55
	v_fmac_f32 v68, v49, v52
	v_fmac_f32 v69, v49, v53
	v_fmac_f32 v70, v49, v54
	v_fmac_f32 v71, v49, v55
	v_fmac_f32 v72, v50, v52
	v_fmac_f32 v73, v50, v53
	v_fmac_f32 v74, v50, v54
	v_fmac_f32 v75, v50, v55
	v_fmac_f32 v76, v51, v52
	v_fmac_f32 v77, v51, v53
	v_fmac_f32 v78, v51, v54
	v_fmac_f32 v79, v51, v55
	s_waitcnt lgkmcnt(0)                         // k = 7 has arrived
	v_fmac_f32 v64, v56, v60
	v_fmac_f32 v65, v56, v61
	v_fmac_f32 v66, v56, v62
	v_fmac_f32 v67, v56, v63
	v_fmac_f32 v68, v57, v60
	v_fmac_f32 v69, v57, v61
	v_fmac_f32 v70, v57, v62
	v_fmac_f32 v71, v57, v63
	v_fmac_f32 v72, v58, v60
	v_fmac_f32 v73, v58, v61
	v_fmac_f32 v74, v58, v62
	v_fmac_f32 v75, v58, v63
	v_fmac_f32 v76, v59, v60
	v_fmac_f32 v77, v59, v61
	v_fmac_f32 v78, v59, v62
	v_fmac_f32 v79, v59, v63
	s_waitcnt vmcnt(0)                        // stage s+1 is in VGPRs (after the last stage: nothing)
	ds_write2_b32 v4, v12, v13 offset1:68     // ... and goes to the other buffer
	ds_write_b64 v6, v[14:15]
	v_xor_b32 v4, 0x2000, v4
	v_xor_b32 v6, 0x2000, v6
	v_xor_b32 v9, 0x2000, v9                  // the next stage reads that buffer
	v_xor_b32 v10, 0x2000, v10
	s_waitcnt lgkmcnt(0)                      // this work-item's writes are in LDS ...
	s_barrier                                 // ... and everybody's; buffer s is free again
	s_sub_u32 s10, s10, 1
	s_cmp_lg_u32 s10, 0
	s_cbranch_scc1 .Lstage

	// C[4 ty + i][4 tx .. +3] = v[64 + 4 i .. +3]
	global_store_dwordx4 v11, v[64:67], s[8:9]
	global_store_dwordx4 v11, v[68:71], s[8:9] offset:256
	global_store_dwordx4 v11, v[72:75], s[8:9] offset:512
	global_store_dwordx4 v11, v[76:79], s[8:9] offset:768
	s_endpgm
