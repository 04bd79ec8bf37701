"""Validations per second of jsonschema-rs on the payload and schema `petspot-contracts bench` uses.

The payload is the first example of Contracts/schemas/create-request.schema.json (every field
present), validated against that schema, compiled once, single-threaded, for SECONDS of wall
clock; prints one `name: value unit` line like the Swift benchmark.
"""
import json
import sys
import time

import jsonschema_rs

schema_path = sys.argv[1]
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
schema = json.load(open(schema_path))
payload = schema["examples"][0]
validator = jsonschema_rs.validator_for(schema)
assert validator.is_valid(payload), "the benchmark payload must be valid"
for _ in range(1000):
    validator.is_valid(payload)
count = 0
start = time.perf_counter()
while True:
    for _ in range(1000):
        validator.is_valid(payload)
    count += 1000
    elapsed = time.perf_counter() - start
    if elapsed >= seconds:
        break
print(f"jsonschema_rs_create_request_throughput: {count / elapsed:.0f} validations/s", flush=True)
