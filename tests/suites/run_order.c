/* The order the suites run in (kernel/harness.h): the TAP numbers of every
 * stored log follow it. A new group goes where it belongs to the reader of
 * a log; one left out runs last. */
#include "harness.h"

const char *const suite_run_order[] = {
	"amd.ranges",
	"bench",
	"ecx.index",
	"ecx.types",
	"ecx.vmware",
	"enc.flags",
	"ecx.fast",
	"mechanism",
	"metrics",
	"msr.absent",
	"msr.reserved",
	"msr.reset",
	"data.order",
	"ovf",
	"pmi",
	"priv",
	"prog.all",
	"prog.cmask",
	"prog.event",
	"prog.filter",
	"prog.fixed",
	"prog.gate",
	"prog.running",
	"prog.width",
	"prog.write",
	"data.rdmsr",
	"selftest",
	"data.width",
	0,
};
