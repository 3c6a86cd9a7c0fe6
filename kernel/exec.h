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

/*
 * CR4.PCE as the executing CPU keeps it between executions, for the checks
 * that need two CPUs with different CR4.PCE at the same time (SMP-2): each
 * logical processor has its own CR4. exec_cr4_pce_set() writes it,
 * exec_cr4_pce() reads it, and exec_rdpmc_kept_cr4() runs RDPMC in 64-bit
 * mode at CPL cpl under it, where exec_rdpmc() sets CR4.PCE from its state
 * and restores it afterwards. The contained run of a test restores CR4 on
 * the CPU that ran it; a check that sets it on another CPU sets it back.
 */
void exec_cr4_pce_set(bool pce);
bool exec_cr4_pce(void);
void exec_rdpmc_kept_cr4(unsigned cpl, uint64_t rax, uint64_t rcx,
			 uint64_t rdx, struct exec_outcome *out);

/*
 * The known loop (arch/known_loop.asm), the workload the counting checks
 * count: each iteration retires exactly these many instructions and
 * branches (dec + jnz; the jnz).
 */
#define KNOWN_LOOP_INSTRUCTIONS	2
#define KNOWN_LOOP_BRANCHES	1

/*
 * Run the known loop of `iterations` (>= 1) at CPL cpl in 64-bit mode, then
 * open an interrupt window at CPL 0, so that an interrupt the loop raised (a
 * PMI) is taken before this returns. Running counters count the loop and
 * whatever the CPU counts of entering and leaving the ring around it.
 */
void exec_known_loop(unsigned cpl, uint64_t iterations);

/*
 * The string loop (arch/string_loop.asm): the known loop's shape with a
 * REP STOSB of STRING_LOOP_BYTES in each iteration, which retires once,
 * takes many cycles on a processor and many more under an emulator, and
 * no hypervisor intercepts: the second workload of the reference-cycle
 * checks (REF-1, REF-2), whose instructions per TSC tick are far below
 * the known loop's everywhere. Each iteration retires these many
 * instructions and branches (lea, mov, rep stosb, dec, jnz; the jnz).
 * Afterwards the same interrupt window as exec_known_loop().
 */
#define STRING_LOOP_INSTRUCTIONS	5
#define STRING_LOOP_BRANCHES		1
#define STRING_LOOP_BYTES		512

void exec_string_loop(unsigned cpl, uint64_t iterations);

/* The time-stamp counter, RDTSC at CPL 0: what the reference-cycle checks
 * (REF-1, REF-2) measure a run against. */
uint64_t exec_rdtsc(void);

/*
 * The exiting loop, the workload of the checks of instructions a
 * hypervisor intercepts and completes itself (EXIT-1): each iteration
 * loads a register, executes the instruction, and loops (dec + jnz), so it
 * retires these many instructions and branches (arch/exiting_loop.asm).
 * CPUID runs at any CPL; RDMSR (of IA32_APIC_BASE, 1BH, which every
 * x86-64 processor has) and IN (from port 80H, the POST-code port every
 * PC decodes) at CPL 0 only. Afterwards the same interrupt window as
 * exec_known_loop().
 */
enum exiting_insn { EXITING_CPUID, EXITING_RDMSR, EXITING_PORT_IN };

#define EXITING_LOOP_INSTRUCTIONS	4
#define EXITING_LOOP_BRANCHES		1

void exec_exiting_loop(enum exiting_insn insn, unsigned cpl,
		       uint64_t iterations);

/*
 * The local APIC's LVT performance-counter entry, through which a counter
 * overflow raises its PMI (PMI-1). Interrupts taken are counted in
 * kernel/interrupt_log.h. exec_lvt_pc_available() says why not, if the
 * target has no usable local APIC.
 */
#define LVT_MASKED	(1u << 16)
#define LVT_VECTOR(v)	((v) & 0xFFu)

bool exec_lvt_pc_available(struct strbuf *why_not);
uint32_t exec_lvt_pc_read(void);
void exec_lvt_pc_write(uint32_t value);

/* RDMSR / WRMSR at CPL 0. */
void exec_rdmsr(uint32_t msr, struct exec_outcome *out);
void exec_wrmsr(uint32_t msr, uint64_t value, struct exec_outcome *out);

#endif
