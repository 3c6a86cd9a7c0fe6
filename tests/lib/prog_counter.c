#include "prog_counter.h"

#include "exec.h"
#include "harness.h"
#include "msr_access.h"
#include "msr.h"
#include "rdpmc_check.h"

#define PRESET 0x5A5Aull	/* below bit 31: no sign extension (PROG-5) */

/* PROG-4 events and AMD's: CyclesNotInHalt 76H, Retired Instructions C0H,
 * Retired Branch Instructions C2H. */
const struct prog_event prog_events[PROG_EVENTS] = {
	[PROG_CYCLES] = { "core cycles", 0, 0x3C, 0x00, 0x76 },
	[PROG_INSTRUCTIONS] = { "instructions retired", 1, 0xC0, 0x00, 0xC0 },
	[PROG_REF_CYCLES] = { "reference cycles", 2, 0x3C, 0x01, -1 },
	[PROG_BRANCHES] = { "branch instructions retired", 5, 0xC4, 0x00, 0xC2 },
};

/*
 * The count or event-select MSR of general-purpose counter `index` of its
 * kind (PROG-1, AMD-2): an AMD core counter is the PerfCtrExtCore pair
 * where that is enumerated, else one of the legacy four. 0 for a fixed
 * counter and PERF_METRICS, which have no event select.
 */
static uint32_t gp_msr(const struct pmu_info *pmu, enum counter_kind kind,
		       unsigned index, bool select)
{
	switch (kind) {
	case COUNTER_GP:
	case COUNTER_PMC:
		return (select ? MSR_IA32_PERFEVTSEL0 : MSR_IA32_PMC0) + index;
	case COUNTER_AMD_CORE:
		if (pmu->amd_ext_core)
			return (select ? MSR_AMD_PERF_CTL_EXT0
				       : MSR_AMD_PERF_CTR_EXT0) + 2 * index;
		return (select ? MSR_AMD_PERF_EVTSEL0 : MSR_AMD_PERF_CTR0) + index;
	case COUNTER_AMD_NB:
		return MSR_AMD_NB_CTL0 + 2 * index + (select ? 0 : 1);
	case COUNTER_AMD_L2:
		return MSR_AMD_L2_CTL0 + 2 * index + (select ? 0 : 1);
	case COUNTER_FIXED:
	case COUNTER_METRICS:
		break;
	}
	return 0;
}

uint32_t counter_msr(const struct counter *c, bool full_width)
{
	if (c->kind == COUNTER_FIXED)
		return MSR_IA32_FIXED_CTR0 + c->index;
	if (c->kind == COUNTER_METRICS)
		return MSR_IA32_PERF_METRICS;
	if (full_width && (c->kind == COUNTER_GP || c->kind == COUNTER_PMC))
		return MSR_IA32_A_PMC0 + c->index;
	return gp_msr(check_pmu(), c->kind, c->index, false);
}

uint32_t counter_select_msr(const struct counter *c)
{
	return gp_msr(check_pmu(), c->kind, c->index, true);
}

bool prog_stop_all(struct strbuf *why)
{
	const struct pmu_info *pmu = check_pmu();
	struct counter counters[MAX_COUNTERS];
	unsigned n = model_counters(counters, MAX_COUNTERS);
	bool fixed = false;

	if (pmu->vendor == VENDOR_INTEL && pmu->version >= 2 &&
	    !msr_write(MSR_IA32_PERF_GLOBAL_CTRL, 0, why))	/* PROG-5 */
		return false;
	if (pmu->vendor == VENDOR_AMD && pmu->amd_perfmon_v2 &&
	    !msr_write(MSR_AMD_PERF_GLOBAL_CTL, 0, why))
		return false;
	for (unsigned i = 0; i < n; i++) {
		if (counters[i].kind == COUNTER_FIXED)
			fixed = true;
		else if (!msr_write(counter_select_msr(&counters[i]), 0, why))
			return false;
	}
	return !fixed || msr_write(MSR_IA32_FIXED_CTR_CTRL, 0, why);
}

bool prog_clear_all(struct strbuf *why)
{
	struct counter counters[MAX_COUNTERS];
	unsigned n = model_counters(counters, MAX_COUNTERS);

	if (!prog_stop_all(why))
		return false;
	for (unsigned i = 0; i < n; i++)
		if (!msr_write(counter_msr(&counters[i], false), 0, why))
			return false;
	return true;
}

void prog_leave_cleared(void)
{
	char text[160];
	struct strbuf why;

	strbuf_init(&why, text, sizeof(text));
	if (!prog_clear_all(&why))
		test_fail("leaving the counters stopped and 0: %s", text);
}

/* The event-select bits of ev on this vendor (PROG-1, PROG-4). */
static uint64_t event_bits(const struct pmu_info *pmu,
			   const struct prog_event *ev)
{
	if (pmu->vendor == VENDOR_AMD)
		return EVTSEL_EVENT(ev->amd_event);
	return EVTSEL_EVENT(ev->event) | EVTSEL_UMASK(ev->umask);
}

/* Whether architectural event ev is available (PROG-4): below the length
 * CPUID.0AH:EAX[31:24] and its bit in CPUID.0AH:EBX clear. */
static bool arch_event_available(const struct pmu_info *pmu,
				 const struct prog_event *ev)
{
	return (unsigned)ev->arch_bit < pmu->events_length &&
	       !(pmu->events_unavailable & (1u << ev->arch_bit));
}

uint64_t prog_cycle_event(struct strbuf *why)
{
	const struct pmu_info *pmu = check_pmu();

	if (pmu->vendor == VENDOR_AMD)
		return event_bits(pmu, &prog_events[PROG_CYCLES]);
	if (pmu->vendor != VENDOR_INTEL || pmu->version == 0) {
		strbuf_puts(why, "no architectural PMU (CPUID.0AH:EAX[7:0] = 0): no architectural event to count (PROG-4)");
		return 0;
	}
	if (pmu->gp_count == 0) {
		strbuf_puts(why, "no general-purpose counter (CPUID.0AH:EAX[15:8] = 0)");
		return 0;
	}
	if (arch_event_available(pmu, &prog_events[PROG_CYCLES]))
		return event_bits(pmu, &prog_events[PROG_CYCLES]);
	if (arch_event_available(pmu, &prog_events[PROG_INSTRUCTIONS]))
		return event_bits(pmu, &prog_events[PROG_INSTRUCTIONS]);
	strbuf_printf(why, "CPUID.0AH:EBX = 0x%x (length %u): neither unhalted core cycles nor instructions retired is available (PROG-4)",
		      pmu->events_unavailable, pmu->events_length);
	return 0;
}

bool prog_start_counter(const struct counter *c, uint64_t event,
			uint64_t initial, struct strbuf *why)
{
	const struct pmu_info *pmu = check_pmu();

	if (!prog_stop_all(why) || !msr_write(counter_msr(c, false), initial, why) ||
	    !msr_write(counter_select_msr(c),
		       event | EVTSEL_USR | EVTSEL_OS | EVTSEL_EN, why))
		return false;
	if (pmu->vendor == VENDOR_INTEL && pmu->version >= 2)	/* PROG-5 */
		return msr_write(MSR_IA32_PERF_GLOBAL_CTRL, GLOBAL_CTRL_GP(c->index), why);
	if (pmu->vendor == VENDOR_AMD && pmu->amd_perfmon_v2)
		return msr_write(MSR_AMD_PERF_GLOBAL_CTL, 1ull << c->index, why);
	return true;
}

/* count and control are formats taking the counter's index. */
static void set_names(struct prog_counter *c, const char *count,
		      const char *control, unsigned index)
{
	struct strbuf n, k;

	strbuf_init(&n, c->name, sizeof(c->name));
	strbuf_init(&k, c->control_name, sizeof(c->control_name));
	strbuf_printf(&n, count, index);
	strbuf_printf(&k, control, index);
}

static bool programmable(const struct pmu_info *pmu, struct strbuf *why)
{
	if (pmu->vendor != VENDOR_INTEL && pmu->vendor != VENDOR_AMD) {
		strbuf_puts(why, "the vendor is neither GenuineIntel nor AuthenticAMD");
		return false;
	}
	if (pmu->vendor == VENDOR_INTEL && pmu->version == 0) {
		strbuf_puts(why, "no architectural PMU: CPUID.0AH:EAX[7:0] = 0");
		return false;
	}
	return true;
}

/* Where the global status of the counter with bit `bit` lives. */
static void set_status(const struct pmu_info *pmu, struct prog_counter *c,
		       uint64_t bit)
{
	c->status_bit = bit;
	if (pmu->vendor == VENDOR_AMD && pmu->amd_perfmon_v2) {
		c->status_msr = MSR_AMD_PERF_GLOBAL_STATUS;
		c->status_clear_msr = MSR_AMD_PERF_GLOBAL_STATUS_CLR;
		c->status_set_msr = MSR_AMD_PERF_GLOBAL_STATUS_SET;
	} else if (pmu->vendor == VENDOR_INTEL && pmu->version >= 2) {
		c->status_msr = MSR_IA32_PERF_GLOBAL_STATUS;
		c->status_clear_msr = MSR_IA32_PERF_GLOBAL_OVF_CTRL;
		c->status_set_msr = pmu->version >= 4 ? MSR_IA32_PERF_GLOBAL_STATUS_SET : 0;
	}
}

static bool amd_gp_counter(const struct pmu_info *pmu, const struct prog_event *ev,
			   unsigned index, struct prog_counter *c,
			   struct strbuf *why)
{
	if (ev->amd_event < 0) {
		strbuf_printf(why, "AMD has no counterpart of architectural event %d (%s)",
			      ev->arch_bit, ev->name);
		return false;
	}
	if (index >= pmu->amd_core_count) {
		strbuf_printf(why, "no core counter %u: %u enumerated (AMD-2)",
			      index, pmu->amd_core_count);
		return false;
	}
	/* AMD-2: with PerfCtrExtCore the extended pair, else legacy. */
	if (pmu->amd_ext_core)
		set_names(c, "PERF_CTR%u", "PERF_CTL%u", index);
	else
		set_names(c, "PerfCtr%u", "PerfEvtSel%u", index);
	c->control_msr = gp_msr(pmu, COUNTER_AMD_CORE, index, true);
	c->count_msr = gp_msr(pmu, COUNTER_AMD_CORE, index, false);
	c->control_off = event_bits(pmu, ev);
	if (pmu->amd_perfmon_v2) {
		c->global_msr = MSR_AMD_PERF_GLOBAL_CTL;
		c->global_bit = 1ull << index;
	}
	c->width = 48;	/* AMD-3 */
	return true;
}

static bool intel_gp_counter(const struct pmu_info *pmu, const struct prog_event *ev,
			     unsigned index, struct prog_counter *c,
			     struct strbuf *why)
{
	if (index >= 32 || !(pmu->gp_valid & (1u << index))) {
		strbuf_printf(why, "general-purpose counter %u is not enumerated: CPUID.0AH:EAX[15:8] = %u (ARCH-2)",
			      index, pmu->gp_count);
		return false;
	}
	if ((unsigned)ev->arch_bit >= pmu->events_length) {
		strbuf_printf(why, "architectural event %d (%s) is not enumerated: CPUID.0AH:EAX[31:24] = %u",
			      ev->arch_bit, ev->name, pmu->events_length);
		return false;
	}
	if (pmu->events_unavailable & (1u << ev->arch_bit)) {
		strbuf_printf(why, "architectural event %d (%s) is not available: CPUID.0AH:EBX[%d] = 1",
			      ev->arch_bit, ev->name, ev->arch_bit);
		return false;
	}
	set_names(c, "IA32_PMC%u", "IA32_PERFEVTSEL%u", index);
	c->control_msr = gp_msr(pmu, COUNTER_GP, index, true);
	c->count_msr = gp_msr(pmu, COUNTER_GP, index, false);
	c->control_off = event_bits(pmu, ev);
	if (pmu->version >= 2) {	/* PROG-5 */
		c->global_msr = MSR_IA32_PERF_GLOBAL_CTRL;
		c->global_bit = GLOBAL_CTRL_GP(index);
	}
	c->width = pmu->gp_width;
	return true;
}

bool prog_gp_counter(const struct pmu_info *pmu, const struct prog_event *ev,
		     unsigned index, struct prog_counter *c, struct strbuf *why)
{
	*c = (struct prog_counter){ 0 };
	if (!programmable(pmu, why))
		return false;
	if (pmu->vendor == VENDOR_AMD ? !amd_gp_counter(pmu, ev, index, c, why)
				      : !intel_gp_counter(pmu, ev, index, c, why))
		return false;
	c->control_field = ~0ull;
	c->enable_os = EVTSEL_OS | EVTSEL_EN;
	c->enable_usr = EVTSEL_USR | EVTSEL_EN;
	c->enable_int = EVTSEL_INT;
	set_status(pmu, c, 1ull << index);
	return true;
}

bool prog_fixed_counter(const struct pmu_info *pmu, unsigned index,
			struct prog_counter *c, struct strbuf *why)
{
	*c = (struct prog_counter){ 0 };
	if (!programmable(pmu, why))
		return false;
	if (pmu->vendor == VENDOR_AMD) {
		strbuf_puts(why, "AMD has no fixed-function counters");
		return false;
	}
	if (pmu->version < 2) {
		strbuf_printf(why, "IA32_FIXED_CTR_CTRL needs version >= 2 (PROG-5): CPUID.0AH:EAX[7:0] = %u",
			      pmu->version);
		return false;
	}
	if (!(pmu->fixed_valid & (1u << index))) {
		strbuf_printf(why, "fixed counter %u is not enumerated: CPUID.0AH:EDX[4:0] = %u, ECX = 0x%x",
			      index, pmu->fixed_count, pmu->fixed_bitmap);
		return false;
	}
	set_names(c, "IA32_FIXED_CTR%u", "IA32_FIXED_CTR_CTRL", index);
	c->count_msr = MSR_IA32_FIXED_CTR0 + index;
	c->control_msr = MSR_IA32_FIXED_CTR_CTRL;
	c->control_field = FIXED_CTRL_FIELD(index);
	c->enable_os = FIXED_CTRL_OS(index);
	c->enable_usr = FIXED_CTRL_USR(index);
	c->enable_int = FIXED_CTRL_PMI(index);
	c->global_msr = MSR_IA32_PERF_GLOBAL_CTRL;
	c->global_bit = GLOBAL_CTRL_FIXED(index);
	c->width = pmu->fixed_width;
	set_status(pmu, c, GLOBAL_CTRL_FIXED(index));
	return true;
}

/* MSR accesses in order; after the first fault the rest are skipped and
 * the fault, after the MSR's name, is what the caller reports. */
struct msr_session {
	const struct prog_counter *c;
	bool faulted;
	struct strbuf *why;
};

static const char *msr_label(const struct prog_counter *c, uint32_t msr)
{
	if (msr == c->count_msr)
		return c->name;
	if (msr == c->control_msr)
		return c->control_name;
	return msr == MSR_IA32_PERF_GLOBAL_CTRL ? "IA32_PERF_GLOBAL_CTRL"
						: "PerfCntrGlobalCtl";
}

static void note_fault(struct msr_session *s, uint32_t msr, const char *what)
{
	s->faulted = true;
	strbuf_printf(s->why, "%s: %s", msr_label(s->c, msr), what);
}

static uint64_t rd(struct msr_session *s, uint32_t msr)
{
	char text[80];
	struct strbuf fault;
	uint64_t value = 0;

	strbuf_init(&fault, text, sizeof(text));
	if (!s->faulted && !msr_read(msr, &value, &fault))
		note_fault(s, msr, text);
	return value;
}

static void wr(struct msr_session *s, uint32_t msr, uint64_t value)
{
	char text[80];
	struct strbuf fault;

	strbuf_init(&fault, text, sizeof(text));
	if (!s->faulted && !msr_write(msr, value, &fault))
		note_fault(s, msr, text);
}

/* Counting stopped: gate closed (v2+), EN clear (PROG-3). */
static void stop(struct msr_session *s, struct prog_counter *c)
{
	if (c->global_msr)
		wr(s, c->global_msr, c->global_saved & ~c->global_bit);
	wr(s, c->control_msr, c->control_off);
}

static void restore_gate(struct msr_session *s, struct prog_counter *c)
{
	if (c->global_msr)
		wr(s, c->global_msr, c->global_saved);
}

bool prog_counter_usable(struct prog_counter *c, struct strbuf *why)
{
	struct msr_session s = { c, false, why };
	uint64_t held;

	if (c->global_msr)
		c->global_saved = rd(&s, c->global_msr);
	if (c->control_field != ~0ull)	/* shared: keep the other fields */
		c->control_off = rd(&s, c->control_msr) & ~c->control_field;
	stop(&s, c);
	wr(&s, c->count_msr, PRESET);
	held = rd(&s, c->count_msr);
	if (!s.faulted && held != PRESET) {
		strbuf_printf(why, "%s (%XH) does not hold a written value: wrote 0x%llx, read 0x%llx",
			      c->name, c->count_msr, PRESET,
			      (unsigned long long)held);
		return false;
	}
	wr(&s, c->count_msr, 0);
	restore_gate(&s, c);
	return !s.faulted;
}

uint64_t prog_enables(const struct prog_counter *c, unsigned filter)
{
	return (filter & FILTER_OS ? c->enable_os : 0) |
	       (filter & FILTER_USR ? c->enable_usr : 0);
}

/* The global enable bits of counters[0..n): they share one MSR. */
static uint64_t gate_bits(const struct prog_counter *counters, unsigned n)
{
	uint64_t bits = 0;

	for (unsigned k = 0; k < n; k++)
		bits |= counters[k].global_bit;
	return bits;
}

/* Counting stopped for all of them: gates closed first, then EN clear. */
static void stop_all(struct msr_session *s, struct prog_counter *counters,
		     unsigned n)
{
	if (counters[0].global_msr)
		wr(s, counters[0].global_msr,
		   counters[0].global_saved & ~gate_bits(counters, n));
	for (unsigned k = 0; k < n; k++) {
		s->c = &counters[k];
		wr(s, counters[k].control_msr, counters[k].control_off);
	}
}

bool prog_run_many(struct prog_counter *counters, unsigned n,
		   const uint64_t *control, const struct prog_run *r,
		   uint64_t *count, struct strbuf *why)
{
	struct msr_session s = { counters, false, why };

	stop_all(&s, counters, n);	/* PROG-3: EN clear while writing */
	for (unsigned k = 0; k < n; k++) {
		s.c = &counters[k];
		wr(&s, counters[k].count_msr, r->preset);
		wr(&s, counters[k].control_msr, counters[k].control_off | control[k]);
	}
	if (counters[0].global_msr && !r->gate_closed)	/* PROG-5: the gate last */
		wr(&s, counters[0].global_msr,
		   counters[0].global_saved | gate_bits(counters, n));
	if (!s.faulted)
		prog_execute(r);
	stop_all(&s, counters, n);
	for (unsigned k = 0; k < n; k++) {
		s.c = &counters[k];
		count[k] = rd(&s, counters[k].count_msr);
		wr(&s, counters[k].count_msr, 0);	/* left cleared */
	}
	restore_gate(&s, &counters[0]);
	return !s.faulted;
}

bool prog_run_armed(struct prog_counter *c, const struct prog_run *r,
		    void (*armed)(void), uint64_t *count, struct strbuf *why)
{
	struct msr_session s = { c, false, why };

	stop_all(&s, c, 1);
	wr(&s, c->count_msr, r->preset);
	wr(&s, c->control_msr, c->control_off | r->control);
	if (c->global_msr && !r->gate_closed)
		wr(&s, c->global_msr, c->global_saved | c->global_bit);
	if (!s.faulted) {
		armed();
		prog_execute(r);
	}
	stop_all(&s, c, 1);
	*count = rd(&s, c->count_msr);
	wr(&s, c->count_msr, 0);	/* left cleared */
	restore_gate(&s, c);
	return !s.faulted;
}

/*
 * From a WRMSR to the counter's stop: the WRMSR, after's workload, the
 * stopping WRMSRs, the read. Both windows of prog_write_window() end
 * here, out of line, so the instructions after either WRMSR are the same
 * ones.
 */
static __attribute__((noinline)) void
count_from_write(struct msr_session *s, struct prog_counter *c, uint32_t msr,
		 uint64_t value, const struct prog_run *after, uint64_t *count)
{
	wr(s, msr, value);
	if (!s->faulted)
		prog_execute(after);
	stop_all(s, c, 1);
	*count = rd(s, c->count_msr);
	wr(s, c->count_msr, 0);	/* left cleared */
	restore_gate(s, c);
}

bool prog_run_with_write(struct prog_counter *c, const struct prog_run *r,
			 uint64_t value, uint64_t then, uint64_t *count,
			 struct strbuf *why)
{
	struct msr_session s = { c, false, why };
	struct prog_run after = *r;

	after.iterations = then;
	stop_all(&s, c, 1);
	wr(&s, c->count_msr, r->preset);
	wr(&s, c->control_msr, c->control_off | r->control);
	if (c->global_msr)
		wr(&s, c->global_msr, c->global_saved | c->global_bit);
	if (!s.faulted)
		prog_execute(r);
	count_from_write(&s, c, c->count_msr, value, &after, count); /* counting */
	return !s.faulted;
}

/* The counter stopped at 0, then started by the WRMSR that opens it (its
 * gate, else its control): one iteration of r's workload, the stop. */
static bool enabling_window(struct prog_counter *c, const struct prog_run *r,
			    uint64_t *count, struct strbuf *why)
{
	struct msr_session s = { c, false, why };
	struct prog_run once = *r;
	uint64_t control = c->control_off | r->control;

	once.iterations = 1;
	stop_all(&s, c, 1);
	wr(&s, c->count_msr, 0);
	if (c->global_msr) {
		wr(&s, c->control_msr, control);
		count_from_write(&s, c, c->global_msr,
				 c->global_saved | c->global_bit, &once, count);
	} else {
		count_from_write(&s, c, c->control_msr, control, &once, count);
	}
	return !s.faulted;
}

bool prog_write_window(struct prog_counter *c, const struct prog_run *r,
		       struct prog_window *w, struct strbuf *why)
{
	struct prog_run once = *r;

	once.preset = 0;
	once.iterations = 1;
	return prog_run_with_write(c, &once, 0, 1, &w->running, why) &&
	       enabling_window(c, r, &w->enabling, why);
}

void prog_execute(const struct prog_run *r)
{
	if (r->workload == PROG_CPUID_LOOP)
		exec_exiting_loop(EXITING_CPUID, r->cpl, r->iterations);
	else if (r->workload == PROG_RDMSR_LOOP)
		exec_exiting_loop(EXITING_RDMSR, r->cpl, r->iterations);
	else if (r->workload == PROG_PORT_IN_LOOP)
		exec_exiting_loop(EXITING_PORT_IN, r->cpl, r->iterations);
	else if (r->workload == PROG_STRING_LOOP)
		exec_string_loop(r->cpl, r->iterations);
	else
		exec_known_loop(r->cpl, r->iterations);
}

bool prog_run(struct prog_counter *c, const struct prog_run *r,
	      uint64_t *count, struct strbuf *why)
{
	return prog_run_many(c, 1, &r->control, r, count, why);
}

enum prog_probe prog_probe_counter(struct prog_counter *c, bool fixed,
				   struct strbuf *why)
{
	const struct pmu_info *pmu = check_pmu();

	if (!(fixed ? prog_fixed_counter(pmu, 0, c, why)
		    : prog_gp_counter(pmu, &prog_events[PROG_INSTRUCTIONS], 0, c, why)))
		return PROG_ABSENT;
	return prog_counter_usable(c, why) ? PROG_USABLE : PROG_BROKEN;
}

void prog_skip_unusable(enum prog_probe probe, const char *why)
{
	if (probe == PROG_BROKEN)
		test_skip("%s; %s reports the deviation", why, PROG_WRITE_OWNER);
	else
		test_skip("%s", why);
}

bool prog_take_counter(struct prog_counter *c, bool fixed)
{
	char text[160];
	struct strbuf why;
	enum prog_probe probe;

	strbuf_init(&why, text, sizeof(text));
	probe = prog_probe_counter(c, fixed, &why);
	if (probe == PROG_USABLE)
		return true;
	prog_skip_unusable(probe, text);
	return false;
}

bool prog_usable_or_skip(struct prog_counter *c)
{
	char text[160];
	struct strbuf why;

	strbuf_init(&why, text, sizeof(text));
	if (prog_counter_usable(c, &why))
		return true;
	prog_skip_unusable(PROG_BROKEN, text);
	return false;
}

bool prog_writes_hold(bool fixed)
{
	char text[160];
	struct strbuf why;
	struct prog_counter c;
	enum prog_probe probe;

	strbuf_init(&why, text, sizeof(text));
	probe = prog_probe_counter(&c, fixed, &why);
	if (probe != PROG_BROKEN)
		return true;
	prog_skip_unusable(probe, text);
	return false;
}

