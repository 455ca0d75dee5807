// mfma_4x4x4f64_4blocks.s -- the Matrix Cores article's example 3: Z_b = W_b X_b + Y_b for
// four independent 4x4 fp64 blocks (b = 0..3) in one v_mfma_f64_4x4x4f64.
//
// Layout (article's figures; gcnemu layout v_mfma_f64_4x4x4f64): every operand holds one
// fp64 per lane in a VGPR pair.
//   A_b[i][k] in lane i + 4 b + 16 k        B_b[k][j] in lane j + 4 b + 16 k
//   C_b[i][j] and D_b[i][j] in lane j + 4 b + 16 i   (the same layout as B)
// Inputs from the lane id (v_mbcnt), no input buffers:
//   a = lane / 4 (v_ldexp_f64 by -2), b = lane - 20, c = lane,
// so A_b[i][k] = (i + 4b + 16k) / 4, B_b[k][j] = j + 4b + 16k - 20, C_b[i][j] = j + 4b + 16i.
// The header's buffers A, B and C spell these matrices out for the check; the kernel
// does not read them. D is written as f64[4,4,4] (block, row, column): D_b[i][j] at
// byte 128 b + 32 i + 8 j, with b = (lane >> 2) & 3, i = lane >> 4, j = lane & 3.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer A: f64[4,4,4] = (reshape(arange(4), (1, 4, 1)) + 4 * reshape(arange(4), (4, 1, 1)) + 16 * reshape(arange(4), (1, 1, 4))) / 4
//   buffer B: f64[4,4,4] = reshape(arange(4), (1, 1, 4)) + 4 * reshape(arange(4), (4, 1, 1)) + 16 * reshape(arange(4), (1, 4, 1)) - 20
//   buffer C: f64[4,4,4] = reshape(arange(4), (1, 1, 4)) + 4 * reshape(arange(4), (4, 1, 1)) + 16 * reshape(arange(4), (1, 4, 1))
//   buffer D: f64[4,4,4] = nan
//   arg: D
//   expect D = sum(reshape(A, (4, 4, 4, 1)) * reshape(B, (4, 1, 4, 4)), axis=2) + C
//   expect v[2:3] = lane / 4 : f64
//   expect v[4:5] = lane - 20 : f64
//   expect v[6:7] = lane : f64
//   expect hazards: none
//   expect cycles: 360..440
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
	.globl mfma_4x4x4f64_4blocks
	.p2align 8
	.type mfma_4x4x4f64_4blocks,@function
mfma_4x4x4f64_4blocks:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // D
	v_mbcnt_lo_u32_b32 v1, -1, 0              // lane id
	v_mbcnt_hi_u32_b32 v1, -1, v1
	v_cvt_f64_u32 v[2:3], v1
	v_ldexp_f64 v[2:3], v[2:3], -2            // a = lane / 4
	v_subrev_u32 v4, 20, v1
	v_cvt_f64_i32 v[4:5], v4                  // b = lane - 20
	v_cvt_f64_u32 v[6:7], v1                  // c = lane
	v_bfe_u32 v10, v1, 2, 2                   // block b of D in this lane
	v_lshrrev_b32 v11, 4, v1                  // row i
	v_and_b32 v12, 3, v1                      // column j
	v_mfma_f64_4x4x4f64 v[8:9], v[2:3], v[4:5], v[6:7]
	v_lshlrev_b32 v12, 3, v12                 // 8 j
	v_lshl_add_u32 v12, v11, 5, v12           // + 32 i
	v_lshl_add_u32 v12, v10, 7, v12           // + 128 b
	s_waitcnt lgkmcnt(0)
	s_nop 4                                   // DGEMM 4x4x4 result read by memory: 9 wait states
	global_store_dwordx2 v12, v[8:9], s[4:5]
	s_endpgm
