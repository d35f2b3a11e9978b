#!/usr/bin/env python3
"""make help: every documented target of the Makefile and mk/*.mk, from their header comments
("#   make TARGET   what it does", continued on more indented comment lines), then any .PHONY
target no header documents, so a target without a line in a header still shows up.
    scripts/make_help.py Makefile mk/*.mk"""
import re, sys, textwrap

documented, phony = [], []
for path in sys.argv[1:]:
    entry = None
    for line in open(path):
        m = re.match(r"#   make (\S+)(?: [A-Z_]+=\S+)*\s+(\S.*)", line)
        if m and not m.group(1).startswith("-"):
            entry = [m.group(1), m.group(2).strip(), path, line.index(m.group(2))]
            documented.append(entry)
            continue
        c = re.match(r"#(\s+)(\S.*)", line)
        if entry and c and len(c.group(1)) + 1 >= entry[3]:
            entry[1] += " " + c.group(2).strip()
        else:
            entry = None
        for targets in re.findall(r"^\.PHONY:(.*)", line):
            phony += [(t, path) for t in targets.split()]

width = max(len(t) for t, *_ in documented)
names = set()
for target, text, path, _ in documented:
    if target in names:
        continue
    names.add(target)
    lead = f"  make {target:<{width}}  "
    print(textwrap.fill(f"{text} [{path}]", width=110, initial_indent=lead, subsequent_indent=" " * len(lead)))
rest = sorted({t for t, _ in phony} - names)
if rest:
    print(textwrap.fill("Also (steps of the above or helpers; see their recipes): " + " ".join(rest), width=110))
