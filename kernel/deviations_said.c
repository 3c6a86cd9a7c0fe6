#include "deviations_said.h"

#include <stdbool.h>
#include <stddef.h>

/*
 * Each deviation said is a record of five NUL-terminated strings, one
 * after the other: the test's ID, its brief, the message, the expected
 * and the observed outcome (empty where the report had none), about 220
 * bytes.
 * A default run under an emulator that lacks RDPMC says about ten.
 */
static struct {
	char text[16384];
	size_t used;
} said;

static size_t string_length(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

/* Whether the stored string at s is the value of line; moves s past it. */
static bool same_value(const char **s, const struct keyed_line *line)
{
	const char *stored = *s;
	int n = line->line ? line->length : 0;
	bool same = true;

	for (int k = 0; k < n && same; k++)
		same = stored[k] == line->value[k];
	same = same && (size_t)n == string_length(stored);
	*s = stored + string_length(stored) + 1;
	return same;
}

/* text (n bytes) and a NUL at *end, if they fit; *end moves past them. */
static bool append(size_t *end, const char *text, int n)
{
	if (*end + (size_t)n + 1 > sizeof(said.text))
		return false;
	for (int k = 0; k < n; k++)
		said.text[(*end)++] = text[k];
	said.text[(*end)++] = '\0';
	return true;
}

static bool same_string(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* The record is written past `used`, which then grows in one store: a CPU
 * lost while writing it leaves the records before it whole. */
void deviation_said(const struct diagnostic_keys *keys, const char *test_id,
		    const char *brief)
{
	const struct keyed_line *parts[3] = { &keys->message, &keys->expected,
					       &keys->observed };
	size_t end = said.used;
	bool fits = append(&end, test_id, (int)string_length(test_id)) &&
		    append(&end, brief, (int)string_length(brief));

	for (unsigned k = 0; k < 3 && fits; k++)
		fits = append(&end, parts[k]->line ? parts[k]->value : "",
			      parts[k]->line ? parts[k]->length : 0);
	if (fits)
		__atomic_store_n(&said.used, end, __ATOMIC_RELEASE);
}

const char *deviation_said_before(const struct diagnostic_keys *keys,
				  const char *brief, bool *same_brief)
{
	const char *record = said.text;

	while (record < said.text + said.used) {
		const char *id = record, *then = id + string_length(id) + 1;
		const char *s = then + string_length(then) + 1;
		bool same = same_value(&s, &keys->message);

		same = same_value(&s, &keys->expected) && same;
		same = same_value(&s, &keys->observed) && same;
		if (same) {
			*same_brief = same_string(then, brief);
			return id;
		}
		record = s;
	}
	return 0;
}
