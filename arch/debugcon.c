/* The E9H debug console. */
#include "debugcon.h"

#define DEBUGCON_PORT 0xE9

/* One REP OUTSB for the whole text: under a hypervisor every OUT is an
 * exit, and Xen emulates a REP OUTSB of a line in one. */
void debugcon_write(const char *s, size_t n)
{
	__asm__ volatile("rep outsb"
			 : "+S"(s), "+c"(n)
			 : "d"((unsigned short)DEBUGCON_PORT)
			 : "memory");
}
