/* printf to the platform's console, one buffer at a time. */
#include "console.h"

#include "platform.h"
#include "strbuf.h"

void console_vprintf(const char *fmt, va_list ap)
{
	char buf[1024];
	struct strbuf sb;

	strbuf_init(&sb, buf, sizeof(buf));
	strbuf_vprintf(&sb, fmt, ap);
	if (sb.len < sizeof(buf)) {
		platform_console_write(buf, sb.len);
		return;
	}
	/* Cut: keep the line a line, so that the next does not run on. */
	platform_console_write(buf, sizeof(buf) - 1);
	for (const char *end = fmt; *end; end++)
		if (end[1] == '\0' && *end == '\n')
			platform_console_write(" (cut)\n", 7);
}

void console_printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	console_vprintf(fmt, ap);
	va_end(ap);
}
