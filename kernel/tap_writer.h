/*
 * The TAP 13 the harness writes on the console: the version line, the
 * plan, a result line per test and the YAML block of its diagnostics, and
 * Bail out!. What Perl's TAP::Parser (strict), Python's tappy and node's
 * tap-parser read without an unknown line.
 */
#ifndef PMCTEST_TAP_WRITER_H
#define PMCTEST_TAP_WRITER_H

enum tap_result { TAP_PASS, TAP_FAIL, TAP_SKIP };

void tap_version(void);
void tap_plan(unsigned count);

/* "ok 7 - ID [STATEMENTS]", "not ok ...", or "ok ... # SKIP reason". */
void tap_result(enum tap_result result, unsigned number, const char *id,
		const char *statements, const char *skip_reason);

/*
 * The diagnostics of the result above, `lines` one diagnostic a line, as
 * its YAML block. `message` is the line starting "deviation: " if there
 * is one, else `first`; the first "context: ", "expected: " and
 * "observed: " lines are keys; the rest is the `diagnostics` list.
 * `truncated`, unless 0, is the size of the buffer the lines filled.
 */
void tap_yaml(const char *lines, const char *first, unsigned truncated);

void tap_bail_out(const char *why);

#endif
