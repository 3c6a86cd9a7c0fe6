#include "left_counter.h"

#include "counters.h"
#include "cpu_work.h"
#include "cpus.h"
#include "harness.h"
#include "interrupt_log.h"
#include "msr_access.h"
#include "pmi_arm.h"
#include "rdpmc_check.h"

/* The first MSR access that faulted, in w->why; the rest are skipped. */
static void put(struct left_counter *w, uint32_t msr, uint64_t value)
{
	struct strbuf why;

	if (w->faulted)
		return;
	strbuf_init(&why, w->why, sizeof(w->why));
	w->faulted = !msr_write(msr, value, &why);
}

/* The counter's CPU's work at LEFT_CPL and the interrupt window after
 * it (kernel/exec.h), then the PMIs it has taken. */
static void work(struct left_counter *w)
{
	const struct prog_run r = { .cpl = LEFT_CPL, .iterations = w->iterations,
				    .workload = w->workload };

	if (w->iterations)
		prog_execute(&r);
	w->pmis_after_work = interrupt_log_count(PMI_VECTOR);
	if (w->lvt && w->lvt_again)
		exec_lvt_pc_write(w->lvt);
}

void left_start(void *arg)
{
	struct left_counter *w = arg;
	const struct prog_counter *c = w->c;
	struct strbuf why;

	strbuf_init(&why, w->why, sizeof(w->why));
	w->faulted = !prog_stop_all(&why);	/* PROG-3: EN clear first */
	if (c->status_msr)
		put(w, c->status_clear_msr, c->status_bit);
	if (w->lvt)
		exec_lvt_pc_write(w->lvt);
	put(w, c->count_msr, w->preset);
	put(w, c->control_msr, c->control_off | w->control);
	if (c->global_msr)	/* PROG-5: the gate last */
		put(w, c->global_msr, c->global_bit);
	if (!w->faulted)
		work(w);
}

void left_resume(void *arg)
{
	struct left_counter *w = arg;
	const struct exec_state cpl0 = { MODE_LONG, 0, false };

	w->pmis_at_resume = interrupt_log_count(PMI_VECTOR);
	work(w);
	exec_rdpmc(&cpl0, SENTINEL_RAX, LEFT_RDPMC_ECX, SENTINEL_RDX,
		   &w->rdpmc_after_work);
}

void left_read(void *arg)
{
	struct left_counter *w = arg;
	const struct prog_counter *c = w->c;
	const struct exec_state cpl0 = { MODE_LONG, 0, false };
	struct strbuf why;
	uint64_t status = 0;

	w->pmis_at_resume = interrupt_log_count(PMI_VECTOR);
	/* Before any RDMSR: one can make a hypervisor load the vCPU's PMU
	 * context and so hide a stale one (SMP-7). */
	exec_rdpmc(&cpl0, SENTINEL_RAX, LEFT_RDPMC_ECX, SENTINEL_RDX, &w->rdpmc);
	strbuf_init(&why, w->why, sizeof(w->why));
	if (!prog_stop_all(&why) || !msr_read(c->count_msr, &w->count, &why) ||
	    (c->status_msr && !msr_read(c->status_msr, &status, &why))) {
		w->faulted = true;
		return;
	}
	w->overflow_bit = (status & c->status_bit) != 0;
	put(w, c->count_msr, 0);
	if (c->status_msr)
		put(w, c->status_clear_msr, c->status_bit);
	if (w->lvt)
		exec_lvt_pc_write(LVT_MASKED);
}

static void other_work(void *unused)
{
	(void)unused;
	exec_known_loop(LEFT_CPL, LEFT_OTHER_LOOP);
}

bool left_others_work(unsigned own)
{
	for (unsigned cpu = 0; cpu < platform_cpu_count(); cpu++)
		if (cpu != own && (cpu == 0 || harness_cpu_chosen(cpu)) &&
		    !cpu_work(cpu, other_work, 0))
			return false;
	return true;
}

struct quiet_work {
	uint32_t lvt;
	bool faulted;
	char why[120];
};

static void quiet_cpu(void *arg)
{
	struct quiet_work *q = arg;
	struct strbuf why;

	strbuf_init(&why, q->why, sizeof(q->why));
	q->faulted = !prog_stop_all(&why);
	exec_lvt_pc_write(q->lvt);
}

bool left_quiet_all(unsigned except, uint32_t lvt)
{
	for (unsigned cpu = 0; cpu < platform_cpu_count(); cpu++) {
		struct quiet_work q = { lvt, false, "" };

		if (cpu == except || (cpu != 0 && !harness_cpu_chosen(cpu)))
			continue;
		if (!cpu_work(cpu, quiet_cpu, &q))
			return false;
		if (q.faulted) {
			test_fail("on CPU %u: %s", cpu, q.why);
			return false;
		}
	}
	return true;
}
