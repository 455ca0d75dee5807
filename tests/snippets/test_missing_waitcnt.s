; test_missing_waitcnt.s -- a read of a load result before s_waitcnt: an expected hazard.
;
; The first v_add_u32 reads v2 before global_load_dword has returned it, so it adds the
; old contents (from the header). The static linter and the engine both report it; the
; second v_add_u32, after s_waitcnt vmcnt(0), sees the loaded value.
;
; gcnemu:
;   arch: gfx90a
;   buffer A: u32[64] = i * 3 -> s[4:5]
;   vgpr v1 = lane * 4
;   vgpr v2 = 100
;   expect v3 = 200
;   expect v4 = lane * 6
;   expect hazard vmem-result-before-vmcnt at 20
;   expect no hazard ds-result-before-lgkmcnt
;   expect cycles: 544..954
	.text
missing_waitcnt:
	global_load_dword v2, v1, s[4:5]
	v_add_u32 v3, v2, v2                ; gcnemu: expect hazard vmem-result-before-vmcnt
	s_waitcnt vmcnt(0)
	v_add_u32 v4, v2, v2
	s_endpgm
