// gcnemu launch tests (tests/test_launch.py): two kernels that find their place in the grid the two ways compiled code reads it.

// blockDim and gridDim through the hidden (implicit) kernel arguments, as HIP does under code object v5:
// hidden_group_size_x/y (what __builtin_amdgcn_workgroup_size_x/y read) and hidden_block_count_x/y
// (the first two dwords of the implicit arguments).
__kernel void from_hidden(__global float *out, __global const float *in, float scale, uint n) {
    __constant uint *implicit = (__constant uint *)__builtin_amdgcn_implicitarg_ptr();
    uint bx = __builtin_amdgcn_workgroup_size_x(), by = __builtin_amdgcn_workgroup_size_y();
    uint gx = implicit[0], gy = implicit[1];
    uint x = __builtin_amdgcn_workgroup_id_x() * bx + __builtin_amdgcn_workitem_id_x();
    uint y = __builtin_amdgcn_workgroup_id_y() * by + __builtin_amdgcn_workitem_id_y();
    uint i = y * gx * bx + x;
    if (i < n)
        out[i] = in[i] * scale + (float)(bx * 1000 + by * 100 + gx * 10 + gy);
}

// The same sizes through the HSA dispatch packet (hsa_kernel_dispatch_packet_t) the dispatch pointer
// points at: workgroup_size_x/y (u16 at bytes 4, 6) and grid_size_x/y (u32 at 12, 16, in work-items).
typedef struct {
    ushort header, setup, workgroup_size_x, workgroup_size_y, workgroup_size_z, reserved0;
    uint grid_size_x, grid_size_y, grid_size_z;
} dispatch_packet;

__kernel void from_dispatch(__global uint *out) {
    __constant dispatch_packet *p = (__constant dispatch_packet *)__builtin_amdgcn_dispatch_ptr();
    uint bx = p->workgroup_size_x, by = p->workgroup_size_y;
    uint x = __builtin_amdgcn_workgroup_id_x() * bx + __builtin_amdgcn_workitem_id_x();
    uint y = __builtin_amdgcn_workgroup_id_y() * by + __builtin_amdgcn_workitem_id_y();
    if (x < p->grid_size_x && y < p->grid_size_y)
        out[y * p->grid_size_x + x] = (bx << 24) | (by << 16) | (p->grid_size_x << 8) | p->grid_size_y;
}
