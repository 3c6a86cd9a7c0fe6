/*
 * The SKIP reasons a run has given in full, each with the test that gave
 * it: a later test skipped for the very same reason names that test
 * instead ("# SKIP same as ID"), where that is shorter (README, "A serial
 * log"). Every byte on an emulated serial port is a port exit and a host
 * write(), and one missing precondition can skip dozens of tests.
 */
#ifndef PMCTEST_SKIPS_SAID_H
#define PMCTEST_SKIPS_SAID_H

/*
 * The ID of the earlier test that gave reason in full, where naming it is
 * shorter than the reason; else 0.
 */
const char *skip_said_before(const char *reason);

/*
 * test_id gave reason in full: called once its line is out, so that no
 * later line names a test whose line a lost CPU never wrote (SMP-6). A
 * reason already known keeps its first test; when the record is full,
 * nothing: the reason is then given in full again, never lost.
 */
void skip_said(const char *reason, const char *test_id);

#endif
