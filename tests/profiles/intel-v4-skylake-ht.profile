# Intel architectural PMU version 4, Skylake-like with Hyper-Threading
# (intel-v4-skylake but for the topology): four 48-bit GP counters, three
# 48-bit fixed counters, full-width writes (FW_WRITE), and Intel TSX
# (HLE and RTM): IN_TX and IN_TXCP exist (PROG-12).
vendor=intel
cpuid.01.eax=0x000506e3		# family 6 model 5EH
cpuid.01.ecx=0x7ffafbbf		# PDCM (bit 15)
cpuid.07.ebx=0x029c6fbf		# HLE (bit 4), RTM (bit 11)
cpuid.0a.eax=0x07300404		# v4, 4 GP, 48 bits, 7 events
cpuid.0a.edx=0x00000603		# 3 fixed, 48 bits
perf_capabilities=0x000033c4	# FW_WRITE (bit 13)
# Two logical processors a core (SMP-8), Hyper-Threading on: the SMT
# level counts 2 in x2APIC ID bits 1:0 (shift 2), the core level 8
# (shift 4). pmctest-sim numbers its CPUs' APIC IDs 0, 2, 4, 6: CPUs 0
# and 1 share a core, 2 and 3 another, and AnyThread counts both
# (PROG-11).
cpuid.0b.0.eax=0x00000002
cpuid.0b.0.ebx=0x00000002
cpuid.0b.0.ecx=0x00000100	# level 0, type 1 (SMT)
cpuid.0b.1.eax=0x00000004
cpuid.0b.1.ebx=0x00000008
cpuid.0b.1.ecx=0x00000201	# level 1, type 2 (Core)
cpuid.0b.2.ecx=0x00000002	# level 2, type 0: the end
