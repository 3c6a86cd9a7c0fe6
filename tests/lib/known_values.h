/*
 * Known values in the counters, for the checks that judge what RDPMC
 * reads on every CPU, not only whether it reads: each counter the model
 * says RDPMC reads, stopped (PROG-3) and written a value of its own and
 * of the executing CPU's (WR-1), so that a read of another counter, of
 * another CPU's counter (SMP-3) or of what a hypervisor last loaded
 * shows. RDPMC then reads that value (PRIV-7: the MSR written is the
 * counter read). The values are below 2^31 (IA32_PMCx sign-extends bit
 * 31, WR-1) and within every width pmctest meets (32 bits and up).
 */
#ifndef PMCTEST_KNOWN_VALUES_H
#define PMCTEST_KNOWN_VALUES_H

#include <stdbool.h>
#include <stdint.h>

#include "counters.h"
#include "exec.h"
#include "model.h"
#include "strbuf.h"

/* The statements a judged value rests on, for test_judged(). */
#define KNOWN_VALUES_STATEMENTS "WR-1 PRIV-7 SMP-3"

struct known_values {
	unsigned cpu;		/* the CPU that wrote them */
	unsigned n;
	struct counter counters[MAX_COUNTERS];
	uint64_t value[MAX_COUNTERS];
};

/* Counter k's value on CPU cpu: 0x1000000 * (cpu + 1) + 0x101 * (k + 1). */
uint64_t known_value(unsigned cpu, unsigned k);

/*
 * On the executing CPU: every counter stopped, and each whose width is
 * enumerated and 32 bits or more written known_value(). False, with why,
 * where the counters do not hold a written value (prog.write.stopped
 * reports that) or a write faulted: then k->n is 0 and nothing is judged.
 * Does not write the console (it runs on APs given work).
 */
bool known_values_write(struct known_values *k, struct strbuf *why);

/* The value counter (kind, index) was given; false if it was given none. */
bool known_value_of(const struct known_values *k, enum counter_kind kind,
		    unsigned index, uint64_t *value);

/* How a read came out against the values given. */
enum known_read {
	KNOWN_UNJUDGED,	/* a fault, not a read, or of a counter given none */
	KNOWN_MATCHES,
	KNOWN_DIFFERS,
};

/*
 * Outcome o of an RDPMC that conforms to e, against the value k gave the
 * counter e names (NARCH-2: a fast read returns EAX alone). A judged read
 * names KNOWN_VALUES_STATEMENTS (test_judged()); with report, a wrong one
 * fails the running test: "deviation: SMP-3: ...".
 */
enum known_read known_value_judge(const struct known_values *k,
				  const struct rdpmc_expect *e,
				  const struct exec_outcome *o, bool report);

#endif
