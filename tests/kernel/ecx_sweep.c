#include "ecx_sweep.h"

#include "counters.h"

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
