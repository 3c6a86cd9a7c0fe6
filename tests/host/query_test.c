/*
 * query_test: query_parse() — every malformed-query error names its token,
 * and every key lands in its field with the documented defaults.
 */
#include <stdio.h>
#include <string.h>

#include "query.h"
#include "strbuf.h"
#include "suites.h"
#include "tap.h"

struct error_case {
	const char *query;
	const char *error;	/* the whole message */
};

static const struct error_case errors[] = {
	{ "foo=1 ecx=0", "error: \"foo=1\": unknown key" },
	{ "cpuid.0b.eax=1 ecx=0", "error: \"cpuid.0b.eax=1\": unknown key" },
	{ "ECX=0", "error: \"ECX=0\": unknown key" },
	{ "=5 ecx=0", "error: \"=5\": unknown key" },
	{ "ecx", "error: \"ecx\": not key=value" },
	{ "--explain ecx=0", "error: \"--explain\": not key=value" },
	{ "ecx=0xZZ", "error: \"ecx=0xZZ\": not a decimal or 0x-hex number "
	  "of at most 64 bits" },
	{ "ecx=", "error: \"ecx=\": not a decimal or 0x-hex number of at "
	  "most 64 bits" },
	{ "ecx=0x", "error: \"ecx=0x\": not a decimal or 0x-hex number of "
	  "at most 64 bits" },
	{ "ecx=-1", "error: \"ecx=-1\": not a decimal or 0x-hex number of "
	  "at most 64 bits" },
	{ "ecx=12a", "error: \"ecx=12a\": not a decimal or 0x-hex number of "
	  "at most 64 bits" },
	{ "rcx=0x10000000000000000", "error: \"rcx=0x10000000000000000\": "
	  "not a decimal or 0x-hex number of at most 64 bits" },
	{ "rcx=18446744073709551616", "error: \"rcx=18446744073709551616\": "
	  "not a decimal or 0x-hex number of at most 64 bits" },
	{ "cpuid.0a.eax=0x100000000 ecx=0",
	  "error: \"cpuid.0a.eax=0x100000000\": does not fit in 32 bits" },
	{ "ecx=0x100000000",
	  "error: \"ecx=0x100000000\": ECX does not fit in 32 bits" },
	{ "cpl=4 ecx=0", "error: \"cpl=4\": CPL out of range 0..3" },
	{ "pce=2 ecx=0", "error: \"pce=2\": CR4.PCE is 0 or 1" },
	{ "mode=smm ecx=0", "error: \"mode=smm\": mode is real, v86, prot16, "
	  "prot32, compat or long" },
	{ "mode= ecx=0", "error: \"mode=\": mode is real, v86, prot16, "
	  "prot32, compat or long" },
	{ "vendor=via ecx=0", "error: \"vendor=via\": vendor is intel or amd" },
	{ "vendor=Intel ecx=0",
	  "error: \"vendor=Intel\": vendor is intel or amd" },
	{ "cpl=1 cpl=1 ecx=0", "error: \"cpl=1\": key given twice" },
	{ "ecx=0 rcx=0", "error: \"rcx=0\": ecx= and rcx= both given" },
	{ "rcx=1 ecx=1", "error: \"ecx=1\": ecx= and rcx= both given" },
	{ "cpl=0", "error: missing ecx= (or rcx=)" },
	{ "", "error: missing ecx= (or rcx=)" },
	{ "mode=real cpl=3 ecx=0", "error: \"cpl=3\" contradicts "
	  "\"mode=real\", which runs at CPL 0" },
	{ "cpl=0 mode=v86 ecx=0", "error: \"cpl=0\" contradicts "
	  "\"mode=v86\", which runs at CPL 3" },
	{ "mode=compat rcx=0x100000000", "error: \"rcx=0x100000000\" sets "
	  "bits above 31, which only 64-bit mode has (mode=compat)" },
	{ "mode=real rcx=0xffffffff00000000", "error: "
	  "\"rcx=0xffffffff00000000\" sets bits above 31, which only 64-bit "
	  "mode has (mode=real)" },
	{ "perf_capabilities=0x1234567890123456789012345678901234567890"
	  "1234567890123456789012345678901234567890123456789012345678901234"
	  "567890", "error: \"perf_capabilities=0x...\": token longer than 127 "
	  "characters" },
};

static void check_errors(void)
{
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
		char text[256], name[160];
		struct strbuf err;
		struct query q;

		strbuf_init(&err, text, sizeof(text));
		snprintf(name, sizeof(name), "query error: %.100s",
			 errors[i].query);
		if (query_parse(errors[i].query, true, &q, &err))
			tap_result(false, name, errors[i].error, "accepted");
		else
			tap_check_str(name, errors[i].error, text);
	}
}

static bool parses(const char *line, bool need_counter, struct query *q)
{
	char text[256];
	struct strbuf err;

	strbuf_init(&err, text, sizeof(text));
	return query_parse(line, need_counter, q, &err);
}

static void check_u64(const char *name, uint64_t want, uint64_t got)
{
	char w[32], g[32];

	snprintf(w, sizeof(w), "0x%llx", (unsigned long long)want);
	snprintf(g, sizeof(g), "0x%llx", (unsigned long long)got);
	tap_check_str(name, w, g);
}

/* Every key at once, each with its own value: each lands in its field. */
static void check_fields(void)
{
	struct query q;
	bool ok = parses("vendor=amd cpuid.01.eax=1 cpuid.01.ecx=2 "
			 "cpuid.0a.eax=3 cpuid.0a.ebx=4 cpuid.0a.ecx=5 "
			 "cpuid.0a.edx=6 cpuid.23.1.eax=7 cpuid.23.1.ebx=8 "
			 "cpuid.80000001.ecx=9 cpuid.80000022.eax=10 "
			 "cpuid.80000022.ebx=11 "
			 "perf_capabilities=0x123456789abcdef0 "
			 "cpuid.07.ebx=12 cpuid.07.edx=13 cpuid.23.0.ebx=14 "
			 "arch_capabilities=0x80 "
			 "cpuid.0b.3.ecx=15 cpuid.1f.0.ebx=16 "
			 "mode=compat cpl=2 pce=1 ecx=0xffffffff", true, &q);
	const struct pmu_cpuid *c = &q.cpuid;

	tap_result(ok, "query: every key parses", "accepted", "error");
	if (!ok)
		return;
	check_u64("query: vendor=amd", VENDOR_AMD, c->vendor);
	check_u64("query: cpuid.01.eax", 1, c->leaf01_eax);
	check_u64("query: cpuid.01.ecx", 2, c->leaf01_ecx);
	check_u64("query: cpuid.0a.eax", 3, c->leaf0a_eax);
	check_u64("query: cpuid.0a.ebx", 4, c->leaf0a_ebx);
	check_u64("query: cpuid.0a.ecx", 5, c->leaf0a_ecx);
	check_u64("query: cpuid.0a.edx", 6, c->leaf0a_edx);
	check_u64("query: cpuid.23.1.eax", 7, c->leaf23_1_eax);
	check_u64("query: cpuid.23.1.ebx", 8, c->leaf23_1_ebx);
	check_u64("query: cpuid.23.1.* marks leaf 23H", 1, c->has_leaf23);
	check_u64("query: cpuid.0b.3.ecx", 15, c->leaf0b[3].ecx);
	check_u64("query: cpuid.0b.* marks leaf 0BH", 1, c->has_leaf0b);
	check_u64("query: cpuid.1f.0.ebx", 16, c->leaf1f[0].ebx);
	check_u64("query: cpuid.1f.* marks leaf 1FH", 1, c->has_leaf1f);
	check_u64("query: cpuid.80000001.ecx", 9, c->ext01_ecx);
	check_u64("query: cpuid.80000022.eax", 10, c->ext22_eax);
	check_u64("query: cpuid.80000022.ebx", 11, c->ext22_ebx);
	check_u64("query: perf_capabilities", 0x123456789abcdef0ull,
		  c->perf_capabilities);
	check_u64("query: perf_capabilities marks it readable", 1,
		  c->has_perf_capabilities);
	check_u64("query: cpuid.07.ebx", 12, c->leaf07_ebx);
	check_u64("query: cpuid.07.edx", 13, c->leaf07_edx);
	check_u64("query: cpuid.23.0.ebx", 14, c->leaf23_0_ebx);
	check_u64("query: arch_capabilities", 0x80, c->arch_capabilities);
	check_u64("query: arch_capabilities marks it readable", 1,
		  c->has_arch_capabilities);
	check_u64("query: mode=compat", MODE_COMPAT, q.state.mode);
	check_u64("query: cpl", 2, q.state.cpl);
	check_u64("query: pce", 1, q.state.pce);
	check_u64("query: ecx", 0xffffffff, q.rcx);
}

static void check_defaults(void)
{
	struct query q;

	tap_result(parses("ecx=0", true, &q), "query: ecx alone parses",
		   "accepted", "error");
	check_u64("query default: vendor=intel", VENDOR_INTEL, q.cpuid.vendor);
	check_u64("query default: mode=long", MODE_LONG, q.state.mode);
	check_u64("query default: cpl=0", 0, q.state.cpl);
	check_u64("query default: pce=0", 0, q.state.pce);
	check_u64("query default: leaf 23H absent", 0, q.cpuid.has_leaf23);
	check_u64("query default: leaves 0BH and 1FH absent", 0,
		  q.cpuid.has_leaf0b || q.cpuid.has_leaf1f);
	check_u64("query default: PERF_CAPABILITIES unreadable", 0,
		  q.cpuid.has_perf_capabilities);
	check_u64("query default: CPUID.0AH:EAX = 0", 0, q.cpuid.leaf0a_eax);

	parses("cpuid.23.1.ebx=0 ecx=0", true, &q);
	check_u64("query: cpuid.23.1.ebx=0 still marks leaf 23H", 1,
		  q.cpuid.has_leaf23);
	parses("mode=real ecx=0", true, &q);
	check_u64("query: mode=real is CPL 0", 0, q.state.cpl);
	parses("mode=v86 ecx=0", true, &q);
	check_u64("query: mode=v86 is CPL 3", 3, q.state.cpl);
	tap_result(parses("mode=v86 cpl=3 ecx=0", true, &q),
		   "query: mode=v86 cpl=3 agrees", "accepted", "error");
	tap_result(parses("cpl=0 mode=real ecx=0", true, &q),
		   "query: mode=real cpl=0 agrees", "accepted", "error");
	parses("mode=prot32 rcx=0xffffffff", true, &q);
	check_u64("query: rcx= without high bits outside long mode",
		  0xffffffff, q.rcx);
	parses("rcx=0xffffffffffffffff", true, &q);
	check_u64("query: rcx= 64 bits in long mode", 0xffffffffffffffffull,
		  q.rcx);
	parses("cpuid.0a.edx=34308 ecx=0X1F", true, &q);
	check_u64("query: decimal number", 0x8604, q.cpuid.leaf0a_edx);
	check_u64("query: 0X and upper-case hex", 0x1f, q.rcx);
	parses(" \tcpuid.0a.eax=0xabcDEF   ecx=1 \r\n", true, &q);
	check_u64("query: tabs, runs of spaces, CR LF", 0xabcdef,
		  q.cpuid.leaf0a_eax);
	tap_result(parses("vendor=amd cpuid.80000001.ecx=0x75c237ff", false,
			  &q), "query: a CPU profile needs no ecx=",
		   "accepted", "error");
}

static void check_blank(void)
{
	tap_result(query_is_blank(""), "query_is_blank: empty", "1", "0");
	tap_result(query_is_blank(" \t\r\n"), "query_is_blank: white space",
		   "1", "0");
	tap_result(query_is_blank("  # a comment"), "query_is_blank: comment",
		   "1", "0");
	tap_result(!query_is_blank("ecx=0 # not a comment"),
		   "query_is_blank: a query", "0", "1");
}

void test_query(void)
{
	check_errors();
	check_fields();
	check_defaults();
	check_blank();
}
