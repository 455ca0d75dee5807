// debug_demo.s -- a small kernel to learn `gcnemu step` on (walkthrough: docs/debugger.md).
//
// One wave. It loads A[lane] from global memory (counted by vmcnt), copies B into LDS
// with an LDS DMA (buffer_load_dword ... lds: no VGPR, also vmcnt), reads the copy back
// with ds_read (lgkmcnt), adds A[lane] three times in a scalar loop, and multiplies
// f16 copies of A in an MFMA whose 32x32 accumulator `print mfma` shows as a matrix.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer A: f32[64] = i * 0.5 -> s[4:5]
//   buffer B: u32[64] = i + 100 -> rsrc s[8:11]
//   expect v2 = lane * 0.5 : f32
//   expect v3 = 1 + 3 * lane * 0.5 : f32
//   expect v4 = lane + 100
//   expect lds[0x100]: u32[64] = i + 100
//   expect hazards: none
	.text
debug_demo:
	v_lshlrev_b32 v1, 2, v0                 // v1 = 4 * lane: byte offset
	global_load_dword v2, v1, s[4:5]        // v2 = A[lane]                      vmcnt +1
	s_mov_b32 m0, 0x100                     // LDS DMA destination base
	s_nop 0                                 // M0 written by SALU: 1 wait state before LDS DMA
	buffer_load_dword v1, s[8:11], 0 offen lds  // LDS[0x100 + 4*lane] = B[lane]  vmcnt +1
	v_mov_b32 v3, 1.0
	s_waitcnt vmcnt(0)                      // both loads have landed
	ds_read_b32 v4, v1 offset:0x100         // v4 = LDS[0x100 + 4*lane]          lgkmcnt +1
	s_mov_b32 s0, 3
loop:
	v_add_f32 v3, v3, v2                    // v3 += A[lane]
	s_sub_u32 s0, s0, 1
	s_cmp_lg_u32 s0, 0
	s_cbranch_scc1 loop
	v_cvt_pkrtz_f16_f32 v6, v2, v2          // (A[lane], A[lane]) as two f16
	v_mov_b32 v7, v6
	s_nop 1                                 // VALU write -> MFMA read: 2 wait states
	v_mfma_f32_32x32x8f16 a[0:15], v[6:7], v[6:7], 0
	s_waitcnt lgkmcnt(0)                    // the ds_read has returned
	s_nop 7                                 // 16-pass MFMA -> v_accvgpr_read: 18 wait states
	s_nop 7
	s_nop 7
	v_accvgpr_read_b32 v8, a0               // first accumulator register
	s_endpgm
