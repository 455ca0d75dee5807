// gcnemu VGPR-indexing tests (tests/test_gpr_idx.py). Written for gcnemu; same licence as the project (MIT).
//
// A private array indexed by a value that is the same for every work-item (read from memory): clang-22
// keeps the 16 ints in VGPRs and reads and writes element in[i] & 15 with
// `s_set_gpr_idx_on sN, gpr_idx(SRC0)` / `gpr_idx(DST)` around a v_mov_b32 (VGPR indexing mode).
// Issue 24's kernel indexes by a per-lane value instead, which clang turns into v_cndmask chains.
__kernel void histogram(__global int *o, __global const int *in) {
    uint g = __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() + __builtin_amdgcn_workitem_id_x();
    int d[16];
    for (int i = 0; i < 16; i++)
        d[i] = 0;
    for (int i = 0; i < 64; i++)
        d[in[i] & 15] += g + i;
    for (int i = 0; i < 16; i++)
        o[g * 16 + i] = d[i];
}
