#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""The build outputs a selection of ctest's tests runs, as ninja targets.

    ctest --test-dir BUILD --show-only=json-v1 [selection] |
        test_outputs.py BUILD [EXTRA...]

prints one ninja target a line: every output of BUILD's ninja graph that
a selected test's command names, every output under a directory a
command names (the man pages under man/), and EXTRA (targets the
selection loads by a path no command line shows, e.g. the emulator's
preload library).  ninja builds their dependencies with them.  The
commands are read from the CTestTestfile.cmake files, since ctest leaves
out the command of a test whose program is not built yet.  Exits 1 when
the selection names no output at all.
"""
import json
import os
import re
import subprocess
import sys


def commands(build):
    """{test name: the paths under BUILD its add_test() line names}"""
    under = re.compile(re.escape(build) + r'/[^"\s;)]*')
    name = re.compile(r'add_test\((?:\[(=*)\[(.*?)\]\1\]|"([^"]*)"|(\S+))')
    found = {}
    for top, _, files in os.walk(build):
        if "CTestTestfile.cmake" not in files:
            continue
        with open(os.path.join(top, "CTestTestfile.cmake")) as f:
            for line in f:
                m = name.match(line)
                if m:
                    test = m.group(2) or m.group(3) or m.group(4)
                    found[test] = under.findall(line[m.end():])
    return found


def main():
    build = os.path.realpath(sys.argv[1])
    extra = sys.argv[2:]
    tests = json.load(sys.stdin).get("tests", [])
    outs = subprocess.run(["ninja", "-C", build, "-t", "targets", "all"],
                          check=True, capture_output=True, text=True).stdout
    outputs = {line.rsplit(": ", 1)[0] for line in outs.splitlines()}
    cmds = commands(build)
    named = set()
    for t in tests:
        for path in cmds.get(t["name"], []):
            named.add(os.path.relpath(path, build))
    wanted = set()
    for path in named:
        if path in outputs:
            wanted.add(path)
        else:
            wanted.update(o for o in outputs if o.startswith(path + "/"))
    if not wanted:
        print("test_outputs: the selection runs nothing BUILD makes",
              file=sys.stderr)
        return 1
    for target in sorted(wanted) + extra:
        print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
