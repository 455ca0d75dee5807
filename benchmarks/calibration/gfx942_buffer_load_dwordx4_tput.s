// calibration: buffer_load_dwordx4 stream throughput, one wave
//   hardware: 32
//   unit: cycles/iteration
//   tolerance: 10%
//   part: MI308X
//   target: gfx942
//   count: 10
//   method: one wave per CU; pyhip's throughput = (window of 11 independent buffer_load_dwordx4 + s_waitcnt vmcnt(0) - window of one load + wait) / 10, voffset lane*16, soffset k*1024, HBM (lines nothing touched)
//   baseline: one buffer_load_dwordx4 + s_waitcnt vmcnt(0) on other cold lines (s[24:27]); each window waits for its start s_memtime first
//   source: https://github.com/tingqli/pyhip/blob/3b45d9d/docs/mem_latency.md (pyhip docs/mem_latency.md)

// gcnemu:
//   workgroup: 64
//   buffer A: u32[8192] = i -> s[4:5]

	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.p2align 8
calib:
	s_mov_b32 s8, s4                       // buffer resource: base, stride 0, 32 KiB, DFMT 32
	s_and_b32 s9, s5, 0xffff
	s_mov_b32 s10, 0x8000
	s_mov_b32 s11, 0x00020000
	v_lshlrev_b32 v3, 4, v0                // lane i: 16 bytes at 16*i
	s_mov_b32 s30, 0
	s_mov_b32 s31, 1024
	s_mov_b32 s32, 2048
	s_mov_b32 s33, 3072
	s_mov_b32 s34, 4096
	s_mov_b32 s35, 5120
	s_mov_b32 s36, 6144
	s_mov_b32 s37, 7168
	s_mov_b32 s38, 8192
	s_mov_b32 s39, 9216
	s_mov_b32 s40, 10240
	s_mov_b32 s41, 11264
	s_memtime s[24:25]
	s_waitcnt lgkmcnt(0)
	buffer_load_dwordx4 v[10:13], v3, s[8:11], s41 offen   // 11 KiB on: its own cold lines
	s_waitcnt vmcnt(0)
	s_memtime s[26:27]
	s_waitcnt lgkmcnt(0)
	s_memtime s[20:21]
	s_waitcnt lgkmcnt(0)
	buffer_load_dwordx4 v[14:17], v3, s[8:11], s30 offen
	buffer_load_dwordx4 v[18:21], v3, s[8:11], s31 offen
	buffer_load_dwordx4 v[22:25], v3, s[8:11], s32 offen
	buffer_load_dwordx4 v[26:29], v3, s[8:11], s33 offen
	buffer_load_dwordx4 v[30:33], v3, s[8:11], s34 offen
	buffer_load_dwordx4 v[34:37], v3, s[8:11], s35 offen
	buffer_load_dwordx4 v[38:41], v3, s[8:11], s36 offen
	buffer_load_dwordx4 v[42:45], v3, s[8:11], s37 offen
	buffer_load_dwordx4 v[46:49], v3, s[8:11], s38 offen
	buffer_load_dwordx4 v[50:53], v3, s[8:11], s39 offen
	buffer_load_dwordx4 v[54:57], v3, s[8:11], s40 offen
	s_waitcnt vmcnt(0)
	s_memtime s[22:23]
	s_waitcnt lgkmcnt(0)
	s_endpgm
