#include "tap_writer.h"

#include <stdbool.h>

#include "console.h"
#include "platform.h"
#include "strbuf.h"

#define NOT_YET UINT64_MAX

/* Where the YAML block being written starts and ends in the log
 * (platform_console_bytes() before its "  ---" and before its "  ..."): a
 * line is out once the count has passed its start. Set in this order, so
 * that a CPU lost between any two stores leaves a state that says which
 * of the two lines are out. */
static volatile struct {
	uint64_t start, end;
} block = { NOT_YET, NOT_YET };

static void block_begin(void)
{
	block.start = platform_console_bytes();
	block.end = NOT_YET;
	console_printf("  ---\n");
}

static void block_end(void)
{
	block.end = platform_console_bytes();
	console_printf("  ...\n");
}

void tap_take_over(void)
{
	uint64_t out = platform_console_bytes();

	console_take_over();
	/* The block may hold nothing yet, and Perl's TAP::Parser and tappy
	 * refuse an empty one: a key says why it ends early. */
	if (block.start != NOT_YET && out > block.start &&
	    (block.end == NOT_YET || out <= block.end))
		console_printf("  cut: \"the CPU writing this block was lost before its end\"\n"
			       "  ...\n");
	block.start = block.end = NOT_YET;
}

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

void tap_skip_same(unsigned number, const char *id, const char *statements,
		   const char *earlier_id)
{
	console_printf("ok %u - %s [%s] # SKIP same as %s\n", number, id,
		       statements, earlier_id);
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

static void print_key(const char *key, const struct keyed_line *value)
{
	if (value->line)
		print_value("  ", key, 4, value->value, value->length);
}

/*
 * No line is shown twice: every byte on the serial console costs a port
 * exit and a host write() under an emulator (README, "Overhead"). Lists of
 * one-key maps, and long values folded (print_value()): that is the YAML
 * subset Perl's TAP::Parser reads (a list item that is a quoted "x: y" is
 * taken for a map).
 */
void tap_yaml(const char *lines, const struct diagnostic_keys *keys,
	      unsigned truncated)
{
	const char *shown[4] = { keys->message.line, keys->context.line,
				 keys->expected.line, keys->observed.line };
	bool listed = false;

	block_begin();
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
			print_value("    - ", "text", 8, line, n);
		}
		line += line[n] ? n + 1 : n;
	}
	if (truncated)
		console_printf("  truncated: \"the diagnostics filled their %u-byte buffer\"\n",
			       truncated);
	block_end();
}

void tap_yaml_same(const char *earlier_id, const char *brief)
{
	char text[200];
	struct strbuf same;

	strbuf_init(&same, text, sizeof(text));
	strbuf_printf(&same, "%s%s%s", earlier_id, *brief ? ": " : "", brief);
	block_begin();
	print_value("  ", "same", 4, text, text_length(text));
	block_end();
}
