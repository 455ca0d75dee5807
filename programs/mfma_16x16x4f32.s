// mfma_16x16x4f32.s -- the Matrix Cores article's example 1: D = A B with
// v_mfma_f32_16x16x4f32 (M = N = 16, K = 4, one block, fp32), one wave, C = 0.
//
// Layout (article; gcnemu layout v_mfma_f32_16x16x4f32): lane = tx + 16 ty (tx 0..15,
// ty 0..3) holds A[tx][ty] and B[ty][tx]; result register v(4+i) holds D[4 ty + i][tx].
// The inputs are built from the lane id, so the kernel needs no input buffers:
//   lane id  = v_mbcnt_hi(-1, v_mbcnt_lo(-1, 0))    (bits of EXEC below this lane)
//   A[i][k]  = lane = i + 16 k                      (the lane that holds A[i][k])
//   B[k][j]  = lane - 32 = j + 16 k - 32            (the lane that holds B[k][j])
// and D is written row-major to the buffer D (f32[16,16]), as the article's kernel does:
//   D[4 ty + i][tx] at byte 64 (4 ty + i) + 4 tx.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 16x4                          # dim3 block(16, 4, 1), as in the article
//   buffer D: f32[16,16] = nan
//   arg: D
//   # A = transpose(reshape(arange(64), (4, 16))), B = reshape(arange(64), (4, 16)) - 32
//   expect D = transpose(reshape(arange(64), (4, 16))) @ (reshape(arange(64), (4, 16)) - 32)
//   expect v2 = lane : f32                   # A[lane % 16][lane / 16]
//   expect v3 = lane - 32 : f32              # B[lane / 16][lane % 16]
//   expect v4 = (transpose(reshape(arange(64), (4, 16))) @ (reshape(arange(64), (4, 16)) - 32))[4 * (lane // 16), lane % 16] : f32
//   expect v7 = (transpose(reshape(arange(64), (4, 16))) @ (reshape(arange(64), (4, 16)) - 32))[4 * (lane // 16) + 3, lane % 16] : f32
//   expect hazards: none
//   expect cycles: 380..460
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
	.globl mfma_16x16x4f32
	.p2align 8
	.type mfma_16x16x4f32,@function
mfma_16x16x4f32:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // D
	v_mbcnt_lo_u32_b32 v1, -1, 0              // lane id
	v_mbcnt_hi_u32_b32 v1, -1, v1
	v_cvt_f32_u32 v2, v1                      // a = A[tx][ty]
	v_subrev_f32 v3, 0x42000000, v2           // b = B[ty][tx] = lane - 32.0
	v_and_b32 v8, 15, v1                      // tx
	v_lshrrev_b32 v9, 4, v1                   // ty
	v_mfma_f32_16x16x4f32 v[4:7], v2, v3, 0   // D = A B + 0
	v_lshlrev_b32 v8, 2, v8                   // byte offset of D[4 ty][tx]: 4 tx ...
	v_lshl_add_u32 v8, v9, 8, v8              // ... + 256 ty
	s_waitcnt lgkmcnt(0)
	s_nop 7                                   // 8-pass MFMA result read by memory: 11 wait states
	global_store_dword v8, v4, s[4:5]         // D[4 ty + 0][tx]
	global_store_dword v8, v5, s[4:5] offset:64
	global_store_dword v8, v6, s[4:5] offset:128
	global_store_dword v8, v7, s[4:5] offset:192
	s_endpgm
