/*
 * The keyed lines of a test's diagnostics (one diagnostic a line): which
 * line is the message, and the first "context: ", "expected: " and
 * "observed: " lines. The TAP writer prints them as the keys of the YAML
 * block; the harness compares them to say a repeated deviation once.
 */
#ifndef PMCTEST_DIAGNOSTIC_KEYS_H
#define PMCTEST_DIAGNOSTIC_KEYS_H

/* One keyed line: where the whole line starts (0: none), and its value. */
struct keyed_line {
	const char *line;
	const char *value;
	int length;
};

struct diagnostic_keys {
	/* The line starting "deviation: " if there is one, else `first`. */
	struct keyed_line message;
	struct keyed_line context, expected, observed;
};

/* first: the line to take for the message where no line names a
 * deviation (a line of lines). */
void diagnostic_keys_find(const char *lines, const char *first,
			  struct diagnostic_keys *keys);

/* The length of the line at line, without its newline. */
int diagnostic_line_length(const char *line);

#endif
