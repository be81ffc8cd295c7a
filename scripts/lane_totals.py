"""Adds up the test lanes' pytest runs (scripts/test.sh) from their JUnit XML: the seconds
each test file took in each lane (the CI budget's evidence, slowest first), then one line
`tests: N passed, N failed, N skipped`; exits 1 when a lane wrote no report."""

import collections
import sys
import xml.etree.ElementTree as ET


def test_file(classname):
    """tests.host.test_x(.TestClass) -> tests/host/test_x.py"""
    parts = classname.split(".")
    while len(parts) > 1 and parts[-1][:1].isupper():
        parts.pop()
    return "/".join(parts) + ".py"


counts = collections.Counter()
for report in sys.argv[1:]:
    try:
        cases = ET.parse(report).getroot().iter("testcase")
    except (OSError, ET.ParseError) as exc:
        print(f"tests: no report from {report}: {exc}")
        sys.exit(1)
    seconds = collections.Counter()
    for case in cases:
        seconds[test_file(case.get("classname", ""))] += float(case.get("time", 0))
        outcome = next((c.tag for c in case if c.tag in ("failure", "error", "skipped")), "passed")
        counts["failed" if outcome in ("failure", "error") else outcome] += 1
    print(f"{report}: {sum(seconds.values()):.0f} s in tests; by file:")
    for path, s in seconds.most_common():
        print(f"  {s:7.1f} s  {path}")
print(f"tests: {counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped")
