; Timed batches for the bench.* group (tests/kernel/bench.c): BENCH_BATCH
; executions of one instruction between two serialised TSC reads. Each
; function returns the TSC difference. The RDPMC and RDMSR instances have
; exception-table entries, so a batch of faulting instructions measures the
; whole round trip: fault, handler, resume at the next instance.

%include "arch/extable.inc"

%define BENCH_BATCH 16		; keep in step with arch/bench_batch.h

global bench_empty, bench_nop, bench_lfence, bench_rdtsc, bench_batch_cpuid
global bench_batch_rdpmc, bench_batch_rdmsr

section .text
BITS 64

; r8 = TSC, serialised by LFENCE on both sides (no earlier instruction is
; still executing, no later one has started).
%macro OPEN 0
	lfence
	rdtsc
	lfence
	shl rdx, 32
	or rax, rdx
	mov r8, rax
%endmacro

; rax = TSC - r8.
%macro CLOSE 0
	lfence
	rdtsc
	lfence
	shl rdx, 32
	or rax, rdx
	sub rax, r8
	ret
%endmacro

; One instruction that may fault: on a fault, resume at the next one.
%macro CAPTURED 1
%%insn:	%1
%%next:
	EXTABLE %%insn, %%next, EXTABLE_CAPTURE
%endmacro

bench_empty:			; uint64_t bench_empty(void): the brackets alone
	OPEN
	CLOSE

bench_nop:
	OPEN
	times BENCH_BATCH nop
	CLOSE

bench_lfence:
	OPEN
	times BENCH_BATCH lfence
	CLOSE

bench_rdtsc:
	OPEN
	times BENCH_BATCH rdtsc
	CLOSE

bench_batch_cpuid:		; leaf 0
	push rbx
	OPEN
%rep BENCH_BATCH
	xor eax, eax
	cpuid
%endrep
	pop rbx
	CLOSE

bench_batch_rdpmc:		; uint64_t bench_batch_rdpmc(uint32_t ecx), any CPL
	OPEN
	mov ecx, edi
%rep BENCH_BATCH
	CAPTURED rdpmc
%endrep
	CLOSE

bench_batch_rdmsr:		; uint64_t bench_batch_rdmsr(uint32_t msr), CPL 0
	OPEN
	mov ecx, edi
%rep BENCH_BATCH
	CAPTURED rdmsr
%endrep
	CLOSE
