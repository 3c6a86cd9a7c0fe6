; Probes: one instruction with chosen inputs, the registers it leaves, and
; any fault it raises captured through the exception table (arch/probe.h).
; struct probe_regs: rax at 0, rcx at 8, rdx at 16.

%include "arch/extable.inc"

global probe_rdpmc64, probe_rdpmc64_insn
global probe_rdpmc32, probe_rdpmc32_insn
global probe_rdmsr, probe_rdmsr_insn, probe_wrmsr, probe_wrmsr_insn
global probe_rdpmc_flags64_body, probe_rdpmc_flags64_insn

extern ring_exit32

section .text
BITS 64

; void probe_rdpmc64(struct probe_regs *regs), at any CPL in 64-bit mode.
probe_rdpmc64:
	mov rax, [rdi]
	mov rcx, [rdi + 8]
	mov rdx, [rdi + 16]
probe_rdpmc64_insn:
	rdpmc
.resume:
	mov [rdi], rax
	mov [rdi + 8], rcx
	mov [rdi + 16], rdx
	ret
	EXTABLE probe_rdpmc64_insn, probe_rdpmc64_insn.resume, EXTABLE_CAPTURE

; void probe_rdmsr(struct probe_regs *regs), CPL 0: ECX in, EDX:EAX out.
probe_rdmsr:
	mov rax, [rdi]
	mov rcx, [rdi + 8]
	mov rdx, [rdi + 16]
probe_rdmsr_insn:
	rdmsr
.resume:
	mov [rdi], rax
	mov [rdi + 8], rcx
	mov [rdi + 16], rdx
	ret
	EXTABLE probe_rdmsr_insn, probe_rdmsr_insn.resume, EXTABLE_CAPTURE

; void probe_wrmsr(struct probe_regs *regs), CPL 0: ECX, EDX:EAX in.
probe_wrmsr:
	mov rax, [rdi]
	mov rcx, [rdi + 8]
	mov rdx, [rdi + 16]
probe_wrmsr_insn:
	wrmsr
.resume:
	ret
	EXTABLE probe_wrmsr_insn, probe_wrmsr_insn.resume, EXTABLE_CAPTURE

BITS 32
; Compatibility mode, entered by ring_run32() with EDI = regs (below 4 GiB).
; Only the low halves are loaded and stored.
probe_rdpmc32:
	mov eax, [edi]
	mov ecx, [edi + 8]
	mov edx, [edi + 16]
probe_rdpmc32_insn:
	rdpmc
.resume:
	mov [edi], eax
	mov [edi + 8], ecx
	mov [edi + 16], edx
	jmp ring_exit32
	EXTABLE probe_rdpmc32_insn, probe_rdpmc32_insn.resume, EXTABLE_CAPTURE

BITS 64
; void probe_rdpmc_flags64_body(struct flags_probe *p), any CPL in 64-bit mode:
; RCX from p->rcx, the arithmetic flags (CF PF AF ZF SF OF) from
; p->rflags_in; RAX, RDX and RFLAGS after the RDPMC (or its fault) out.
FLAGS_ARITH equ 0x8D5
probe_rdpmc_flags64_body:
	push rbx
	mov rcx, [rdi]
	mov rbx, [rdi + 8]
	mov rax, [rdi + 24]
	mov rdx, [rdi + 32]
	pushfq
	and qword [rsp], ~FLAGS_ARITH
	or [rsp], rbx
	popfq
probe_rdpmc_flags64_insn:
	rdpmc
.resume:
	pushfq
	pop qword [rdi + 16]
	mov [rdi + 24], rax
	mov [rdi + 32], rdx
	mov [rdi], rcx
	pop rbx
	ret
	EXTABLE probe_rdpmc_flags64_insn, probe_rdpmc_flags64_insn.resume, EXTABLE_CAPTURE
