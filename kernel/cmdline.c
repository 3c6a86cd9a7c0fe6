#include "cmdline.h"

#include <stddef.h>

#include "cpus.h"
#include "platform.h"

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool same(const char *word, const char *s)
{
	while (*s && *word == *s) {
		word++;
		s++;
	}
	return *s == '\0' && *word == '\0';
}

static bool prefixed(const char *word, const char *prefix)
{
	while (*prefix && *word == *prefix) {
		word++;
		prefix++;
	}
	return *prefix == '\0';
}

static bool pattern_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
	       c == '_' || c == '-' || c == '*' || c == '?' || c == '@';
}

/* A "tests=" or "exclude=" value: comma-separated, non-empty, ID
 * characters and wildcards, into list[*count]. */
static bool parse_patterns(const char *key, char *value, const char **list,
			   unsigned *count, struct strbuf *error)
{
	char *p = value;

	if (*count) {
		strbuf_printf(error, "%s= given twice (join the patterns with commas)", key);
		return false;
	}
	if (*p == '\0') {
		strbuf_printf(error, "%s= needs at least one pattern", key);
		return false;
	}
	for (;;) {
		char *start = p;

		while (*p && *p != ',') {
			if (!pattern_char(*p)) {
				strbuf_printf(error,
					      "%s=%s: '%c' is not allowed in a pattern (use a-z 0-9 . _ - * ? @)",
					      key, value, *p);
				return false;
			}
			p++;
		}
		if (p == start) {
			strbuf_printf(error, "%s=%s: empty pattern", key, value);
			return false;
		}
		if (*count == CMDLINE_PATTERNS_MAX) {
			strbuf_printf(error, "%s=: more than %d patterns", key,
				      CMDLINE_PATTERNS_MAX);
			return false;
		}
		list[(*count)++] = start;
		if (*p == '\0')
			return true;
		*p++ = '\0';
	}
}

/* A CPU number of cpus=: decimal, below CPUS_MAX; p moves past it. */
static bool parse_cpu(const char *value, char **p, unsigned *cpu,
		      struct strbuf *error)
{
	unsigned n = 0, digits = 0;

	while (**p >= '0' && **p <= '9') {
		if (n < CPUS_MAX)
			n = n * 10 + (unsigned)(**p - '0');
		(*p)++;
		digits++;
	}
	if (digits == 0) {
		strbuf_printf(error, "cpus=%s: not all, nor CPU numbers and ranges (e.g. cpus=0,2-3)",
			      value);
		return false;
	}
	if (n >= CPUS_MAX) {
		strbuf_printf(error, "cpus=%s: pmctest runs CPUs 0-%d", value,
			      CPUS_MAX - 1);
		return false;
	}
	*cpu = n;
	return true;
}

/* cpus=all or cpus=N[-M][,N[-M]]...: the CPUs the per-CPU part runs on,
 * as bit n for CPU n (kernel/harness.h). */
static bool parse_cpus(char *value, bool *seen, uint32_t *cpus,
		       struct strbuf *error)
{
	char *p = value;

	if (*seen) {
		strbuf_printf(error, "cpus= given twice (join the CPUs with commas)");
		return false;
	}
	*seen = true;
	if (same(value, "all"))
		return true;	/* HARNESS_CPUS_ALL, as without cpus= */
	*cpus = 0;
	for (;;) {
		unsigned first, last;

		if (!parse_cpu(value, &p, &first, error))
			return false;
		last = first;
		if (*p == '-') {
			p++;
			if (!parse_cpu(value, &p, &last, error))
				return false;
			if (last < first) {
				strbuf_printf(error, "cpus=%s: the range %u-%u runs backwards",
					      value, first, last);
				return false;
			}
		}
		for (unsigned c = first; c <= last; c++)
			*cpus |= 1u << c;
		if (*p == '\0')
			return true;
		if (*p != ',') {
			strbuf_printf(error, "cpus=%s: '%c' is not allowed (use all, or numbers, '-' and ',')",
				      value, *p);
			return false;
		}
		p++;
	}
}

/* exit=: how the run ends after its summary (platform.h). */
static bool parse_exit(const char *value, bool *seen,
		       enum platform_exit_method *by, struct strbuf *error)
{
	if (*seen) {
		strbuf_printf(error, "exit= given twice");
		return false;
	}
	*seen = true;
	if (same(value, "debug"))
		*by = EXIT_BY_DEBUG_PORT;
	else if (same(value, "reset"))
		*by = EXIT_BY_RESET;
	else if (same(value, "triple"))
		*by = EXIT_BY_TRIPLE_FAULT;
	else {
		strbuf_printf(error, "exit=%s: not debug, reset or triple", value);
		return false;
	}
	return true;
}

/* apic=: the local APIC's mode for the run (platform.h). */
static bool parse_apic(const char *value, bool *seen,
		       enum platform_apic_mode *mode, struct strbuf *error)
{
	if (*seen) {
		strbuf_printf(error, "apic= given twice");
		return false;
	}
	*seen = true;
	if (same(value, "xapic"))
		*mode = APIC_MODE_XAPIC;
	else if (same(value, "x2apic"))
		*mode = APIC_MODE_X2APIC;
	else {
		strbuf_printf(error, "apic=%s: not xapic or x2apic", value);
		return false;
	}
	return true;
}

/* A "console=" value: com1, e9 or both, comma-separated, into *ports. */
static bool parse_consoles(char *value, unsigned *ports, struct strbuf *error)
{
	static const struct {
		const char *name;
		unsigned port;
	} names[] = { { "com1", CONSOLE_COM1 }, { "e9", CONSOLE_E9 } };
	char *p = value;

	if (*ports) {
		strbuf_printf(error, "console= given twice (join the ports with commas)");
		return false;
	}
	for (;;) {
		char *start = p;
		unsigned port = 0;

		while (*p && *p != ',')
			p++;
		if (*p)
			*p++ = '\0';
		else
			p = 0;
		for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (same(start, names[i].name))
				port = names[i].port;
		if (!port) {
			strbuf_printf(error, "console=: '%s' is not a console (com1, e9, or com1,e9)",
				      start);
			return false;
		}
		*ports |= port;
		if (!p)
			return true;
	}
}

bool cmdline_parse(char *line, struct harness_options *o,
		   struct strbuf *error)
{
	char *p = line;
	bool exit_seen = false, cpus_seen = false, apic_seen = false;

	*o = (struct harness_options){ .exit_by = EXIT_BY_DEBUG_PORT,
				       .cpus = HARNESS_CPUS_ALL,
				       .apic = APIC_MODE_FIRMWARE };
	/* Printable ASCII only: a newline would end the TAP line the header
	 * prints the command line on. */
	for (unsigned i = 0; line[i]; i++) {
		unsigned char c = (unsigned char)line[i];

		if ((c < 0x20 && c != '\t') || c >= 0x7F) {
			strbuf_printf(error, "byte 0x%02x at offset %u is not printable ASCII",
				      c, i);
			return false;
		}
	}
	for (;;) {
		char *word;

		while (is_space(*p))
			p++;
		if (*p == '\0')
			return true;
		word = p;
		while (*p && !is_space(*p))
			p++;
		if (*p)
			*p++ = '\0';

		if (same(word, "list")) {
			o->list = true;
		} else if (same(word, "verbose")) {
			o->verbose = true;
		} else if (same(word, "timing")) {
			o->timing = true;
		} else if (prefixed(word, "tests=")) {
			if (!parse_patterns("tests", word + 6, o->patterns,
					    &o->pattern_count, error))
				return false;
		} else if (prefixed(word, "console=")) {
			if (!parse_consoles(word + 8, &o->consoles, error))
				return false;
		} else if (prefixed(word, "exclude=")) {
			if (!parse_patterns("exclude", word + 8, o->excluded,
					    &o->excluded_count, error))
				return false;
		} else if (prefixed(word, "cpus=")) {
			if (!parse_cpus(word + 5, &cpus_seen, &o->cpus, error))
				return false;
		} else if (prefixed(word, "exit=")) {
			if (!parse_exit(word + 5, &exit_seen, &o->exit_by, error))
				return false;
		} else if (prefixed(word, "apic=")) {
			if (!parse_apic(word + 5, &apic_seen, &o->apic, error))
				return false;
		} else {
			strbuf_printf(error, "unknown option '%s' (known: tests=GLOB[,GLOB], exclude=GLOB[,GLOB], cpus=all|N[-M][,N[-M]], console=com1|e9|com1,e9, list, verbose, timing, exit=debug|reset|triple, apic=xapic|x2apic)",
				      word);
			return false;
		}
	}
}
