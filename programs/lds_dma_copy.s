// lds_dma_copy.s -- copy global -> LDS (LDS DMA through M0) -> VGPRs -> global, gfx90a.
//
// Setup: s[0:1] = kernarg pointer to {src: uint32*, dst: uint32*, n_bytes: uint32};
//        v0 = workitem id x; one workgroup of 128 work-items (2 waves).
// Expect: dst[i] == src[i] for 4 * i < n_bytes and dst[i] == 0 beyond: the source V# has
//         num_records = n_bytes, and out-of-range buffer loads return 0, also into LDS.
// Shows: building a V#, M0 = this wave's LDS base (as Composable Kernel's init_m0 does),
//        buffer_load_dword ... lds writing LDS at M0 + lane * 4 without a VGPR, and
//        s_waitcnt vmcnt(0) (not lgkmcnt: the DMA is a vector memory load) before ds_read.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 128
//   buffer src: u32[128] = i * 3 + 1000
//   buffer dst: u32[128] = 0xffffffff
//   arg: src, dst, n_bytes=400
//   expect dst[0:100] = src[0:100]
//   expect dst[100:128] = 0
//   expect lds[0]: u32[128] = where(i < 100, src, 0)
//   expect hazards: none
//   expect cycles: 980..1198
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
lds_dma_copy:
	s_load_dwordx4 s[4:7], s[0:1], 0x0     // src, dst
	s_load_dword s10, s[0:1], 0x10         // n_bytes
	v_and_b32 v1, 0x3ff, v0                // workitem id x
	v_lshlrev_b32 v1, 2, v1                // byte offset, in memory and in LDS
	v_readfirstlane_b32 s16, v1            // this wave's first byte offset
	s_waitcnt lgkmcnt(0)
	s_mov_b32 s12, s4                      // V#: base[31:0]
	s_and_b32 s13, s5, 0xffff              //     base[47:32], stride 0
	s_mov_b32 s14, s10                     //     num_records (bytes)
	s_mov_b32 s15, 0x27000                 //     32-bit float data format, as compilers set it
	s_mov_b32 m0, s16                      // LDS destination of lane 0 of this wave
	s_nop 0                                // M0 written by SALU: one wait state before LDS DMA
	buffer_load_dword v1, s[12:15], 0 offen lds
	s_waitcnt vmcnt(0)                     // the DMA has written LDS
	ds_read_b32 v2, v1
	s_waitcnt lgkmcnt(0)
	global_store_dword v1, v2, s[6:7]
	s_endpgm
