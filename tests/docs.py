#!/usr/bin/env python3
"""docs.py: the figures and excerpts of fusec's output that README.md and docs/*.md quote,
checked against fusec itself, so that a change of the model or of the report cannot leave
a stale number in the docs.

    python3 tests/docs.py FUSEC ROOT

A page marks what it quotes with an HTML comment (invisible once rendered):

    <!-- fusec ARGS -->
    ```
    ...a fenced block...
    ```
        Every line of the block is a line of `fusec ARGS`'s output, in the same order; lines
        that are "..." (an excerpt's cut) and lines starting with "$ " (the command, shown)
        are skipped, and "..." inside a line stands for any text cut out of it.

    2.97x<!-- fusec ARGS: PATH -->
        The number just before the comment (its digits as the page prints them, with an
        optional "x") is the value at PATH in the JSON of `fusec ARGS` (which must include
        --format=json), rounded to the page's decimals. PATH is dotted keys and [i] indices
        (sweep[0].speedup, device.eager_op_us); log2(PATH) takes its base-2 logarithm, for a
        figure written 2^21.1 (write the number after "2^").

ARGS run from ROOT, split as the shell would (no quoting needed in practice). Exit status 0
when everything agrees; 1 with one line per disagreement, each saying what the page has and
what fusec prints.
"""
import glob
import json
import math
import os
import re
import shlex
import subprocess
import sys

BLOCK = re.compile(r"^<!-- fusec (.*?) -->\n```[a-z]*\n(.*?)^```", re.M | re.S)
INLINE = re.compile(r"(-?[0-9]+(?:\.[0-9]+)?)x?<!-- fusec (.*?): (.*?) -->")


def run(fusec, root, args):
    p = subprocess.run([fusec] + shlex.split(args), cwd=root, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("fusec %s: exit %d: %s" % (args, p.returncode, p.stderr.strip()))
    return p.stdout


def lookup(doc, path):
    log = path.startswith("log2(") and path.endswith(")")
    if log:
        path = path[5:-1]
    v = doc
    for key, index in re.findall(r"([A-Za-z_][A-Za-z0-9_]*)|\[([0-9]+)\]", path):
        v = v[key] if key else v[int(index)]
    return math.log2(v) if log else v


def check_page(fusec, root, page, out):
    text = open(os.path.join(root, page), encoding="utf-8").read()
    problems = 0
    line_of = lambda pos: text.count("\n", 0, pos) + 1
    for m in BLOCK.finditer(text):
        args, block = m.group(1), m.group(2)
        try:
            got = run(fusec, root, args).splitlines()
        except RuntimeError as e:
            out.append("%s:%d: %s" % (page, line_of(m.start()), e))
            problems += 1
            continue
        at = 0
        for want in block.splitlines():
            if want.strip() == "..." or want.startswith("$ "):
                continue
            want = want.rstrip()
            # "..." inside a line stands for text cut out of it
            pattern = re.compile(".*".join(re.escape(part) for part in want.split("...")) + r"\Z")
            while at < len(got) and not pattern.match(got[at].rstrip()):
                at += 1
            if at == len(got):
                out.append("%s:%d: the block under '<!-- fusec %s -->' has a line fusec does not print "
                           "(or not in this order):\n    %s" % (page, line_of(m.start()), args, want))
                problems += 1
                break
            at += 1
    for m in INLINE.finditer(text):
        figure, args, path = m.group(1), m.group(2), m.group(3)
        if text[m.start() - 1:m.start()] == "`":
            continue  # a marker shown as code (docs/testing.md describes them)
        try:
            value = lookup(json.loads(run(fusec, root, args)), path)
        except (RuntimeError, KeyError, IndexError, TypeError, ValueError) as e:
            out.append("%s:%d: fusec %s: %s: %s" % (page, line_of(m.start()), args, path, e))
            problems += 1
            continue
        decimals = len(figure.split(".")[1]) if "." in figure else 0
        printed = "%.*f" % (decimals, value)
        if printed != figure:
            out.append("%s:%d: the page says %s; fusec %s gives %s = %s (%r)"
                       % (page, line_of(m.start()), figure, args, path, printed, value))
            problems += 1
    return problems


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: docs.py FUSEC ROOT")
    fusec, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    pages = ["README.md"] + sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "docs", "*.md")))
    out, checked = [], 0
    for page in pages:
        text = open(os.path.join(root, page), encoding="utf-8").read()
        checked += len(BLOCK.findall(text)) + sum(text[m.start() - 1:m.start()] != "`" for m in INLINE.finditer(text))
        check_page(fusec, root, page, out)
    for line in out:
        print("FAIL: " + line)
    print("docs.py: %d quoted outputs of fusec checked, %d disagree" % (checked, len(out)))
    if checked == 0:
        print("FAIL: no page marks a quoted output: the markers are gone or this script misreads them")
    sys.exit(1 if out or checked == 0 else 0)


if __name__ == "__main__":
    main()
