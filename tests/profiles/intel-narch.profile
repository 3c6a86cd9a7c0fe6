# Intel without an architectural PMU, Pentium M-like (CPUID.0AH:EAX = 0):
# PMC0 and PMC1, 40 bits (NARCH-1..3), fast reads supported.
vendor=intel
cpuid.01.eax=0x000006d8		# family 6 model 0DH
