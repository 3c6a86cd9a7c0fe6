/*
 * The execute-in-context primitive (kernel/exec.h) on the simulated CPU:
 * every mode and CPL exists here. An instruction that completes retires at
 * its CPL, so running counters advance between executions; the known loop
 * retires what its code does, inside the noise of the code around it.
 */
#include "exec.h"

#include "sim_count.h"
#include "sim_cpu.h"
#include "sim_cpus.h"
#include "sim_exit.h"
#include "sim_msr.h"
#include "sim_rdpmc.h"

#define SIM_RDMSR_RIP	0x402000ull
#define SIM_WRMSR_RIP	0x403000ull
#define VECTOR_GP	13

static unsigned cpl_of(const struct exec_state *state)
{
	return state->mode == MODE_V86 ? 3 : state->cpl;
}

bool exec_available(const struct exec_state *state, struct strbuf *why_not)
{
	if (state->cpl > 3) {
		strbuf_printf(why_not, "CPL %u does not exist", state->cpl);
		return false;
	}
	if (state->mode == MODE_REAL && state->cpl != 0) {
		strbuf_printf(why_not, "real-address mode runs at CPL 0, not %u",
			      state->cpl);
		return false;
	}
	if (state->mode == MODE_V86 && state->cpl != 3) {
		strbuf_printf(why_not, "virtual-8086 mode runs at CPL 3, not %u",
			      state->cpl);
		return false;
	}
	return true;
}

void exec_rdpmc(const struct exec_state *state, uint64_t rax, uint64_t rcx,
		uint64_t rdx, struct exec_outcome *out)
{
	sim_rdpmc(sim_this(), state, rax, rcx, rdx, out);
	if (!out->faulted)
		sim_retire(sim_this(), cpl_of(state));
}

void exec_rdpmc_batch(const struct exec_state *state, uint64_t rax,
		      uint64_t rdx, const uint64_t *rcx, unsigned n,
		      bool serialize, struct exec_outcome *out)
{
	for (unsigned i = 0; i < n; i++) {
		if (serialize && i > 0)
			sim_exit_complete(sim_this(), cpl_of(state), SIM_EXIT_OTHER); /* CPUID, ENC-2 */
		exec_rdpmc(state, rax, rcx[i], rdx, &out[i]);
	}
}

static void msr_outcome(bool done, uint64_t rip, uint64_t rax, uint32_t msr,
			uint64_t rdx, struct exec_outcome *out)
{
	*out = (struct exec_outcome){
		.faulted = !done,
		.vector = done ? 0 : VECTOR_GP,
		.error_code = 0,
		.fault_rip = done ? 0 : rip,
		.insn_rip = rip,
		.rax = rax, .rcx = msr, .rdx = rdx,
	};
	if (done)	/* an intercepted instruction (EXIT-1) */
		sim_exit_complete(sim_this(), 0, SIM_EXIT_OTHER);
}

void exec_rdmsr(uint32_t msr, struct exec_outcome *out)
{
	uint64_t value = 0;
	bool done;

	sim_cpus_msr_exit();
	done = sim_rdmsr(sim_this(), msr, &value);

	msr_outcome(done, SIM_RDMSR_RIP, done ? (uint32_t)value : 0, msr,
		    done ? value >> 32 : 0, out);
}

void exec_wrmsr(uint32_t msr, uint64_t value, struct exec_outcome *out)
{
	bool done;

	sim_cpus_msr_exit();
	done = sim_wrmsr(sim_this(), msr, value);

	msr_outcome(done, SIM_WRMSR_RIP, (uint32_t)value, msr, value >> 32, out);
}

void exec_cr4_pce_set(bool pce)
{
	if (sim_this()->deviation == DEV_PCE_SHARED)
		for (unsigned cpu = 0; cpu < sim_cpu_total; cpu++)
			sim_cpus[cpu].cr4_pce = pce;
	sim_this()->cr4_pce = pce;
}

bool exec_cr4_pce(void)
{
	return sim_this()->cr4_pce;
}

void exec_rdpmc_kept_cr4(unsigned cpl, uint64_t rax, uint64_t rcx,
			 uint64_t rdx, struct exec_outcome *out)
{
	const struct exec_state state = { MODE_LONG, cpl, sim_this()->cr4_pce };

	exec_rdpmc(&state, rax, rcx, rdx, out);
}

/* A number in [0, n): the xorshift64 of the simulated CPU. */
static uint64_t noise(uint64_t n)
{
	sim_this()->noise ^= sim_this()->noise << 13;
	sim_this()->noise ^= sim_this()->noise >> 7;
	sim_this()->noise ^= sim_this()->noise << 17;
	return sim_this()->noise % n;
}

/* What a real CPU counts around the loop, as arch/exec.c runs it: the ring
 * entry (IRETQ, call) and exit (UD2's #UD, the handler) at CPL 0 and at
 * cpl, a few stall cycles that vary from run to run, and a skid of one
 * instruction at CPL 0 where the stopping WRMSR lands. An exact count
 * fails against this, as it would on hardware; 0.1% plus 2 holds. */
#define ENTRY_KERNEL	40	/* instructions at CPL 0 */
#define ENTRY_RING	3	/* instructions at cpl before the loop */
#define STALL_MAX	64	/* cycles */

static void around_loop(unsigned cpl)
{
	if (cpl != 0) {
		sim_execute(sim_this(), &(struct sim_work){ 0, ENTRY_KERNEL, 1, 0 });
		sim_execute(sim_this(), &(struct sim_work){ cpl, ENTRY_RING, 1, 1 });
	}
	sim_execute(sim_this(), &(struct sim_work){ cpl, noise(STALL_MAX), 0, 0 });
	sim_execute(sim_this(), &(struct sim_work){ 0, noise(2), 1, 0 });
}

void exec_known_loop(unsigned cpl, uint64_t iterations)
{
	if (sim_this()->deviation == DEV_AP_HANGS && sim_this()->index != 0)
		sim_cpu_hang();
	around_loop(cpl);
	/* arch/known_loop.asm: mov; (dec, jnz) x iterations; ret. */
	sim_execute(sim_this(), &(struct sim_work){ cpl, 1, 1, 0 });
	sim_execute(sim_this(), &(struct sim_work){ cpl, iterations,
			KNOWN_LOOP_INSTRUCTIONS, KNOWN_LOOP_BRANCHES });
	sim_execute(sim_this(), &(struct sim_work){ cpl, 1, 1, 1 });
	around_loop(cpl);
	sim_pmi_land(sim_this());	/* the interrupt window */
}

/* arch/string_loop.asm: mov, xor, cld; (lea, mov, rep stosb, dec, jnz) x
 * iterations; ret. Each REP STOSB stores STRING_LOOP_BYTES a line of 64
 * at a time, a cycle each, after STRING_STARTUP cycles; the iteration's
 * other four instructions retire one a cycle (REF-1, REF-2). */
#define STRING_STARTUP	30
#define STRING_CYCLES	(STRING_STARTUP + STRING_LOOP_BYTES / 64)

void exec_string_loop(unsigned cpl, uint64_t iterations)
{
	around_loop(cpl);
	sim_execute(sim_this(), &(struct sim_work){ cpl, 3, 1, 0 });
	sim_execute(sim_this(), &(struct sim_work){ cpl,
			iterations * (STRING_CYCLES - 1), 0, 0 });
	sim_execute(sim_this(), &(struct sim_work){ cpl,
			iterations * (STRING_LOOP_INSTRUCTIONS - 1), 1, 0 });
	sim_execute(sim_this(), &(struct sim_work){ cpl, iterations, 1,
			STRING_LOOP_BRANCHES });
	sim_execute(sim_this(), &(struct sim_work){ cpl, 1, 1, 1 });
	around_loop(cpl);
}

/* RDTSC at CPL 0: the TSC as it reads, then the instruction retires. */
uint64_t exec_rdtsc(void)
{
	uint64_t tsc = sim_tsc();

	sim_retire(sim_this(), 0);
	return tsc;
}

/* arch/exiting_loop.asm: per iteration mov, the instruction (which the
 * simulated hypervisor completes), dec + jnz; then the loop's ret. */
void exec_exiting_loop(enum exiting_insn insn, unsigned cpl,
		       uint64_t iterations)
{
	/* CPUID, RDMSR and IN retire alike: one instruction each */
	enum sim_exit_kind kind = insn == EXITING_PORT_IN ? SIM_EXIT_PORT_IO
							  : SIM_EXIT_OTHER;

	around_loop(cpl);
	if (insn == EXITING_RDMSR)
		sim_cpus_msr_exit();
	for (uint64_t i = 0; i < iterations; i++) {
		sim_execute(sim_this(), &(struct sim_work){ cpl, 1, 1, 0 });
		sim_exit_complete(sim_this(), cpl, kind);
		sim_execute(sim_this(), &(struct sim_work){ cpl, 1, 2, 1 });
	}
	sim_execute(sim_this(), &(struct sim_work){ cpl, 1, 1, 1 });
	around_loop(cpl);
	sim_pmi_land(sim_this());	/* the interrupt window */
}

bool exec_lvt_pc_available(struct strbuf *why_not)
{
	(void)why_not;
	return true;
}

uint32_t exec_lvt_pc_read(void)
{
	return sim_this()->lvt_pc;
}

void exec_lvt_pc_write(uint32_t value)
{
	sim_this()->lvt_pc = value;
}
