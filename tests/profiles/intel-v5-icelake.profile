# Intel architectural PMU version 5, Ice Lake-like: eight 48-bit GP
# counters and four fixed counters counted by CPUID.0AH:EDX[4:0] alone (no
# ECX bitmap), fixed counter 3 being TOPDOWN.SLOTS; PERF_METRICS without
# RDPMC_METRICS_CLEAR (ARCH-3, ARCH-4).
vendor=intel
cpuid.01.eax=0x000706e5		# family 6 model 7EH
cpuid.01.ecx=0x7ffafbff		# PDCM (bit 15)
cpuid.0a.eax=0x08300805		# v5, 8 GP, 48 bits, 8 events
cpuid.0a.edx=0x00008604		# 4 fixed, 48 bits
perf_capabilities=0x0000b4c5	# FW_WRITE, PERF_METRICS
