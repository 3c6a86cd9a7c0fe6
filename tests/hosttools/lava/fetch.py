"""A finished job fetched from a LAVA server with lavacli into a LAVA job
directory (hosttools/lava/job.py): its log as the server keeps it
and its definition."""
import os
import shutil
import subprocess

from .job import DEFINITION, LOG, JobError

TIMEOUT = 300       # seconds for one lavacli call


def lavacli(args, url, identity):
    """lavacli's output of one command; a JobError says why not."""
    if not shutil.which("lavacli"):
        raise JobError("lavacli is not installed (Debian: lavacli)")
    cmd = ["lavacli"] + (["--identity", identity] if identity else
                         ["--uri", url]) + args
    try:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, errors="replace", timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise JobError(f"{' '.join(cmd)}: no answer in {TIMEOUT} s") from None
    except OSError as e:
        raise JobError(f"cannot run lavacli: {e.strerror or e}") from None
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["no message"])[-1]
        raise JobError(f"{' '.join(cmd)}: status {proc.returncode}: {last[:200]}")
    return proc.stdout


def health(job_id, url, identity):
    """(state, health) of the job as the server records it (lavacli jobs
    show --yaml: one "key: value" line each)."""
    fields = {}
    for line in lavacli(["jobs", "show", "--yaml", job_id], url, identity).splitlines():
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip().strip("'\"")
    return fields.get("state", "?"), fields.get("health", "?")


def fetch(job_id, url, identity, directory):
    """Writes the job's log and definition into directory; a job the lab
    did not finish Complete is refused (JobError): a job cancelled after
    its kernel had finished has a whole log, and only the server's record
    says it was cancelled."""
    if not job_id.isdigit():
        raise JobError(f"--job {job_id[:40]!r}: a LAVA job ID is a number")
    state, said = health(job_id, url, identity)
    if (state, said) != ("Finished", "Complete"):
        raise JobError(f"job {job_id}: the server says state {state[:20]}, health "
                       f"{said[:20]}: not carried out")
    log = lavacli(["jobs", "logs", "--raw", job_id], url, identity)
    definition = lavacli(["jobs", "definition", job_id], url, identity)
    try:
        os.makedirs(directory, exist_ok=True)
        for name, text in ((LOG, log), (DEFINITION, definition)):
            with open(os.path.join(directory, name), "w", encoding="utf-8") as f:
                f.write(text)
    except OSError as e:
        raise JobError(f"cannot write {directory}: {e.strerror or e}") from None
