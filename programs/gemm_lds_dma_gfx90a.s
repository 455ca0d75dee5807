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
//       M0 is set per wave (2048 w, +8192 for BT) and per buffer (+16384 for buffer 1: four
//       SGPRs hold the four values); chunk c uses offset:256c, which moves the LDS destination and the global
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
// Pipeline (Composable Kernel's order, two stages of prefetch in two buffers): stage s
//       lives in buffer s & 1; the prologue streams stages 0 and 1. The K loop is unrolled
//       by 2 (ping reads buffer 0, pong buffer 1, each with its own M0 registers and ds_read
//       offset), so M0 and the ds_read bases are the same on every trip; the last two stages
//       run after the loop without streaming.
//       s_waitcnt vmcnt(16)          stage s has landed; the 16 DMAs of stage s+1 (this wave's
//                                    DMAs of one stage) stay in flight
//       s_barrier                    ... in every wave
//       8 ds_read_b128 of stage s    into v[24:55], while stage s+1 streams into the other buffer
//       MFMAs, s_waitcnt lgkmcnt(6/4/2/0) before each pair (LDS returns in order)
//       s_barrier after lgkmcnt(0)   every wave has read buffer s & 1 (write-after-read), so
//       DMA of stage s+2             may refill it; issued between the last two MFMAs
// Why vmcnt(16) is safe, and provably so: the DMAs still in flight at the ds_reads write the
//       other buffer. `gcnemu lint` proves it: its value analysis bounds M0 (2048 w (+8192
//       for BT) (+16384 in buffer 1), w = wave 0..3) and the ds_read addresses (each lane's
//       row and k-slot inside its wave's tile), so a DMA's bytes M0 + offset + 4 lane (a
//       quarter of a tile per 8 DMAs) and the ds_reads' bytes lie in different 16 KiB halves;
//       and no ds_read reachable from either s_barrier before the next vmcnt(16) reads the
//       buffer being filled. Remove the vmcnt(16) and it reports both rules (README tutorial).
//       The ds_read address of pair t xors the k-slot (0..7) before scaling it, so the
//       analysis's intervals stay inside the tile (xor on the byte address would not).
//
// Performance: one 64x64 tile over K = 256 is latency bound. Per stage the LDS DMA of 16 KiB
//       takes ~600 cycles of latency plus 256 cycles of the CU's vector memory pipe, while a
//       SIMD has 8 x 64 = 512 cycles of MFMA work. Streaming two stages ahead hides most of the
//       DMA latency (waitcnt vmcnt stalls fell from ~840 to ~340 cycles per wave against the
//       vmcnt(0) version); what remains is the matrix core's dependent MFMA chain and the DMA
//       writes competing with the ds_reads for the LDS (pipe busy), and the barriers. The
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
//   # measured with the default timing model: MFMA utilisation 0.34 (16-pass MFMAs on gfx90a);
//   # stall cycles per wave: pipe busy ~3650, barrier ~510, waitcnt vmcnt ~80, nop 68
//   # (tests/test_programs_flagship.py holds utilisation and stall shares to ranges)
//   expect cycles: 5709..6305
//   expect mfma-utilisation: 0.289..0.393
//   expect stall pipe busy: 3103..4200
//   expect stall barrier: 382..518
//   expect stall waitcnt vmcnt: 68..94
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
	s_and_b32 s18, s10, 2
	s_lshl_b32 s18, s18, 11                   // A rows of this wave: 4096 wm
	s_and_b32 s19, s10, 1
	s_lshl_b32 s19, s19, 12
	s_add_u32 s19, s19, 0x2000                // BT rows of this wave: 8192 + 4096 wn
	v_lshl_add_u32 v5, v3, 4, v2              // pair 0, relative to the wave's tile rows
	v_add_u32 v16, s18, v5                    // A, pair t: k-slot ^ 2t
	v_add_u32 v20, s19, v5                    // BT, pair t
	v_xor_b32 v6, 2, v3                       // (the slot is xored before it is scaled and
	v_lshl_add_u32 v5, v6, 4, v2              //  placed: the linter's value ranges then stay
	v_add_u32 v17, s18, v5                    //  inside each tile, see the pipeline notes)
	v_add_u32 v21, s19, v5
	v_xor_b32 v6, 4, v3
	v_lshl_add_u32 v5, v6, 4, v2
	v_add_u32 v18, s18, v5
	v_add_u32 v22, s19, v5
	v_xor_b32 v6, 6, v3
	v_lshl_add_u32 v5, v6, 4, v2
	v_add_u32 v19, s18, v5
	v_add_u32 v23, s19, v5

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
	s_add_u32 s32, s16, 0x4000                // the same in buffer 1 (+16384)
	s_add_u32 s33, s17, 0x4000
	s_lshl_b32 s20, s10, 13                   // soffset 8192 w: rows 16w.. of A and BT
	s_and_b32 s21, s10, 2
	s_lshl_b32 s21, s21, 12                   // C rows 32 wm: 8192 wm ...
	s_and_b32 s22, s10, 1
	s_lshl_b32 s22, s22, 7                    // ... + C cols 32 wn: 128 wn
	s_add_u32 s21, s21, s22
	s_mov_b32 s11, 1                          // steady-state iterations: (stages - 2) / 2
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

	// ---- prologue: stage 0 into buffer 0, stage 1 into buffer 1
	s_mov_b32 m0, s16                         // A chunks of stage 0
	s_nop 0                                   // SALU wrote M0: 1 wait state before LDS DMA
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
	s_mov_b32 m0, s32                         // A chunks of stage 1
	s_nop 0                                   // SALU wrote M0: 1 wait state before LDS DMA
	buffer_load_dword v8, s[24:27], s20 offen lds
	buffer_load_dword v9, s[24:27], s20 offen offset:256 lds
	buffer_load_dword v10, s[24:27], s20 offen offset:512 lds
	buffer_load_dword v11, s[24:27], s20 offen offset:768 lds
	buffer_load_dword v12, s[24:27], s20 offen offset:1024 lds
	buffer_load_dword v13, s[24:27], s20 offen offset:1280 lds
	buffer_load_dword v14, s[24:27], s20 offen offset:1536 lds
	buffer_load_dword v15, s[24:27], s20 offen offset:1792 lds
	s_mov_b32 m0, s33                         // BT chunks
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

.Lsteady:
	// ---- ping: stage s (even) from buffer 0; stage s+1 is landing in buffer 1
	s_waitcnt vmcnt(16)                       // stage s has landed; stage s+1's 16 DMAs stay in flight
	s_barrier                                 // ... in every wave
	ds_read_b128 v[24:27], v16                // buffer 0
	ds_read_b128 v[40:43], v20
	ds_read_b128 v[28:31], v17
	ds_read_b128 v[44:47], v21
	ds_read_b128 v[32:35], v18
	ds_read_b128 v[48:51], v22
	ds_read_b128 v[36:39], v19
	ds_read_b128 v[52:55], v23
	s_waitcnt lgkmcnt(6)                      // A and BT of pair 0 have arrived
	v_mfma_f32_32x32x8f16 a[0:15], v[24:25], v[40:41], a[0:15]
	v_mfma_f32_32x32x8f16 a[0:15], v[26:27], v[42:43], a[0:15]
	s_waitcnt lgkmcnt(4)
	v_mfma_f32_32x32x8f16 a[0:15], v[28:29], v[44:45], a[0:15]
	v_mfma_f32_32x32x8f16 a[0:15], v[30:31], v[46:47], a[0:15]
	s_waitcnt lgkmcnt(2)
	v_mfma_f32_32x32x8f16 a[0:15], v[32:33], v[48:49], a[0:15]
	v_mfma_f32_32x32x8f16 a[0:15], v[34:35], v[50:51], a[0:15]
	s_waitcnt lgkmcnt(0)                      // this wave has read buffer 0 ...
	s_barrier                                 // ... and so has every wave: it may be refilled
	v_mfma_f32_32x32x8f16 a[0:15], v[36:37], v[52:53], a[0:15]
	s_mov_b32 m0, s16                         // A chunks of stage s+2, into buffer 0
	s_nop 0                                   // SALU wrote M0: 1 wait state before LDS DMA
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
	v_mfma_f32_32x32x8f16 a[0:15], v[38:39], v[54:55], a[0:15]

	// ---- pong: stage s+1 from buffer 1; stage s+2 is landing in buffer 0
	s_waitcnt vmcnt(16)                       // stage s+1 has landed; stage s+2's 16 DMAs stay in flight
	s_barrier                                 // ... in every wave
	ds_read_b128 v[24:27], v16 offset:16384   // buffer 1: the offset adds 16384
	ds_read_b128 v[40:43], v20 offset:16384
	ds_read_b128 v[28:31], v17 offset:16384
	ds_read_b128 v[44:47], v21 offset:16384
	ds_read_b128 v[32:35], v18 offset:16384
	ds_read_b128 v[48:51], v22 offset:16384
	ds_read_b128 v[36:39], v19 offset:16384
	ds_read_b128 v[52:55], v23 offset:16384
	s_waitcnt lgkmcnt(6)                      // A and BT of pair 0 have arrived
	v_mfma_f32_32x32x8f16 a[0:15], v[24:25], v[40:41], a[0:15]
	v_mfma_f32_32x32x8f16 a[0:15], v[26:27], v[42:43], a[0:15]
	s_waitcnt lgkmcnt(4)
	v_mfma_f32_32x32x8f16 a[0:15], v[28:29], v[44:45], a[0:15]
	v_mfma_f32_32x32x8f16 a[0:15], v[30:31], v[46:47], a[0:15]
	s_waitcnt lgkmcnt(2)
	v_mfma_f32_32x32x8f16 a[0:15], v[32:33], v[48:49], a[0:15]
	v_mfma_f32_32x32x8f16 a[0:15], v[34:35], v[50:51], a[0:15]
	s_waitcnt lgkmcnt(0)                      // this wave has read buffer 1 ...
	s_barrier                                 // ... and so has every wave: it may be refilled
	v_mfma_f32_32x32x8f16 a[0:15], v[36:37], v[52:53], a[0:15]
	s_mov_b32 m0, s32                         // A chunks of stage s+3, into buffer 1
	s_nop 0                                   // SALU wrote M0: 1 wait state before LDS DMA
	buffer_load_dword v8, s[24:27], s20 offen lds
	buffer_load_dword v9, s[24:27], s20 offen offset:256 lds
	buffer_load_dword v10, s[24:27], s20 offen offset:512 lds
	buffer_load_dword v11, s[24:27], s20 offen offset:768 lds
	buffer_load_dword v12, s[24:27], s20 offen offset:1024 lds
	buffer_load_dword v13, s[24:27], s20 offen offset:1280 lds
	buffer_load_dword v14, s[24:27], s20 offen offset:1536 lds
	buffer_load_dword v15, s[24:27], s20 offen offset:1792 lds
	s_mov_b32 m0, s33                         // BT chunks
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
	v_mfma_f32_32x32x8f16 a[0:15], v[38:39], v[54:55], a[0:15]
	s_sub_u32 s11, s11, 1
	s_cmp_lg_u32 s11, 0
	s_cbranch_scc1 .Lsteady

	// ---- the last two stages: nothing left to stream
	s_waitcnt vmcnt(16)                       // stage s has landed; stage s+1's 16 DMAs stay in flight
	s_barrier
	ds_read_b128 v[24:27], v16                // buffer 0
	ds_read_b128 v[40:43], v20
	ds_read_b128 v[28:31], v17
	ds_read_b128 v[44:47], v21
	ds_read_b128 v[32:35], v18
	ds_read_b128 v[48:51], v22
	ds_read_b128 v[36:39], v19
	ds_read_b128 v[52:55], v23
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
	s_waitcnt vmcnt(0)                        // the last stage has landed
	s_barrier
	ds_read_b128 v[24:27], v16 offset:16384   // buffer 1
	ds_read_b128 v[40:43], v20 offset:16384
	ds_read_b128 v[28:31], v17 offset:16384
	ds_read_b128 v[44:47], v21 offset:16384
	ds_read_b128 v[32:35], v18 offset:16384
	ds_read_b128 v[48:51], v22 offset:16384
	ds_read_b128 v[36:39], v19 offset:16384
	ds_read_b128 v[52:55], v23 offset:16384
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

	// ---- epilogue: C tile out. Register r holds row 8 (r >> 2) + 4 h + (r & 3), column lane & 31.
	s_nop 15                                  // reading a[0:15] needs 19 wait states after the
	s_nop 2                                   // last 16-pass MFMA
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
