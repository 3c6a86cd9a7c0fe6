/*
 * The world switch of a mediated vPMU as the simulated hypervisor does
 * it (sim_switch.h). The counters live in struct sim_cpu, which stands
 * for the hardware while the vCPU runs and for its saved state while it
 * does not: a faithful save and load change nothing. What the switch
 * must carry across is the PMI: one still on its way when the vCPU leaves
 * guest mode (PMI-1's skid past a VM exit), and one the hypervisor's own
 * count of an instruction it completes raises out of guest mode (EXIT-1,
 * OVF-6), are held as requests and injected at the next entry, once;
 * a request wakes a halted vCPU. KVM's mediated vPMU does it so
 * (arch/x86/kvm/pmu.c: kvm_mediated_pmu_load() and _put() around the
 * inner run loop of vcpu_enter_guest(), kvm_pmu_incr_counter() setting
 * the global status and KVM_REQ_PMI).
 */
#include "sim_switch.h"

#include "sim_count.h"

#define LVT_MASKED	(1u << 16)

static bool has(const struct sim_cpu *cpu, enum deviation d)
{
	return cpu->deviation == d;
}

void sim_switch_exit(struct sim_cpu *cpu)
{
	cpu->out_of_guest = true;
	for (unsigned masked = 0; masked < 2; masked++) {
		/* DEV_PMI_DROPPED_AT_EXIT: the host, finding the vCPU out
		 * of guest mode, takes the late PMI for its own. */
		if (!has(cpu, DEV_PMI_DROPPED_AT_EXIT))
			cpu->pmi_requested[masked] += cpu->pmi_in_flight[masked];
		cpu->pmi_in_flight[masked] = 0;
	}
}

void sim_switch_request_pmi(struct sim_cpu *cpu, bool masked)
{
	/* DEV_EXIT_OVERFLOW_NO_PMI: the status bit set, no request. */
	if (!has(cpu, DEV_EXIT_OVERFLOW_NO_PMI))
		cpu->pmi_requested[masked]++;
}

void sim_switch_enter(struct sim_cpu *cpu)
{
	cpu->out_of_guest = false;
	for (unsigned masked = 0; masked < 2; masked++)
		while (cpu->pmi_requested[masked]) {
			cpu->pmi_requested[masked]--;
			sim_pmi_signal(cpu, masked);
		}
}

void sim_switch_halt(struct sim_cpu *cpu)
{
	sim_switch_exit(cpu);
	sim_switch_enter(cpu);	/* a request wakes it: taken in its halt */
}

/* DEV_PMI_AGAIN_AT_REENTRY: the load raises a PMI for every overflow bit
 * of the saved status whose counter interrupts, signalled or not. */
static void again(struct sim_cpu *cpu, struct sim_counter *c, unsigned n)
{
	bool masked = (cpu->lvt_pc & LVT_MASKED) != 0;
	uint64_t bit;

	for (unsigned x = 0; x < n; x++)
		if (c[x].present && sim_status_bit(cpu, &c[x], &bit) &&
		    (cpu->global_status & bit) && sim_counter_interrupts(cpu, &c[x]))
			sim_pmi_signal(cpu, masked);
}

void sim_switch_resume(struct sim_cpu *cpu)
{
	sim_pmi_land(cpu);
	sim_switch_enter(cpu);
	if (has(cpu, DEV_PMI_AGAIN_AT_REENTRY)) {
		again(cpu, cpu->gp, SIM_INDEX_BITS);
		again(cpu, cpu->fixed, SIM_INDEX_BITS);
		again(cpu, cpu->amd_core, SIM_AMD_CORE);
	}
	if (has(cpu, DEV_COUNTERS_LOADED_LATE))
		cpu->counters_unloaded = true;
}

void sim_switch_msr_exit(struct sim_cpu *cpu)
{
	cpu->counters_unloaded = false;
}

bool sim_switch_counts(const struct sim_cpu *cpu)
{
	return !cpu->counters_unloaded;
}
