/*
 * pmctest-model: the model (kernel/model.c) as a command. One answer line per
 * query, in the grammar of expect_format(); see usage[] below.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "query.h"
#include "strbuf.h"

#define LINE_CHARS 4096

static const char usage[] =
"usage: pmctest-model [--explain] [QUERY...]\n"
"       pmctest-model --help\n"
"\n"
"Prints what the spec (docs/spec.md) requires RDPMC to do. With QUERY\n"
"arguments, all of them together form one query; with none, every line of\n"
"standard input is one query (blank lines and lines starting with '#' are\n"
"skipped). A query is space-separated key=value tokens:\n"
"\n"
"  vendor=intel|amd                       default intel\n"
"  cpuid.01.eax= cpuid.01.ecx=            family/model/stepping, PDCM\n"
"  cpuid.07.ebx= cpuid.07.edx=            TSX (HLE, RTM), TSX_FORCE_ABORT,\n"
"                                         Hybrid (pmctest-sim)\n"
"  cpuid.0a.eax= cpuid.0a.ebx= cpuid.0a.ecx= cpuid.0a.edx=\n"
"  cpuid.23.0.ebx=                        event-select extensions (UMASK2, EQ)\n"
"  cpuid.23.1.eax= cpuid.23.1.ebx=        leaf 23H is absent unless given\n"
"  cpuid.80000001.ecx= cpuid.80000022.eax= cpuid.80000022.ebx=\n"
"  perf_capabilities=                     IA32_PERF_CAPABILITIES; readable\n"
"                                         only if given\n"
"  arch_capabilities=                     IA32_ARCH_CAPABILITIES (TSX_CTRL)\n"
"  mode=real|v86|prot16|prot32|compat|long  default long\n"
"  cpl=0..3                               default 0; real mode is CPL 0,\n"
"                                         v86 mode CPL 3\n"
"  pce=0|1                                CR4.PCE, default 0\n"
"  ecx=  or  rcx=                         required; rcx= may set bits above\n"
"                                         31 only with mode=long\n"
"\n"
"Numbers are decimal or 0x-hex; an absent CPUID value is 0.\n"
"\n"
"Answers: #GP(0) | read gp I width=W | read fixed I width=W |\n"
"  read metrics I | read pmc I width=40 | read pmc I width=32 fast |\n"
"  read core I width=48 | read nb I | read l2 I | unknown REASON\n"
"(unknown: model-specific, yet still a read or #GP(0), nothing else).\n"
"\n"
"--explain also prints the deciding statement IDs and, one line per step,\n"
"the reasoning: which bit of which leaf decided.\n"
"\n"
"A malformed query is answered with \"error: ...\" naming the token; the\n"
"other queries are still answered and the exit status is 2.\n";

/* Answer one query on stdout; false if it was malformed. */
static bool answer(const char *line, bool explain)
{
	char text[LINE_CHARS], reasoning[LINE_CHARS];
	struct strbuf out, why;
	struct rdpmc_expect expect;
	struct pmu_info pmu;
	struct query q;

	strbuf_init(&out, text, sizeof(text));
	if (!query_parse(line, true, &q, &out)) {
		puts(text);
		return false;
	}
	pmu_decode(&q.cpuid, &pmu);
	strbuf_init(&why, reasoning, sizeof(reasoning));
	model_rdpmc(&pmu, &q.state, q.rcx, &expect, explain ? &why : NULL);
	expect_format(&expect, &out);
	puts(text);
	if (explain) {
		printf("statements: %s\n", expect.statements);
		for (const char *s = reasoning; *s;) {
			size_t n = strcspn(s, "\n");

			printf("  %.*s\n", (int)n, s);
			s += n + (s[n] == '\n');
		}
	}
	return true;
}

/* All arguments joined by spaces: one query. */
static bool answer_args(int argc, char **argv, bool explain)
{
	char line[LINE_CHARS];
	struct strbuf sb;

	strbuf_init(&sb, line, sizeof(line));
	for (int i = 0; i < argc; i++)
		strbuf_printf(&sb, "%s%s", i ? " " : "", argv[i]);
	if (sb.len >= sizeof(line)) {
		printf("error: query longer than %d characters\n",
		       LINE_CHARS - 1);
		return false;
	}
	return answer(line, explain);
}

/*
 * One query per line of standard input; false if any was malformed. A line
 * with a NUL byte, or longer than LINE_CHARS - 2, is an error naming its
 * number; the last line needs no newline.
 */
static bool answer_lines(bool explain)
{
	char line[LINE_CHARS];
	bool all_good = true;
	unsigned number = 0;

	for (;;) {
		size_t n = 0;
		bool nul = false, too_long = false;
		int c;

		while ((c = getchar()) != EOF && c != '\n') {
			if (c == '\0')
				nul = true;
			else if (n < sizeof(line) - 2)
				line[n++] = (char)c;
			else
				too_long = true;
		}
		if (c == EOF && n == 0 && !nul && !too_long)
			break;
		number++;
		line[n] = '\0';
		if (nul || too_long) {
			if (nul)
				printf("error: line %u holds a NUL byte\n", number);
			else
				printf("error: line %u is longer than %d characters\n",
				       number, LINE_CHARS - 2);
			all_good = false;
		} else if (!query_is_blank(line) && !answer(line, explain)) {
			all_good = false;
		}
		if (c == EOF)
			break;
	}
	return all_good;
}

static bool is_help(const char *arg)
{
	return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

int main(int argc, char **argv)
{
	bool explain = false, good;

	if (argc == 2 && is_help(argv[1])) {
		fputs(usage, stdout);
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "--explain") == 0) {
		explain = true;
		argc--;
		argv++;
	}
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-') {
			fprintf(stderr, "pmctest-model: %s %s\n%s", argv[i],
				is_help(argv[i]) ? "goes alone" : "is not an option",
				usage);
			return 2;
		}
	}
	good = argc > 1 ? answer_args(argc - 1, argv + 1, explain)
			: answer_lines(explain);
	if (fflush(stdout) != 0)
		return 1;
	return good ? 0 : 2;
}
