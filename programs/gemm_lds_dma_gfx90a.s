// gemm_lds_dma_gfx90a.s -- one 64x64 fp32 tile of C = A x B over K = 256 (fp16 inputs) with
// v_mfma_f32_32x32x8f16, A and B streamed global -> LDS by LDS DMA (buffer_load_dword ... lds),
// double-buffered LDS, one workgroup of 4 waves. gfx90a (MI200).
//
// Data: A is f16[64,256] row-major (M x K). B (K x N) is given transposed, BT = f16[64,256]
//       (N x K row-major, i.e. B column-major), so that both operands are K-contiguous: an
//       MFMA lane needs 4 consecutive k of one row of A and of one column of B.
//       C is f32[64,64] row-major. Kernel arguments {A, BT, C} (8 bytes each) via s[0:1].
//
// Work split: wave w = (wm, wn) = (w >> 1, w & 1) computes C[32wm:+32, 32wn:+32] in a[0:15].
//       K is streamed in 4 stages of KT = 64. One LDS buffer holds a stage: A tile 64 x 64 f16
//       (8 KiB, rows of 128 bytes) at +0 and the BT tile at +8192; buffer b at b * 16384.
//
// LDS DMA (how Composable Kernel does it): a buffer_load_dword ... lds writes lane i's dword
//       to LDS at M0 + offset + 4 i, so one instruction fills 256 contiguous bytes (two tile rows).
//       Each wave loads rows 16w .. 16w+15 of both tiles: 8 chunks of 256 bytes per matrix.
//       M0 is set per wave (2048 w, +8192 for BT) and advanced per stage (xor 16384 switches
//       buffer); chunk c uses offset:256c, which moves the LDS destination and the global
//       address alike, so the per-lane VGPR v[8+c] subtracts the 256c again. The global side is a
//       V# per matrix (base, num_records = 32 KiB) plus soffset s20 = 8192 w + 128 stage.
//       The DMA also swizzles: LDS row r holds its eight 16-byte k-slots in the order
//       slot ^ (r & 7), so the 32 lanes of a ds_read_b128 column hit 32 different banks
//       (rows are 128 bytes: without the xor every row would start in bank 0).
//
// Fragments: in stage s, lane (row = lane & 31, h = lane >> 5) reads for pair t = 0..3 the
//       16 bytes k = 16t + 8h .. +7 of its A row and of its BT row (ds_read_b128). MFMA 2t
//       uses the first 4 k (v[24+4t:25+4t] x v[40+4t:41+4t]), MFMA 2t+1 the last 4: A and B
//       agree on which k each MFMA k-slot means, so the sum is C.
//
// Pipeline per stage s (lint clean: no ds_read and no s_barrier while a DMA is in flight):
//       s_waitcnt vmcnt(0); s_barrier        stage s is in LDS (all waves' DMAs landed), and
//                                            every wave has finished reading stage s-1
//       8 ds_read_b128 of stage s            into v[24:55]
//       DMA of stage s+1 into the other buffer (overlaps the ds_reads and the MFMAs)
//       s_waitcnt lgkmcnt(6/4/2/0) before each MFMA pair (LDS returns in order)
//       Why vmcnt(0) and not Composable Kernel's vmcnt(N): issuing stage s+1's DMA before
//       stage s's ds_reads and waiting with vmcnt(16) is correct (the buffers differ), but a
//       static linter cannot prove the two LDS ranges disjoint and flags every ds_read and
//       s_barrier with a DMA in flight; this order lints clean at the cost of the ds_reads
//       being on the critical path. (vmcnt(N) pipelining: batched_hgemm_4x4.s.)
//
// Performance: one 64x64 tile over K = 256 is latency bound. Per stage the LDS DMA of 16 KiB
//       takes ~600 cycles of latency plus 256 cycles of the CU's vector memory pipe, while a
//       SIMD has 8 x 64 = 512 cycles of MFMA work; the lint-clean order (no ds_read while a
//       DMA is in flight: `lds-dma-read-before-vmcnt` cannot prove the two buffers disjoint)
//       also puts the 4 waves' ds_reads (256 cycles of LDS pipe) on the critical path. The
//       per-wave stall breakdown is in the header notes below.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 256
//   buffer A: f16[64,256] = randn(seed=1)
//   buffer BT: f16[64,256] = randn(seed=2)
//   buffer C: f32[64,64] = nan
//   arg: A, BT, C
//   expect C = f64(A) @ transpose(f64(BT)) : tol 1e-3
//   expect hazards: none
//   # measured with the default timing model: MFMA utilisation 0.38 (16-pass MFMAs on gfx90a);
//   # stall cycles per wave: pipe busy ~2310, waitcnt vmcnt ~840, barrier ~390, nop 28
//   # (tests/test_programs_flagship.py holds utilisation and stall shares to ranges)
//   expect cycles: 5100..5630
//   expect mfma-utilisation: 0.325..0.439
//   expect stall pipe busy: 1959..2652
//   expect stall waitcnt vmcnt: 714..966
//   expect stall barrier: 331..449
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
	.globl gemm_lds_dma_gfx90a
	.p2align 8
	.type gemm_lds_dma_gfx90a,@function
gemm_lds_dma_gfx90a:
	s_load_dwordx4 s[4:7], s[0:1], 0x0        // A, BT
	s_load_dwordx2 s[8:9], s[0:1], 0x10       // C
	v_and_b32 v1, 63, v0                      // lane
	v_readfirstlane_b32 s10, v0
	s_lshr_b32 s10, s10, 6                    // w = wave id in the workgroup

	// ---- per-lane DMA offsets: v[8+c] = 512 (2c + h) + 16 (qp ^ ((2c + h) & 7)) + 4 d - 256 c
	//      (h = lane >> 5, qp = (lane >> 2) & 7 the 16-byte slot written, d = lane & 3)
	v_lshrrev_b32 v2, 5, v1                   // h
	v_bfe_u32 v3, v1, 2, 3                    // qp
	v_xor_b32 v3, v3, v2                      // qp ^ h
	v_and_b32 v4, 3, v1                       // d
	v_lshlrev_b32 v5, 9, v2                   // 512 h
	v_lshl_add_u32 v5, v4, 2, v5              // + 4 d
	v_lshl_add_u32 v8, v3, 4, v5              // + 16 (qp ^ h): chunk 0
	v_xor_b32 v6, 32, v8                      // chunk c: k-slot ^ 2 (c & 3), + 768 c
	v_add_u32 v9, 0x300, v6
	v_xor_b32 v6, 64, v8
	v_add_u32 v10, 0x600, v6
	v_xor_b32 v6, 0x60, v8
	v_add_u32 v11, 0x900, v6
	v_add_u32 v12, 0xc00, v8
	v_xor_b32 v6, 32, v8
	v_add_u32 v13, 0xf00, v6
	v_xor_b32 v6, 64, v8
	v_add_u32 v14, 0x1200, v6
	v_xor_b32 v6, 0x60, v8
	v_add_u32 v15, 0x1500, v6

	// ---- per-lane ds_read addresses: row (lane & 31), k-slot (2t + h) ^ (lane & 7)
	v_and_b32 v2, 31, v1
	v_lshlrev_b32 v2, 7, v2                   // 128 * row
	v_and_b32 v3, 7, v1
	v_lshrrev_b32 v4, 5, v1
	v_xor_b32 v3, v3, v4                      // h ^ (lane & 7)
	v_lshl_add_u32 v5, v3, 4, v2              // pair 0, relative to the wave's tile rows
	s_and_b32 s18, s10, 2
	s_lshl_b32 s18, s18, 11                   // A rows of this wave: 4096 wm
	s_and_b32 s19, s10, 1
	s_lshl_b32 s19, s19, 12
	s_add_u32 s19, s19, 0x2000                // BT rows of this wave: 8192 + 4096 wn
	v_add_u32 v16, s18, v5                    // A, pair t: xor 32 t
	v_xor_b32 v17, 32, v16
	v_xor_b32 v18, 64, v16
	v_xor_b32 v19, 0x60, v16
	v_add_u32 v20, s19, v5                    // BT, pair t
	v_xor_b32 v21, 32, v20
	v_xor_b32 v22, 64, v20
	v_xor_b32 v23, 0x60, v20

	// ---- per-lane C offsets: row 4 h (+ 8 (r >> 2) + (r & 3) for result register r), col lane & 31
	v_lshlrev_b32 v2, 2, v1
	v_and_b32 v2, 0x7c, v2                    // 4 * (lane & 31)
	v_lshl_add_u32 v72, v4, 10, v2            // + 1024 h
	v_add_u32 v73, 0x1000, v72                // registers 8..15: 8 rows further down

	// ---- accumulators
	v_accvgpr_write_b32 a0, 0
	v_accvgpr_write_b32 a1, 0
	v_accvgpr_write_b32 a2, 0
	v_accvgpr_write_b32 a3, 0
	v_accvgpr_write_b32 a4, 0
	v_accvgpr_write_b32 a5, 0
	v_accvgpr_write_b32 a6, 0
	v_accvgpr_write_b32 a7, 0
	v_accvgpr_write_b32 a8, 0
	v_accvgpr_write_b32 a9, 0
	v_accvgpr_write_b32 a10, 0
	v_accvgpr_write_b32 a11, 0
	v_accvgpr_write_b32 a12, 0
	v_accvgpr_write_b32 a13, 0
	v_accvgpr_write_b32 a14, 0
	v_accvgpr_write_b32 a15, 0

	// ---- per-wave scalars
	s_lshl_b32 s16, s10, 11                   // M0 for A chunks: 2048 w (buffer 0)
	s_add_u32 s17, s16, 0x2000                // M0 for BT chunks: 8192 + 2048 w
	s_lshl_b32 s20, s10, 13                   // soffset 8192 w: rows 16w.. of A and BT
	s_and_b32 s21, s10, 2
	s_lshl_b32 s21, s21, 12                   // C rows 32 wm: 8192 wm ...
	s_and_b32 s22, s10, 1
	s_lshl_b32 s22, s22, 7                    // ... + C cols 32 wn: 128 wn
	s_add_u32 s21, s21, s22
	s_mov_b32 s11, 4                          // stages left
	s_waitcnt lgkmcnt(0)                      // kernel arguments
	s_mov_b32 s24, s4                         // V# of A: base, stride 0,
	s_and_b32 s25, s5, 0xffff
	s_mov_b32 s26, 0x8000                     //   num_records = 64 * 256 * 2 bytes,
	s_mov_b32 s27, 0x27000                    //   32-bit raw data format as compilers set it
	s_mov_b32 s28, s6                         // V# of BT
	s_and_b32 s29, s7, 0xffff
	s_mov_b32 s30, 0x8000
	s_mov_b32 s31, 0x27000
	s_add_u32 s8, s8, s21                     // C + this wave's corner
	s_addc_u32 s9, s9, 0

	// ---- prologue: DMA of stage 0 into buffer 0
	s_mov_b32 m0, s16
	s_nop 0                                   // SALU wrote M0: 1 wait state before LDS DMA
	buffer_load_dword v8, s[24:27], s20 offen lds
	buffer_load_dword v9, s[24:27], s20 offen offset:256 lds
	buffer_load_dword v10, s[24:27], s20 offen offset:512 lds
	buffer_load_dword v11, s[24:27], s20 offen offset:768 lds
	buffer_load_dword v12, s[24:27], s20 offen offset:1024 lds
	buffer_load_dword v13, s[24:27], s20 offen offset:1280 lds
	buffer_load_dword v14, s[24:27], s20 offen offset:1536 lds
	buffer_load_dword v15, s[24:27], s20 offen offset:1792 lds
	s_mov_b32 m0, s17
	s_nop 0                                   // SALU wrote M0: 1 wait state before LDS DMA
	buffer_load_dword v8, s[28:31], s20 offen lds
	buffer_load_dword v9, s[28:31], s20 offen offset:256 lds
	buffer_load_dword v10, s[28:31], s20 offen offset:512 lds
	buffer_load_dword v11, s[28:31], s20 offen offset:768 lds
	buffer_load_dword v12, s[28:31], s20 offen offset:1024 lds
	buffer_load_dword v13, s[28:31], s20 offen offset:1280 lds
	buffer_load_dword v14, s[28:31], s20 offen offset:1536 lds
	buffer_load_dword v15, s[28:31], s20 offen offset:1792 lds
	s_add_u32 s20, s20, 0x80                  // next stage: 64 k further
	s_xor_b32 s16, s16, 0x4000                // next DMA goes to the other buffer
	s_xor_b32 s17, s17, 0x4000

.Lstage:
	s_waitcnt vmcnt(0)                        // this wave's DMAs of this stage have landed
	s_barrier                                 // ... everybody's; and stage s-1 reads are done
	ds_read_b128 v[24:27], v16
	ds_read_b128 v[40:43], v20
	ds_read_b128 v[28:31], v17
	ds_read_b128 v[44:47], v21
	ds_read_b128 v[32:35], v18
	ds_read_b128 v[48:51], v22
	ds_read_b128 v[36:39], v19
	ds_read_b128 v[52:55], v23
	s_mov_b32 m0, s16                         // A chunks of stage s+1 (the next two are its wait states)
	s_cmp_eq_u32 s11, 1                       // last stage: nothing left to prefetch
	s_cbranch_scc1 .Lmath

	// DMA of stage s+1 into the other buffer, overlapping the ds_reads and the MFMAs
	buffer_load_dword v8, s[24:27], s20 offen lds
	buffer_load_dword v9, s[24:27], s20 offen offset:256 lds
	buffer_load_dword v10, s[24:27], s20 offen offset:512 lds
	buffer_load_dword v11, s[24:27], s20 offen offset:768 lds
	buffer_load_dword v12, s[24:27], s20 offen offset:1024 lds
	buffer_load_dword v13, s[24:27], s20 offen offset:1280 lds
	buffer_load_dword v14, s[24:27], s20 offen offset:1536 lds
	buffer_load_dword v15, s[24:27], s20 offen offset:1792 lds
	s_mov_b32 m0, s17                         // BT chunks
	s_nop 0                                   // SALU wrote M0: 1 wait state before LDS DMA
	buffer_load_dword v8, s[28:31], s20 offen lds
	buffer_load_dword v9, s[28:31], s20 offen offset:256 lds
	buffer_load_dword v10, s[28:31], s20 offen offset:512 lds
	buffer_load_dword v11, s[28:31], s20 offen offset:768 lds
	buffer_load_dword v12, s[28:31], s20 offen offset:1024 lds
	buffer_load_dword v13, s[28:31], s20 offen offset:1280 lds
	buffer_load_dword v14, s[28:31], s20 offen offset:1536 lds
	buffer_load_dword v15, s[28:31], s20 offen offset:1792 lds
	s_add_u32 s20, s20, 0x80                  // next stage: 64 k further
	s_xor_b32 s16, s16, 0x4000                // the DMA after it goes to the other buffer again
	s_xor_b32 s17, s17, 0x4000

.Lmath:
	s_waitcnt lgkmcnt(6)                      // A and BT of pair 0 have arrived
	v_mfma_f32_32x32x8f16 a[0:15], v[24:25], v[40:41], a[0:15]
	v_mfma_f32_32x32x8f16 a[0:15], v[26:27], v[42:43], a[0:15]
	s_waitcnt lgkmcnt(4)
	v_mfma_f32_32x32x8f16 a[0:15], v[28:29], v[44:45], a[0:15]
	v_mfma_f32_32x32x8f16 a[0:15], v[30:31], v[46:47], a[0:15]
	s_waitcnt lgkmcnt(2)
	v_mfma_f32_32x32x8f16 a[0:15], v[32:33], v[48:49], a[0:15]
	v_mfma_f32_32x32x8f16 a[0:15], v[34:35], v[50:51], a[0:15]
	s_waitcnt lgkmcnt(0)
	v_mfma_f32_32x32x8f16 a[0:15], v[36:37], v[52:53], a[0:15]
	v_mfma_f32_32x32x8f16 a[0:15], v[38:39], v[54:55], a[0:15]
	v_xor_b32 v16, 0x4000, v16                // next stage reads the other buffer
	v_xor_b32 v17, 0x4000, v17
	v_xor_b32 v18, 0x4000, v18
	v_xor_b32 v19, 0x4000, v19
	v_xor_b32 v20, 0x4000, v20
	v_xor_b32 v21, 0x4000, v21
	v_xor_b32 v22, 0x4000, v22
	v_xor_b32 v23, 0x4000, v23
	s_sub_u32 s11, s11, 1
	s_cmp_lg_u32 s11, 0
	s_cbranch_scc1 .Lstage

	// ---- epilogue: C tile out. Register r holds row 8 (r >> 2) + 4 h + (r & 3), column lane & 31.
	s_nop 7                                   // reading a[0:15] needs 19 wait states after the
	                                          // last 16-pass MFMA: 8 v_xor, s_sub, s_cmp,
	                                          // s_cbranch and these 8
	v_accvgpr_read_b32 v56, a0
	v_accvgpr_read_b32 v57, a1
	v_accvgpr_read_b32 v58, a2
	v_accvgpr_read_b32 v59, a3
	v_accvgpr_read_b32 v60, a4
	v_accvgpr_read_b32 v61, a5
	v_accvgpr_read_b32 v62, a6
	v_accvgpr_read_b32 v63, a7
	v_accvgpr_read_b32 v64, a8
	v_accvgpr_read_b32 v65, a9
	v_accvgpr_read_b32 v66, a10
	v_accvgpr_read_b32 v67, a11
	v_accvgpr_read_b32 v68, a12
	v_accvgpr_read_b32 v69, a13
	v_accvgpr_read_b32 v70, a14
	v_accvgpr_read_b32 v71, a15
	global_store_dword v72, v56, s[8:9]
	global_store_dword v72, v57, s[8:9] offset:256
	global_store_dword v72, v58, s[8:9] offset:512
	global_store_dword v72, v59, s[8:9] offset:768
	global_store_dword v72, v60, s[8:9] offset:2048
	global_store_dword v72, v61, s[8:9] offset:2304
	global_store_dword v72, v62, s[8:9] offset:2560
	global_store_dword v72, v63, s[8:9] offset:2816
	global_store_dword v73, v64, s[8:9]
	global_store_dword v73, v65, s[8:9] offset:256
	global_store_dword v73, v66, s[8:9] offset:512
	global_store_dword v73, v67, s[8:9] offset:768
	global_store_dword v73, v68, s[8:9] offset:2048
	global_store_dword v73, v69, s[8:9] offset:2304
	global_store_dword v73, v70, s[8:9] offset:2560
	global_store_dword v73, v71, s[8:9] offset:2816
	s_endpgm
