# Intel architectural PMU version 1, Core Duo-like: two 40-bit GP counters,
# no fixed counters. CPUID.0AH:EDX is reserved on version 1; this profile
# fills it in (3 fixed x 48 bits), as some hypervisors do, so that ARCH-3's
# "defined only for version > 1" is put to the test.
vendor=intel
cpuid.01.eax=0x000006e8		# family 6 model 0EH
cpuid.0a.eax=0x07280201		# v1, 2 GP, 40 bits, 7 events
cpuid.0a.edx=0x00000603		# reserved on v1
