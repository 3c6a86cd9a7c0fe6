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

static int quoted_length(const char *text, int n)
{
	int length = 2;

	for (int k = 0; k < n && text[k]; k++)
		length += 1 + (text[k] == '"' || text[k] == '\\');
	return length;
}

static int text_length(const char *text)
{
	int n = 0;

	while (text[n])
		n++;
	return n;
}

/* Where the first line of a fold ends: the last single space between two
 * words within width, else width itself (a word longer than a line). */
static int fold_end(const char *text, int n, int width)
{
	if (n <= width)
		return n;
	for (int k = width; k > 0; k--)
		if (text[k] == ' ' && text[k - 1] != ' ' && text[k + 1] != ' ')
			return k;
	return width;
}

/*
 * "key: value" in a YAML block after prefix ("  " for a key of the block,
 * "    - " for an item of its list): a double-quoted scalar where the line
 * stays within LOG_LINE_MAX, else a folded block scalar (">"), its lines
 * indented by indent and broken at single spaces, which a reader joins
 * with a space (the text, and a newline). Perl's TAP::Parser reads ">", not
 * quoted scalars over several lines. A folded text has no escapes; the
 * leading spaces ">" cannot hold are left out, and a word longer than a
 * line is broken and reads with a space in it.
 */
static void print_value(const char *prefix, const char *key, int indent,
			const char *text, int n)
{
	int width = LOG_LINE_MAX - indent;
	int lead = text_length(prefix) + text_length(key) + 2;

	console_printf("%s%s: ", prefix, key);
	if (lead + quoted_length(text, n) <= LOG_LINE_MAX) {
		print_quoted(text, n);
		console_printf("\n");
		return;
	}
	console_printf(">\n");
	while (n > 0 && *text == ' ')
		text++, n--;
	while (n > 0) {
		int end = fold_end(text, n, width);

		console_printf("%.*s%.*s\n", indent, "        ", end, text);
		text += end;
		n -= end;
		while (n > 0 && *text == ' ')
			text++, n--;
	}
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
 * one-key maps, and long values folded (print_value()): that is the YAML
 * subset Perl's TAP::Parser reads (a list item that is a quoted "x: y" is
 * taken for a map).
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

	console_printf("  ---\n");
	print_value("  ", "message", 4, value, n);
	for (unsigned k = 0; k < 3; k++)
		if (values[k])
			print_value("  ", keys[k], 4, values[k], lengths[k]);
	for (line = lines; *line;) {
		n = line_length(line);
		if (!was_shown(&shown, line)) {
			if (!listed)
				console_printf("  diagnostics:\n");
			listed = true;
			print_value("    - ", "text", 8, line, n);
		}
		line += line[n] ? n + 1 : n;
	}
	if (truncated)
		console_printf("  truncated: \"the diagnostics filled their %u-byte buffer\"\n",
			       truncated);
	console_printf("  ...\n");
}
