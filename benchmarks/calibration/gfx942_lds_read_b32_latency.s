// calibration: ds_read_b32 latency (no bank conflict)
//   hardware: 55
//   unit: cycles latency
//   tolerance: 4 cycles
//   part: MI308X
//   target: gfx942
//   count: 16
//   method: one wave per CU (no bank conflict); pyhip times one load + s_waitcnt lgkmcnt(0) between two s_memtime (the s_memtime overhead, about 4 cycles, included); here a pointer chase of 16 such loads in one s_memtime window
//   source: https://github.com/tingqli/pyhip/blob/3b45d9d/docs/mem_latency.md (pyhip docs/mem_latency.md)

	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.p2align 8
calib:
	v_lshlrev_b32 v1, 2, v0                // lane i reads dword 1*i
	ds_write_b32 v1, v1                    // each dword holds its own address: the chase stays put
	s_waitcnt lgkmcnt(0)
	s_memtime s[20:21]
	.rept 16
	ds_read_b32 v1, v1
	s_waitcnt lgkmcnt(0)
	.endr
	s_memtime s[22:23]
	s_waitcnt lgkmcnt(0)
	s_endpgm
