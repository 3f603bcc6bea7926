#!/usr/bin/env python3
"""Prints every documented operation outcome of an OpenAPI file, one per line:
"METHOD PATH STATUS" (anchors and merge keys resolved by PyYAML)."""
import sys

import yaml

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")

with open(sys.argv[1]) as handle:
    document = yaml.safe_load(handle)
for path, item in document.get("paths", {}).items():
    for method in METHODS:
        operation = item.get(method)
        if operation is None:
            continue
        for status in operation.get("responses", {}):
            print(method.upper(), path, status)
