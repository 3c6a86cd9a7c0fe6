"""A finished LAVA job as tests/lava-judge reads it: its definition (the
job's YAML, whose metadata names the tests/run target) and its log
(lava-run's output, or a server's `lavacli jobs logs --raw`). A LAVA job
directory holds the two as definition.yaml and log.yaml (what
tests/lava-judge --save writes). Whatever the files hold is hostile: a
file that is not what it should be is a JobError, one line that says
what and where."""
import os
import re

from . import log as lava_log

# the metadata key the job templates (tests/lava/) name the target by
TARGET_KEY = "pmctest.target"
# the test definition LAVA files its own results under (the job's, the
# actions')
LAVA_DEFINITION = "lava"
# the files of a LAVA job directory
DEFINITION, LOG = "definition.yaml", "log.yaml"
# the job's files are text of a few MiB at most
MAX_BYTES = 64 << 20
# lava-dispatcher's line on the QEMU package that ran the job
QEMU_PACKAGE = re.compile(r"^qemu-system-x86, installed at version: "
                          r"(?:\d+:)?(\d+\.\d+)")


class JobError(ValueError):
    """The job's files cannot be judged: why."""


def read_text(path, what):
    try:
        if os.path.getsize(path) > MAX_BYTES:
            raise JobError(f"{what} {path}: more than {MAX_BYTES >> 20} MiB")
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError as e:
        raise JobError(f"cannot read {what} {path}: {e.strerror or e}") from None


def target_name(definition_text, where):
    """The tests/run target the job's metadata names (hosttools/targets/
    resolves it: targets/lava.py)."""
    try:
        import yaml
    except ImportError:
        raise JobError("Python's yaml module is missing (Debian: "
                       "python3-yaml)") from None
    try:
        job = yaml.safe_load(definition_text)
    except yaml.YAMLError as e:
        raise JobError(f"{where}: not YAML: {str(e).splitlines()[0]}") from None
    metadata = job.get("metadata") if isinstance(job, dict) else None
    name = metadata.get(TARGET_KEY) if isinstance(metadata, dict) else None
    if not isinstance(name, str):
        raise JobError(f"{where}: the job's metadata names no {TARGET_KEY} "
                       "(the templates in tests/lava/ do)")
    return name


class LavaJob:
    """One finished job: the target it names, its label, the log's records."""

    def __init__(self, log_path, definition_path, label=None):
        self.label = label or os.path.splitext(
            os.path.basename(os.path.abspath(log_path)))[0]
        self.definition = definition_path
        self.target_name = target_name(read_text(definition_path,
                                                 "the job definition"),
                                       definition_path)
        try:
            self.records = lava_log.records(read_text(log_path, "the job log"))
        except lava_log.LogError as e:
            raise JobError(f"{log_path}: {e}") from None
        self.where = log_path

    @classmethod
    def from_dir(cls, path, label=None):
        return cls(os.path.join(path, LOG), os.path.join(path, DEFINITION),
                   label or os.path.basename(os.path.abspath(path)))

    def serial_lines(self):
        return lava_log.serial_lines(self.records)

    def results(self):
        return lava_log.results(self.records)

    def job_result(self):
        """LAVA's result of the whole job (its "job" case), or None when
        the log ends before the job did."""
        return next((r for r in self.results() if r.get("definition") == LAVA_DEFINITION
                     and r.get("case") == "job"), None)

    def qemu_release(self):
        """"QEMU 7.2" as lava-dispatcher saw the package, or ""."""
        for line in lava_log.info_lines(self.records):
            m = QEMU_PACKAGE.match(line)
            if m:
                return f"QEMU {m.group(1)}"
        return ""

    def errors(self):
        return lava_log.errors(self.records)
