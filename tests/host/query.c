/* query: see query.h. */
#include "query.h"

#include <stddef.h>
#include <string.h>

enum key_kind { KEY_U32, KEY_U64, KEY_VENDOR, KEY_MODE, KEY_CPL, KEY_PCE,
		KEY_ECX, KEY_RCX };

/* What giving a key says beyond its value. */
enum key_marks { MARKS_NOTHING, MARKS_LEAF23, MARKS_PERF_CAPS,
		 MARKS_ARCH_CAPS, MARKS_LEAF0B, MARKS_LEAF1F };

struct key {
	const char *name;
	enum key_kind kind;
	size_t offset;		/* KEY_U32, KEY_U64: the field in struct query */
	enum key_marks marks;
};

#define RAW(field) offsetof(struct query, cpuid.field)

/* The three registers of sub-leaf n of a topology leaf (SMP-8). */
#define TOPOLOGY_KEYS(name, field, n, marks) \
	{ "cpuid." name "." #n ".eax", KEY_U32, RAW(field[n].eax), marks }, \
	{ "cpuid." name "." #n ".ebx", KEY_U32, RAW(field[n].ebx), marks }, \
	{ "cpuid." name "." #n ".ecx", KEY_U32, RAW(field[n].ecx), marks }

static const struct key keys[] = {
	{ "vendor", KEY_VENDOR, 0, MARKS_NOTHING },
	{ "cpuid.01.eax", KEY_U32, RAW(leaf01_eax), MARKS_NOTHING },
	{ "cpuid.01.ecx", KEY_U32, RAW(leaf01_ecx), MARKS_NOTHING },
	{ "cpuid.07.ebx", KEY_U32, RAW(leaf07_ebx), MARKS_NOTHING },
	{ "cpuid.07.edx", KEY_U32, RAW(leaf07_edx), MARKS_NOTHING },
	{ "cpuid.0a.eax", KEY_U32, RAW(leaf0a_eax), MARKS_NOTHING },
	{ "cpuid.0a.ebx", KEY_U32, RAW(leaf0a_ebx), MARKS_NOTHING },
	{ "cpuid.0a.ecx", KEY_U32, RAW(leaf0a_ecx), MARKS_NOTHING },
	{ "cpuid.0a.edx", KEY_U32, RAW(leaf0a_edx), MARKS_NOTHING },
	{ "cpuid.23.0.ebx", KEY_U32, RAW(leaf23_0_ebx), MARKS_NOTHING },
	{ "cpuid.23.1.eax", KEY_U32, RAW(leaf23_1_eax), MARKS_LEAF23 },
	{ "cpuid.23.1.ebx", KEY_U32, RAW(leaf23_1_ebx), MARKS_LEAF23 },
	TOPOLOGY_KEYS("0b", leaf0b, 0, MARKS_LEAF0B),
	TOPOLOGY_KEYS("0b", leaf0b, 1, MARKS_LEAF0B),
	TOPOLOGY_KEYS("0b", leaf0b, 2, MARKS_LEAF0B),
	TOPOLOGY_KEYS("0b", leaf0b, 3, MARKS_LEAF0B),
	TOPOLOGY_KEYS("1f", leaf1f, 0, MARKS_LEAF1F),
	TOPOLOGY_KEYS("1f", leaf1f, 1, MARKS_LEAF1F),
	TOPOLOGY_KEYS("1f", leaf1f, 2, MARKS_LEAF1F),
	TOPOLOGY_KEYS("1f", leaf1f, 3, MARKS_LEAF1F),
	{ "cpuid.80000001.ecx", KEY_U32, RAW(ext01_ecx), MARKS_NOTHING },
	{ "cpuid.80000022.eax", KEY_U32, RAW(ext22_eax), MARKS_NOTHING },
	{ "cpuid.80000022.ebx", KEY_U32, RAW(ext22_ebx), MARKS_NOTHING },
	{ "perf_capabilities", KEY_U64, RAW(perf_capabilities), MARKS_PERF_CAPS },
	{ "arch_capabilities", KEY_U64, RAW(arch_capabilities), MARKS_ARCH_CAPS },
	{ "mode", KEY_MODE, 0, MARKS_NOTHING },
	{ "cpl", KEY_CPL, 0, MARKS_NOTHING },
	{ "pce", KEY_PCE, 0, MARKS_NOTHING },
	{ "ecx", KEY_ECX, 0, MARKS_NOTHING },
	{ "rcx", KEY_RCX, 0, MARKS_NOTHING },
};

#define KEY_COUNT (sizeof(keys) / sizeof(keys[0]))
#define TOKEN_MAX 128

/* The parse in progress: which keys were given, with which values. */
struct parse {
	struct query *q;
	bool seen[KEY_COUNT];
	bool has_cpl;
	uint64_t cpl;
	bool rcx_given;		/* rcx= rather than ecx= */
};

static const struct key *find_key(const char *name, size_t len)
{
	for (size_t i = 0; i < KEY_COUNT; i++)
		if (strlen(keys[i].name) == len &&
		    strncmp(keys[i].name, name, len) == 0)
			return &keys[i];
	return NULL;
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decimal or 0x-hex, all of `s`, no sign, at most 64 bits. */
static bool parse_number(const char *s, uint64_t *out)
{
	unsigned base = 10;
	uint64_t value = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return false;
	for (; *s; s++) {
		int d = digit_value(*s);

		if (d < 0 || (unsigned)d >= base ||
		    value > (UINT64_MAX - (unsigned)d) / base)
			return false;
		value = value * base + (unsigned)d;
	}
	*out = value;
	return true;
}

static bool parse_mode(const char *s, enum cpu_mode *mode)
{
	static const enum cpu_mode modes[] = { MODE_REAL, MODE_V86,
		MODE_PROT16, MODE_PROT32, MODE_COMPAT, MODE_LONG };

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strcmp(s, cpu_mode_name(modes[i])) == 0) {
			*mode = modes[i];
			return true;
		}
	return false;
}

static bool fail(struct strbuf *err, const char *token, const char *what)
{
	strbuf_printf(err, "error: \"%s\": %s", token, what);
	return false;
}

static bool store_number(struct parse *p, const struct key *key,
			 const char *token, uint64_t v, struct strbuf *err)
{
	struct query *q = p->q;

	switch (key->kind) {
	case KEY_U32:
		if (v > UINT32_MAX)
			return fail(err, token, "does not fit in 32 bits");
		*(uint32_t *)((char *)q + key->offset) = (uint32_t)v;
		break;
	case KEY_U64:
		*(uint64_t *)((char *)q + key->offset) = v;
		break;
	case KEY_CPL:
		if (v > 3)
			return fail(err, token, "CPL out of range 0..3");
		p->has_cpl = true;
		p->cpl = v;
		break;
	case KEY_PCE:
		if (v > 1)
			return fail(err, token, "CR4.PCE is 0 or 1");
		q->state.pce = v;
		break;
	case KEY_ECX:
		if (v > UINT32_MAX)
			return fail(err, token, "ECX does not fit in 32 bits");
		/* fall through */
	case KEY_RCX:
		if (q->has_counter)
			return fail(err, token, "ecx= and rcx= both given");
		q->has_counter = true;
		p->rcx_given = key->kind == KEY_RCX;
		q->rcx = v;
		break;
	case KEY_VENDOR:
	case KEY_MODE:
		break;
	}
	return true;
}

static bool parse_token(struct parse *p, const char *token, struct strbuf *err)
{
	const char *eq = strchr(token, '=');
	const char *value = eq ? eq + 1 : NULL;
	const struct key *key;
	uint64_t v;

	if (!eq)
		return fail(err, token, "not key=value");
	key = find_key(token, (size_t)(eq - token));
	if (!key)
		return fail(err, token, "unknown key");
	if (p->seen[key - keys])
		return fail(err, token, "key given twice");
	p->seen[key - keys] = true;
	if (key->marks == MARKS_LEAF23)
		p->q->cpuid.has_leaf23 = true;
	else if (key->marks == MARKS_PERF_CAPS)
		p->q->cpuid.has_perf_capabilities = true;
	else if (key->marks == MARKS_ARCH_CAPS)
		p->q->cpuid.has_arch_capabilities = true;
	else if (key->marks == MARKS_LEAF0B)
		p->q->cpuid.has_leaf0b = true;
	else if (key->marks == MARKS_LEAF1F)
		p->q->cpuid.has_leaf1f = true;

	if (key->kind == KEY_VENDOR) {
		if (strcmp(value, "intel") == 0)
			p->q->cpuid.vendor = VENDOR_INTEL;
		else if (strcmp(value, "amd") == 0)
			p->q->cpuid.vendor = VENDOR_AMD;
		else
			return fail(err, token, "vendor is intel or amd");
		return true;
	}
	if (key->kind == KEY_MODE) {
		if (!parse_mode(value, &p->q->state.mode))
			return fail(err, token, "mode is real, v86, prot16, "
				    "prot32, compat or long");
		return true;
	}
	if (!parse_number(value, &v))
		return fail(err, token, "not a decimal or 0x-hex number "
			    "of at most 64 bits");
	return store_number(p, key, token, v, err);
}

/* The checks that need the whole line: CPL against mode, RCX against mode. */
static bool check_state(struct parse *p, bool need_counter, struct strbuf *err)
{
	struct query *q = p->q;
	enum cpu_mode mode = q->state.mode;
	unsigned implied = mode == MODE_REAL ? 0 : mode == MODE_V86 ? 3 : 4;

	if (implied < 4 && p->has_cpl && p->cpl != implied) {
		strbuf_printf(err, "error: \"cpl=%u\" contradicts \"mode=%s\", "
			      "which runs at CPL %u", (unsigned)p->cpl,
			      cpu_mode_name(mode), implied);
		return false;
	}
	q->state.cpl = implied < 4 ? implied : (unsigned)p->cpl;
	if (p->rcx_given && mode != MODE_LONG && q->rcx > UINT32_MAX) {
		strbuf_printf(err, "error: \"rcx=0x%llx\" sets bits above 31, "
			      "which only 64-bit mode has (mode=%s)",
			      (unsigned long long)q->rcx, cpu_mode_name(mode));
		return false;
	}
	if (need_counter && !q->has_counter) {
		strbuf_puts(err, "error: missing ecx= (or rcx=)");
		return false;
	}
	return true;
}

static void query_defaults(struct query *q)
{
	memset(q, 0, sizeof(*q));
	q->cpuid.vendor = VENDOR_INTEL;
	q->state.mode = MODE_LONG;
}

bool query_parse(const char *line, bool need_counter, struct query *q,
		 struct strbuf *err)
{
	struct parse p = { .q = q };
	char token[TOKEN_MAX];

	query_defaults(q);
	for (;;) {
		size_t len;

		line += strspn(line, " \t\r\n");
		if (!*line)
			break;
		len = strcspn(line, " \t\r\n");
		if (len >= sizeof(token)) {
			memcpy(token, line, 20);
			token[20] = '\0';
			strbuf_printf(err, "error: \"%s...\": token longer "
				      "than %d characters", token, TOKEN_MAX - 1);
			return false;
		}
		memcpy(token, line, len);
		token[len] = '\0';
		line += len;
		if (!parse_token(&p, token, err))
			return false;
	}
	return check_state(&p, need_counter, err);
}

bool query_is_blank(const char *line)
{
	line += strspn(line, " \t\r\n");
	return *line == '\0' || *line == '#';
}
