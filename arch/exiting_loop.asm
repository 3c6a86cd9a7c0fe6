; The exiting loop the checks of intercepted instructions count
; (tests/suites/exit.c, EXIT-1): per iteration it loads a register, runs one
; instruction a hypervisor may intercept and complete itself, and loops, so
; a counter of instructions retired or branches retired has an exact
; expected value (kernel/exec.h: EXITING_LOOP_INSTRUCTIONS, _BRANCHES).

global cpuid_loop
global rdmsr_loop
global port_in_loop

section .text
BITS 64

MSR_IA32_APIC_BASE	equ 0x1B	; on every x86-64 processor
; The POST-code port. Every PC decodes it (firmware writes its progress
; codes there), so a hypervisor intercepts it; a read has no side effect
; (the last code written, or all ones) and leaves COM1 (3F8H), the debug
; console (E9H) and the debug-exit port (F4H) alone.
POST_CODE_PORT		equ 0x80

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

; void port_in_loop(uint64_t iterations), iterations >= 1, at CPL 0 (at
; CPL 3 IN would need IOPL 3 or the TSS I/O bitmap).
; Per iteration: mov, IN AL from port 80H, dec, jnz: 4 and 1 again.
port_in_loop:
	mov rsi, rdi
.again:
	mov edx, POST_CODE_PORT
	in al, dx
	dec rsi
	jnz .again
	ret
