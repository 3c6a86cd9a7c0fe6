; The exiting loop the checks of intercepted instructions count
; (tests/suites/exit.c, EXIT-1): per iteration it loads a register, runs one
; instruction a hypervisor may intercept and complete itself, and loops, so
; a counter of instructions retired or branches retired has an exact
; expected value (kernel/exec.h: EXITING_LOOP_INSTRUCTIONS, _BRANCHES).

global cpuid_loop
global rdmsr_loop

section .text
BITS 64

MSR_IA32_APIC_BASE	equ 0x1B	; on every x86-64 processor

; void cpuid_loop(uint64_t iterations), iterations >= 1, at any CPL.
; Per iteration: xor, CPUID (leaf 0), dec, jnz: 4 instructions, 1 branch.
cpuid_loop:
	push rbx		; CPUID writes EBX, which the caller keeps
	mov rsi, rdi
.again:
	xor eax, eax
	cpuid
	dec rsi
	jnz .again
	pop rbx
	ret

; void rdmsr_loop(uint64_t iterations), iterations >= 1, at CPL 0.
; Per iteration: mov, RDMSR IA32_APIC_BASE, dec, jnz: 4 and 1 again.
rdmsr_loop:
	mov rsi, rdi
.again:
	mov ecx, MSR_IA32_APIC_BASE
	rdmsr
	dec rsi
	jnz .again
	ret
