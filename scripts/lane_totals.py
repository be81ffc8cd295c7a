"""Adds up the closing lines of the test lanes' pytest runs (scripts/test.sh) into one,
`tests: N passed, N failed, N skipped`; exits 1 when a lane has no closing line."""

import re
import sys

counts = {"passed": 0, "failed": 0, "skipped": 0}
for log in sys.argv[1:]:
    lines = [line for line in open(log, errors="replace").read().splitlines() if line.strip()]
    closing = next((line for line in reversed(lines) if re.search(r"\d+ (passed|failed|skipped|error)", line)), None)
    if closing is None:
        print(f"tests: {log} has no pytest closing line")
        sys.exit(1)
    for number, word in re.findall(r"(\d+) (passed|failed|skipped|errors?|deselected|xfailed|xpassed)", closing):
        key = "failed" if word.startswith("error") else word
        if key in counts:
            counts[key] += int(number)
print(f"tests: {counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped")
