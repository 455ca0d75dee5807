; targets: gfx90a gfx942 gfx950
; Barriers are fenced as HIP's __syncthreads() is.
; global_load_lds (M0 holds the LDS base), then ds_read of the bytes it wrote after a barrier.
@lds = internal addrspace(3) global [512 x i32] poison, align 4
define amdgpu_kernel void @global_lds_dma(ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %g = getelementptr i32, ptr addrspace(1) %in, i32 %tid
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %g, ptr addrspace(3) @lds, i32 4, i32 0, i32 0)
  %l2 = getelementptr i32, ptr addrspace(3) @lds, i32 256
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %g, ptr addrspace(3) %l2, i32 4, i32 512, i32 0)
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %x = xor i32 %tid, 5
  %lp = getelementptr i32, ptr addrspace(3) @lds, i32 %x
  %v = load i32, ptr addrspace(3) %lp
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.global.load.lds(ptr addrspace(1), ptr addrspace(3), i32 immarg, i32 immarg, i32 immarg)
declare void @llvm.amdgcn.s.barrier()
