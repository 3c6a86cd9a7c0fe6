/* The run's count of results (kernel/result_tally.h). */
#include "result_tally.h"

#include <stdint.h>

#include "platform.h"

/* The whole count in one word, written in one store. */
union tally {
	struct {
		uint16_t number;
		uint16_t count[3];	/* by enum tap_result */
	} of;
	uint64_t word;
};

_Static_assert(sizeof(union tally) == sizeof(uint64_t), "one store");

static union tally now;

/* The count the line being written makes, and where in the log it
 * starts. `at` is set before `next`: a CPU lost between the two leaves
 * the previous `next`, which is the count already made. */
static struct {
	volatile uint64_t at;
	union tally next;
} pending;

unsigned result_tally_begin(enum tap_result result)
{
	union tally next = now;

	next.of.number++;
	next.of.count[result]++;
	pending.at = platform_console_bytes();
	__atomic_store_n(&pending.next.word, next.word, __ATOMIC_RELEASE);
	return next.of.number;
}

void result_tally_commit(void)
{
	__atomic_store_n(&now.word, pending.next.word, __ATOMIC_RELEASE);
}

void result_tally_take_over(void)
{
	if (platform_console_bytes() > pending.at)
		now.word = pending.next.word;
}

unsigned result_tally_number(void)
{
	return now.of.number;
}

unsigned result_tally_count(enum tap_result result)
{
	return now.of.count[result];
}
