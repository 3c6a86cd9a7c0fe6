# Intel hybrid, Alder Lake-like as its P-cores enumerate: CPUID.07H:EDX[15]
# (Hybrid) set; architectural PMU version 5, eight 48-bit GP counters,
# three fixed counters, full-width writes. Every simulated CPU enumerates
# it alike; with enumeration-differs an AP enumerates a PMU of its own,
# which smp.enum reports as a hybrid topology (SMP-1).
vendor=intel
cpuid.01.eax=0x00090672		# family 6 model 97H
cpuid.01.ecx=0x7ffafbff		# PDCM (bit 15)
cpuid.07.edx=0x00008000		# Hybrid (bit 15)
cpuid.0a.eax=0x08300805		# v5, 8 GP, 48 bits, 8 events
cpuid.0a.edx=0x00008603		# 3 fixed, 48 bits
perf_capabilities=0x000033c4	# FW_WRITE (bit 13)
