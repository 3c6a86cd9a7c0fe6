/* I/O port E9H, the debug console of Xen's HVM and PVH guests, QEMU's
 * isa-debugcon, Bochs' port_e9_hack and Cloud Hypervisor. Write-only: a
 * read of E9H under Xen is an I/O it does not handle. */
#ifndef PMCTEST_DEBUGCON_H
#define PMCTEST_DEBUGCON_H

#include <stddef.h>

void debugcon_write(const char *s, size_t n);

#endif
