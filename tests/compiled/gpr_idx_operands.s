// s_set_gpr_idx_* operand forms, valid and not, for tests/test_gpr_idx.py (written for gcnemu, MIT like the project).
s_set_gpr_idx_on s0, 16
s_set_gpr_idx_on s0, gpr_idx(SRC0,SRC0)
s_set_gpr_idx_on s0, gpr_idx(FOO)
s_set_gpr_idx_mode 16
s_set_gpr_idx_on s0, gpr_idx()
s_set_gpr_idx_on v0, 1
s_set_gpr_idx_on 0x12345, 1
s_set_gpr_idx_on m0, 1
s_set_gpr_idx_on s0
s_set_gpr_idx_on s0, 1, 2
s_set_gpr_idx_idx v1
s_set_gpr_idx_idx 5
s_set_gpr_idx_idx 0x12345
s_set_gpr_idx_off 1
s_set_gpr_idx_mode gpr_idx(src0)
s_set_gpr_idx_on s0, s1
s_set_gpr_idx_on s0, -1
s_set_gpr_idx_mode
s_set_gpr_idx_on s0, gpr_idx(SRC0
s_set_gpr_idx_on s0, gpr_idx(SRC0 SRC1)
s_set_gpr_idx_on s[0:1], 1
s_set_gpr_idx_on 1.0, 1
s_set_gpr_idx_on s0, 1.0
s_set_gpr_idx_mode 15
s_set_gpr_idx_on s0, gpr_idx(DST,SRC2,SRC1,SRC0)
s_set_gpr_idx_on exec_lo, 3
