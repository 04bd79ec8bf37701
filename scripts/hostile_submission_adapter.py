#!/usr/bin/env python3
"""A hostile version 2 adapter, to measure what the fault proxy of `check --sut` holds in memory.

It answers version 1 questions as scripts/python_adapter.py does (so the run reaches the
submission under faults), and every `submit` and `tryAgain` opens CONNECTIONS connections at once
(default 10), each sending one POST of BYTES bytes (default 20 MiB) to the question's baseURL,
then answers the no-connection alert; `cancel` is answered cancelled. The POSTs are creates
(`/api/v1/announcements`), or with `--upload` photo uploads (`/api/v1/announcements/ID/photos`,
whose limit is 20 MiB where a create's is 100 KB). With `--idle`, each `submit` also opens one
connection that never sends a byte and is never closed (a pre-connect left behind).

Usage: hostile_submission_adapter.py [--connections N] [--bytes N] [--upload] [--idle]

    /usr/bin/time -v petspot-contracts check --sut "python3 scripts/hostile_submission_adapter.py --upload" \
        --cases 50 --submission-scenarios 4 --no-progress     # "Maximum resident set size"

(without GNU time, read VmHWM from /proc/PID/status before the run ends, or wait4's ru_maxrss).
Tests/PetSpotRunnerTests/FaultProxyMemoryTests.swift runs it beside a normal run and compares
their peaks.
"""
import json, os, socket, sys, threading, urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import python_adapter  # noqa: E402  (version 1 answers: the same flow rules)

NO_CONNECTION = "No connection. Please check your network and try again."
idle_connections = []  # kept open until the adapter exits


PATH = "/api/v1/announcements"


def flood(base_url, connections, size):
    """Opens `connections` connections to base_url at once, each POSTing `size` bytes."""
    target = urllib.parse.urlsplit(base_url)
    chunk = b"x" * (1024 * 1024)

    def one():
        try:
            with socket.create_connection((target.hostname, target.port), timeout=30) as sock:
                sock.sendall((f"POST {PATH} HTTP/1.1\r\nHost: {target.hostname}\r\n"
                              f"Content-Type: application/json\r\nContent-Length: {size}\r\n\r\n").encode())
                sent = 0
                while sent < size:
                    part = chunk[:min(len(chunk), size - sent)]
                    sock.sendall(part)
                    sent += len(part)
                sock.recv(4096)
        except OSError:
            pass

    threads = [threading.Thread(target=one) for _ in range(connections)]
    for thread in threads: thread.start()
    for thread in threads: thread.join()


def main(args):
    connections, size, idle = 10, 20 * 1024 * 1024, False
    while args:
        flag = args.pop(0)
        if flag == "--connections": connections = int(args.pop(0))
        elif flag == "--bytes": size = int(args.pop(0))
        elif flag == "--idle": idle = True
        elif flag == "--upload":
            global PATH
            PATH = "/api/v1/announcements/00000000-0000-4000-8000-000000000000/photos"
        else: sys.exit(f"hostile_submission_adapter: unknown argument {flag!r}\n{__doc__}")
    reports = {}
    for raw in sys.stdin.buffer:
        if not raw.strip(): continue
        q = json.loads(raw)
        if q.get("v") != 2:
            answer = {"v": q.get("v"), "id": q["id"], **python_adapter.answer(q)}
        elif q.get("op") == "submit":
            flow = python_adapter.answer(q)
            if flow["outcome"] != "submitted":
                answer = {"v": 2, "id": q["id"], **flow}
            else:
                reports[q["id"]] = q["baseURL"]
                if idle:
                    target = urllib.parse.urlsplit(q["baseURL"])
                    idle_connections.append(socket.create_connection((target.hostname, target.port)))
                flood(q["baseURL"], connections, size)
                answer = {"v": 2, "id": q["id"], "outcome": "alert", "message": NO_CONNECTION}
        elif q.get("op") == "tryAgain":
            flood(reports[q["report"]], connections, size)
            answer = {"v": 2, "id": q["id"], "outcome": "alert", "message": NO_CONNECTION}
        else:
            answer = {"v": 2, "id": q["id"], "outcome": "cancelled"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
