#include "sweep.h"

#include "counters.h"
#include "harness.h"

/*
 * What a mismatch's one-line report says but for RCX: the model's answer
 * and statements, and the outcome (report_rdpmc_mismatch() names the
 * registers only when a fault changed them). Compared field by field,
 * which is cheaper than formatting the text: a sweep under a target that
 * deviates everywhere meets tens of thousands of mismatches.
 */
static void mismatch_shape(const struct rdpmc_case *c,
			   const struct rdpmc_expect *e,
			   const struct exec_outcome *o,
			   struct mismatch_shape *shape)
{
	bool kept = o->faulted && registers_kept(c, o);

	shape->statements = e->statements;
	shape->verdict = e->verdict;
	shape->also_gp = e->gp_also_conforms;
	shape->faulted = o->faulted;
	shape->vector = o->vector;
	shape->error_code = o->error_code;
	shape->rip_offset = o->fault_rip - o->insn_rip;
	shape->rax = kept ? 0 : o->rax;
	shape->rdx = kept ? 0 : o->rdx;
	shape->rcx = kept ? 0 : o->rcx;
}

static bool same_shape(const struct mismatch_shape *a,
		       const struct mismatch_shape *b)
{
	return a->statements == b->statements && a->verdict == b->verdict &&
	       a->also_gp == b->also_gp && a->faulted == b->faulted &&
	       a->vector == b->vector && a->error_code == b->error_code &&
	       a->rip_offset == b->rip_offset && a->rax == b->rax &&
	       a->rdx == b->rdx && a->rcx == b->rcx;
}

/*
 * Whether this step is a fault that kept the registers, like the last
 * step, with the same vector, error code and saved RIP, under the same
 * answer of the model: then it conforms as the last one did and, if not,
 * its report reads like the last one's. Most steps of a sweep are, and
 * this spares them the comparison (a sweep's cost should be its faults).
 */
static bool like_last_fault(struct sweep *sw, const struct rdpmc_case *c,
			    const struct exec_outcome *o)
{
	bool like = sw->last_fault.valid &&
		    sw->last_fault.asked == sw->model.asked && o->faulted &&
		    o->vector == sw->last_fault.vector &&
		    o->error_code == sw->last_fault.error_code &&
		    o->fault_rip - o->insn_rip == sw->last_fault.rip_offset &&
		    registers_kept(c, o);

	if (!like) {
		sw->last_fault.valid = o->faulted && registers_kept(c, o);
		sw->last_fault.vector = o->vector;
		sw->last_fault.error_code = o->error_code;
		sw->last_fault.rip_offset = o->fault_rip - o->insn_rip;
		sw->last_fault.asked = sw->model.asked;
	}
	return like;
}

/* A read that conforms: whether it read the value its CPU wrote. */
static bool value_conforms(struct sweep *sw, const struct rdpmc_expect *e,
			   const struct exec_outcome *o)
{
	enum known_read r;

	if (!sw->known)
		return true;
	r = known_value_judge(sw->known, e, o, sw->values_wrong == 0);
	if (r == KNOWN_UNJUDGED)
		return true;
	sw->values_judged++;
	if (r == KNOWN_MATCHES)
		return true;
	sw->values_wrong++;
	return false;
}

bool sweep_outcome(struct sweep *sw, const struct rdpmc_case *c,
		   const struct exec_outcome *o)
{
	char text[256];
	struct strbuf deviation;
	const struct rdpmc_expect *e;
	struct mismatch_shape shape;

	sw->cases++;
	e = model_rdpmc_cached(&sw->model, check_pmu(), &c->state, c->rcx);
	if (like_last_fault(sw, c, o)) {
		if (sw->last_fault.conformed)
			return true;
		sw->mismatches++;
		if (sw->reported < SWEEP_REPORTS)
			sw->alike++;	/* it reads as the last one shown */
		return false;
	}
	sw->last_fault.conformed = rdpmc_conforms(c, e, o, 0);
	if (sw->last_fault.conformed)
		return value_conforms(sw, e, o);
	sw->mismatches++;
	if (sw->reported >= SWEEP_REPORTS)
		return false;
	mismatch_shape(c, e, o, &shape);
	if (sw->reported && same_shape(&shape, &sw->last_shown)) {
		sw->alike++;
		return false;
	}
	sw->last_shown = shape;
	strbuf_init(&deviation, text, sizeof(text));
	rdpmc_conforms(c, e, o, &deviation);
	sw->reported++;
	report_rdpmc_mismatch(c, o, text);
	return false;
}

bool sweep_case(struct sweep *sw, const struct rdpmc_case *c)
{
	struct exec_outcome o;

	exec_rdpmc(&c->state, c->rax, c->rcx, c->rdx, &o);
	return sweep_outcome(sw, c, &o);
}

void sweep_finish(const struct sweep *sw, const char *what)
{
	if (sw->alike)
		test_fail("%u of %u %s deviate from the model; %u of them not shown, each read as the one shown before it but for RCX",
			  sw->mismatches, sw->cases, what, sw->alike);
	else if (sw->mismatches)
		test_fail("%u of %u %s deviate from the model", sw->mismatches,
			  sw->cases, what);
	else
		test_note("%u %s, all as the model says", sw->cases, what);
	if (sw->values_wrong > 1)
		test_fail("%u of the %u reads of a counter given a value read another",
			  sw->values_wrong, sw->values_judged);
	else if (sw->values_judged && !sw->values_wrong)
		test_note("%u reads of a counter given a value, each its value",
			  sw->values_judged);
}

#define BATCH 256

/* One CPU, one test at a time: the batch buffers need not be on a stack. */
static uint64_t batch_rcx[BATCH];
static struct exec_outcome batch_out[BATCH];

void sweep_rcx(struct sweep *sw, const struct exec_state *s, unsigned n,
	       rcx_at_fn rcx_at, const void *arg)
{
	for (unsigned first = 0; first < n; first += BATCH) {
		unsigned count = n - first < BATCH ? n - first : BATCH;

		for (unsigned k = 0; k < count; k++)
			batch_rcx[k] = rcx_at(first + k, arg);
		exec_rdpmc_batch(s, SENTINEL_RAX, SENTINEL_RDX, batch_rcx,
				 count, false, batch_out);
		for (unsigned k = 0; k < count; k++) {
			struct rdpmc_case c = { *s, batch_rcx[k], SENTINEL_RAX,
						SENTINEL_RDX };

			sweep_outcome(sw, &c, &batch_out[k]);
		}
	}
}

static uint64_t table_at(unsigned i, const void *arg)
{
	return ((const uint32_t *)arg)[i];
}

void sweep_table(struct sweep *sw, const struct exec_state *s,
		 const uint32_t *ecx, unsigned n)
{
	sweep_rcx(sw, s, n, table_at, ecx);
}

static enum verdict verdict_at(const struct exec_state *s, rcx_at_fn rcx_at,
			       const void *arg, unsigned i)
{
	struct rdpmc_expect e;

	model_rdpmc(check_pmu(), s, rcx_at(i, arg), &e, 0);
	return e.verdict;
}

/* Below DEFINED_INDICES the model is asked about each step. */
#define DENSE DEFINED_INDICES

/* Adds i to the sorted set steps[0..*count), if there is room. */
static void add_step(uint32_t *steps, unsigned *count, unsigned max,
		     unsigned i)
{
	unsigned k = *count;

	while (k > 0 && steps[k - 1] > i)
		k--;
	if ((k > 0 && steps[k - 1] == i) || *count == max)
		return;
	for (unsigned j = *count; j > k; j--)
		steps[j] = steps[j - 1];
	steps[k] = i;
	(*count)++;
}

/* i and its neighbours, within 0..n-1. */
static void add_point(uint32_t *steps, unsigned *count, unsigned max,
		      unsigned n, unsigned i)
{
	for (unsigned j = i ? i - 1 : i; j <= i + 1 && j < n; j++)
		add_step(steps, count, max, j);
}

unsigned sweep_sample(const struct exec_state *s, unsigned n,
		      rcx_at_fn rcx_at, const void *arg, uint32_t *steps,
		      unsigned max)
{
	unsigned count = 0, dense = n < DENSE ? n : DENSE;
	enum verdict v[DENSE + 1];

	for (unsigned i = 0; i <= dense && i < n; i++)
		v[i] = verdict_at(s, rcx_at, arg, i);
	for (unsigned i = 0; i < dense; i++)
		if (v[i] == VERDICT_READ || (i > 0 && v[i - 1] != v[i]) ||
		    (i + 1 < n && v[i + 1] != v[i]))
			add_step(steps, &count, max, i);
	for (unsigned bit = 1; bit < n; bit <<= 1) {
		add_point(steps, &count, max, n, bit);
		add_point(steps, &count, max, n, (n - 1) & ~bit);
	}
	for (unsigned i = 0; i < n; i += 4096)
		add_point(steps, &count, max, n, i);
	add_point(steps, &count, max, n, n - 1);
	return count;
}

struct sampled {
	rcx_at_fn rcx_at;
	const void *arg;
	const uint32_t *steps;
};

static uint64_t sampled_at(unsigned i, const void *arg)
{
	const struct sampled *p = arg;

	return p->rcx_at(p->steps[i], p->arg);
}

void sweep_steps(struct sweep *sw, const struct exec_state *s, unsigned n,
		 rcx_at_fn rcx_at, const void *arg, bool full)
{
	static uint32_t steps[512];
	struct sampled p = { rcx_at, arg, steps };

	if (full) {
		sweep_rcx(sw, s, n, rcx_at, arg);
		return;
	}
	sweep_rcx(sw, s, sweep_sample(s, n, rcx_at, arg, steps, 512),
		  sampled_at, &p);
}
