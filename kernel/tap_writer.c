#include "tap_writer.h"

#include <stdbool.h>

#include "console.h"
#include "strbuf.h"

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

/* n bytes of text, in pieces the console's formatting buffer holds. */
static void print_run(const char *text, int n)
{
	for (int k = 0; k < n; k += 512)
		console_printf("%.*s", n - k < 512 ? n - k : 512, text + k);
}

/* A YAML double-quoted scalar of the n bytes at text (fewer if a NUL
 * comes first): " and \ escaped. Written in runs between the escapes,
 * not a character at a time: each write is a formatting pass. */
static void print_quoted(const char *text, int n)
{
	int run = 0, k = 0;

	console_printf("\"");
	for (; k < n && text[k]; k++) {
		if (text[k] == '"' || text[k] == '\\') {
			print_run(text + run, k - run);
			console_printf("\\%c", text[k]);
			run = k + 1;
		}
	}
	print_run(text + run, k - run);
	console_printf("\"");
}

static void print_key(const char *key, const struct keyed_line *value)
{
	if (!value->line)
		return;
	console_printf("  %s: ", key);
	print_quoted(value->value, value->length);
	console_printf("\n");
}

/*
 * No line is shown twice: every byte on the serial console costs a port
 * exit and a host write() under an emulator (README, "Overhead"). Lists of
 * one-key maps and no block scalars: that is the YAML subset Perl's
 * TAP::Parser reads (a list item that is a quoted "x: y" is taken for a
 * map).
 */
void tap_yaml(const char *lines, const struct diagnostic_keys *keys,
	      unsigned truncated)
{
	const char *shown[4] = { keys->message.line, keys->context.line,
				 keys->expected.line, keys->observed.line };
	bool listed = false;

	console_printf("  ---\n");
	print_key("message", &keys->message);
	print_key("context", &keys->context);
	print_key("expected", &keys->expected);
	print_key("observed", &keys->observed);
	for (const char *line = lines; *line;) {
		int n = diagnostic_line_length(line);
		bool was_shown = false;

		for (unsigned k = 0; k < 4; k++)
			was_shown = was_shown || shown[k] == line;
		if (!was_shown) {
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

void tap_yaml_same(const char *earlier_id, const char *brief)
{
	char text[200];
	struct strbuf same;

	strbuf_init(&same, text, sizeof(text));
	strbuf_printf(&same, "%s%s%s", earlier_id, *brief ? ": " : "", brief);
	console_printf("  ---\n  same: ");
	print_quoted(text, (int)sizeof(text));
	console_printf("\n  ...\n");
}
