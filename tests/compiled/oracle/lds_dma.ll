; targets: gfx908 gfx90a gfx942 gfx950
; Barriers are fenced as HIP's __syncthreads() is (release, s_barrier, acquire).
; M0 set for a buffer load to LDS (salu-m0-lds-dma), then a barrier and ds_read of what the DMA
; wrote (lds-dma-read-before-vmcnt, barrier-lds-write-pending), and DS writes before a barrier.
@lds = internal addrspace(3) global [256 x float] poison, align 4
define amdgpu_kernel void @lds_dma(<4 x i32> %rsrc, ptr addrspace(1) %out, i32 %off) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %voff = shl i32 %tid, 2
  call void @llvm.amdgcn.raw.buffer.load.lds(<4 x i32> %rsrc, ptr addrspace(3) @lds, i32 4, i32 %voff, i32 %off, i32 0, i32 0)
  %q = getelementptr float, ptr addrspace(3) @lds, i32 64
  call void @llvm.amdgcn.raw.buffer.load.lds(<4 x i32> %rsrc, ptr addrspace(3) %q, i32 4, i32 %voff, i32 0, i32 256, i32 0)
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %x = xor i32 %tid, 1
  %lp = getelementptr float, ptr addrspace(3) @lds, i32 %x
  %v = load float, ptr addrspace(3) %lp
  %w = fmul float %v, 2.0
  %sp = getelementptr float, ptr addrspace(3) @lds, i32 %tid
  store float %w, ptr addrspace(3) %sp
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %y = xor i32 %tid, 3
  %lp2 = getelementptr float, ptr addrspace(3) @lds, i32 %y
  %v2 = load float, ptr addrspace(3) %lp2
  %p = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float %v2, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.raw.buffer.load.lds(<4 x i32>, ptr addrspace(3), i32 immarg, i32, i32, i32 immarg, i32 immarg)
declare void @llvm.amdgcn.s.barrier()
