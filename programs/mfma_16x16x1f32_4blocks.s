// mfma_16x16x1f32_4blocks.s -- the Matrix Cores article's example 2: four independent
// 16x16 outer products D_b = A_b B_b (b = 0..3, K = 1) in one v_mfma_f32_16x16x1f32.
//
// Layout (article; gcnemu layout v_mfma_f32_16x16x1f32): the same lane positions as the
// 16x16x4 example, but the "k" index selects the block: lane = tx + 16 b holds A_b[tx][0]
// and B_b[0][tx]; result register v(4 + 4 b + i) holds D_b[4 ty + i][tx], with ty = lane / 16
// (16 result registers per lane: 4 blocks x 4).
// Inputs from the lane id (v_mbcnt), no input buffers:
//   A_b[i][0] = lane = i + 16 b
//   B_b[0][j] = 2 lane - 63 = 2 (j + 16 b) - 63
// D is written as f32[4,16,16] (block, row, column), row-major, as in the article's kernel:
//   D_b[4 ty + i][tx] at byte 1024 b + 64 (4 ty + i) + 4 tx.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 16x4                          # dim3 block(16, 4, 1), as in the article
//   buffer D: f32[4,16,16] = nan
//   arg: D
//   # A_b = arange(16) + 16 b as a column, B_b = 2 (arange(16) + 16 b) - 63 as a row
//   expect D = reshape(arange(64), (4, 16, 1)) * (2 * reshape(arange(64), (4, 1, 16)) - 63)
//   expect v2 = lane : f32
//   expect v3 = 2 * lane - 63 : f32
//   expect v4 = (4 * (lane // 16)) * (2 * (lane % 16) - 63) : f32                  # D_0[4 ty][tx]
//   expect v13 = (32 + 4 * (lane // 16) + 1) * (2 * (32 + lane % 16) - 63) : f32    # D_2[4 ty + 1][tx]
//   expect hazards: none
//   expect cycles: 420..515
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
	.globl mfma_16x16x1f32_4blocks
	.p2align 8
	.type mfma_16x16x1f32_4blocks,@function
mfma_16x16x1f32_4blocks:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // D
	v_mbcnt_lo_u32_b32 v1, -1, 0              // lane id
	v_mbcnt_hi_u32_b32 v1, -1, v1
	v_cvt_f32_u32 v2, v1                      // a = A_b[tx][0], b = lane / 16
	v_add_f32 v3, v2, v2                      // b = B_b[0][tx] = 2 lane ...
	v_subrev_f32 v3, 0x427c0000, v3           //     ... - 63.0
	v_and_b32 v20, 15, v1                     // tx
	v_lshrrev_b32 v21, 4, v1                  // ty
	v_mfma_f32_16x16x1f32 v[4:19], v2, v3, 0  // four blocks at once
	v_lshlrev_b32 v20, 2, v20                 // byte offset of D_0[4 ty][tx]: 4 tx ...
	v_lshl_add_u32 v20, v21, 8, v20           // ... + 256 ty
	s_waitcnt lgkmcnt(0)
	s_nop 7                                   // 8-pass MFMA result read by memory: 11 wait states
	global_store_dword v20, v4, s[4:5]        // block 0: D_0[4 ty + i][tx], i = 0..3
	global_store_dword v20, v5, s[4:5] offset:64
	global_store_dword v20, v6, s[4:5] offset:128
	global_store_dword v20, v7, s[4:5] offset:192
	global_store_dword v20, v8, s[4:5] offset:1024    // block 1
	global_store_dword v20, v9, s[4:5] offset:1088
	global_store_dword v20, v10, s[4:5] offset:1152
	global_store_dword v20, v11, s[4:5] offset:1216
	global_store_dword v20, v12, s[4:5] offset:2048   // block 2
	global_store_dword v20, v13, s[4:5] offset:2112
	global_store_dword v20, v14, s[4:5] offset:2176
	global_store_dword v20, v15, s[4:5] offset:2240
	global_store_dword v20, v16, s[4:5] offset:3072   // block 3
	global_store_dword v20, v17, s[4:5] offset:3136
	global_store_dword v20, v18, s[4:5] offset:3200
	global_store_dword v20, v19, s[4:5] offset:3264
	s_endpgm
