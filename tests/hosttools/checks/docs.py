"""The manual holds together: every relative link and #anchor in README.md
and docs/*.md resolves, README.md stays within its 250 lines (and its
sample of make's error line names the run recipe's line), and
docs/design.svg and docs/design-host.svg are what scripts/design_svg.py
draws.

With --model, every example of pmctest-model in the manual (a line
`$ build/host/pmctest-model ...` in a code block, and the lines under it)
must be what the tool prints. With --sim, the deviation table of docs/simulator.md must name exactly the
deviations `pmctest-sim --list-deviations` has, one row each, and give
their number ("one of N deviations"); and every
test it lists on any profile must fall under a group of docs/tests.md's
table (hosttools/tests_table.py).

A link is [text](target) or ![alt](target) outside code; a target with a
scheme (https:, mailto:) is not followed. A relative target must name a
file or folder of the tree; an #anchor must be a heading of the Markdown
file it points into, slugged as GitHub slugs it: the heading's text
without its Markdown marks, lower case, every character but letters,
digits, spaces, hyphens and underscores dropped, spaces made hyphens,
and a heading's second and later namesakes suffixed -1, -2, ...

The check first proves it can fail: it is run on a small tree of its own
with a broken link, a broken anchor and a 251-line README, and on a
deviation table with a row missing and one too many, and each must be
reported (and the same inputs mended must pass).

usage: tests/check.py docs [--model build/host/pmctest-model]
                          [--sim build/host/pmctest-sim]
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

from .. import ROOT
from ..devtools import tests_table as groups
from ..report.tap_out import Tap
from . import argument_parser

README_MAX_LINES = 250

FENCE = re.compile(r"^ {0,3}(```|~~~)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
CODE_SPAN = re.compile(r"(`+)(.*?)\1")
# [text](target) and ![alt](target); the target may be <...>, and may be
# followed by a title in quotes
LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+\"[^\"]*\")?\s*\)")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def prose_lines(text):
    """(line number, line) of the lines outside fenced code blocks."""
    fence = None
    for n, line in enumerate(text.splitlines(), 1):
        m = FENCE.match(line)
        if m:
            fence = None if fence == m.group(1) else (fence or m.group(1))
            continue
        if fence is None:
            yield n, line


def slug(heading):
    """GitHub's anchor for a heading's text (before the -N of namesakes)."""
    text = CODE_SPAN.sub(lambda m: m.group(2), heading)
    text = re.sub(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<[^>]+>", "", text)
    text = text.lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(text):
    """The anchors GitHub gives the headings of a Markdown text."""
    seen, out = {}, set()
    for _, line in prose_lines(text):
        m = HEADING.match(line)
        if not m:
            continue
        base = slug(m.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def links(text):
    """(line number, target) of every link outside code."""
    for n, line in prose_lines(text):
        line = CODE_SPAN.sub("", line)
        for m in LINK.finditer(line):
            target = m.group(2)
            if target.startswith("<") and target.endswith(">"):
                target = target[1:-1]
            yield n, target


def manual_files(root):
    """README.md and docs/*.md, relative to root."""
    docs = os.path.join(root, "docs")
    names = sorted(f for f in os.listdir(docs) if f.endswith(".md")) \
        if os.path.isdir(docs) else []
    return ["README.md"] + [os.path.join("docs", f) for f in names]


def broken_links(root):
    """One line per link of the manual that does not resolve."""
    problems, cache = [], {}

    def anchors_of(path):
        if path not in cache:
            with open(path, encoding="utf-8") as f:
                cache[path] = anchors(f.read())
        return cache[path]

    for rel in manual_files(root):
        path = os.path.join(root, rel)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for n, target in links(text):
            if not target or SCHEME.match(target):
                continue
            file_part, _, anchor = target.partition("#")
            dest = (os.path.normpath(os.path.join(os.path.dirname(path), file_part))
                    if file_part else path)
            where = f"{rel}:{n}: ({target})"
            if not os.path.realpath(dest).startswith(os.path.realpath(root) + os.sep) \
                    and os.path.realpath(dest) != os.path.realpath(root):
                problems.append(f"{where}: points out of the tree")
            elif not os.path.exists(dest):
                problems.append(f"{where}: no file {os.path.relpath(dest, root)}")
            elif anchor and not dest.endswith(".md"):
                problems.append(f"{where}: an anchor into a file that is not Markdown")
            elif anchor and anchor not in anchors_of(dest):
                problems.append(f"{where}: {os.path.relpath(dest, root)} has no "
                                f"heading whose anchor is #{anchor}")
    return problems


def readme_too_long(root):
    """A line saying README.md is over its limit, or None."""
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        n = len(f.read().splitlines())
    return f"README.md has {n} lines, more than {README_MAX_LINES}" \
        if n > README_MAX_LINES else None


MAKE_ERROR = re.compile(r"\[Makefile:(\d+): run\] Error")


def make_error_line_problem(root):
    """README.md's sample of make's error line names the line of the run
    recipe that fails (make counts the recipe's first line); a problem or
    None."""
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        said = MAKE_ERROR.search(f.read())
    with open(os.path.join(root, "Makefile"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    rule = next((n for n, line in enumerate(lines, 1) if line.startswith("run:")), None)
    if said is None or rule is None:
        return "README.md has no 'make: *** [Makefile:N: run] Error' line" \
            if rule else "the Makefile has no run: rule"
    if int(said.group(1)) != rule + 1:
        return (f"README.md says make fails at Makefile:{said.group(1)}; the "
                f"run recipe starts at line {rule + 1}")
    return None


def problems_of(root):
    return broken_links(root) + [p for p in [readme_too_long(root)] if p]


SELF_TEST_GOOD = {
    "README.md": "# Demo\n\nSee [the guide](docs/guide.md#adding-a-test-two) "
                 "and [here](#demo).\n",
    "docs/guide.md": "# Guide\n\n## Adding a `test`: two\n\n```\n# not a heading\n```\n"
                     "## Guide\n\n[up](../README.md), [twin](#guide-1), "
                     "[web](https://example.org/#x), `[code](nowhere.md)`\n",
}
# Each bad case: (what it breaks, the file changed, its new text, the words
# the report must hold)
SELF_TEST_BAD = [
    ("a broken link", "docs/guide.md",
     "# Guide\n\n[gone](missing.md)\n", "no file docs/missing.md"),
    ("a broken anchor", "README.md",
     "# Demo\n\n[guide](docs/guide.md#no-such-heading)\n", "#no-such-heading"),
    ("an anchor to a heading inside a code block", "README.md",
     "# Demo\n\n[guide](docs/guide.md#not-a-heading)\n", "#not-a-heading"),
    ("a 251-line README", "README.md",
     "# Demo\n" + "line\n" * (README_MAX_LINES), "251 lines"),
]


def self_test(tap):
    """The check on trees of its own: passes the good one, reports each
    bad one."""
    with tempfile.TemporaryDirectory() as root:
        def write(files):
            for rel, text in files.items():
                os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
                with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                    f.write(text)
        write(SELF_TEST_GOOD)
        found = problems_of(root)
        tap.check(not found, "self-test: a sound manual passes", found)
        for what, rel, text, words in SELF_TEST_BAD:
            write({rel: text})
            found = problems_of(root)
            tap.check(any(words in p for p in found),
                      f"self-test: {what} is reported",
                      found or ["nothing was reported"])
            write(SELF_TEST_GOOD)
        over = "# Demo\n" + "line\n" * (README_MAX_LINES - 1)
        write({"README.md": over})
        tap.check(not problems_of(root),
                  f"self-test: a {README_MAX_LINES}-line README passes",
                  problems_of(root))


DEVIATION_HEADER = "| deviation | what is wrong | caught by |"
DEVIATION_ROW = re.compile(r"^\| `([a-z0-9-]+)` \|")
DEVIATION_COUNT = re.compile(r"one of (\d+) deviations")


def deviation_table_problems(doc, names):
    """Where the deviation table of doc (docs/simulator.md's text) differs
    from names, the deviations pmctest-sim has."""
    lines = doc.splitlines()
    if DEVIATION_HEADER not in lines:
        return [f"no table headed {DEVIATION_HEADER!r}"]
    rows = []
    for line in lines[lines.index(DEVIATION_HEADER) + 2:]:
        m = DEVIATION_ROW.match(line)
        if not m:
            break
        rows.append(m.group(1))
    out = [f"pmctest-sim has {n}, the table has no row for it"
           for n in names if n not in rows]
    out += [f"the table has a row for {n}, which pmctest-sim does not have"
            for n in rows if n not in names]
    out += [f"the table has {n} twice" for n in sorted(set(rows))
            if rows.count(n) > 1]
    return out


def deviation_self_test(tap):
    table = (f"{DEVIATION_HEADER}\n|---|---|---|\n"
             "| `cpl3-only` | a | b |\n| `pce-ignored` | c | d |\n\nScore\n")
    names = ["cpl3-only", "pce-ignored"]
    found = deviation_table_problems(table, names)
    tap.check(not found, "self-test: a deviation table of every deviation passes",
              found)
    for what, names_, words in [
            ("a deviation without a row", names + ["pmi-lost"], "no row for it"),
            ("a row without a deviation", names[:1], "does not have")]:
        found = deviation_table_problems(table, names_)
        tap.check(any(words in p for p in found), f"self-test: {what} is reported",
                  found or ["nothing was reported"])


def deviation_table(tap, root, sim):
    r = subprocess.run([sim, "--list-deviations"], capture_output=True, text=True)
    if r.returncode != 0:
        tap.check(False, "docs/simulator.md has a row for each deviation of pmctest-sim",
                  r.stderr or f"{sim} --list-deviations exited {r.returncode}")
        return
    names = [line.split("\t")[0] for line in r.stdout.splitlines() if line.strip()]
    with open(os.path.join(root, "docs", "simulator.md"), encoding="utf-8") as f:
        doc = f.read()
    found = deviation_table_problems(doc, names)
    said = DEVIATION_COUNT.search(doc)
    if not said or int(said.group(1)) != len(names):
        words = said.group(0) if said else "no 'one of N deviations'"
        found.append(f"the page says {words}; pmctest-sim has {len(names)}")
    tap.check(not found, f"docs/simulator.md has a row for each of the {len(names)} "
              "deviations of pmctest-sim, and no other, and gives their number", found)


def tests_table_self_test(tap):
    table = (f"{groups.TABLE_HEADER}\n|---|---|---|\n"
             "| `ovf.write.*` | 3 | a |\n| `prog.all` | 1 | b |\n\nText\n")
    ids = ["ovf.write.gp", "prog.all"]
    found = groups.uncovered(table, ids)
    tap.check(not found, "self-test: a tests table with every group passes", found)
    found = groups.uncovered(table, ids + ["prog.allx", "pmi.gp.int"])
    tap.check(found == ["prog.allx", "pmi.gp.int"],
              "self-test: a test under no group of the tests table is reported",
              found or ["nothing was reported"])


def tests_table(tap, root, sim):
    try:
        ids = groups.simulated_ids(root, sim)
    except RuntimeError as e:
        tap.check(False, "docs/tests.md has a group for every test of pmctest-sim",
                  [str(e)])
        return
    with open(os.path.join(root, "docs", "tests.md"), encoding="utf-8") as f:
        found = groups.uncovered(f.read(), ids)
    tap.check(ids and not found, f"docs/tests.md has a group for each of the "
              f"{len(ids)} tests pmctest-sim lists on its profiles",
              [f"{t}: under no group of the table" for t in found] or
              ["pmctest-sim listed no test"])


MODEL_PROMPT = "$ build/host/pmctest-model"


def model_examples(text):
    """(line number, the tool's arguments, the output shown) of each
    example of pmctest-model in a Markdown text's code blocks."""
    out, current, fence = [], None, None
    for n, line in enumerate(text.splitlines(), 1):
        m = FENCE.match(line)
        if m:
            if current:
                out.append(current)
                current = None
            fence = None if fence == m.group(1) else (fence or m.group(1))
            continue
        if fence is None:
            continue
        if line.startswith(MODEL_PROMPT + " ") or line == MODEL_PROMPT:
            if current:
                out.append(current)
            current = (n, shlex.split(line[len(MODEL_PROMPT):]), [])
        elif line.startswith("$ "):
            if current:
                out.append(current)
            current = None
        elif current:
            current[2].append(line)
    return [(n, words, "\n".join(shown) + "\n") for n, words, shown in out]


def model_example_problems(root, model):
    """One line per example whose output is not what the tool prints."""
    problems = []
    for rel in manual_files(root):
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            examples = model_examples(f.read())
        for n, words, shown in examples:
            r = subprocess.run([model, *words], capture_output=True, text=True)
            if r.stdout != shown or r.returncode != 0:
                problems.append(f"{rel}:{n}: pmctest-model {' '.join(words)} "
                                f"exits {r.returncode} and prints {r.stdout!r}; "
                                f"the manual shows {shown!r}")
    return problems


def model_self_test(tap):
    """The example check against a stand-in tool that prints one line."""
    with tempfile.TemporaryDirectory() as root:
        tool = os.path.join(root, "tool")
        with open(tool, "w") as f:
            f.write("#!/bin/sh\necho 'read fixed 1 width=48'\n")
        os.chmod(tool, 0o755)
        os.makedirs(os.path.join(root, "docs"))
        for what, shown, bad in [("an example as the tool prints it", "read fixed 1 width=48", False),
                                 ("an example whose output differs", "#GP(0)", True)]:
            with open(os.path.join(root, "README.md"), "w") as f:
                f.write(f"# Demo\n\n```\n{MODEL_PROMPT} ecx=0\n{shown}\n```\n")
            found = model_example_problems(root, tool)
            tap.check(bool(found) == bad, f"self-test: {what} is "
                      f"{'reported' if bad else 'passed'}", found or ["nothing was reported"])


def design_svg_current(tap, root):
    """Each picture scripts/design_svg.py draws is the committed one."""
    script = os.path.join(root, "scripts", "design_svg.py")
    for name in ("design.svg", "design-host.svg"):
        svg = os.path.join(root, "docs", name)
        r = subprocess.run([sys.executable, script, "--stdout", name],
                           capture_output=True, text=True)
        if r.returncode != 0:
            tap.check(False, f"docs/{name} is what scripts/design_svg.py draws",
                      r.stderr)
            continue
        current = open(svg, encoding="utf-8").read() if os.path.exists(svg) else ""
        tap.check(current == r.stdout,
                  f"docs/{name} is what scripts/design_svg.py draws",
                  [f"run `make design-svg` and commit docs/{name}"])


def main(argv):
    p = argument_parser(__name__, __doc__)
    p.add_argument("--root", default=ROOT,
                   help="the tree whose README.md and docs/ to check")
    p.add_argument("--model", help="build/host/pmctest-model: check the "
                   "manual's examples of it against its output")
    p.add_argument("--sim", help="build/host/pmctest-sim: check the deviation "
                   "table of docs/simulator.md against it")
    args = p.parse_args(argv)
    print("TAP version 13")
    tap = Tap()
    self_test(tap)
    deviation_self_test(tap)
    model_self_test(tap)
    found = broken_links(args.root)
    tap.check(not found, "every relative link and #anchor in README.md and "
              "docs/*.md resolves", found)
    too_long = readme_too_long(args.root)
    tap.check(not too_long, f"README.md has at most {README_MAX_LINES} lines",
              [too_long or ""])
    wrong = make_error_line_problem(args.root)
    tap.check(not wrong, "README.md's make error line names the run recipe's line",
              [wrong or ""])
    design_svg_current(tap, args.root)
    if args.model:
        found = model_example_problems(args.root, args.model)
        tap.check(not found, "every example of pmctest-model in the manual is "
                  "what the tool prints", found)
    else:
        tap.skip("every example of pmctest-model in the manual is what the "
                 "tool prints", "no --model given")
    tests_table_self_test(tap)
    if args.sim:
        deviation_table(tap, args.root, args.sim)
        tests_table(tap, args.root, args.sim)
    else:
        tap.skip("docs/simulator.md has a row for each deviation of pmctest-sim",
                 "no --sim given")
        tap.skip("docs/tests.md has a group for every test of pmctest-sim",
                 "no --sim given")
    return tap.finish()
