#!/usr/bin/env python3
"""Writes a todo data file (format 1) with ITEMS items and STEPS undo steps, for measuring
`todo list` startup: python3 make-large-file.py PATH [ITEMS] [STEPS]

Written independently of the Swift code, from the format described in DataFileFormat.swift,
so it also checks that the documented layout is the real one. The history is STEPS `add`
steps on top of a base of ITEMS - STEPS items."""
import json, sys, uuid, zlib

path = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
steps = int(sys.argv[3]) if len(sys.argv) > 3 else 100

items = [{"done": i % 3 == 0, "id": str(uuid.uuid4()).upper(), "title": f"Buy item number {i:05d} at the shop"}
         for i in range(count)]
base = items[:count - steps]
actions = [{"transaction": {"_0": [{"add": {"id": item["id"], "title": item["title"]}}]}}
           for item in items[count - steps:]]
# Items added by a step start not done.
for item in items[count - steps:]:
    item["done"] = False

def encode(value):
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode()

present = encode({"items": items})
history = encode({"actions": actions, "base": {"items": base}})
def section(payload):
    return {"bytes": len(payload), "crc32": format(zlib.crc32(payload), "08x")}
header = encode({"format": "todo", "history": section(history), "present": section(present), "version": 1})
with open(path, "wb") as file:
    file.write(header + b"\n" + present + b"\n" + history + b"\n")
