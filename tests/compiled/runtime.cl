// gcnemu runtime-launch tests (tests/test_runtime_launch.py): kernels whose compiled code depends on
// what the ROCm runtime allocates around the kernel, beyond what the metadata lists.
// Written for gcnemu; same licence as the project (MIT).

// Issue 24's reproduction: three 4-byte arguments after a pointer and no hidden arguments. llc loads
// a, b, c with one s_load_dwordx4 at offset 8, 16 bytes, 4 past the 20-byte kernarg segment.
__kernel void three_floats(__global float *o, float a, float b, float c) {
    o[__builtin_amdgcn_workitem_id_x()] = a * b + c;
}

// Dynamic LDS: __local pointer arguments are sized by the launch, not by the kernel (its
// .group_segment_fixed_size is 0). Each work-item stores its input in LDS and, after the barrier,
// reads another work-item's.

// A rotation by one within the workgroup. The workgroup size comes from the hidden arguments, so this
// kernel also has hidden_dynamic_lds_size; work-item 0 reports what it holds (byte 120 of the implicit
// arguments under code object v5+) in *seen.
__kernel void rotate_local(__global float *o, __global const float *in, __local float *tmp, __global uint *seen) {
    __constant uint *implicit = (__constant uint *)__builtin_amdgcn_implicitarg_ptr();
    uint l = __builtin_amdgcn_workitem_id_x(), n = __builtin_amdgcn_workgroup_size_x();
    uint g = __builtin_amdgcn_workgroup_id_x() * n + l;
    tmp[l] = in[g];
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
    o[g] = tmp[(l + 1) % n];
    if (g == 0)
        *seen = implicit[30];
}

// A reversal of the first n work-items of the workgroup, n given as an argument: no hidden arguments
// at all, so no hidden_dynamic_lds_size either; the launch alone sizes tmp.
__kernel void reverse_local(__global float *o, __global const float *in, __local float *tmp, uint n) {
    uint l = __builtin_amdgcn_workitem_id_x();
    if (l < n)
        tmp[l] = in[l];
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
    if (l < n)
        o[l] = tmp[n - 1 - l];
}

// Two __local pointers: the runtime lays out one buffer per argument from the sizes the host gives
// each (clSetKernelArg); gcnemu's launch has one dynamic size, so each pointer needs its offset.
__kernel void two_locals(__global float *o, __local float *a, __local float *b) {
    uint l = __builtin_amdgcn_workitem_id_x();
    a[l] = (float)l;
    b[l] = (float)(2 * l);
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
    o[l] = a[l ^ 1] + b[l];
}
