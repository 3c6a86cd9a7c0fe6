; The string loop the reference-cycle checks time (tests/suites/
; prog_refcycles.c, REF-1, REF-2): the known loop's shape with a REP STOSB
; of STRING_LOOP_BYTES in each iteration. A REP string instruction retires
; once, and takes many cycles on a processor (its microcode stores a
; line at a time) and very many more under an emulator (one pass of its
; loop per byte); no hypervisor intercepts it. So this loop retires far
; fewer instructions per TSC tick than the known loop, wherever it runs.

global string_loop

STRING_LOOP_BYTES	equ 512		; kernel/exec.h

section .text
BITS 64

; void string_loop(uint64_t iterations), iterations >= 1, at any CPL (the
; buffer is in the kernel's identity map, which every ring may write).
; Retires 5 * iterations + 4 instructions (mov, xor, cld, then mov, mov,
; rep stosb, dec, jnz per iteration, ret) of which iterations + 1 are
; branches.
string_loop:
	mov rsi, rdi
	xor eax, eax		; the byte stored
	cld
.again:
	lea rdi, [rel string_buffer]
	mov ecx, STRING_LOOP_BYTES
	rep stosb
	dec rsi
	jnz .again
	ret

section .bss
align 64
string_buffer:	resb STRING_LOOP_BYTES
