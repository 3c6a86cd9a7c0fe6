; Ways from CPL 1-3 up to CPL 0, each tried once (tests/kernel/mechanism.c):
; an INT through a DPL 3 interrupt gate, SYSCALL, and a far CALL through a
; DPL 3 call gate. Each landing records which way arrived and ends the
; ring_run() at once. If the instruction faults instead, the fault is
; captured and the code returns normally.

%include "arch/segments.inc"
%include "arch/extable.inc"

%define SEL_CALL_GATE 0xF0	; arch/segments.h

global mechanism_int, mechanism_syscall, mechanism_call_gate
global mechanism_int_insn, mechanism_syscall_insn, mechanism_call_gate_insn
global mechanism_landing_int, mechanism_landing_syscall
global mechanism_landing_call_gate, mechanism_arrived
extern ring_resume

section .text
BITS 64

; void mechanism_X(void *unused): run by ring_run64() at the CPL under test.
mechanism_int:
mechanism_int_insn:
	int 0x80
.resume:
	ret
	EXTABLE mechanism_int_insn, mechanism_int_insn.resume, EXTABLE_CAPTURE

mechanism_syscall:
mechanism_syscall_insn:
	syscall
.resume:
	ret
	EXTABLE mechanism_syscall_insn, mechanism_syscall_insn.resume, EXTABLE_CAPTURE

mechanism_call_gate:
mechanism_call_gate_insn:
	call far dword [rel call_gate_pointer]	; m16:32, the offset is ignored
.resume:
	ret
	EXTABLE mechanism_call_gate_insn, mechanism_call_gate_insn.resume, EXTABLE_CAPTURE

; Landings at CPL 0. mechanism_arrived = 1 INT, 2 SYSCALL, 3 call gate,
; and the CS the landing runs with, to show the CPL really changed.
mechanism_landing_int:
	mov qword [rel mechanism_arrived], 1
	jmp landed
mechanism_landing_syscall:
	mov qword [rel mechanism_arrived], 2
	jmp landed
mechanism_landing_call_gate:
	mov qword [rel mechanism_arrived], 3
landed:
	mov ax, cs
	mov [rel mechanism_arrived + 8], ax
	jmp ring_resume

section .rodata
call_gate_pointer:
	dd 0
	dw SEL_CALL_GATE | 3

section .bss
mechanism_arrived:	resq 2
