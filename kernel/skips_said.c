#include "skips_said.h"

#include <stdbool.h>
#include <stddef.h>

/*
 * Each reason given is a record of two NUL-terminated strings, one after
 * the other: the test's ID and the reason. A default run says about ten
 * distinct reasons, none longer than a test's reason buffer (160 bytes).
 */
static struct {
	char text[8192];
	size_t used;
} said;

/* What tap_skip_same() writes in place of the reason, before the ID. */
#define SAME_AS "same as "

static size_t string_length(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

static bool same_string(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* The record of reason, or 0. */
static const char *find(const char *reason)
{
	const char *record = said.text;

	while (record < said.text + said.used) {
		const char *id = record, *why = id + string_length(id) + 1;

		if (same_string(why, reason))
			return id;
		record = why + string_length(why) + 1;
	}
	return 0;
}

const char *skip_said_before(const char *reason)
{
	const char *id = find(reason);

	return id && sizeof(SAME_AS) - 1 + string_length(id) <
		     string_length(reason) ? id : 0;
}

/* The record is written past `used`, which then grows in one store: a CPU
 * lost while writing it leaves the records before it whole. */
void skip_said(const char *reason, const char *test_id)
{
	size_t id = string_length(test_id) + 1, why = string_length(reason) + 1;
	size_t end = said.used;

	if (find(reason) || said.used + id + why > sizeof(said.text))
		return;
	for (size_t k = 0; k < id; k++)
		said.text[end++] = test_id[k];
	for (size_t k = 0; k < why; k++)
		said.text[end++] = reason[k];
	__atomic_store_n(&said.used, end, __ATOMIC_RELEASE);
}
