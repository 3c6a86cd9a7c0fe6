# AMD family 10H-like: the four legacy core counters only (AMD-2, AMD-3).
vendor=amd
cpuid.01.eax=0x00100f42		# family 10H
cpuid.80000001.ecx=0x000037ff	# no PerfCtrExtCore / NB / LLC
