/*
 * prog.running.write: a WRMSR to a counter while it counts sets it, and it
 * counts on from the written value (WR-2), as kvm-unit-tests' running-
 * counter check expects: the counter of instructions retired, started
 * from 0, counts the short loop, is written with a marker while still
 * enabled, then counts the long loop. What it counts besides the loop
 * after the write (the harness's instructions up to the stopping WRMSR)
 * is measured first (prog_write_window), and bounded by the same path
 * after the WRMSR that starts the stopped counter (prog_window_bounded).
 */
#include "exec.h"
#include "harness.h"
#include "prog_measure.h"
#include "rdpmc_check.h"

#define MARKER 0x10000000ull	/* below bit 31: no sign extension */

SINGLE_TEST(prog_running, 0, "prog.running.write", "WR-2 PROG-1 PROG-5",
	    "a WRMSR to a running counter takes effect and counting goes on from it")
{
	char text[160];
	struct strbuf why;
	struct prog_counter c;
	struct prog_run r = { 0, 0, false, 0, PROG_SHORT_LOOP, PROG_KNOWN_LOOP };
	uint64_t tolerance = prog_tolerance(KNOWN_LOOP_INSTRUCTIONS * PROG_LONG_LOOP);
	struct prog_window window;
	uint64_t count, expected;
	int64_t off;

	(void)i;
	strbuf_init(&why, text, sizeof(text));
	if (!prog_take_counter(&c, false))
		return;
	r.control = prog_enables(&c, FILTER_OS | FILTER_USR);
	if (!prog_write_window(&c, &r, &window, &why) ||
	    !prog_run_with_write(&c, &r, MARKER, PROG_LONG_LOOP, &count, &why)) {
		test_fail("%s", text);
		return;
	}
	if (!prog_window_bounded(&c, &window))
		return;
	expected = window.running + KNOWN_LOOP_INSTRUCTIONS * (PROG_LONG_LOOP - 1);
	off = (int64_t)(count - MARKER - expected);
	if (off > (int64_t)tolerance || off < -(int64_t)tolerance)
		test_fail("WR-2: %s written with 0x%llx while counting, then %llu iterations: reads 0x%llx; expected 0x%llx + %llu +- %llu (%llu counted after a write of 0 with one iteration)",
			  c.name, MARKER, PROG_LONG_LOOP, (unsigned long long)count,
			  MARKER, (unsigned long long)expected,
			  (unsigned long long)tolerance,
			  (unsigned long long)window.running);
	else
		test_note("%s: 0x%llx written while counting, 0x%llx after %llu iterations",
			  c.name, MARKER, (unsigned long long)count, PROG_LONG_LOOP);
}
