#ifndef PMCTEST_KERNEL_BOOT_H
#define PMCTEST_KERNEL_BOOT_H

/* What kmain learnt at boot, for the header (arch/platform.c). */
void kernel_boot_record(const char *protocol, const char *command_line);

#endif
