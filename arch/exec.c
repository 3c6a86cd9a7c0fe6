/* The execute-in-context primitive (kernel/exec.h) on the real CPU. */
#include "exec.h"

#include <stddef.h>

#include "apic.h"
#include "cpu.h"
#include "cpus.h"
#include "extable.h"
#include "hooks.h"
#include "legacy.h"
#include "probe.h"
#include "ring.h"
#include "trap.h"

bool exec_available(const struct exec_state *state, struct strbuf *why_not)
{
	if (state->cpl > 3) {
		strbuf_printf(why_not, "CPL %u does not exist", state->cpl);
		return false;
	}
	/* The mode switches save one CPU's state (arch/legacy.c) and the
	 * 32-bit bodies run on CPU 0's low memory. */
	if (state->mode != MODE_LONG && platform_this_cpu() != 0) {
		strbuf_printf(why_not, "compatibility and legacy modes run on CPU 0 only, not on CPU %u",
			      platform_this_cpu());
		return false;
	}
	if (state->mode != MODE_LONG && state->mode != MODE_COMPAT)
		return legacy_available(state->mode, state->cpl, why_not);
	return true;
}

static void begin(void)
{
	captured_fault.happened = false;
}

static void finish(struct exec_outcome *out, const char *insn,
		   const struct probe_regs *regs)
{
	out->faulted = captured_fault.happened;
	out->vector = out->faulted ? captured_fault.vector : 0;
	out->error_code = out->faulted ? captured_fault.error_code : 0;
	out->fault_rip = out->faulted ? captured_fault.rip : 0;
	out->insn_rip = (uint64_t)insn;
	out->rax = regs->rax;
	out->rcx = regs->rcx;
	out->rdx = regs->rdx;
}

static void rdpmc_in_ring(void *regs)
{
	probe_rdpmc64(regs);
}

/*
 * Real-address, virtual-8086 and legacy protected mode (arch/legacy.h).
 * Real-address mode pushes no error code (SDM Vol. 3A 21.1.4) and the
 * SDM's real-mode exception lists name a bare #GP: the outcome gives a #GP
 * there error code 0, the code the same #GP pushes in protected mode.
 */
static void rdpmc_legacy(const struct exec_state *state, uint64_t rax,
			 uint64_t rcx, uint64_t rdx, struct exec_outcome *out)
{
	struct legacy_outcome o;

	legacy_run(state->mode, state->cpl, LEGACY_BODY_RDPMC, (uint32_t)rax,
		   (uint32_t)rcx, (uint32_t)rdx, &o);
	out->faulted = o.faulted;
	out->vector = o.vector;
	out->error_code = o.error_code;
	if (state->mode == MODE_REAL && o.faulted && o.vector == VECTOR_GP)
		out->error_code = 0;
	out->fault_rip = o.fault_linear;
	out->insn_rip = legacy_rdpmc_linear();
	out->rax = o.eax;
	out->rcx = o.ecx;
	out->rdx = o.edx;
}

void exec_rdpmc(const struct exec_state *state, uint64_t rax, uint64_t rcx,
		uint64_t rdx, struct exec_outcome *out)
{
	struct probe_regs regs = { rax, rcx, rdx };
	uint64_t cr4 = read_cr4();
	const char *insn = probe_rdpmc64_insn;

	write_cr4(state->pce ? cr4 | CR4_PCE : cr4 & ~(uint64_t)CR4_PCE);
	begin();
	if (state->mode != MODE_LONG && state->mode != MODE_COMPAT) {
		rdpmc_legacy(state, rax, rcx, rdx, out);	/* counts its own */
		write_cr4(cr4);
		return;
	}
	arch_exits(EXIT_RDPMC, 0, 1);
	if (state->mode == MODE_COMPAT) {
		insn = probe_rdpmc32_insn;
		ring_run32(state->cpl, (uint32_t)(uintptr_t)probe_rdpmc32,
			   (uint32_t)(uintptr_t)&regs);
		regs.rax = (uint32_t)regs.rax;
		regs.rcx = (uint32_t)regs.rcx;
		regs.rdx = (uint32_t)regs.rdx;
	} else if (state->cpl == 0) {
		probe_rdpmc64(&regs);
	} else {
		ring_run64(state->cpl, rdpmc_in_ring, &regs);
	}
	write_cr4(cr4);
	finish(out, insn, &regs);
}

void exec_cr4_pce_set(bool pce)
{
	uint64_t cr4 = read_cr4();

	write_cr4(pce ? cr4 | CR4_PCE : cr4 & ~(uint64_t)CR4_PCE);
}

bool exec_cr4_pce(void)
{
	return (read_cr4() & CR4_PCE) != 0;
}

void exec_rdpmc_kept_cr4(unsigned cpl, uint64_t rax, uint64_t rcx,
			 uint64_t rdx, struct exec_outcome *out)
{
	struct probe_regs regs = { rax, rcx, rdx };

	begin();
	arch_exits(EXIT_RDPMC, 0, 1);
	if (cpl == 0)
		probe_rdpmc64(&regs);
	else
		ring_run64(cpl, rdpmc_in_ring, &regs);
	finish(out, probe_rdpmc64_insn, &regs);
}

/* arch/rdpmc_batch.asm */
struct rdpmc_batch_args {
	uint64_t rax, rdx;
	const uint64_t *rcx;
	uint64_t n;
	struct exec_outcome *out;
};

extern void rdpmc_batch64(const struct rdpmc_batch_args *args);

_Static_assert(offsetof(struct exec_outcome, faulted) == 0 &&
	       offsetof(struct exec_outcome, vector) == 1 &&
	       offsetof(struct exec_outcome, error_code) == 4 &&
	       offsetof(struct exec_outcome, fault_rip) == 8 &&
	       offsetof(struct exec_outcome, insn_rip) == 16 &&
	       offsetof(struct exec_outcome, rax) == 24 &&
	       offsetof(struct exec_outcome, rcx) == 32 &&
	       offsetof(struct exec_outcome, rdx) == 40 &&
	       sizeof(struct exec_outcome) == 48,
	       "arch/rdpmc_batch.asm stores struct exec_outcome at these offsets");

static void rdpmc_batch_in_ring(void *args)
{
	rdpmc_batch64(args);
}

/* ENC-2: a CPUID between consecutive RDPMCs, one probe at a time. */
static void serialized_batch_in_ring(void *arg)
{
	const struct rdpmc_batch_args *b = arg;

	for (uint64_t i = 0; i < b->n; i++) {
		struct probe_regs regs = { b->rax, b->rcx[i], b->rdx };

		if (i)
			cpuid(0, 0);
		begin();
		probe_rdpmc64(&regs);
		finish(&b->out[i], probe_rdpmc64_insn, &regs);
	}
}

void exec_rdpmc_batch(const struct exec_state *state, uint64_t rax,
		      uint64_t rdx, const uint64_t *rcx, unsigned n,
		      bool serialize, struct exec_outcome *out)
{
	struct rdpmc_batch_args args = { rax, rdx, rcx, n, out };
	void (*in_ring)(void *) = serialize ? serialized_batch_in_ring
					    : rdpmc_batch_in_ring;
	uint64_t cr4 = read_cr4();

	/* No 32-bit loop: one by one. Each call writes CR4 and enters the
	 * ring by IRETQ, both serializing, so `serialize` holds anyway. */
	if (state->mode != MODE_LONG) {
		for (unsigned i = 0; i < n; i++)
			exec_rdpmc(state, rax, rcx[i], rdx, &out[i]);
		return;
	}
	write_cr4(state->pce ? cr4 | CR4_PCE : cr4 & ~(uint64_t)CR4_PCE);
	arch_exits(EXIT_RDPMC, 0, n);	/* the serialising CPUIDs count their own */
	if (state->cpl == 0)
		in_ring(&args);
	else
		ring_run64(state->cpl, in_ring, &args);
	write_cr4(cr4);
}

void exec_rdmsr(uint32_t msr, struct exec_outcome *out)
{
	struct probe_regs regs = { 0, msr, 0 };

	arch_exits(EXIT_RDMSR, 0, 1);
	begin();
	probe_rdmsr(&regs);
	finish(out, probe_rdmsr_insn, &regs);
}

void exec_wrmsr(uint32_t msr, uint64_t value, struct exec_outcome *out)
{
	struct probe_regs regs = { (uint32_t)value, msr, value >> 32 };

	arch_exits(EXIT_WRMSR, 0, 1);
	begin();
	probe_wrmsr(&regs);
	finish(out, probe_wrmsr_insn, &regs);
}

/* arch/known_loop.asm */
extern void known_loop(uint64_t iterations);

static void known_loop_in_ring(void *iterations)
{
	known_loop(*(const uint64_t *)iterations);
}

void exec_known_loop(unsigned cpl, uint64_t iterations)
{
	if (cpl == 0)
		known_loop(iterations);
	else
		ring_run64(cpl, known_loop_in_ring, &iterations);
	interrupt_window();
}

/* arch/string_loop.asm */
extern void string_loop(uint64_t iterations);

static void string_loop_in_ring(void *iterations)
{
	string_loop(*(const uint64_t *)iterations);
}

void exec_string_loop(unsigned cpl, uint64_t iterations)
{
	if (cpl == 0)
		string_loop(iterations);
	else
		ring_run64(cpl, string_loop_in_ring, &iterations);
	interrupt_window();
}

uint64_t exec_rdtsc(void)
{
	return rdtsc();
}

/* arch/exiting_loop.asm */
extern void cpuid_loop(uint64_t iterations);
extern void rdmsr_loop(uint64_t iterations);
extern void port_in_loop(uint64_t iterations);

static void cpuid_loop_in_ring(void *iterations)
{
	cpuid_loop(*(const uint64_t *)iterations);
}

void exec_exiting_loop(enum exiting_insn insn, unsigned cpl,
		       uint64_t iterations)
{
	if (insn == EXITING_RDMSR)	/* CPL 0 only (kernel/exec.h) */
		rdmsr_loop(iterations);
	else if (insn == EXITING_PORT_IN)	/* CPL 0 only, likewise */
		port_in_loop(iterations);
	else if (cpl == 0)
		cpuid_loop(iterations);
	else
		ring_run64(cpl, cpuid_loop_in_ring, &iterations);
	interrupt_window();
}

bool exec_lvt_pc_available(struct strbuf *why_not)
{
	return apic_available(why_not);
}

uint32_t exec_lvt_pc_read(void)
{
	return apic_lvt_pc_read();
}

void exec_lvt_pc_write(uint32_t value)
{
	apic_lvt_pc_write(value);
}
