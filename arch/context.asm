; context_save / context_resume: setjmp and longjmp for the harness, which
; abandons a test that took an unexpected exception (kernel/harness.c).
; struct context (arch/context.h): rbx rbp r12 r13 r14 r15 rsp rip.

%include "arch/segments.inc"

global context_save, context_resume

section .text
BITS 64

context_save:			; int context_save(struct context *c)
	mov [rdi], rbx
	mov [rdi + 8], rbp
	mov [rdi + 16], r12
	mov [rdi + 24], r13
	mov [rdi + 32], r14
	mov [rdi + 40], r15
	lea rax, [rsp + 8]
	mov [rdi + 48], rax
	mov rax, [rsp]
	mov [rdi + 56], rax
	xor eax, eax
	ret

context_resume:			; noreturn void context_resume(struct context *c)
	mov ax, SEL_KERNEL_DATA
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov rbx, [rdi]
	mov rbp, [rdi + 8]
	mov r12, [rdi + 16]
	mov r13, [rdi + 24]
	mov r14, [rdi + 32]
	mov r15, [rdi + 40]
	mov rsp, [rdi + 48]
	mov eax, 1
	jmp [rdi + 56]
