; Stacks, in a section that is never zeroed: memory is touched only when used.
; Below each stack lies a guard page that arch/guard.c unmaps, so that an
; overflow faults at once instead of overwriting what lies below.

global boot_stack_top, ring0_stack_top, df_stack_top, nmi_stack_top
global ring_stack_top
global boot_stack_guard, ring0_stack_guard, df_stack_guard, nmi_stack_guard
global ring_stack_guard
global ap_stacks, ap_stacks_end

; The application processors' stacks (arch/cpu_stacks.c): CPUS_MAX - 1
; blocks, each the five stacks above in the same order, each with its guard
; page, smaller: AP_STACK_BLOCK bytes. Keep in step with arch/cpu_stacks.c.
CPUS_MAX	equ 16		; kernel/cpus.h
AP_STACK_BLOCK	equ 5 * 4096 + (32 + 16 + 8 + 8 + 16) * 1024

section .stacks nobits alloc write align=4096
boot_stack_guard:	resb 4096
		resb 64 * 1024
boot_stack_top:			; the kernel's own stack, CPL 0
ring0_stack_guard:	resb 4096
		resb 16 * 1024
ring0_stack_top:		; TSS.RSP0: traps from CPL 1-3 land here
df_stack_guard:		resb 4096
		resb 8 * 1024
df_stack_top:			; TSS.IST1: #DF
nmi_stack_guard:	resb 4096
		resb 8 * 1024
nmi_stack_top:			; TSS.IST2: NMI
ring_stack_guard:	resb 4096
		resb 16 * 1024
ring_stack_top:			; code run by ring_run() at CPL 0-3
ap_stacks:	resb (CPUS_MAX - 1) * AP_STACK_BLOCK
ap_stacks_end:
