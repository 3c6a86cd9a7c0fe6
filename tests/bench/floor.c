/*
 * The floor of `make bench`: booted exactly as pmctest is (the same boot/
 * entry code, Multiboot2 or PVH, into long mode), it exits at once through
 * isa-debug-exit with status 0. Its wall time is the part of a run that is
 * QEMU, firmware, loader and mode switches rather than the suite.
 */
#include <stdint.h>

#include "cpu.h"

void kmain(uint32_t protocol, uint32_t info) __attribute__((noreturn));

void kmain(uint32_t protocol, uint32_t info)
{
	(void)protocol;
	(void)info;
	outb(0xF4, 0);	/* isa-debug-exit: QEMU exits with status 1 */
	halt_forever();
}
