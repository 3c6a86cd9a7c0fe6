# AMD Zen 4-like: six core counters (PerfCtrExtCore) and PerfMonV2 (CPUID
# 8000_0022H:EAX[0]): PerfCntrGlobalCtl gates them, PerfCntrGlobalStatus
# records their overflows (PROG-6, OVF-1..3).
vendor=amd
cpuid.01.eax=0x00a10f11		# family 19H
cpuid.80000001.ecx=0x75c237ff	# bits 23, 24, 28
cpuid.80000022.eax=0x00000007	# PerfMonV2, LbrStack, LbrAndPmcFreeze
cpuid.80000022.ebx=0x00000106	# 6 core counters
