"""The lab inside the throwaway root (tests/lava_lab.py runs it there, with
the root's own Python, in a network namespace of its own): PostgreSQL,
lava-server under gunicorn, the scheduler and one worker, each started
here by PID and listening on 127.0.0.1 only; device type qemu and the
devices plan.json names, a user, its token and a lavacli identity; the
images served by a file server on 127.0.0.1; the jobs submitted with
lavacli, some cancelled as soon as they are queued; each job's log, definition, results
and state fetched through lavacli into OUT/job-NAME/.

  python3 lab.py PLAN.json

PLAN: {"out": folder, "images": folder, "devices": [names], "jobs":
[{"name", "file", "cancel": bool}], "wait": seconds, "started": the
caller's start, seconds since the epoch}. Prints one line per
step. Exit status 0 when every job was submitted and ended, 2 when the lab
could not be brought up or a job did not end in time. Every process it
starts ends with it: the caller's PID namespace ends them all.
"""
import json
import os
import secrets
import subprocess
import sys
import time
import urllib.error
import urllib.request

SERVER = "http://127.0.0.1:8000"
FILES_PORT = 8080
WORKER = "lab-worker"
USER = "lab"
IDENTITY = "lab"
SETTINGS = "/etc/lava-server/settings.d/01-lab.yaml"
DEVICES = "/etc/lava-server/dispatcher-config/devices"
DISPATCHERS = "/etc/lava-server/dispatcher.d"
LOGS = "/var/log/lava-lab"
# how long a step may take: the server's first answer, a device's state
UP_SECONDS = 180


class LabError(Exception):
    """The lab cannot go on: why."""


def say(line):
    print(f"lab: {line}", flush=True)


def run(words, timeout=300, env=None):
    """words' stdout; a LabError with its last line when it fails."""
    try:
        proc = subprocess.run(words, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, errors="replace", timeout=timeout,
                              env={**os.environ, **(env or {})})
    except subprocess.TimeoutExpired:
        raise LabError(f"{' '.join(words[:4])}: no end in {timeout} s") from None
    if proc.returncode != 0:
        last = (proc.stderr.strip() or proc.stdout.strip() or "no message").splitlines()[-1]
        raise LabError(f"{' '.join(words[:5])}: exit {proc.returncode}: {last[:300]}")
    return proc.stdout


def start(name, words, env=None):
    """A service started in the background, its output in LOGS/NAME.log."""
    log = open(os.path.join(LOGS, f"{name}.log"), "w")
    proc = subprocess.Popen(words, stdin=subprocess.DEVNULL, stdout=log,
                            stderr=subprocess.STDOUT, env={**os.environ, **(env or {})})
    say(f"started {name} (PID {proc.pid})")
    return proc


def manage(*words):
    return run(["lava-server", "manage", *words])


def wait_for(what, ready, seconds=UP_SECONDS, services=()):
    """ready() polled until true; a LabError after seconds or when one of
    services has ended."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if ready():
            return
        for name, proc in services:
            if proc.poll() is not None:
                raise LabError(f"{name} ended (exit {proc.returncode}) while waiting for {what}"
                               f": see {LOGS}/{name}.log")
        time.sleep(1)
    raise LabError(f"no {what} in {seconds} s")


def answers(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status < 500
    except urllib.error.HTTPError as e:
        return e.code < 500
    except OSError:
        return False


def server_up():
    """PostgreSQL, lava-server under gunicorn on 127.0.0.1, the scheduler."""
    os.makedirs(LOGS, exist_ok=True)
    with open(SETTINGS, "w") as f:
        f.write('ALLOWED_HOSTS: ["127.0.0.1", "localhost"]\n')
    run(["pg_ctlcluster", "15", "main", "start"], timeout=120)
    say("PostgreSQL started")
    # as Debian's lava-server-gunicorn.service, with 2 workers, on 127.0.0.1
    services = [("gunicorn", start("gunicorn", [
        "gunicorn3", "lava_server.wsgi", "--bind", "127.0.0.1:8000", "-u", "lavaserver",
        "-g", "lavaserver", "--worker-class", "eventlet", "--workers", "2"]))]
    wait_for("answer from lava-server", lambda: answers(f"{SERVER}/api/v0.2/"), services=services)
    say(f"lava-server answers on {SERVER}")
    services.append(("scheduler", start("scheduler", [
        "lava-server", "manage", "lava-scheduler", "--level", "DEBUG",
        "--log-file", f"{LOGS}/scheduler-own.log"])))
    return services


def identity():
    """A superuser, its token and the lavacli identity."""
    manage("users", "add", "--superuser", "--staff", "--passwd", secrets.token_hex(16), USER)
    token = secrets.token_hex(32)
    manage("tokens", "add", "--user", USER, "--secret", token)
    run(["lavacli", "identities", "add", "--uri", f"{SERVER}/RPC2", "--username", USER,
         "--token", token, IDENTITY])
    say(f"user {USER}, its token and the lavacli identity {IDENTITY}")


def lavacli(*words, timeout=300):
    return run(["lavacli", "--identity", IDENTITY, *words], timeout=timeout)


def devices(names):
    """Device type qemu and one device per name, each dictionary extending
    qemu.jinja2 with no_kvm (dictionary.jinja2 beside this file)."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "dictionary.jinja2")) as f:
        dictionary = f.read()
    manage("device-types", "add", "qemu")
    manage("workers", "add", "--description", "the lab's one worker", WORKER)
    # the dispatcher's address, which LAVA otherwise takes from the default
    # route's interface (the lab's namespace has no route: only loopback)
    os.makedirs(DISPATCHERS, exist_ok=True)
    with open(os.path.join(DISPATCHERS, f"{WORKER}.yaml"), "w") as f:
        f.write("dispatcher_ip: 127.0.0.1\n")
    os.makedirs(DEVICES, exist_ok=True)
    for name in names:
        with open(os.path.join(DEVICES, f"{name}.jinja2"), "w") as f:
            f.write(dictionary)
        manage("devices", "add", "--device-type", "qemu", "--worker", WORKER, name)
        manage("devices", "update", "--health", "GOOD", name)
    say(f"device type qemu, devices {', '.join(names)} (no_kvm) on worker {WORKER}")


def worker_token():
    """The worker's token, as the server keeps it."""
    for line in manage("workers", "details", WORKER).splitlines():
        if line.startswith("token"):
            return line.split(":", 1)[1].strip()
    raise LabError(f"lava-server manage workers details {WORKER}: no token line")


def worker_up(services):
    """lava-worker on this root, registered by its token, until the server
    has it Online (then the scheduler hands it the devices' jobs)."""
    env = {"LIBGUESTFS_BACKEND_SETTINGS": "force_tcg"}
    services.append(("worker", start("worker", [
        "lava-worker", "--name", WORKER, "--url", SERVER, "--token", worker_token(),
        "--level", "DEBUG", "--log-file", f"{LOGS}/worker-own.log"], env)))

    def online():
        text = lavacli("workers", "show", WORKER)
        return "Online" in text
    wait_for(f"worker {WORKER} online", online, services=services)
    say(f"worker {WORKER} online")


def files_up(images, services):
    services.append(("files", start("files", [
        sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", images,
        str(FILES_PORT)])))
    wait_for("file server", lambda: answers(f"http://127.0.0.1:{FILES_PORT}/"),
             services=services)
    say(f"file server on 127.0.0.1:{FILES_PORT} serves {', '.join(sorted(os.listdir(images)))}")


def state(job_id):
    """(state, health) of a job, from lavacli jobs show --yaml."""
    text = lavacli("jobs", "show", "--yaml", str(job_id))
    fields = dict(line.split(":", 1) for line in text.splitlines()
                  if ":" in line and not line.startswith(" "))
    return fields.get("state", "").strip(" '\""), fields.get("health", "").strip(" '\"")


def submit(jobs):
    """Every job submitted at once (more jobs than devices: the scheduler
    queues them); {name: job ID}."""
    ids = {}
    for job in jobs:
        ids[job["name"]] = lavacli("jobs", "submit", job["file"]).strip().splitlines()[-1]
        say(f"submitted {job['name']}: job {ids[job['name']]}")
    return ids


def cancel(jobs, ids):
    """The jobs marked cancel: cancelled by the lab as soon as they are
    queued. (A pmctest job runs for seconds and its worker tells the
    server every 20 s: by the time the server says Running, the kernel
    has often finished.)"""
    for job in (j for j in jobs if j.get("cancel")):
        job_id = ids[job["name"]]
        before = state(job_id)[0]
        lavacli("jobs", "cancel", job_id)
        say(f"cancelled {job['name']} (job {job_id}) while it was {before}")


def collect(jobs, ids, out, seconds, services):
    """Every job waited for, then its log, definition, results and state
    kept in out/job-NAME/."""
    for job in jobs:
        job_id = ids[job["name"]]
        wait_for(f"end of job {job_id}", lambda: state(job_id)[0] == "Finished", seconds,
                 services)
        st, health = state(job_id)
        folder = os.path.join(out, f"job-{job['name']}")
        os.makedirs(folder, exist_ok=True)
        for name, words in (("log.yaml", ("jobs", "logs", "--raw", job_id)),
                            ("definition.yaml", ("jobs", "definition", job_id)),
                            ("results.yaml", ("results", "--yaml", job_id))):
            with open(os.path.join(folder, name), "w") as f:
                f.write(lavacli(*words))
        with open(os.path.join(folder, "job.json"), "w") as f:
            json.dump({"name": job["name"], "id": job_id, "state": st, "health": health,
                       "cancelled_by_lab": bool(job.get("cancel"))}, f)
        say(f"{job['name']} (job {job_id}): {st}, {health}")


def main(plan_path):
    with open(plan_path) as f:
        plan = json.load(f)
    start_time = time.monotonic()
    services = server_up()
    identity()
    devices(plan["devices"])
    worker_up(services)
    files_up(plan["images"], services)
    say(f"lab up in {time.monotonic() - start_time:.0f} s, "
        f"{time.time() - plan['started']:.0f} s after make lava-lab's start")
    ids = submit(plan["jobs"])
    cancel(plan["jobs"], ids)
    collect(plan["jobs"], ids, plan["out"], plan["wait"], services)
    say(f"all {len(ids)} jobs ended, {time.monotonic() - start_time:.0f} s after the start")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1]))
    except LabError as e:
        say(f"stopped: {e}")
        sys.exit(2)
