/*
 * The execute-in-context primitive every conformance check is written
 * against: run one instruction in a given execution state with chosen
 * registers, and return what happened. The kernel implements it on the CPU
 * (arch/exec.c); a host program can implement it on a simulated CPU.
 */
#ifndef PMCTEST_EXEC_H
#define PMCTEST_EXEC_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"
#include "strbuf.h"

#define EXEC_NO_ERROR_CODE 0xFFFFFFFFu

struct exec_outcome {
	bool faulted;
	uint8_t vector;		/* when faulted */
	uint32_t error_code;	/* when faulted; EXEC_NO_ERROR_CODE if none */
	uint64_t fault_rip;	/* when faulted: the RIP the CPU saved */
	uint64_t insn_rip;	/* where the instruction is */
	/* The registers after the instruction (or after the fault). Outside
	 * 64-bit mode these are the 32-bit registers, zero-extended. */
	uint64_t rax, rcx, rdx;
};

/* EDX:EAX of an outcome: the 64-bit value RDPMC or RDMSR returned. */
static inline uint64_t edx_eax(const struct exec_outcome *o)
{
	return (o->rdx & 0xFFFFFFFF) << 32 | (o->rax & 0xFFFFFFFF);
}

/* Whether exec_rdpmc() can run in this state here; if not, why (for SKIP). */
bool exec_available(const struct exec_state *state, struct strbuf *why_not);

/* RDPMC in state (mode, CPL, CR4.PCE) with RAX, RCX, RDX as given. */
void exec_rdpmc(const struct exec_state *state, uint64_t rax, uint64_t rcx,
		uint64_t rdx, struct exec_outcome *out);

/*
 * n RDPMCs in state, one per rcx[i], with RAX and RDX as given before each:
 * out[i] is what exec_rdpmc(state, rax, rcx[i], rdx) would return, but the
 * state is entered once for the whole batch (sweeps). With serialize, a
 * CPUID runs in the same state between consecutive RDPMCs (ENC-2).
 */
void exec_rdpmc_batch(const struct exec_state *state, uint64_t rax,
		      uint64_t rdx, const uint64_t *rcx, unsigned n,
		      bool serialize, struct exec_outcome *out);

/* RDMSR / WRMSR at CPL 0. */
void exec_rdmsr(uint32_t msr, struct exec_outcome *out);
void exec_wrmsr(uint32_t msr, uint64_t value, struct exec_outcome *out);

#endif
