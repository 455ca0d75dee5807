; test_scalar_loop.s -- a counted scalar loop: s5 = 3 * n with n from the header.
;
; gcnemu:
;   arch: gfx942
;   sgpr s2 = 10                        # n
;   expect s5 = 30
;   expect s4 = 10
;   expect scc = 0
;   expect instructions: 5 + 10 * 4
;   expect hazards: none
	.text
scalar_loop:
	s_mov_b32 s4, 0                     // k
	s_mov_b32 s5, 0                     // sum
	s_cmp_eq_u32 s2, 0
	s_cbranch_scc1 .Ldone
.Lloop:
	s_add_u32 s5, s5, 3
	s_add_u32 s4, s4, 1
	s_cmp_lt_u32 s4, s2
	s_cbranch_scc1 .Lloop
.Ldone:
	s_endpgm
