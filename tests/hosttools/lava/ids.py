"""LAVA's names for pmctest's test IDs. LAVA's test monitor makes a case
name of each ID (lava_dispatcher/actions/test/monitor.py, check_patterns):
lower case, each run of characters other than letters, digits and '_'
one '_' ("priv.long.cpl3.pce1.valid" is "priv_long_cpl3_pce1_valid",
"smp.enum@cpu1" "smp_enum_cpu1"), and keeps the ID as it was in the
result's extra.test_case_id."""
import re

NOT_WORD = re.compile(r"\W+")


def lava_case(test_id):
    """The case name LAVA records test_id under."""
    return NOT_WORD.sub("_", test_id.strip().lower())


def collisions(test_ids):
    """{case: [IDs]} for each case name more than one distinct ID becomes:
    LAVA's results cannot tell those tests apart."""
    by_case = {}
    for test_id in dict.fromkeys(test_ids):
        by_case.setdefault(lava_case(test_id), []).append(test_id)
    return {case: ids for case, ids in by_case.items() if len(ids) > 1}
