; Enter code at another CPL or in compatibility mode through IRETQ, and come
; back when it executes the UD2 at a ring-exit address (its #UD is trapped
; at CPL 0, arch/trap.c, which jumps to ring_resume). This needs no INT gate
; and no SYSCALL, only the exception delivery the tests rely on anyway.

%include "arch/segments.inc"
%include "arch/extable.inc"

global ring_enter, ring_resume, ring_entry64, ring_exit32

section .text
BITS 64

; void ring_enter(uint64_t cs, uint64_t ss, uint64_t rip, uint64_t rsp,
;                 uint64_t rdi, uint64_t rsi, uint64_t data_selector,
;                 uint64_t *saved_rsp)
; Returns when the entered code reaches a ring exit. saved_rsp is the
; calling CPU's slot, which ring_resume is given back.
ring_enter:
	push rbx
	push rbp
	push r12
	push r13
	push r14
	push r15
	mov rax, [rsp + 64]	; 8th argument: the CPU's saved_rsp slot
	mov [rax], rsp
	mov rax, [rsp + 56]	; 7th argument: DS/ES for the entered code
	mov ds, ax
	mov es, ax
	push rsi		; SS
	push rcx		; RSP
	push qword 0x2		; RFLAGS: IF = 0, IOPL = 0
	push rdi		; CS
	push rdx		; RIP
	mov rdi, r8
	mov rsi, r9
	iretq

; void ring_resume(uint64_t *saved_rsp): reached from the trap handler, on
; whatever stack it ran.
ring_resume:
	mov rsp, [rdi]
	mov ax, SEL_KERNEL_DATA
	mov ds, ax
	mov es, ax
	mov ss, ax
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbp
	pop rbx
	ret

; 64-bit code at any CPL: call fn(arg) with RDI = arg, RSI = fn, then exit.
ring_entry64:
	call rsi
ring_exit64:
	ud2
	EXTABLE ring_exit64, 0, EXTABLE_RING_EXIT

BITS 32
; Compatibility-mode bodies end by jumping here.
ring_exit32:
	ud2
	EXTABLE ring_exit32, 0, EXTABLE_RING_EXIT

