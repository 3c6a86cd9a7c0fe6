/*
 * The deviations a run has reported in full, each with the test that
 * reported it: a failing test whose message, expected and observed
 * outcome are an earlier test's (its context aside) names that test
 * instead of saying them again (README, "A serial log"). Every byte on an
 * emulated serial port is a port exit and a host write().
 */
#ifndef PMCTEST_DEVIATIONS_SAID_H
#define PMCTEST_DEVIATIONS_SAID_H

#include "diagnostic_keys.h"

#include <stdbool.h>

/*
 * The ID of the earlier test that reported the deviation of keys in full,
 * and in *same_brief whether that test's brief (test_brief(): where the
 * deviation was, "#UD at RCX=0x0") was this one's too; if none did, 0.
 */
const char *deviation_said_before(const struct diagnostic_keys *keys,
				  const char *brief, bool *same_brief);

/*
 * test_id, with brief, reported the deviation of keys in full: called
 * once its YAML block is out, so that no later block names a test whose
 * block a lost CPU never wrote (SMP-6). When the record is full, nothing:
 * a report is then given in full again, never lost.
 */
void deviation_said(const struct diagnostic_keys *keys, const char *test_id,
		    const char *brief);

#endif
