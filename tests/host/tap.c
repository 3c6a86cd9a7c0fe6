/* tap: see tap.h. */
#include "tap.h"

#include <stdio.h>
#include <string.h>

static unsigned passed, failed;

void tap_begin(void)
{
	puts("TAP version 13");
}

/* A diagnostic value, one "#" line per line of text. */
static void diagnose(const char *label, const char *text)
{
	const char *indent = label;

	do {
		size_t n = strcspn(text, "\n");

		printf("#   %-9s %.*s\n", indent, (int)n, text);
		text += n + (text[n] == '\n');
		indent = "";
	} while (*text);
}

bool tap_result(bool pass, const char *name, const char *expected,
		const char *observed)
{
	unsigned number = passed + failed + 1;

	if (pass) {
		passed++;
		printf("ok %u - %s\n", number, name);
		return true;
	}
	failed++;
	printf("not ok %u - %s\n", number, name);
	diagnose("expected:", expected);
	diagnose("observed:", observed);
	return false;
}

bool tap_check_str(const char *name, const char *expected,
		   const char *observed)
{
	return tap_result(strcmp(expected, observed) == 0, name, expected,
			  observed);
}

int tap_end(void)
{
	printf("1..%u\n", passed + failed);
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
