# tests/host/host.mk: the model as a host command (pmctest-model) and the
# model's unit tests.
#
# Included by the top Makefile after it defines BUILD, HOSTCC, HOST_CFLAGS
# and MODEL_SRCS. Adds to HOST_PROGS:
#   $(BUILD)/host/pmctest-model  the model as a command (model_tool.c)
#   $(BUILD)/host/model-test     the unit tests, TAP 13, "N passed, N failed"
# and to HOST_TESTS the phony target host-test-model, which runs the unit
# tests and, given the tool's path, the tests of pmctest-model itself.

MODEL_TOOL := $(BUILD)/host/pmctest-model
MODEL_TEST := $(BUILD)/host/model-test

MODEL_HDRS := kernel/model.h kernel/topology.h kernel/strbuf.h kernel/glob.h tests/host/query.h \
	      tests/host/suites.h tests/host/tap.h tests/host/model_cpus.h
MODEL_TOOL_SRCS := tests/host/model_tool.c tests/host/query.c $(MODEL_SRCS)
MODEL_TEST_SRCS := tests/host/test_main.c tests/host/tap.c \
		   tests/host/model_test.c tests/host/model_span_test.c \
		   tests/host/decode_test.c tests/host/topology_test.c \
		   tests/host/query_test.c tests/host/tool_test.c \
		   tests/host/glob_test.c kernel/glob.c \
		   tests/host/query.c $(MODEL_SRCS)

$(MODEL_TOOL): $(MODEL_TOOL_SRCS) $(MODEL_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) -o $@ $(MODEL_TOOL_SRCS)

$(MODEL_TEST): $(MODEL_TEST_SRCS) $(MODEL_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) -o $@ $(MODEL_TEST_SRCS)

HOST_PROGS += $(MODEL_TOOL) $(MODEL_TEST)
HOST_TESTS += host-test-model

.PHONY: host-test-model
host-test-model: $(MODEL_TEST) $(MODEL_TOOL)
	$(MODEL_TEST) $(MODEL_TOOL)
