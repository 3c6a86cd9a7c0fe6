# Intel architectural PMU version 6 with CPUID.23H: sparse GP and fixed
# counters (ARCH-2, ARCH-3). The counts name GP 0-1 and fixed 0; leaf 23H
# adds GP 5 and 7 and fixed 2 and 4, leaving holes at GP 2-4, 6, fixed 1, 3.
# Sub-leaf 0 enumerates the event-select extensions UMASK2 and EQ (PROG-13).
vendor=intel
cpuid.01.eax=0x000c0662		# family 6 model C6H
cpuid.01.ecx=0x7ffefbff		# PDCM (bit 15)
cpuid.0a.eax=0x08300206		# v6, 2 GP, 48 bits, 8 events
cpuid.0a.edx=0x00008601		# 1 fixed, 48 bits
cpuid.23.0.ebx=0x00000003	# UMASK2 (bit 0), EQ (bit 1)
cpuid.23.1.eax=0x000000a3	# GP 0, 1, 5, 7
cpuid.23.1.ebx=0x00000015	# fixed 0, 2, 4
perf_capabilities=0x00002000	# FW_WRITE
