#ifndef PMCTEST_KERNEL_BOOT_H
#define PMCTEST_KERNEL_BOOT_H

#include "platform.h"

/* What kmain learnt at boot, for the header (arch/platform.c). */
void kernel_boot_record(const char *protocol, const char *command_line);

/* How platform_exit() ends the run: the command line's exit=, from the
 * moment it is read (until then, and by default, isa-debug-exit). */
void kernel_exit_by(enum platform_exit_method by);

#endif
