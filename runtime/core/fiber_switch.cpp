// fiber_switch.cpp: sim_switch_stacks and the first frame of a new fiber.
#include "core/fiber_switch.h"

#include <cstdint>
#include <cstring>

// A suspended fiber's stack, from its saved stack pointer up:
//   +0  MXCSR (4 bytes), x87 control word (2 bytes), 2 bytes unused
//   +8  r15, +16 r14, +24 r13, +32 r12, +40 rbx, +48 rbp
//   +56 where to return when resumed
// The control words are loaded only when they differ from the ones of the
// fiber being left (both were saved on the same OS thread): ldmxcsr and
// fldcw are the slowest instructions here, and fibers rarely change them.
asm(R"(
  .text
  .globl sim_switch_stacks
  .hidden sim_switch_stacks
  .type sim_switch_stacks, @function
  .p2align 4
sim_switch_stacks:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsp, %rcx
  movq %rsi, %rsp
  movl (%rsp), %eax
  cmpl %eax, (%rcx)
  je 1f
  ldmxcsr (%rsp)
1:
  movzwl 4(%rsp), %eax
  cmpw %ax, 4(%rcx)
  je 2f
  fldcw 4(%rsp)
2:
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size sim_switch_stacks, .-sim_switch_stacks
)");

namespace sim::internal {

FiberStackPointer MakeFiber(char* stack_lowest, std::size_t size, void (*entry)()) {
  constexpr std::uintptr_t kAlignment = 16;
  auto top = (reinterpret_cast<std::uintptr_t>(stack_lowest) + size) & ~(kAlignment - 1);
  // `entry` is entered by the `ret` of sim_switch_stacks, as if called: the slot
  // above its return address is a null "return address", which ends every
  // unwinder's and frame-pointer walk there, and the stack pointer is then
  // 8 bytes off 16-byte alignment, as the ABI requires at a function's entry.
  auto* frame = reinterpret_cast<std::uint64_t*>(top - 16 - 56);
  std::memset(frame, 0, 56 + 16);
  std::uint32_t mxcsr;
  std::uint16_t x87_control;
  asm volatile("stmxcsr %0" : "=m"(mxcsr));
  asm volatile("fnstcw %0" : "=m"(x87_control));
  std::memcpy(reinterpret_cast<char*>(frame), &mxcsr, sizeof mxcsr);
  std::memcpy(reinterpret_cast<char*>(frame) + 4, &x87_control, sizeof x87_control);
  frame[7] = reinterpret_cast<std::uint64_t>(entry);  // +56: the return address
  // frame[6] (rbp) stays null: frame-pointer walks stop at the fiber's base.
  return frame;
}

}  // namespace sim::internal
