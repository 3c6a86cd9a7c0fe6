#include "sim_count.h"

#include "sim_cpus.h"
#include "sim_switch.h"

#define EVTSEL_USR	(1ull << 16)
#define EVTSEL_OS	(1ull << 17)
#define EVTSEL_EDGE	(1ull << 18)
#define EVTSEL_INT	(1ull << 20)
#define EVTSEL_EN	(1ull << 22)
#define EVTSEL_INV	(1ull << 23)
#define EVTSEL_CMASK(c)	((unsigned)((c) >> 24) & 0xFFu)
#define AMD_GUEST_ONLY	(1ull << 40)	/* AMD-6 */
#define AMD_HOST_ONLY	(1ull << 41)
#define EFER_SVME	(1ull << 12)

#define FIXED_OS(i)	(1ull << (4 * (i)))
#define FIXED_USR(i)	(1ull << (4 * (i) + 1))
#define FIXED_ANY(i)	(1ull << (4 * (i) + 2))	/* PROG-11 */
#define FIXED_PMI(i)	(1ull << (4 * (i) + 3))
#define FIXED_FIELDS	16	/* IA32_FIXED_CTR_CTRL: 4 bits for 0..15 */
#define FIXED_SLOTS	3	/* TOPDOWN.SLOTS, MET-1 */
#define GLOBAL_EN_METRICS	48

#define DEBUGCTL_FREEZE_PERFMON	(1ull << 12)	/* PMI-6 */
#define STATUS_CTR_FRZ		(1ull << 59)	/* version 4 and up */

#define LVT_MASKED	(1u << 16)

/* Stall cycles of an instruction outside the loop; slots per cycle; and
 * what PERF_METRICS holds once slots have been counted: four level-1
 * fractions, retiring 55H, bad speculation 15H, frontend bound 3CH and
 * backend bound 59H, which sum to 0FFH (MET-4). */
#define SIM_STALL	6
#define SIM_SLOTS	4
#define SIM_METRICS	0x00000000593C1555ull

static bool has(const struct sim_cpu *cpu, enum deviation d)
{
	return cpu->deviation == d;
}

static uint64_t mask_of(const struct sim_counter *c)
{
	return c->width < 64 ? (1ull << c->width) - 1 : ~0ull;
}

/* PROG-4 architectural events (Intel) and AMD's core events; AMD-5: on
 * AMD bits 35:32 are EventSelect[11:8]. */
static enum sim_event select_event(const struct sim_cpu *cpu, uint64_t control)
{
	unsigned event = control & 0xFF, umask = (control >> 8) & 0xFF;

	if (cpu->enumeration.vendor == VENDOR_AMD) {
		event |= (unsigned)(control >> 32 & 0xF) << 8;
		umask = 0;
	}
	if (event == 0xC0 && umask == 0)
		return SIM_EV_INSTRUCTIONS;
	if ((event == 0xC4 && cpu->enumeration.vendor == VENDOR_INTEL) ||
	    (event == 0xC2 && cpu->enumeration.vendor == VENDOR_AMD))
		return has(cpu, DEV_BRANCHES_AS_INSTRUCTIONS) ? SIM_EV_INSTRUCTIONS
							       : SIM_EV_BRANCHES;
	/* REF-2: UnHalted Reference Cycles at a fixed frequency, here the
	 * crystal's (as Skylake's CPU_CLK_THREAD_UNHALTED.REF_XCLK) */
	if (event == 0x3C && umask == 1)
		return has(cpu, DEV_REF_CYCLES_PER_INSTRUCTION)
		       ? SIM_EV_INSTRUCTIONS : SIM_EV_REF_CRYSTAL;
	if ((event == 0x3C && umask == 0) || event == 0x76)
		return SIM_EV_CYCLES;
	if (event == 0xA4 && umask == 1)
		return SIM_EV_SLOTS;
	return SIM_EV_NONE;
}

static struct sim_counting from_select(const struct sim_cpu *cpu, uint64_t control)
{
	return (struct sim_counting){
		.event = select_event(cpu, control),
		.cmask = EVTSEL_CMASK(control),
		.inv = (control & EVTSEL_INV) != 0,
		.edge = (control & EVTSEL_EDGE) != 0,
		.interrupt = (control & EVTSEL_INT) != 0,
	};
}

/* Events per core cycle; a reference clock ticks at most once a cycle. */
static unsigned per_cycle(enum sim_event e, const struct sim_work *w)
{
	switch (e) {
	case SIM_EV_INSTRUCTIONS: return w->instructions;
	case SIM_EV_BRANCHES: return w->branches;
	case SIM_EV_CYCLES: return 1;
	case SIM_EV_SLOTS: return SIM_SLOTS;
	case SIM_EV_REF_TSC: return 1;
	case SIM_EV_REF_CRYSTAL: return 1;
	case SIM_EV_NONE: break;
	}
	return 0;
}

/* The events of the stretch: a reference clock's ticks over it, else
 * per_cycle() of every cycle. */
static uint64_t events_of(enum sim_event e, const struct sim_stretch *s)
{
	if (e == SIM_EV_REF_TSC)
		return s->tsc;
	if (e == SIM_EV_REF_CRYSTAL)
		return s->crystal;
	return (uint64_t)per_cycle(e, &s->work) * s->work.cycles;
}

/* PROG-8: with CMASK the counter counts cycles (INV: the comparison
 * inverted; EDGE: only the cycle where the condition becomes true). */
uint64_t sim_increment(struct sim_cpu *cpu, struct sim_counter *c,
		       const struct sim_counting *k, const struct sim_stretch *s)
{
	unsigned n = per_cycle(k->event, &s->work);
	bool inv = k->inv && !has(cpu, DEV_INV_IGNORED);
	bool condition, rising;

	if (k->cmask == 0 || has(cpu, DEV_CMASK_IGNORED))
		return events_of(k->event, s);
	condition = inv ? n < k->cmask : n >= k->cmask;
	rising = condition && !c->condition;
	c->condition = condition;
	if (k->edge && !has(cpu, DEV_EDGE_IGNORED))
		return rising ? 1 : 0;
	return condition ? s->work.cycles : 0;
}

/* PMI-1..4 at the local APIC of `to`: the vector its LVT entry names,
 * unless the entry is masked (`masked`: as the overflow finds it, PMI-2);
 * an Intel local APIC masks the entry as it delivers (PMI-3), an AMD one
 * does not (PMI-4). */
static bool deliver(struct sim_cpu *to, bool masked)
{
	bool intel = to->enumeration.vendor == VENDOR_INTEL;

	if (masked && !has(to, DEV_PMI_WHILE_MASKED))
		return false;
	sim_interrupt_to(to->index, to->lvt_pc & 0xFF);
	if ((intel && !has(to, DEV_LVT_NOT_MASKED_ON_PMI)) ||
	    (!intel && has(to, DEV_AMD_LVT_MASKED_ON_PMI)))
		to->lvt_pc |= LVT_MASKED;
	return true;
}

static bool lvt_masked_now(const struct sim_cpu *cpu)
{
	return (cpu->lvt_pc & LVT_MASKED) != 0;
}

/* DEV_PMI_TO_NEXT_VCPU: a PMI the host has yet to inject. */
static bool pmi_held;

void sim_pmi_release(void)
{
	if (!pmi_held)
		return;
	pmi_held = false;
	deliver(sim_this(), lvt_masked_now(sim_this()));
}

/* SMP-4: the PMI of cpu's counter, at cpu's own local APIC; `masked`:
 * whether its LVT entry is masked as the overflow finds it. */
static bool raise_pmi(struct sim_cpu *cpu, bool masked)
{
	bool any = false;

	if (has(cpu, DEV_PMI_LOST))
		return false;
	if (has(cpu, DEV_PMI_TO_NEXT_VCPU)) {
		pmi_held = true;
		return false;
	}
	if (has(cpu, DEV_PMI_BROADCAST)) {
		for (unsigned n = 0; n < sim_cpu_total; n++)
			any |= deliver(&sim_cpus[n], n == cpu->index
					? masked : lvt_masked_now(&sim_cpus[n]));
		return any;
	}
	if (!has(cpu, DEV_PMI_WRONG_CPU))
		return deliver(cpu, masked);
	if (masked)
		return false;
	sim_interrupt_to((cpu->index + 1) % sim_cpu_total, cpu->lvt_pc & 0xFF);
	if (cpu->enumeration.vendor == VENDOR_INTEL)
		cpu->lvt_pc |= LVT_MASKED;
	return true;
}

void sim_pmi_signal(struct sim_cpu *cpu, bool masked)
{
	if (raise_pmi(cpu, masked) && has(cpu, DEV_PMI_TWICE))
		sim_interrupt_to(cpu->index, cpu->lvt_pc & 0xFF);
}

/* PMI-6: with FREEZE_PERFMON_ON_PMI a PMI request freezes the counters:
 * versions 2 and 3 clear the global enables, 4 and up set CTR_Frz. The
 * PMI itself is on its way (PMI-1's skid: sim_pmi_land()); where the
 * overflow is the hypervisor's own count, out of guest mode, it is the
 * hypervisor's to signal (sim_switch.h). */
static void pmi_request(struct sim_cpu *cpu, bool masked)
{
	if ((cpu->debugctl & DEBUGCTL_FREEZE_PERFMON) &&
	    !has(cpu, DEV_FREEZE_IGNORED)) {
		if (cpu->version >= 4)
			cpu->global_status |= STATUS_CTR_FRZ;
		else
			cpu->global_ctrl = 0;
	}
	if (cpu->out_of_guest)
		sim_switch_request_pmi(cpu, masked);
	else
		cpu->pmi_in_flight[masked]++;
}

void sim_pmi_land(struct sim_cpu *cpu)
{
	for (unsigned masked = 0; masked < 2; masked++)
		while (cpu->pmi_in_flight[masked]) {
			cpu->pmi_in_flight[masked]--;
			sim_pmi_signal(cpu, masked);
		}
}

/* PMI-2: whether the overflow of c finds the LVT entry masked; with
 * DEV_LVT_SAMPLED_AT_WRMSR, whether the entry was masked when the counter
 * was last programmed. */
static bool lvt_masked(const struct sim_cpu *cpu, const struct sim_counter *c)
{
	uint32_t lvt = has(cpu, DEV_LVT_SAMPLED_AT_WRMSR) ? c->lvt_programmed
							  : cpu->lvt_pc;

	return (lvt & LVT_MASKED) != 0;
}

void sim_overflow(struct sim_cpu *cpu, struct sim_counter *c,
		  const struct sim_counting *k)
{
	uint64_t bit;

	if (sim_status_bit(cpu, c, &bit) && !has(cpu, DEV_OVERFLOW_STATUS_LOST))
		cpu->global_status |= bit;
	if (k->interrupt || has(cpu, DEV_PMI_WITHOUT_INT))
		pmi_request(cpu, lvt_masked(cpu, c));
}

/* OVF-1, OVF-5: past all ones the count wraps and the counter overflows;
 * DEV_RUNNING_WRITE_KEEPS_PERIOD puts the overflow where the hypervisor
 * last computed it instead. */
void sim_advance(struct sim_cpu *cpu, struct sim_counter *c,
		 const struct sim_counting *k, uint64_t by)
{
	uint64_t mask = mask_of(c);
	bool wrapped, overflow;

	if (by == 0)
		return;
	wrapped = by > mask - (c->raw & mask);
	overflow = wrapped;
	if (has(cpu, DEV_RUNNING_WRITE_KEEPS_PERIOD)) {
		overflow = by >= c->to_overflow;
		c->to_overflow = overflow ? mask - ((c->raw + by) & mask) + 1
					  : c->to_overflow - by;
	}
	c->raw = wrapped && has(cpu, DEV_COUNTER_SATURATES) ? mask : c->raw + by;
	if (overflow)
		sim_overflow(cpu, c, k);
}

/* PROG-2: OS counts CPL 0, USR counts CPL 1-3. */
static bool ring_enabled(const struct sim_cpu *cpu, uint64_t os, uint64_t usr,
			 uint64_t control, unsigned cpl)
{
	bool at_0 = cpl == 0;

	if (has(cpu, DEV_USR_OS_SWAPPED))
		at_0 = !at_0;
	return (control & (at_0 ? os : usr)) != 0;
}

/* AMD-6: with EFER.SVME = 0 a counter with Host-only or Guest-only set
 * counts nothing; with SVME = 1 the simulated CPU is always the host. */
static bool host_guest_allows(const struct sim_cpu *cpu, uint64_t control)
{
	uint64_t bits = control & (AMD_GUEST_ONLY | AMD_HOST_ONLY);

	if (cpu->enumeration.vendor != VENDOR_AMD || bits == 0)
		return true;
	if (!(cpu->efer & EFER_SVME))
		return false;
	return (bits & AMD_HOST_ONLY) != 0;
}

static bool select_counts(const struct sim_cpu *cpu, uint64_t control,
			  unsigned cpl)
{
	return ((control & EVTSEL_EN) || has(cpu, DEV_EN_IGNORED)) &&
	       ring_enabled(cpu, EVTSEL_OS, EVTSEL_USR, control, cpl) &&
	       host_guest_allows(cpu, control);
}

/* PROG-6: the global enable of counter bit `bit` (version 2 and up,
 * AMD PerfMonV2); PMI-6: CTR_Frz stops every counter (version 4 and up). */
static bool gate_open(const struct sim_cpu *cpu, unsigned bit)
{
	bool intel = cpu->enumeration.vendor == VENDOR_INTEL;
	bool gated = intel ? cpu->version >= 2 : cpu->amd_perfmon_v2;

	if (intel && (cpu->global_status & STATUS_CTR_FRZ))
		return false;
	if (!gated || has(cpu, DEV_GLOBAL_CTRL_IGNORED))
		return true;
	return (cpu->global_ctrl >> bit) & 1;
}

/* DEV_HOST_COUNTER_SHORTAGE: the general-purpose counter the host keeps
 * for itself once the guest enables all of them; -1: none. */
static int taken_by_host(const struct sim_cpu *cpu,
			 const struct sim_counter *gp, unsigned n)
{
	int last = -1;

	if (!has(cpu, DEV_HOST_COUNTER_SHORTAGE))
		return -1;
	for (unsigned x = 0; x < n; x++) {
		if (!gp[x].present)
			continue;
		if (!(gp[x].control & EVTSEL_EN))
			return -1;
		last = (int)x;
	}
	return last;
}

static void each_gp(struct sim_cpu *cpu, struct sim_counter *gp, unsigned n,
		    unsigned cpl, sim_counter_fn *fn, void *arg)
{
	int host = taken_by_host(cpu, gp, n);

	for (unsigned x = 0; x < n; x++) {
		struct sim_counting k = from_select(cpu, gp[x].control);

		if (gp[x].present && select_counts(cpu, gp[x].control, cpl) &&
		    gate_open(cpu, x) && (int)x != host)
			fn(cpu, &gp[x], &k, arg);
	}
}

static void each_intel(struct sim_cpu *cpu, unsigned cpl, sim_counter_fn *fn,
		       void *arg)
{
	/* REF-1: fixed counter 2 counts the TSC's ticks */
	enum sim_event fixed_events[] = {
		SIM_EV_INSTRUCTIONS, SIM_EV_CYCLES,
		has(cpu, DEV_REF_CYCLES_PER_INSTRUCTION) ? SIM_EV_INSTRUCTIONS
							 : SIM_EV_REF_TSC,
		SIM_EV_SLOTS };
	uint64_t ctrl = cpu->fixed_ctrl_counting;

	each_gp(cpu, cpu->gp, SIM_INDEX_BITS, cpl, fn, arg);
	for (unsigned i = 0; i < FIXED_FIELDS && cpu->version >= 2; i++) {
		struct sim_counting k = {
			.event = i < 4 ? fixed_events[i] : SIM_EV_NONE,
			.interrupt = (ctrl & FIXED_PMI(i)) &&
				     !has(cpu, DEV_FIXED_PMI_IGNORED),
		};

		if (cpu->fixed[i].present &&
		    ring_enabled(cpu, FIXED_OS(i), FIXED_USR(i), ctrl, cpl) &&
		    gate_open(cpu, 32 + i))
			fn(cpu, &cpu->fixed[i], &k, arg);
	}
}

/* Northbridge and L2/L3 counters are not per ring: EN alone, cycles. */
static void each_amd(struct sim_cpu *cpu, unsigned cpl, sim_counter_fn *fn,
		     void *arg)
{
	struct sim_counting cycles = { .event = SIM_EV_CYCLES };

	each_gp(cpu, cpu->amd_core, SIM_AMD_CORE, cpl, fn, arg);
	for (unsigned n = 0; n < SIM_AMD_NB; n++)
		if (cpu->amd_nb[n].present && (cpu->amd_nb[n].control & EVTSEL_EN))
			fn(cpu, &cpu->amd_nb[n], &cycles, arg);
	for (unsigned n = 0; n < SIM_AMD_L2; n++)
		if (cpu->amd_l2[n].present && (cpu->amd_l2[n].control & EVTSEL_EN))
			fn(cpu, &cpu->amd_l2[n], &cycles, arg);
}

void sim_for_each_counting(struct sim_cpu *cpu, unsigned cpl,
			   sim_counter_fn *fn, void *arg)
{
	if (cpu->enumeration.vendor == VENDOR_INTEL)
		each_intel(cpu, cpl, fn, arg);
	else if (cpu->enumeration.vendor == VENDOR_AMD)
		each_amd(cpu, cpl, fn, arg);
}

/* The core counts the stretch: every active counter its events,
 * PERF_METRICS its slots (MET-1). */
static void count_work(struct sim_cpu *cpu, struct sim_counter *c,
		       const struct sim_counting *k, void *arg)
{
	const struct sim_stretch *s = arg;

	sim_advance(cpu, c, k, sim_increment(cpu, c, k, s));
	if (c == &cpu->fixed[FIXED_SLOTS] && cpu->perf_metrics &&
	    gate_open(cpu, GLOBAL_EN_METRICS) &&
	    !has(cpu, DEV_METRICS_NOT_COUNTED))
		cpu->metrics = SIM_METRICS;
}

/* A fixed counter with AnyThread set counts the work of another logical
 * processor of its core (PROG-11), or of another vCPU under
 * DEV_ANYTHREAD_ACROSS_VCPUS and DEV_ANYTHREAD_ALL_VCPUS. */
static void count_sibling_work(struct sim_cpu *cpu, struct sim_counter *c,
			       const struct sim_counting *k, void *arg)
{
	for (unsigned i = 0; i < FIXED_FIELDS; i++)
		if (c == &cpu->fixed[i] && (cpu->fixed_ctrl_counting & FIXED_ANY(i)))
			count_work(cpu, c, k, arg);
}

/* Whether other's AnyThread counters count cpu's work: where AnyThread
 * is not deprecated and the two share a core (SMP-8), and wherever
 * DEV_ANYTHREAD_ACROSS_VCPUS (deprecated, passed through) or
 * DEV_ANYTHREAD_ALL_VCPUS (every vCPU taken for the core) is on. */
static bool anythread_reaches(const struct sim_cpu *cpu,
			      const struct sim_cpu *other)
{
	if (has(cpu, DEV_ANYTHREAD_ACROSS_VCPUS) ||
	    has(cpu, DEV_ANYTHREAD_ALL_VCPUS))
		return true;
	return other->version >= 3 && !other->anythread_deprecated &&
	       sim_same_core(cpu, other);
}

/* The core cycles of every stretch so far, on the one time line. */
static uint64_t time_line;

uint64_t sim_tsc(void)
{
	return time_line / SIM_TSC_CYCLES * SIM_TSC_TICKS +
	       time_line % SIM_TSC_CYCLES * SIM_TSC_TICKS / SIM_TSC_CYCLES;
}

void sim_execute(struct sim_cpu *cpu, const struct sim_work *work)
{
	struct sim_stretch s = { *work, 0, 0 };
	uint64_t before = sim_tsc();

	if (work->cycles == 0)
		return;
	time_line += work->cycles;
	s.tsc = sim_tsc() - before;
	s.crystal = sim_tsc() / SIM_CRYSTAL_TSC - before / SIM_CRYSTAL_TSC;
	/* A PMI on its way is taken before the next instruction; stall
	 * cycles retire none (an exit may come first: sim_switch_exit()). */
	if (work->instructions)
		sim_pmi_land(cpu);
	if (sim_switch_counts(cpu))
		sim_for_each_counting(cpu, work->cpl, count_work, &s);
	/* DEV_COUNTS_WHILE_DESCHEDULED: the halted vCPUs' counters stay
	 * loaded and count this one's work (SMP-7). */
	for (unsigned n = 0; n < sim_cpu_total; n++)
		if (has(cpu, DEV_COUNTS_WHILE_DESCHEDULED) && &sim_cpus[n] != cpu)
			sim_for_each_counting(&sim_cpus[n], work->cpl, count_work,
					      &s);
	/* PROG-11: the AnyThread counters of the other logical processors
	 * of this one's core count its work. */
	for (unsigned other = 0; other < sim_cpu_total; other++)
		if (&sim_cpus[other] != cpu && anythread_reaches(cpu, &sim_cpus[other]))
			sim_for_each_counting(&sim_cpus[other], work->cpl,
					      count_sibling_work, &s);
}

void sim_retire(struct sim_cpu *cpu, unsigned cpl)
{
	sim_execute(cpu, &(struct sim_work){ cpl, SIM_STALL, 0, 0 });
	sim_execute(cpu, &(struct sim_work){ cpl, 1, 1, 0 });
}

bool sim_counter_interrupts(const struct sim_cpu *cpu, const struct sim_counter *c)
{
	if (c >= cpu->fixed && c < cpu->fixed + SIM_INDEX_BITS) {
		unsigned i = (unsigned)(c - cpu->fixed);

		return i < FIXED_FIELDS && (cpu->fixed_ctrl_counting & FIXED_PMI(i));
	}
	return (c->control & EVTSEL_INT) != 0;
}

bool sim_counter_enabled(const struct sim_cpu *cpu, const struct sim_counter *c)
{
	if (c >= cpu->fixed && c < cpu->fixed + SIM_INDEX_BITS) {
		unsigned i = (unsigned)(c - cpu->fixed);

		return i < FIXED_FIELDS &&
		       (cpu->fixed_ctrl_counting & (FIXED_OS(i) | FIXED_USR(i)));
	}
	return (c->control & EVTSEL_EN) != 0;
}

void sim_rearm(const struct sim_cpu *cpu, struct sim_counter *c)
{
	uint64_t mask = mask_of(c);

	c->to_overflow = mask - (c->raw & mask) + 1;
	c->lvt_programmed = cpu->lvt_pc;
}

void sim_rearm_all(struct sim_cpu *cpu)
{
	for (unsigned x = 0; x < SIM_INDEX_BITS; x++) {
		sim_rearm(cpu, &cpu->gp[x]);
		sim_rearm(cpu, &cpu->fixed[x]);
	}
	for (unsigned n = 0; n < SIM_AMD_CORE; n++)
		sim_rearm(cpu, &cpu->amd_core[n]);
}
