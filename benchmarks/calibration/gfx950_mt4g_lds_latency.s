// calibration: LDS load latency (mt4g p-chase)
//   hardware: 47.5
//   unit: cycles latency
//   tolerance: 4 cycles
//   part: MI350P
//   target: gfx950
//   count: 16
//   method: mt4g's 'shared' latency: a pointer chase through LDS (mean of 255 loads); here a chase of 16 ds_read_b32 + s_waitcnt lgkmcnt(0) in one s_memtime window
//   source: https://github.com/caps-tum/mt4g/blob/52701e7/sample_results/AMD_Instinct_MI350P.json (mt4g sample_results/AMD_Instinct_MI350P.json, shared latency)

	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
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
