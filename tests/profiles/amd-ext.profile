# AMD Zen 2-like: six core counters (PerfCtrExtCore), four northbridge /
# data-fabric counters (PerfCtrExtNB), six L2/L3 counters (PerfCtrExtLLC).
vendor=amd
cpuid.01.eax=0x00830f10		# family 17H
cpuid.80000001.ecx=0x75c237ff	# bits 23, 24, 28
