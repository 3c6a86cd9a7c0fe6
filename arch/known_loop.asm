; The known loop the counting checks count (tests/suites/prog_*.c): its
; instructions and branches are known from this code, so a counter of
; instructions retired or branches retired has an exact expected value.

global known_loop

section .text
BITS 64

; void known_loop(uint64_t iterations), iterations >= 1, at any CPL.
; Retires 2 * iterations + 2 instructions (mov, then dec + jnz per
; iteration, ret) of which iterations + 1 are branches (every jnz, the ret).
known_loop:
	mov rcx, rdi
.again:
	dec rcx
	jnz .again
	ret
