// calibration: global_load_dword L2 hit latency (mt4g p-chase)
//   hardware: 343.7
//   unit: cycles latency
//   tolerance: 4 cycles
//   part: MI100
//   target: gfx908
//   count: 16
//   method: mt4g p-chase (one thread, mean over the chain); here one lane chases 16 links (global_load_dword + s_waitcnt vmcnt(0)) in one s_memtime window; eight wave-wide loads touched 512 lines (twice the L1) first: the chain's lines left the LRU L1 and stay in L2
//   source: https://github.com/caps-tum/mt4g/blob/231c5bc/sample_results/AMD%20Instinct%20MI100/README.md (mt4g sample_results/AMD Instinct MI100, l2 latency)

// gcnemu:
//   workgroup: 64
//   buffer A: u32[8256] = i * 4 + 64 -> s[4:5]

	.amdgcn_target "amdgcn-amd-amdhsa--gfx908"
	.text
	.p2align 8
calib:
	v_lshlrev_b32 v3, 6, v0                // lane i: line i
	global_load_dword v10, v3, s[4:5] offset:0
	v_add_u32 v3, 4096, v3
	global_load_dword v11, v3, s[4:5]
	v_add_u32 v3, 4096, v3
	global_load_dword v12, v3, s[4:5]
	v_add_u32 v3, 4096, v3
	global_load_dword v13, v3, s[4:5]
	v_add_u32 v3, 4096, v3
	global_load_dword v14, v3, s[4:5]
	v_add_u32 v3, 4096, v3
	global_load_dword v15, v3, s[4:5]
	v_add_u32 v3, 4096, v3
	global_load_dword v16, v3, s[4:5]
	v_add_u32 v3, 4096, v3
	global_load_dword v17, v3, s[4:5]
	s_waitcnt vmcnt(0)
	v_mov_b32 v1, 0                        // the chain starts at offset 0
	s_mov_b64 exec, 1                      // one lane, as mt4g's one thread
	s_memtime s[20:21]
	s_waitcnt lgkmcnt(0)
	.rept 16
	global_load_dword v1, v1, s[4:5]
	s_waitcnt vmcnt(0)
	.endr
	s_memtime s[22:23]
	s_waitcnt lgkmcnt(0)
	s_endpgm
