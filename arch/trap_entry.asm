; Exception and interrupt entry for vectors 0-255: push a uniform frame
; (vector, error code, the general registers; struct trap_frame in
; arch/trap.h) and call trap_handler(frame). The handler returns to resume,
; or never returns. Only exceptions push an error code.

%include "arch/segments.inc"

extern trap_handler
extern batch_rdpmc_insn, batch_rdpmc_resume

FIRST_INTERRUPT_VECTOR	equ 32	; as in arch/trap.h
VECTOR_NMI		equ 2
global trap_stubs

section .text
BITS 64

%macro STUB 1
align 16
stub_%1:
%if (%1 = 8) || (%1 >= 10 && %1 <= 14) || (%1 = 17) || (%1 = 21) || (%1 = 29) || (%1 = 30)
	push qword %1		; the CPU pushed an error code
%else
	push qword -1		; no error code (NO_ERROR_CODE once truncated)
	push qword %1
%endif
	jmp trap_common
%endmacro

%assign v 0
%rep 256
STUB v
%assign v v + 1
%endrep

; Either way the frame above the registers is [vector, error_code, rip, cs,
; rflags, rsp, ss]: the CPU aligned RSP to 16 before pushing, and 22
; quadwords keep it aligned for the call.
trap_common:
	; The short path of the sweeps' RDPMC (arch/rdpmc_batch.asm): an
	; exception it raises itself (not an NMI or an interrupt that arrives
	; with RIP there) goes back to it with R8 = vector, R9 = error code.
	cmp qword [rsp], FIRST_INTERRUPT_VECTOR
	jae .general
	cmp qword [rsp], VECTOR_NMI
	je .general
	push rax
	lea rax, [rel batch_rdpmc_insn]
	cmp rax, [rsp + 24]		; the saved RIP
	jne .not_batch
	mov r8, [rsp + 8]
	mov r9, [rsp + 16]
	pop rax
	add rsp, 16			; vector, error code: [RIP, CS, RFLAGS, RSP, SS]
	test qword [rsp + 8], 3		; CS.RPL: from CPL 3?
	jnz .batch_iret
	; From CPL 0 nothing changed privilege: restore RSP and jump, without
	; IRETQ (an emulator runs IRETQ in a long helper that reloads CS and
	; SS: a CPL 0 sweep under TCG takes a quarter less). RFLAGS is left as
	; the gate made it: the kernel runs with IF, TF and AC clear, which is
	; all the gate changes but the arithmetic flags, and the loop sets
	; those anew (POPFQ ends an emulator's translated block).
	mov rsp, [rsp + 24]
	jmp batch_rdpmc_resume
.batch_iret:
	push rax
	lea rax, [rel batch_rdpmc_resume]
	mov [rsp + 8], rax		; the saved RIP
	pop rax
	iretq
.not_batch:
	pop rax
.general:
	push rax
	push rbx
	push rcx
	push rdx
	push rsi
	push rdi
	push rbp
	push r8
	push r9
	push r10
	push r11
	push r12
	push r13
	push r14
	push r15
	mov rdi, rsp
	call trap_handler
	pop r15
	pop r14
	pop r13
	pop r12
	pop r11
	pop r10
	pop r9
	pop r8
	pop rbp
	pop rdi
	pop rsi
	pop rdx
	pop rcx
	pop rbx
	pop rax
	add rsp, 16		; vector, error code
	iretq

section .rodata
align 8
trap_stubs:
%assign v 0
%rep 256
	dq stub_%+v
%assign v v + 1
%endrep
