// batched_hgemm_4x4_lds.s -- the same 256 small fp16 GEMMs as batched_hgemm_4x4.s
// (C_g = A_g B_g, 4 x 4, K = 8, v_mfma_f32_4x4x4f16, 16 GEMMs per instruction), but B comes
// row-major (f16[256,8,4]), the layout an application usually has, and is transposed
// through LDS: the MFMA wants each lane to hold a *column* of B_g (4 consecutive k).
//
// Staging, per iteration t (a tile of 64 GEMMs: 4 KiB of A, 4 KiB of B):
//   - waves 0-1 load the A tile, waves 2-3 the B tile (coalesced global_load_dwordx4,
//     1 KiB per instruction; the "first half of the threads loads A, second half B" split
//     of the hand-tuned SGEMM notes);
//   - A is written to LDS as it is (ds_write_b128); B is written transposed, element by
//     element (ds_write_b16 for the low half of a dword, ds_write_b16_d16_hi for the high
//     half), so that LDS holds BT[g][j][k];
//   - s_waitcnt lgkmcnt(0) + s_barrier, then every wave reads its 16 GEMMs' fragments with
//     one ds_read_b128 of A and one of BT (row r = l & 3 of GEMM 16 w + (l >> 2) at 16 l +
//     1024 w, BT 4096 bytes further), and a second s_barrier frees the tile for t+1;
//   - the global loads of t+1 go out right after the ds_writes of t (the staging VGPRs are
//     free once the writes issued), so their latency hides behind the LDS work and MFMAs.
// vmcnt counts loads and stores in issue order: at the top of iteration t+1 the loads of
// t+1 are older than the 4 stores of t, so s_waitcnt vmcnt(4) is enough. The first
// iteration enters after that wait (the prologue waits with vmcnt(0): nothing is younger).
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 256
//   buffer A: f16[256,4,8] = randn(seed=11)
//   buffer B: f16[256,8,4] = randn(seed=12)
//   buffer C: f32[256,4,4] = nan
//   arg: A, B, C
//   expect C = sum(reshape(f64(A), (256, 4, 8, 1)) * reshape(f64(B), (256, 1, 8, 4)), axis=2) : tol 1e-4
//   expect lds[4096]: f16[64,4,8] = transpose(B[192:256], (0, 2, 1))   # the last BT tile
//   expect hazards: none
//   # measured: MFMA utilisation 0.02, ~1.7x the cycles of batched_hgemm_4x4 (which gets B
//   # pre-transposed); stall cycles per wave: barrier ~900, waitcnt vmcnt ~790, pipe busy ~480,
//   # waitcnt lgkmcnt ~390
//   expect cycles: 4358..5340
//   expect mfma-utilisation: 0.011..0.016
//   expect stall barrier: 1056..1432
//   expect stall waitcnt vmcnt: 1228..1666
//   expect stall pipe busy: 630..855
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
	.globl batched_hgemm_4x4_lds
	.p2align 8
	.type batched_hgemm_4x4_lds,@function
batched_hgemm_4x4_lds:
	s_load_dwordx4 s[4:7], s[0:1], 0x0        // A, B
	s_load_dwordx2 s[8:9], s[0:1], 0x10       // C
	v_and_b32 v1, 63, v0                      // lane l
	v_readfirstlane_b32 s10, v0
	s_lshr_b32 s10, s10, 6                    // wave w
	// loader: this lane's 16-byte chunk o = 16 ((w & 1) 64 + l) of the tile, and o + 2048
	s_and_b32 s11, s10, 1
	s_lshl_b32 s11, s11, 10                   // (w & 1) 1024
	v_lshlrev_b32 v2, 4, v1
	v_add_u32 v2, s11, v2                     // o
	// B role: LDS address of BT[g][0][k0] for the chunk's (g, k0): 4096 + 64 g + 2 k0, with
	// g = 16 (w & 1) + (l >> 2) and k0 = 2 (l & 3)
	v_and_b32 v4, 3, v1
	v_lshlrev_b32 v4, 2, v4                   // 2 k0
	v_lshrrev_b32 v5, 2, v1
	v_lshl_add_u32 v4, v5, 6, v4              // + 64 (l >> 2)
	v_add_u32 v4, s11, v4                     // + 1024 (w & 1)
	v_add_u32 v4, 0x1000, v4                  // + 4096: the BT tile
	// consumer: A fragment at 16 l + 1024 w, BT fragment 4096 further
	s_lshl_b32 s13, s10, 10
	v_lshlrev_b32 v6, 4, v1
	v_add_u32 v6, s13, v6
	// C_g[i][l & 3] for g = 16 w + (l >> 2): 64 (l >> 2) + 4 (l & 3) + 1024 w, + 16 i
	v_and_b32 v7, 3, v1
	v_lshlrev_b32 v7, 2, v7
	v_lshl_add_u32 v7, v5, 6, v7
	v_add_u32 v7, s13, v7
	s_mov_b32 s12, 4                          // iterations
	s_cmp_lt_u32 s10, 2                       // waves 0-1 load A, waves 2-3 load B
	s_waitcnt lgkmcnt(0)
	s_cselect_b64 s[14:15], s[4:5], s[6:7]    // this wave's source matrix
	global_load_dwordx4 v[10:13], v2, s[14:15]
	global_load_dwordx4 v[14:17], v2, s[14:15] offset:2048
	s_waitcnt vmcnt(0)
	s_branch .Lwrite

.Ltile:
	s_waitcnt vmcnt(4)                        // the tile's loads (the 4 stores of t-1 are younger)
.Lwrite:
	s_cmp_lt_u32 s10, 2
	s_cbranch_scc0 .Lwrite_bt
	ds_write_b128 v2, v[10:13]                // A tile, as it is
	ds_write_b128 v2, v[14:17] offset:2048
	s_branch .Lwritten
.Lwrite_bt:
	// dword d of a chunk holds B[g][k0 + d/2][2 (d & 1)] (low half) and [... + 1] (high half);
	// BT[g][j][k] is at 4096 + 64 g + 16 j + 2 k
	ds_write_b16 v4, v10
	ds_write_b16_d16_hi v4, v10 offset:16
	ds_write_b16 v4, v11 offset:32
	ds_write_b16_d16_hi v4, v11 offset:48
	ds_write_b16 v4, v12 offset:2
	ds_write_b16_d16_hi v4, v12 offset:18
	ds_write_b16 v4, v13 offset:34
	ds_write_b16_d16_hi v4, v13 offset:50
	ds_write_b16 v4, v14 offset:2048          // second chunk: 32 GEMMs further
	ds_write_b16_d16_hi v4, v14 offset:2064
	ds_write_b16 v4, v15 offset:2080
	ds_write_b16_d16_hi v4, v15 offset:2096
	ds_write_b16 v4, v16 offset:2050
	ds_write_b16_d16_hi v4, v16 offset:2066
	ds_write_b16 v4, v17 offset:2082
	ds_write_b16_d16_hi v4, v17 offset:2098
.Lwritten:
	s_add_u32 s14, s14, 0x1000                // next tile
	s_addc_u32 s15, s15, 0
	s_cmp_eq_u32 s12, 1
	s_cbranch_scc1 .Lno_prefetch
	global_load_dwordx4 v[10:13], v2, s[14:15]
	global_load_dwordx4 v[14:17], v2, s[14:15] offset:2048
.Lno_prefetch:
	s_waitcnt lgkmcnt(0)                      // this wave's part of the tile is in LDS ...
	s_barrier                                 // ... and everybody's
	ds_read_b128 v[18:21], v6                 // A row (g, l & 3), k = 0..7
	ds_read_b128 v[22:25], v6 offset:4096     // B column (g, l & 3), k = 0..7
	s_waitcnt lgkmcnt(0)
	s_barrier                                 // the tile may be overwritten now
	v_mfma_f32_4x4x4f16 v[26:29], v[18:19], v[22:23], 0
	v_mfma_f32_4x4x4f16 v[26:29], v[20:21], v[24:25], v[26:29]
	s_nop 4                                   // 2-pass MFMA result read by a store: 5 wait states
	global_store_dword v7, v26, s[8:9]
	global_store_dword v7, v27, s[8:9] offset:16
	global_store_dword v7, v28, s[8:9] offset:32
	global_store_dword v7, v29, s[8:9] offset:48
	s_add_u32 s8, s8, 0x1000                  // C of the next tile
	s_addc_u32 s9, s9, 0
	s_sub_u32 s12, s12, 1
	s_cmp_lg_u32 s12, 0
	s_cbranch_scc1 .Ltile
	s_endpgm
