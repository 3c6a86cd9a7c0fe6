#include "pmi_arm.h"

#include "exec.h"
#include "harness.h"
#include "interrupt_log.h"
#include "msr_access.h"
#include "msr.h"

bool pmi_arm(struct strbuf *why)
{
	if (!exec_lvt_pc_available(why))
		return false;
	exec_lvt_pc_write(LVT_VECTOR(PMI_VECTOR));
	interrupt_log_clear();
	return true;
}

bool pmi_take_counter(struct prog_counter *c, bool fixed, uint32_t lvt)
{
	char text[160];
	struct strbuf why;

	strbuf_init(&why, text, sizeof(text));
	if (!exec_lvt_pc_available(&why)) {
		test_skip("%s", text);
		return false;
	}
	if (!prog_take_counter(c, fixed))
		return false;
	exec_lvt_pc_write(lvt);
	interrupt_log_clear();
	return true;
}

unsigned pmi_taken(void)
{
	return interrupt_log_count(PMI_VECTOR);
}

unsigned pmi_interrupts(void)
{
	return interrupt_log_total();
}

void pmi_disarm(const struct prog_counter *c)
{
	char text[100];
	struct strbuf why;

	strbuf_init(&why, text, sizeof(text));
	exec_lvt_pc_write(LVT_MASKED);
	interrupt_log_clear();	/* the PMIs were this test's own */
	if (c->status_msr)
		msr_write(c->status_clear_msr, c->status_bit, &why);
}

bool pmi_status_bit(const struct prog_counter *c, bool *set, struct strbuf *why)
{
	uint64_t status;

	if (!msr_read(c->status_msr, &status, why))
		return false;
	*set = (status & c->status_bit) != 0;
	return true;
}
