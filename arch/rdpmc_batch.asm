; The sweeps' RDPMC loop (exec_rdpmc_batch(), arch/exec.c): n RDPMCs in
; 64-bit mode at the CPL it is called at, each with RAX and RDX as given and
; RCX from a list, each outcome stored as a struct exec_outcome. A fault of
; the RDPMC at batch_rdpmc_insn takes trap_common's short path
; (arch/trap_entry.asm): R8 = vector, R9 = error code, resume at
; batch_rdpmc_resume. No C and no exception-table search run per fault, so a
; sweep costs little more than its faults.

global rdpmc_batch64, batch_rdpmc_insn, batch_rdpmc_resume

NO_FAULT	equ -1

; struct rdpmc_batch_args (arch/exec.c)
ARGS_RAX	equ 0
ARGS_RDX	equ 8
ARGS_RCX_LIST	equ 16
ARGS_N		equ 24
ARGS_OUT	equ 32

; struct exec_outcome (kernel/exec.h; arch/exec.c asserts the offsets)
OUT_FAULTED	equ 0
OUT_VECTOR	equ 1
OUT_ERROR_CODE	equ 4
OUT_FAULT_RIP	equ 8
OUT_INSN_RIP	equ 16
OUT_RAX		equ 24
OUT_RCX		equ 32
OUT_RDX		equ 40
OUT_SIZE	equ 48

section .text
BITS 64

; void rdpmc_batch64(const struct rdpmc_batch_args *args); clobbers only
; the registers the SysV ABI lets a callee clobber.
rdpmc_batch64:
	mov rsi, [rdi + ARGS_RCX_LIST]
	mov r10, [rdi + ARGS_N]
	mov r11, [rdi + ARGS_OUT]
	test r10, r10
	jz rdpmc_batch64_done
rdpmc_batch64_next:
	mov r8, NO_FAULT
	mov rax, [rdi + ARGS_RAX]
	mov rdx, [rdi + ARGS_RDX]
	mov rcx, [rsi]
batch_rdpmc_insn:
	rdpmc
batch_rdpmc_resume:
	mov [r11 + OUT_RAX], rax
	mov [r11 + OUT_RCX], rcx
	mov [r11 + OUT_RDX], rdx
	lea rax, [rel batch_rdpmc_insn]
	mov [r11 + OUT_INSN_RIP], rax
	cmp r8, NO_FAULT
	je rdpmc_batch64_read
	mov byte [r11 + OUT_FAULTED], 1
	mov [r11 + OUT_VECTOR], r8b
	mov [r11 + OUT_ERROR_CODE], r9d
	mov [r11 + OUT_FAULT_RIP], rax	; the short path took only this RIP
	jmp rdpmc_batch64_stored
rdpmc_batch64_read:
	mov byte [r11 + OUT_FAULTED], 0
	mov byte [r11 + OUT_VECTOR], 0
	mov dword [r11 + OUT_ERROR_CODE], 0
	mov qword [r11 + OUT_FAULT_RIP], 0
rdpmc_batch64_stored:
	add rsi, 8
	add r11, OUT_SIZE
	dec r10
	jnz rdpmc_batch64_next
rdpmc_batch64_done:
	ret
