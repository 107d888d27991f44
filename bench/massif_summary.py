#!/usr/bin/env python3
"""Summarise a massif output file: the peak snapshot's heap, broken down by the first frame of
our library (pmix_core/pmix) under each top-level allocation. usage: massif_summary.py FILE"""
import re
import sys

lines = open(sys.argv[1]).read().split("\n")
snaps, cur = [], None
for i, l in enumerate(lines):
    if l.startswith("snapshot="):
        cur = {"start": i}
        snaps.append(cur)
    elif cur is not None and l.startswith("mem_heap_B="):
        cur["heap"] = int(l.split("=")[1])
    elif cur is not None and l.startswith("heap_tree=") and l.split("=")[1] == "peak":
        cur["peak"] = True
peak = next((s for s in snaps if s.get("peak")), max(snaps, key=lambda s: s.get("heap", 0)))
print(f"peak heap: {peak['heap'] / 1e6:.1f} MB")
# the tree: lines "  n<k>: <bytes> <addr>: <fn> (<file>:<line>)" indented by depth
start = peak["start"]
end = next((s["start"] for s in snaps if s["start"] > start), len(lines))
agg = {}
stack = []
for l in lines[start:end]:
    m = re.match(r"^( *)n(\d+): (\d+) (.*)$", l)
    if not m:
        continue
    depth, nkids, size, what = len(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(4)
    stack = stack[:depth]
    stack.append(what)
    if nkids == 0 and depth > 0:
        ours = [f for f in stack if re.search(r"pmix_core::|pmix::", f)]
        key = ours[0] if ours else stack[-1]
        key = re.sub(r"^0x[0-9A-F]+: ", "", key)
        agg[key] = agg.get(key, 0) + size
for k, v in sorted(agg.items(), key=lambda kv: -kv[1])[:12]:
    print(f"{v / 1e6:7.2f} MB  {k[:150]}")
