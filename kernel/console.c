/* printf to the platform's console, one line at a time. */
#include "console.h"

#include "platform.h"
#include "strbuf.h"

_Static_assert(LOG_LINE_MAX + 1 <= PLATFORM_CONSOLE_LINE_MAX,
	       "a line and its newline go to the platform in one write");

/* The line being assembled, and room for its newline. */
static struct {
	char text[LOG_LINE_MAX + 1];
	unsigned len;
} line;

static void emit(void)
{
	platform_console_write(line.text, line.len);
	line.len = 0;
}

static void put(char c)
{
	static const char continued[] = "# ";

	if (c != '\n' && line.len == LOG_LINE_MAX) {
		line.text[line.len++] = '\n';
		emit();
		for (unsigned i = 0; continued[i]; i++)
			line.text[line.len++] = continued[i];
	}
	line.text[line.len++] = c;
	if (c == '\n')
		emit();
}

static void put_text(const char *s, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		put(s[i]);
}

void console_vprintf(const char *fmt, va_list ap)
{
	char buf[1024];
	struct strbuf sb;

	strbuf_init(&sb, buf, sizeof(buf));
	strbuf_vprintf(&sb, fmt, ap);
	if (sb.len < sizeof(buf)) {
		put_text(buf, sb.len);
		return;
	}
	/* Cut: keep the line a line, so that the next does not run on. */
	put_text(buf, sizeof(buf) - 1);
	for (const char *end = fmt; *end; end++)
		if (end[1] == '\0' && *end == '\n')
			put_text(" (cut)\n", 7);
}

void console_take_over(void)
{
	line.len = 0;
}

void console_printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	console_vprintf(fmt, ap);
	va_end(ap);
}
