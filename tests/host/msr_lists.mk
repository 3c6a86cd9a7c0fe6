# tests/host/msr_lists.mk: the kernel's MSR numbers (kernel/msr.h) and the
# simulator's own list (tests/sim/sim_msr.h) agree number for number, with a
# planted disagreement of each kind to show that the check reports it.
#
# Included by the top Makefile; adds to HOST_TESTS the phony target
# msr-lists.

.PHONY: msr-lists
HOST_TESTS += msr-lists
msr-lists:
	$(PYTHON) tests/check.py msr_lists
