# Intel architectural PMU version 5, Sapphire Rapids-like: eight 48-bit GP
# counters; EDX[4:0] counts three fixed counters and the CPUID.0AH:ECX
# bitmask adds fixed counter 3 (TOPDOWN.SLOTS, ARCH-3); PERF_METRICS and
# RDPMC_METRICS_CLEAR (ARCH-4, MET-1).
vendor=intel
cpuid.01.eax=0x000806f8		# family 6 model 8FH
cpuid.01.ecx=0x7ffefbff		# PDCM (bit 15)
cpuid.0a.eax=0x08300805		# v5, 8 GP, 48 bits, 8 events
cpuid.0a.ecx=0x0000000f		# fixed counters 0-3
cpuid.0a.edx=0x00008603		# 3 fixed, 48 bits
perf_capabilities=0x0008b4c5	# FW_WRITE, PERF_METRICS, RDPMC_METRICS_CLEAR
