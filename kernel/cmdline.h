#ifndef PMCTEST_CMDLINE_H
#define PMCTEST_CMDLINE_H

#include <stdbool.h>

#include "harness.h"
#include "strbuf.h"

/*
 * Parses the kernel command line, "tests=GLOB[,GLOB] exclude=GLOB[,GLOB]
 * cpus=all|N[-M][,N[-M]] console=PORT[,PORT] list verbose timing
 * exit=debug|reset|triple apic=xapic|x2apic", in
 * place (it is split into the patterns). On a malformed line returns false
 * with the reason, naming the offending word, in error.
 */
bool cmdline_parse(char *line, struct harness_options *options,
		   struct strbuf *error);

#endif
