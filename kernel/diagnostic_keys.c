#include "diagnostic_keys.h"

#include <stdbool.h>

int diagnostic_line_length(const char *line)
{
	int n = 0;

	while (line[n] && line[n] != '\n')
		n++;
	return n;
}

/* The first of lines that starts with key and ": ", if any. */
static struct keyed_line find(const char *lines, const char *key)
{
	struct keyed_line found = { 0, 0, 0 };
	unsigned key_len = 0;

	while (key[key_len])
		key_len++;
	for (const char *line = lines; *line;) {
		int n = diagnostic_line_length(line);
		bool match = true;

		for (unsigned k = 0; k <= key_len && match; k++)
			match = k < key_len ? line[k] == key[k] : line[k] == ':';
		if (match && line[key_len + 1] == ' ') {
			found.line = line;
			found.value = line + key_len + 2;
			found.length = n - (int)key_len - 2;
			return found;
		}
		line += line[n] ? n + 1 : n;
	}
	return found;
}

void diagnostic_keys_find(const char *lines, const char *first,
			  struct diagnostic_keys *keys)
{
	keys->context = find(lines, "context");
	keys->expected = find(lines, "expected");
	keys->observed = find(lines, "observed");
	keys->message = find(lines, "deviation");
	if (!keys->message.line) {
		keys->message.line = first;
		keys->message.value = first;
		keys->message.length = diagnostic_line_length(first);
	}
}
