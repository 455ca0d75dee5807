// batched_hgemm_4x4.s -- 256 independent small fp16 GEMMs C_g = A_g B_g (4 x 4, K = 8,
// f32 results) with v_mfma_f32_4x4x4f16: one instruction multiplies 16 independent 4x4x4
// blocks, so a wave does 16 GEMMs with two MFMAs (K = 8 = 2 x 4). No LDS: every lane loads
// its own operands straight from memory. One workgroup of 4 waves, 4 iterations of 64 GEMMs.
//
// Data: A = f16[256,4,8] (row-major per GEMM), BT = f16[256,4,8] holds each B_g transposed
//       (B_g column-major), C = f32[256,4,4]. Kernel arguments {A, BT, C} via s[0:1].
//       (batched_hgemm_4x4_lds.s takes B row-major and transposes it through LDS instead.)
//
// Layout (gcnemu layout v_mfma_f32_4x4x4f16): block b of the MFMA is GEMM g = 64 t + 16 w + b;
//       lane l = 4 b + r holds row r of A_g (4 fp16 in 2 VGPRs: k = 0..3 or 4..7) and column
//       r of B_g, and result register i holds C_g[i][r]. So the 16 bytes of A row (g, r) are
//       at 16 l + 1024 w + 4096 t: one global_load_dwordx4 per lane fetches both K halves,
//       64 lanes read 1 KiB contiguously. C_g[i][r] is at byte 64 (l >> 2) + 4 (l & 3) + 16 i.
//
// Pipeline (register double buffering, the vmcnt pattern of hand-tuned kernels): the loads
//       of iteration t+1 go out before the wait for those of iteration t, into the other
//       register set (v[10:17] / v[18:25]); vmcnt counts loads and stores in issue order.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 256
//   buffer A: f16[256,4,8] = randn(seed=11)
//   buffer B: f16[256,8,4] = randn(seed=12)
//   buffer BT: f16[256,4,8] = transpose(B, (0, 2, 1))
//   buffer C: f32[256,4,4] = nan
//   arg: A, BT, C
//   expect C = sum(reshape(f64(A), (256, 4, 8, 1)) * reshape(f64(B), (256, 1, 8, 4)), axis=2) : tol 1e-4
//   expect hazards: none
//   # measured: memory bound (2 tiny MFMAs per 2 KiB loaded per wave), MFMA utilisation 0.03;
//   # stall cycles per wave: waitcnt vmcnt ~1190, pipe busy ~180, nop 56
//   expect cycles: 2586..3172
//   expect mfma-utilisation: 0.018..0.026
//   expect stall waitcnt vmcnt: 1356..1836
//   expect stall pipe busy: 396..541
//   expect stall nop: 47..65
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
	.globl batched_hgemm_4x4
	.p2align 8
	.type batched_hgemm_4x4,@function
batched_hgemm_4x4:
	s_load_dwordx4 s[4:7], s[0:1], 0x0        // A, BT
	s_load_dwordx2 s[8:9], s[0:1], 0x10       // C
	v_and_b32 v1, 63, v0                      // lane l
	v_readfirstlane_b32 s10, v0
	s_lshr_b32 s10, s10, 6                    // wave w
	s_lshl_b32 s11, s10, 10                   // 1024 w: this wave's 16 GEMMs
	v_lshlrev_b32 v2, 4, v1                   // A / BT: 16 l
	v_lshrrev_b32 v3, 2, v1
	v_and_b32 v4, 3, v1
	v_lshlrev_b32 v4, 2, v4
	v_lshl_add_u32 v3, v3, 6, v4              // C: 64 (l >> 2) + 4 (l & 3)
	s_add_u32 s11, s11, 0x1000                // + 1024 w, + 4096: v2 and v3 point at the odd
	v_add_u32 v2, s11, v2                     // iteration t+1 of each pair; the even one is at
	v_add_u32 v3, s11, v3                     // offset -4096 (global offsets are 13-bit signed)
	s_mov_b32 s12, 2                          // loop trips: 2 iterations each
	s_waitcnt lgkmcnt(0)
	global_load_dwordx4 v[10:13], v2, s[4:5] offset:-4096   // iteration 0 -> set 0
	global_load_dwordx4 v[14:17], v2, s[6:7] offset:-4096

.Lpair:
	// ---- even iteration t: compute on set 0, prefetch t+1 into set 1
	global_load_dwordx4 v[18:21], v2, s[4:5]
	global_load_dwordx4 v[22:25], v2, s[6:7]
	s_waitcnt vmcnt(2)                        // set 0 is here (all but the 2 prefetches done)
	v_mfma_f32_4x4x4f16 v[26:29], v[10:11], v[14:15], 0
	v_mfma_f32_4x4x4f16 v[26:29], v[12:13], v[16:17], v[26:29]
	v_add_u32 v2, 0x2000, v2                  // A/BT of iteration t+2
	s_nop 3                                   // 2-pass MFMA result read by a store: 5 wait states
	global_store_dword v3, v26, s[8:9] offset:-4096   // C_g[0][r]
	global_store_dword v3, v27, s[8:9] offset:-4080   // C_g[1][r]
	global_store_dword v3, v28, s[8:9] offset:-4064
	global_store_dword v3, v29, s[8:9] offset:-4048

	// ---- odd iteration t+1: compute on set 1, prefetch t+2 into set 0 (not after the last)
	s_cmp_eq_u32 s12, 1
	s_cbranch_scc1 .Lno_prefetch
	global_load_dwordx4 v[10:13], v2, s[4:5] offset:-4096
	global_load_dwordx4 v[14:17], v2, s[6:7] offset:-4096
.Lno_prefetch:
	s_waitcnt vmcnt(4)                        // set 1 is here (younger: 4 stores, maybe 2 loads)
	v_mfma_f32_4x4x4f16 v[30:33], v[18:19], v[22:23], 0
	v_mfma_f32_4x4x4f16 v[30:33], v[20:21], v[24:25], v[30:33]
	s_nop 4                                   // 2-pass MFMA result read by a store: 5 wait states
	global_store_dword v3, v30, s[8:9]
	global_store_dword v3, v31, s[8:9] offset:16
	global_store_dword v3, v32, s[8:9] offset:32
	global_store_dword v3, v33, s[8:9] offset:48
	v_add_u32 v3, 0x2000, v3                  // C of iteration t+2
	s_sub_u32 s12, s12, 1
	s_cmp_lg_u32 s12, 0
	s_cbranch_scc1 .Lpair
	s_endpgm
