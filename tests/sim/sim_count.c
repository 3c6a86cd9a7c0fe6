#include "sim_count.h"

#include "interrupt_log.h"

#define EVTSEL_USR	(1ull << 16)
#define EVTSEL_OS	(1ull << 17)
#define EVTSEL_EDGE	(1ull << 18)
#define EVTSEL_INT	(1ull << 20)
#define EVTSEL_EN	(1ull << 22)
#define EVTSEL_INV	(1ull << 23)
#define EVTSEL_CMASK(c)	((unsigned)((c) >> 24) & 0xFFu)

#define FIXED_OS(i)	(1ull << (4 * (i)))
#define FIXED_USR(i)	(1ull << (4 * (i) + 1))
#define FIXED_PMI(i)	(1ull << (4 * (i) + 3))
#define FIXED_FIELDS	16	/* IA32_FIXED_CTR_CTRL: 4 bits for 0..15 */
#define FIXED_SLOTS	3	/* TOPDOWN.SLOTS, MET-1 */
#define GLOBAL_EN_METRICS	48

#define LVT_MASKED	(1u << 16)

/* Stall cycles of an instruction outside the loop; slots per cycle; and
 * what PERF_METRICS holds once slots have been counted. */
#define SIM_STALL	6
#define SIM_SLOTS	4
#define SIM_METRICS	0x0000000040302010ull

enum event { EV_NONE, EV_INSTRUCTIONS, EV_BRANCHES, EV_CYCLES, EV_SLOTS };

/* How a counter counts: its event and the PROG-8 fields. */
struct counting {
	enum event event;
	unsigned cmask;
	bool inv, edge;
	bool interrupt;		/* INT / the fixed PMI bit: PMI on overflow */
};

static bool has(const struct sim_cpu *cpu, enum deviation d)
{
	return cpu->deviation == d;
}

/* PROG-4 architectural events (Intel) and AMD's core events. */
static enum event select_event(const struct sim_cpu *cpu, uint64_t control)
{
	unsigned event = control & 0xFF, umask = (control >> 8) & 0xFF;

	if (cpu->enumeration.vendor == VENDOR_AMD) {
		event |= (unsigned)(control >> 32 & 0xF) << 8;
		umask = 0;
	}
	if (event == 0xC0 && umask == 0)
		return EV_INSTRUCTIONS;
	if ((event == 0xC4 && cpu->enumeration.vendor == VENDOR_INTEL) ||
	    (event == 0xC2 && cpu->enumeration.vendor == VENDOR_AMD))
		return has(cpu, DEV_BRANCHES_AS_INSTRUCTIONS) ? EV_INSTRUCTIONS
							       : EV_BRANCHES;
	if ((event == 0x3C && umask <= 1) || event == 0x76)
		return EV_CYCLES;
	if (event == 0xA4 && umask == 1)
		return EV_SLOTS;
	return EV_NONE;
}

static struct counting from_select(const struct sim_cpu *cpu, uint64_t control)
{
	return (struct counting){
		.event = select_event(cpu, control),
		.cmask = EVTSEL_CMASK(control),
		.inv = (control & EVTSEL_INV) != 0,
		.edge = (control & EVTSEL_EDGE) != 0,
		.interrupt = (control & EVTSEL_INT) != 0,
	};
}

static unsigned per_cycle(enum event e, const struct sim_work *w)
{
	switch (e) {
	case EV_INSTRUCTIONS: return w->instructions;
	case EV_BRANCHES: return w->branches;
	case EV_CYCLES: return 1;
	case EV_SLOTS: return SIM_SLOTS;
	case EV_NONE: break;
	}
	return 0;
}

/* PROG-8: with CMASK the counter counts cycles (INV: the comparison
 * inverted; EDGE: only the cycle where the condition becomes true). */
static uint64_t increment(struct sim_cpu *cpu, struct sim_counter *c,
			  const struct counting *k, const struct sim_work *w)
{
	unsigned n = per_cycle(k->event, w);
	bool inv = k->inv && !has(cpu, DEV_INV_IGNORED);
	bool condition, rising;

	if (k->cmask == 0 || has(cpu, DEV_CMASK_IGNORED))
		return (uint64_t)n * w->cycles;
	condition = inv ? n < k->cmask : n >= k->cmask;
	rising = condition && !c->condition;
	c->condition = condition;
	if (k->edge && !has(cpu, DEV_EDGE_IGNORED))
		return rising ? 1 : 0;
	return condition ? w->cycles : 0;
}

/* PMI-1..3: the local APIC delivers the LVT's vector unless it is masked;
 * an Intel local APIC masks the entry as it delivers. */
static void raise_pmi(struct sim_cpu *cpu)
{
	if (has(cpu, DEV_PMI_LOST))
		return;
	if ((cpu->lvt_pc & LVT_MASKED) && !has(cpu, DEV_PMI_WHILE_MASKED))
		return;
	interrupt_log_record(cpu->lvt_pc & 0xFF);
	if (cpu->enumeration.vendor == VENDOR_INTEL &&
	    !has(cpu, DEV_LVT_NOT_MASKED_ON_PMI))
		cpu->lvt_pc |= LVT_MASKED;
}

/* OVF-1: past all ones the count wraps, the status bit is set and, with
 * the interrupt enabled, a PMI is raised. */
static void advance(struct sim_cpu *cpu, struct sim_counter *c,
		    const struct counting *k, uint64_t by)
{
	uint64_t mask = c->width < 64 ? (1ull << c->width) - 1 : ~0ull;
	uint64_t bit;

	if (by == 0)
		return;
	if (by <= mask - (c->raw & mask)) {
		c->raw += by;
		return;
	}
	c->raw = has(cpu, DEV_COUNTER_SATURATES) ? mask : c->raw + by;
	if (sim_status_bit(cpu, c, &bit) && !has(cpu, DEV_OVERFLOW_STATUS_LOST))
		cpu->global_status |= bit;
	if (k->interrupt || has(cpu, DEV_PMI_WITHOUT_INT))
		raise_pmi(cpu);
}

static void count(struct sim_cpu *cpu, struct sim_counter *c, bool counting,
		  const struct counting *k, const struct sim_work *w)
{
	if (c->present && counting)
		advance(cpu, c, k, increment(cpu, c, k, w));
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

static bool select_counts(const struct sim_cpu *cpu, uint64_t control,
			  unsigned cpl)
{
	return ((control & EVTSEL_EN) || has(cpu, DEV_EN_IGNORED)) &&
	       ring_enabled(cpu, EVTSEL_OS, EVTSEL_USR, control, cpl);
}

/* PROG-6: the global enable of counter bit `bit` (version 2 and up,
 * AMD PerfMonV2). */
static bool gate_open(const struct sim_cpu *cpu, unsigned bit)
{
	bool gated = cpu->enumeration.vendor == VENDOR_INTEL
		     ? cpu->version >= 2 : cpu->amd_perfmon_v2;

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

static void execute_gp(struct sim_cpu *cpu, struct sim_counter *gp, unsigned n,
		       const struct sim_work *w)
{
	int host = taken_by_host(cpu, gp, n);

	for (unsigned x = 0; x < n; x++) {
		struct counting k = from_select(cpu, gp[x].control);

		count(cpu, &gp[x], select_counts(cpu, gp[x].control, w->cpl) &&
				   gate_open(cpu, x) && (int)x != host, &k, w);
	}
}

static void execute_intel(struct sim_cpu *cpu, const struct sim_work *w)
{
	execute_gp(cpu, cpu->gp, SIM_INDEX_BITS, w);
	for (unsigned i = 0; i < FIXED_FIELDS && cpu->version >= 2; i++) {
		static const enum event fixed_events[] = {
			EV_INSTRUCTIONS, EV_CYCLES, EV_CYCLES, EV_SLOTS };
		struct counting k = {
			.event = i < 4 ? fixed_events[i] : EV_NONE,
			.interrupt = (cpu->fixed_ctrl & FIXED_PMI(i)) &&
				     !has(cpu, DEV_FIXED_PMI_IGNORED),
		};
		bool on = ring_enabled(cpu, FIXED_OS(i), FIXED_USR(i),
				       cpu->fixed_ctrl, w->cpl) &&
			  gate_open(cpu, 32 + i);

		count(cpu, &cpu->fixed[i], on, &k, w);
		if (i == FIXED_SLOTS && on && cpu->perf_metrics &&
		    gate_open(cpu, GLOBAL_EN_METRICS))
			cpu->metrics = SIM_METRICS;
	}
}

/* Northbridge and L2/L3 counters are not per ring: EN alone, cycles. */
static void execute_amd(struct sim_cpu *cpu, const struct sim_work *w)
{
	struct counting cycles = { .event = EV_CYCLES };

	execute_gp(cpu, cpu->amd_core, SIM_AMD_CORE, w);
	for (unsigned n = 0; n < SIM_AMD_NB; n++)
		count(cpu, &cpu->amd_nb[n],
		      (cpu->amd_nb[n].control & EVTSEL_EN) != 0, &cycles, w);
	for (unsigned n = 0; n < SIM_AMD_L2; n++)
		count(cpu, &cpu->amd_l2[n],
		      (cpu->amd_l2[n].control & EVTSEL_EN) != 0, &cycles, w);
}

void sim_execute(struct sim_cpu *cpu, const struct sim_work *w)
{
	if (w->cycles == 0)
		return;
	if (cpu->enumeration.vendor == VENDOR_INTEL)
		execute_intel(cpu, w);
	else if (cpu->enumeration.vendor == VENDOR_AMD)
		execute_amd(cpu, w);
}

void sim_retire(struct sim_cpu *cpu, unsigned cpl)
{
	sim_execute(cpu, &(struct sim_work){ cpl, SIM_STALL, 0, 0 });
	sim_execute(cpu, &(struct sim_work){ cpl, 1, 1, 0 });
}
