"""Judge a finished LAVA job by pmctest's own rules, as tests/run --target
judges a boot.

  tests/lava-judge --log LOG --definition JOB.yaml
  tests/lava-judge --dir DIR            (DIR/log.yaml, DIR/definition.yaml)
  tests/lava-judge --url URL --job ID [--save DIR]
  tests/lava-judge --identity NAME --job ID [--save DIR]
      and any of --junit FILE, --report DIR, --tap FILE

The job's metadata names its tests/run target (pmctest.target, as the
templates in tests/lava/ do): its expectation file judges the run. LOG
is lava-run's output or the server's log (lavacli jobs logs --raw); with
--url or --identity lavacli fetches the log and definition (into --save
DIR, kept: a LAVA job directory). The kernel's TAP is taken from the log
and decides; LAVA's results are held against it (LAVA's case names are
the IDs in lower case, '.', '-', '@' and other runs of non-word
characters made '_'; extra.test_case_id keeps the ID).

Printed: the kernel's TAP with known failures marked TODO, as tests/run
prints it. Exit status: 0 the run matches its expectations; 1 it does
not; 2 the job cannot be judged as a whole run of its target: a job LAVA
did not finish or failed, a cut or foreign log, a TAP that is not a
whole run, repeated test IDs, IDs LAVA's case names cannot tell apart,
LAVA results that disagree with the TAP, or a hypervisor in the
kernel's header other than the target's. tests/run --all --lava DIR
puts a judged job next to the local targets (make report LAVA_JOBS=).
"""
import os
import sys
import tempfile
from argparse import RawDescriptionHelpFormatter

from .. import TESTS, targets
from ..boot.workdir import scratch
from ..lava.fetch import fetch
from ..lava.job import JobError, LavaJob
from ..report.outfile import ToolError
from ..report.outputs import Outputs
from ..report.printer import closing_line, kernel_counts_line, printer, report, say
from .args import Parser
from .one_target import closing_comment
from .options import Options
from .target_run import EXIT_ERROR, TargetRun


def parse_args(argv):
    p = Parser(prog="tests/lava-judge", description=__doc__.splitlines()[0],
               formatter_class=RawDescriptionHelpFormatter,
               epilog="\n".join(__doc__.splitlines()[1:]))
    p.add_argument("--log", help="the job's log (lava-run's output or the "
                                 "server's)")
    p.add_argument("--definition", help="the job's definition (YAML)")
    p.add_argument("--dir", help="a LAVA job directory: log.yaml, "
                                 "definition.yaml")
    p.add_argument("--url", help="the LAVA server (lavacli --uri)")
    p.add_argument("--identity", help="a lavacli identity instead of --url")
    p.add_argument("--job", help="the job's ID on the server")
    p.add_argument("--save", metavar="DIR",
                   help="--job: keep the fetched log and definition here")
    p.add_argument("--tap", metavar="FILE", help="write the annotated TAP here")
    p.add_argument("--junit", metavar="FILE", help="write JUnit XML here")
    p.add_argument("--report", metavar="DIR",
                   help="write the conformance report (index.html) here")
    p.add_argument("--expect-dir", default=os.path.join(TESTS, "expect"),
                   metavar="DIR", help="where the expectation files are")
    opts = p.parse_args(argv)
    files = opts.log or opts.definition
    server = opts.url or opts.identity or opts.job
    if sum(map(bool, (files, opts.dir, server))) != 1:
        p.error("give --log and --definition, or --dir, or --job with "
                "--url or --identity")
    if files and not (opts.log and opts.definition):
        p.error("--log and --definition go together")
    if server and not (opts.job and bool(opts.url) != bool(opts.identity)):
        p.error("--job needs --url or --identity (one of them)")
    if opts.save and not server:
        p.error("--save keeps what --job fetches")
    return opts


def load(opts):
    """The LavaJob the options name (fetched first for --job)."""
    if opts.log:
        return LavaJob(opts.log, opts.definition)
    if opts.dir:
        return LavaJob.from_dir(opts.dir)
    label = f"job{opts.job}"
    if opts.save:
        fetch(opts.job, opts.url, opts.identity, opts.save)
        return LavaJob.from_dir(opts.save, label)
    # read whole, then gone
    with tempfile.TemporaryDirectory(prefix="pmctest-lava-job-") as directory:
        fetch(opts.job, opts.url, opts.identity, directory)
        return LavaJob.from_dir(directory, label)


def main(argv):
    opts = parse_args(argv)
    options = Options(programs=targets.Programs(elf=""), expect_dir=opts.expect_dir,
                      junit=opts.junit, report=opts.report)
    try:
        job = load(opts)
        kind = targets.lava_kind(job, options.programs, targets.by_name)
    except JobError as e:
        say(str(e))
        return EXIT_ERROR
    outputs = None
    try:
        outputs = Outputs(options)
        out = printer(opts.tap, sys.stdout)
        with scratch("") as s:
            run = TargetRun(kind, options).run(s, out)
        report(run)
        out(closing_comment(run, seconds=False))
        out.close()
        outputs.write([run])
    except ToolError as e:
        say(str(e))
        return EXIT_ERROR
    finally:
        if outputs:
            outputs.discard()
    print(kernel_counts_line([run]), flush=True)
    print(closing_line([run]), flush=True)
    return run.exit
