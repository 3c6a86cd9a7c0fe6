/* The verdict as an exit status: isa-debug-exit turns it into
 * (status << 1) | 1 for QEMU's own exit code, and `make run` back. */
#ifndef PMCTEST_EXIT_STATUS_H
#define PMCTEST_EXIT_STATUS_H

#define EXIT_PASSED		0	/* no test failed */
#define EXIT_FAILED		1	/* a test failed */
#define EXIT_HARNESS_ERROR	2	/* the run could not be carried out */

#endif
