#include "cmdline.h"

#include <stddef.h>

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

static bool pattern_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
	       c == '_' || c == '-' || c == '*' || c == '?';
}

/* "tests=" value: comma-separated, non-empty, ID characters and wildcards. */
static bool parse_patterns(char *value, struct harness_options *o,
			   struct strbuf *error)
{
	char *p = value;

	if (*p == '\0') {
		strbuf_puts(error, "tests= needs at least one pattern");
		return false;
	}
	for (;;) {
		char *start = p;

		while (*p && *p != ',') {
			if (!pattern_char(*p)) {
				strbuf_printf(error,
					      "tests=%s: '%c' is not allowed in a pattern (use a-z 0-9 . _ - * ?)",
					      value, *p);
				return false;
			}
			p++;
		}
		if (p == start) {
			strbuf_printf(error, "tests=%s: empty pattern", value);
			return false;
		}
		if (o->pattern_count == sizeof(o->patterns) / sizeof(o->patterns[0])) {
			strbuf_printf(error, "tests=: more than %zu patterns",
				      sizeof(o->patterns) / sizeof(o->patterns[0]));
			return false;
		}
		o->patterns[o->pattern_count++] = start;
		if (*p == '\0')
			return true;
		*p++ = '\0';
	}
}

bool cmdline_parse(char *line, struct harness_options *o,
		   struct strbuf *error)
{
	char *p = line;

	*o = (struct harness_options){ 0 };
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
		} else if (word[0] == 't' && word[1] == 'e' && word[2] == 's' &&
			   word[3] == 't' && word[4] == 's' && word[5] == '=') {
			if (o->pattern_count) {
				strbuf_puts(error, "tests= given twice (join the patterns with commas)");
				return false;
			}
			if (!parse_patterns(word + 6, o, error))
				return false;
		} else {
			strbuf_printf(error, "unknown option '%s' (known: tests=GLOB[,GLOB], list, verbose)",
				      word);
			return false;
		}
	}
}
