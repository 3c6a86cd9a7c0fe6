#ifndef PMCTEST_KERNEL_MEMORY_H
#define PMCTEST_KERNEL_MEMORY_H

#include "boot_info.h"

/* The kernel's own RAM and the extent of its map, for boot_info_read(). */
void kernel_memory(struct boot_memory *m);

#endif
