/*
 * The limits of the kernel command line, written once: the loader's line
 * is refused past CMDLINE_MAX bytes (arch/boot_info.c), kernel/main.c
 * copies that many, and tests= and exclude= take CMDLINE_PATTERNS_MAX
 * patterns each (kernel/cmdline.c). The host refuses a line past them
 * before booting, reading them from here (tests/hosttools/kernel_cmdline.py).
 */
#ifndef PMCTEST_CMDLINE_LIMITS_H
#define PMCTEST_CMDLINE_LIMITS_H

#define CMDLINE_MAX		1023	/* bytes, without the NUL */
#define CMDLINE_PATTERNS_MAX	32

#endif
