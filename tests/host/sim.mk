# tests/host/sim.mk: pmctest-sim, which runs the kernel's checks against a
# simulated CPU, and the mutation run, which shows each check failing on the
# deviation it targets.
#
# Included by the top Makefile after it defines BUILD, HOSTCC, HOST_CFLAGS
# and MODEL_SRCS. Adds to HOST_PROGS
#   $(BUILD)/host/pmctest-sim   the kernel's checks against a simulated CPU
# and to HOST_TESTS the phony target mutation-test: every profile faithful
# (no failure) and every applicable (profile, deviation) pair, judged by
# tests/mutation/expected.tsv. `make mutation-report` prints the table.

SIM := $(BUILD)/host/pmctest-sim

# The suites and their library, which see only kernel/ (the kernel-only
# suites of tests/kernel/ reach into arch/ and stay out); all of kernel/
# but main.c and contained.c, the two kernel files that reach into arch/
# (the simulator has its own platform_run_contained()); and the simulated
# CPU.
SIM_CHECK_SRCS := $(wildcard tests/lib/*.c tests/suites/*.c)
SIM_KERNEL_SRCS := $(filter-out kernel/main.c kernel/contained.c,$(wildcard kernel/*.c))
SIM_OWN_SRCS := $(wildcard tests/sim/*.c) tests/host/query.c
SIM_SRCS := $(SIM_OWN_SRCS) $(SIM_KERNEL_SRCS) $(SIM_CHECK_SRCS)
SIM_HDRS := $(wildcard tests/sim/*.h kernel/*.h tests/lib/*.h) \
	    tests/host/query.h

$(SIM): $(SIM_SRCS) $(SIM_HDRS) $(VERSION_H)
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) -Itests/lib -Itests/sim -o $@ $(SIM_SRCS)

HOST_PROGS += $(SIM)

MUTATION_RUN := $(PYTHON) tests/mutation.py --sim $(SIM) \
		--profiles tests/profiles --table tests/mutation/expected.tsv \
		--cpus 2,4

.PHONY: mutation-test mutation-report
HOST_TESTS += mutation-test
mutation-test: $(SIM)
	$(MUTATION_RUN)

mutation-report: $(SIM)
	@$(MUTATION_RUN) --report
