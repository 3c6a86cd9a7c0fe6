#include "tap_writer.h"

#include <stdbool.h>

#include "console.h"

void tap_version(void)
{
	console_printf("TAP version 13\n");
}

void tap_plan(unsigned count)
{
	console_printf("1..%u\n", count);
}

void tap_result(enum tap_result result, unsigned number, const char *id,
		const char *statements, const char *skip_reason)
{
	if (result == TAP_SKIP)
		console_printf("ok %u - %s [%s] # SKIP %s\n", number, id,
			       statements, skip_reason);
	else
		console_printf("%s %u - %s [%s]\n",
			       result == TAP_FAIL ? "not ok" : "ok", number, id,
			       statements);
}

void tap_bail_out(const char *why)
{
	console_printf("Bail out! %s\n", why);
}

/* A YAML double-quoted scalar: the text with " and \ escaped. */
static void print_quoted(const char *text, int n)
{
	console_printf("\"");
	for (int k = 0; k < n && text[k]; k++) {
		if (text[k] == '"' || text[k] == '\\')
			console_printf("\\%c", text[k]);
		else
			console_printf("%c", text[k]);
	}
	console_printf("\"");
}

/* The first of lines that starts with key and ": ", if any: the line, and
 * its value (n bytes at *value). */
static const char *find_keyed_line(const char *lines, const char *key,
				   const char **value, int *n)
{
	unsigned key_len = 0;

	while (key[key_len])
		key_len++;
	for (const char *line = lines; *line;) {
		const char *end = line;
		bool match = true;

		while (*end && *end != '\n')
			end++;
		for (unsigned k = 0; k <= key_len && match; k++)
			match = k < key_len ? line[k] == key[k] : line[k] == ':';
		if (match && line[key_len + 1] == ' ') {
			*value = line + key_len + 2;
			*n = (int)(end - *value);
			return line;
		}
		line = *end ? end + 1 : end;
	}
	return 0;
}

static int line_length(const char *line)
{
	int n = 0;

	while (line[n] && line[n] != '\n')
		n++;
	return n;
}

/* The lines tap_yaml() has shown as keys, not to show again. */
struct shown {
	const char *line[4];
	unsigned count;
};

static bool was_shown(const struct shown *shown, const char *line)
{
	for (unsigned k = 0; k < shown->count; k++)
		if (shown->line[k] == line)
			return true;
	return false;
}

/*
 * No line is shown twice: every byte on the serial console costs a port
 * exit and a host write() under an emulator (README, "Overhead"). Lists of
 * one-key maps and no block scalars: that is the YAML subset Perl's
 * TAP::Parser reads (a list item that is a quoted "x: y" is taken for a
 * map).
 */
void tap_yaml(const char *lines, const char *first, unsigned truncated)
{
	static const char *const keys[] = { "context", "expected", "observed" };
	struct shown shown = { { 0 }, 0 };
	const char *values[3], *line, *value;
	int lengths[3], n;
	bool listed = false;

	for (unsigned k = 0; k < 3; k++) {
		values[k] = 0;
		line = find_keyed_line(lines, keys[k], &values[k], &lengths[k]);
		if (line)
			shown.line[shown.count++] = line;
	}
	line = find_keyed_line(lines, "deviation", &value, &n);
	if (!line) {
		line = first;
		value = line;
		n = line_length(line);
	}
	shown.line[shown.count++] = line;

	console_printf("  ---\n  message: ");
	print_quoted(value, n);
	console_printf("\n");
	for (unsigned k = 0; k < 3; k++) {
		if (values[k]) {
			console_printf("  %s: ", keys[k]);
			print_quoted(values[k], lengths[k]);
			console_printf("\n");
		}
	}
	for (line = lines; *line;) {
		n = line_length(line);
		if (!was_shown(&shown, line)) {
			if (!listed)
				console_printf("  diagnostics:\n");
			listed = true;
			console_printf("    - text: ");
			print_quoted(line, n);
			console_printf("\n");
		}
		line += line[n] ? n + 1 : n;
	}
	if (truncated)
		console_printf("  truncated: \"the diagnostics filled their %u-byte buffer\"\n",
			       truncated);
	console_printf("  ...\n");
}
