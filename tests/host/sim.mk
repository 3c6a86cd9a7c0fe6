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

# The checks: every tests/kernel/*.c that needs no arch/ header, directly
# or through a tests/kernel header whose .c does (sim_sources.py), so new
# suites join by themselves while selftest.c, prog_counter.c and their
# users stay in the kernel; and from kernel/ the harness and its needs.
SIM_CHECK_SRCS := $(shell $(PYTHON) tests/host/sim_sources.py arch tests/kernel)
SIM_KERNEL_SRCS := kernel/harness.c kernel/console.c kernel/glob.c \
		   kernel/cmdline.c kernel/pmu_report.c kernel/vectors.c \
		   kernel/interrupt_log.c \
		   $(MODEL_SRCS)
SIM_OWN_SRCS := $(wildcard tests/sim/*.c) tests/host/query.c
SIM_SRCS := $(SIM_OWN_SRCS) $(SIM_KERNEL_SRCS) $(SIM_CHECK_SRCS)
SIM_HDRS := $(wildcard tests/sim/*.h kernel/*.h tests/kernel/*.h) \
	    tests/host/query.h

$(SIM): $(SIM_SRCS) $(SIM_HDRS) $(VERSION_H)
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) -Itests/kernel -Itests/sim -o $@ $(SIM_SRCS)

HOST_PROGS += $(SIM)

MUTATION_RUN := $(PYTHON) tests/mutation.py --sim $(SIM) \
		--profiles tests/profiles --table tests/mutation/expected.tsv

.PHONY: mutation-test mutation-report
HOST_TESTS += mutation-test
mutation-test: $(SIM)
	$(MUTATION_RUN)

mutation-report: $(SIM)
	@$(MUTATION_RUN) --report
