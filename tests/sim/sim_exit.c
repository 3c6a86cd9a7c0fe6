/*
 * The simulated hypervisor's account of an instruction it completed
 * itself (EXIT-1): one retired instruction at the CPL it ran at, in every
 * counter of instructions retired that counts at that CPL, CMASK, INV and
 * EDGE applied as to a cycle that retired one instruction (EXIT-2), the
 * wrap, status and PMI as for any count (OVF-6), its PMI injected as the
 * vCPU enters guest mode again (sim_switch.h). None of the instructions
 * it intercepts is a branch. Each deviation is one way KVM got this wrong.
 */
#include "sim_exit.h"

#include "sim_count.h"
#include "sim_switch.h"

#define EXIT_STALL	6	/* cycles the guest spends on the instruction */

static bool has(const struct sim_cpu *cpu, enum deviation d)
{
	return cpu->deviation == d;
}

/* DEV_EXIT_OVERFLOW_EARLY: the increment truncates the count to its width
 * and compares it with the count before, untruncated: after a
 * sign-extended IA32_PMCx write the old count is above the new one, an
 * overflow at once (KVM's kvm_pmu_incr_counter() before 2023). */
static void add_untruncated(struct sim_cpu *cpu, struct sim_counter *c,
			    const struct sim_counting *k, uint64_t by)
{
	uint64_t mask = c->width < 64 ? (1ull << c->width) - 1 : ~0ull;
	uint64_t before = c->raw;

	c->raw = (c->raw + by) & mask;
	if (by && c->raw < before)
		sim_overflow(cpu, c, k);
}

static void account(struct sim_cpu *cpu, struct sim_counter *c,
		    const struct sim_counting *k, void *arg)
{
	const struct sim_stretch *one = arg;
	uint64_t by;

	if (k->event != SIM_EV_INSTRUCTIONS)
		return;
	by = has(cpu, DEV_EXITS_COUNTED_DESPITE_CMASK)
	     ? 1 : sim_increment(cpu, c, k, one);
	if (has(cpu, DEV_EXIT_OVERFLOW_EARLY))
		add_untruncated(cpu, c, k, by);
	else
		sim_advance(cpu, c, k, by);
}

void sim_exit_complete(struct sim_cpu *cpu, unsigned cpl,
		       enum sim_exit_kind kind)
{
	struct sim_stretch one = { { cpl, 1, 1, 0 }, 0, 0 };
	bool dropped = kind == SIM_EXIT_PORT_IO &&
		       has(cpu, DEV_PORT_IO_NOT_COUNTED);

	sim_pmi_release();	/* the host's work at the exit */
	sim_execute(cpu, &(struct sim_work){ cpl, EXIT_STALL, 0, 0 });
	sim_switch_exit(cpu);	/* out of guest mode: the account is its */
	if (!dropped && !has(cpu, DEV_EXITS_NOT_COUNTED))
		sim_for_each_counting(cpu, cpl, account, &one);
	sim_switch_enter(cpu);
}
