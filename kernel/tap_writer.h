/*
 * The TAP 13 the harness writes on the console: the version line, the
 * plan, a result line per test and the YAML block of its diagnostics, and
 * Bail out!. What Perl's TAP::Parser (strict), Python's tappy and node's
 * tap-parser read without an unknown line.
 */
#ifndef PMCTEST_TAP_WRITER_H
#define PMCTEST_TAP_WRITER_H

#include "diagnostic_keys.h"

enum tap_result { TAP_PASS, TAP_FAIL, TAP_SKIP };

void tap_version(void);
void tap_plan(unsigned count);

/* "ok 7 - ID [STATEMENTS]", "not ok ...", or "ok ... # SKIP reason". */
void tap_result(enum tap_result result, unsigned number, const char *id,
		const char *statements, const char *skip_reason);

/* "ok 7 - ID [STATEMENTS] # SKIP same as EARLIER_ID": skipped for the
 * reason the earlier test gave in full (kernel/skips_said.h). */
void tap_skip_same(unsigned number, const char *id, const char *statements,
		   const char *earlier_id);

/*
 * The diagnostics of the result above, `lines` one diagnostic a line, as
 * its YAML block: keys (kernel/diagnostic_keys.h) as `message`,
 * `context`, `expected` and `observed`; the rest as the `diagnostics`
 * list. `truncated`, unless 0, is the size of the buffer the lines filled.
 */
void tap_yaml(const char *lines, const struct diagnostic_keys *keys,
	      unsigned truncated);

/*
 * The YAML block of a failure whose deviation an earlier test reported in
 * full: `same: "EARLIER_ID: BRIEF"`, or without the brief (what the check
 * said of this test's deviation in a few words) where there is none or it
 * is the earlier test's own.
 */
void tap_yaml_same(const char *earlier_id, const char *brief);

void tap_bail_out(const char *why);

/* After the CPU writing was lost (kernel/cpus.h): the YAML block whose
 * "  ---" it wrote and whose "  ..." it did not is closed, with a `cut`
 * key saying so, and the lines after it read as TAP. */
void tap_take_over(void);

#endif
