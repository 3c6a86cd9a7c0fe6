"""The JUnit file: one testsuite per target, one testcase per TAP result,
in the form the Jenkins xunit plugin's junit-10.xsd accepts (checked by
hosttools/checks/runner.py): classname pmctest.<target>.<group>, name the
test ID (with its "@cpuN" on an application processor), a known
deviation as <skipped type="known-deviation">, a difference on another
host than the expectation file's as <skipped type="other-host">, a plain skip as
<skipped type="skip">, an unavailable target as a testsuite whose one
testcase is skipped with the reason. Every attribute and text from a target
goes through hosttools/xmltext.py: well-formed for any bytes, and capped."""
import datetime
import socket
import xml.etree.ElementTree as ET

from ..judge.xmltext import DIAGNOSTIC_CHARS, LOG_CHARS, MESSAGE_CHARS, xml_text
from ..judge.judge import diagnostics_of, reason_of

# Header comments of the kernel's TAP that become testsuite properties.
HEADER_PROPERTIES = ("pmctest", "vendor", "cpu", "hypervisor", "pmu", "boot")


def group_of(test_id):
    """The first two parts of a test ID: priv.long.cpl3.pce0.valid ->
    priv.long. An AP's test (priv.long.cpl3.pce0.valid@cpu2) is in the
    same class as CPU 0's, its name the whole ID with the CPU."""
    return ".".join(test_id.split("@", 1)[0].split(".")[:2])


def header_properties(lines):
    """{key: value} of the kernel's header comments ("# cpu: ...")."""
    found = {}
    for line in lines:
        if line.startswith("# pmctest ") and "pmctest" not in found:
            found["pmctest"] = line[len("# pmctest "):]
        for key in HEADER_PROPERTIES[1:]:
            if line.startswith(f"# {key}: ") and key not in found:
                found[key] = line[len(f"# {key}: "):]
    return found


def unavailable_suite(root, run, stamp, host):
    suite = sub(root, "testsuite", name=run.target.name,
                          tests="1", failures="0", errors="0", skipped="1",
                          time="0", timestamp=stamp, hostname=host)
    case = sub(suite, "testcase", name="(target)", time="0",
                         classname="pmctest." + run.target.name)
    sub(case, "skipped", type="target-unavailable",
                  message=f"not available here: {run.why_not}")
    return suite


def sub(parent, tag, text=None, limit=DIAGNOSTIC_CHARS, **attributes):
    """A child element; its attributes and text fit for XML and capped."""
    el = ET.SubElement(parent, tag, {k: xml_text(str(v), MESSAGE_CHARS)
                                     for k, v in attributes.items()})
    if text is not None:
        el.text = xml_text(text, limit)
    return el


def suite_properties(suite, run, version):
    """The properties of a target's testsuite: the runner's version, the
    TAP header's, the target's and the emulator's."""
    props = sub(suite, "properties")
    if version:
        sub(props, "property", name="pmctest-runner", value=version)
    for key, value in header_properties(run.judge.lines if run.judge else []).items():
        sub(props, "property", name=key, value=value)
    for key, value in run.target.properties().items():
        sub(props, "property", name=key, value=value)
    if run.outcome:
        sub(props, "property", name="version", value=run.outcome.emulator)
        for note in run.outcome.notes:
            sub(props, "property", name="note", value=note)
    if run.host_note:
        sub(props, "property", name="other-host", value=run.host_note)


def result_case(suite, cls, run, r, n):
    """The testcase of TAP result r, counted in n."""
    case = sub(suite, "testcase", name=r.id, classname=f"{cls}.{group_of(r.id)}",
               time=f"{r.seconds:.3f}")
    n["tests"] += 1
    diag = "\n".join(diagnostics_of(r))
    if run.differences and r.verdict in ("unexpected", "stale"):
        n["skipped"] += 1
        sub(case, "skipped", type="other-host",
            message=f"{run.host_note}: "
                    f"{reason_of(r) if r.verdict == 'unexpected' else 'stale expectation'}")
        sub(case, "system-out", diag)
    elif r.verdict == "unexpected":
        n["failures"] += 1
        sub(case, "failure", diag, type="deviation", message=reason_of(r))
    elif r.verdict == "stale":
        n["failures"] += 1
        e = r.expectation
        sub(case, "failure", diag, type="stale-expectation",
            message=f"{e.where} lists this test as failing "
                    f"({e.reason}) but it "
                    f"{'was skipped' if r.kind == 'skip' else 'passed'}")
    elif r.verdict == "todo":
        n["skipped"] += 1
        sub(case, "skipped", type="known-deviation",
            message=f"known deviation ({r.expectation.where}): {r.expectation.reason}")
        sub(case, "system-out", diag)
    elif r.verdict == "skip":
        n["skipped"] += 1
        sub(case, "skipped", type="skip", message=r.skip_reason)
    elif diag:
        sub(case, "system-out", diag)


def run_cases(suite, cls, run, n):
    """The testcases of what the target left out, of a run that could not
    be carried out (boot) and of expectations that match no test."""
    for e in run.excluded:
        case = sub(suite, "testcase", classname=cls, name=e.pattern, time="0")
        n["tests"] += 1
        n["skipped"] += 1
        sub(case, "skipped", type="left-out",
            message=f"left out on this target: {e.reason}")
    for msg in run.problems + [m for m in run.mismatches
                               if "matches no test" in m]:
        is_error = msg in run.problems
        case = sub(suite, "testcase", classname=cls,
                   name="(boot)" if is_error else "(expectations)",
                   time=f"{run.seconds:.3f}")
        n["tests"] += 1
        if is_error:
            n["errors"] += 1
            sub(case, "error", msg, type="harness", message=msg)
        else:
            n["failures"] += 1
            sub(case, "failure", msg, type="stale-expectation", message=msg)


def junit_xml(runs, version=""):
    """One testsuite per target, one testcase per TAP result; a run that
    could not be carried out adds an errored testcase named after the boot.
    """
    root = ET.Element("testsuites", name="pmctest")
    totals = dict(tests=0, failures=0, errors=0)
    stamp = datetime.datetime.now().replace(microsecond=0).isoformat()
    host = socket.gethostname()
    total_time = 0.0
    for run in runs:
        name = run.target.name
        if not run.available:
            unavailable_suite(root, run, stamp, host)
            totals["tests"] += 1
            continue
        suite = sub(root, "testsuite", name=name, timestamp=stamp, hostname=host)
        suite_properties(suite, run, version)
        n = dict(tests=0, failures=0, errors=0, skipped=0)
        cls = "pmctest." + name
        for r in (run.judge.results if run.judge else []):
            result_case(suite, cls, run, r, n)
        run_cases(suite, cls, run, n)
        if run.judge:
            sub(suite, "system-out", "\n".join(run.judge.lines), LOG_CHARS)
        for k, v in n.items():
            suite.set(k, str(v))
            if k in totals:
                totals[k] += v
        suite.set("time", f"{run.seconds:.3f}")
        total_time += run.seconds
    for k, v in totals.items():
        root.set(k, str(v))
    root.set("time", f"{total_time:.3f}")
    if hasattr(ET, "indent"):      # Python 3.9 and later
        ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)
