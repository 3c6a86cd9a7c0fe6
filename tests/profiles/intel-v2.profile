# Intel architectural PMU version 2, Core 2 (Penryn)-like: two 40-bit GP
# counters, three 40-bit fixed counters, PDCM without full-width writes.
vendor=intel
cpuid.01.eax=0x00010676		# family 6 model 17H
cpuid.01.ecx=0x0008e3fd		# PDCM (bit 15)
cpuid.0a.eax=0x07280202		# v2, 2 GP, 40 bits, 7 events
cpuid.0a.edx=0x00000503		# 3 fixed, 40 bits
perf_capabilities=0x00000000
