; A kernel that calls a function this file only declares, as device-library calls (ocml) look
; before linking; written for gcnemu's tests and compiled with llc-22 at test time. Running it
; must stop at the call, naming the function.
target triple = "amdgcn-amd-amdhsa"
declare i32 @llvm.amdgcn.workitem.id.x()
declare float @__ocml_sin_f32(float)

define amdgpu_kernel void @uses_sin(ptr addrspace(1) %out) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr float, ptr addrspace(1) %out, i32 %tid
  %v = load float, ptr addrspace(1) %p
  %s = call float @__ocml_sin_f32(float %v)
  store float %s, ptr addrspace(1) %p
  ret void
}
