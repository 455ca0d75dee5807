; test_lds_roundtrip.s -- LDS contents from the header, a rotate by one lane through LDS.
;
; Each lane reads the dword of lane (lane + 1) % 64 from a table the header put in LDS,
; adds its own lane id and writes the sum back at 0x200 + 4 * lane.
;
; gcnemu:
;   arch: gfx90a
;   workgroup: 64
;   lds: u32[64] = i * 10
;   vgpr v1 = ((lane + 1) % 64) * 4      # address of the neighbour's dword
;   vgpr v2 = lane * 4 + 0x200          # where the sum goes
;   expect v3 = ((lane + 1) % 64) * 10
;   expect v4 = ((lane + 1) % 64) * 10 + lane
;   expect lds[0]: u32[64] = i * 10
;   expect lds[0x200]: u32[64] = ((i + 1) % 64) * 10 + i
;   expect hazards: none
;   expect lgkmcnt: 1
;   expect instructions: 6
	.text
lds_roundtrip:
	ds_read_b32 v3, v1
	s_waitcnt lgkmcnt(0)
	v_add_u32 v4, v3, v0                // v0 = workitem id = lane in a 64-wide group
	ds_write_b32 v2, v4
	v_mov_b32 v5, v4
	s_endpgm
