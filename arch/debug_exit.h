#ifndef PMCTEST_DEBUG_EXIT_H
#define PMCTEST_DEBUG_EXIT_H

/* QEMU's isa-debug-exit (-device isa-debug-exit,iobase=0xf4): a write of v
 * makes QEMU exit with status (v << 1) | 1. Elsewhere the write is lost. */
#define DEBUG_EXIT_PORT 0xF4

/* QEMU 7.2 exits inside the write; QEMU 10.0 only requests a shutdown
 * (qemu_system_shutdown_request_with_code() in hw/misc/debugexit.c), and
 * the vCPU runs on until the main loop stops it. So the CPU waits a
 * bounded while before it takes the write as lost and says so: without
 * the wait, QEMU 10.0 ends the run partway through that line. */
static inline void debug_exit_settle(void)
{
	for (unsigned i = 0; i < 1000000; i++)
		__asm__ volatile("pause");
}

#endif
