# tests/host/cmdline.mk: the kernel's command-line parser as a host program,
# $(BUILD)/host/cmdline-check, which the host tools ask before anything boots
# (tests/hosttools/boot/cmdline.py, told where by PMCTEST_CMDLINE_CHECK).
# make builds it with the host programs; make run alone does not (it needs
# the run set alone), and until then the kernel refuses a bad line at boot.

CMDLINE_CHECK := $(BUILD)/host/cmdline-check
CMDLINE_CHECK_SRCS := tests/host/cmdline_check.c kernel/cmdline.c kernel/strbuf.c

$(CMDLINE_CHECK): $(CMDLINE_CHECK_SRCS) kernel/cmdline.h kernel/cmdline_limits.h kernel/harness.h \
		  kernel/strbuf.h
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) -o $@ $(CMDLINE_CHECK_SRCS)

HOST_PROGS += $(CMDLINE_CHECK)
export PMCTEST_CMDLINE_CHECK = $(abspath $(CMDLINE_CHECK))
