#!/usr/bin/env bash
# Peak memory of `petspot-contracts run` against a target whose every answer fails its contract
# with a large JSON body (issue 22: it must not grow with the number of failing answers).
#
#   scripts/peak-memory-failing-answers.sh [BINARY] [ANSWERS] [BYTES]
#
# BINARY   the tool (default .build/release/petspot-contracts; build it with
#          `swift build -c release --product petspot-contracts`)
# ANSWERS  failing answers, the run's --max-requests (default 300)
# BYTES    size of each answer's JSON body (default 4194304, the default --max-response-bytes)
#
# A python3 server on 127.0.0.1 answers every request with 500 and a valid JSON error envelope of
# BYTES bytes; the run's peak resident memory is read with GNU time (Linux). Prints one line:
#   peak memory: N MiB for K failing answers of BYTES bytes (target: under 300 MiB for 300 of 4 MiB)
set -euo pipefail

binary=${1:-.build/release/petspot-contracts}
answers=${2:-300}
bytes=${3:-4194304}
[ -x "$binary" ] || { echo "no executable at $binary (swift build -c release --product petspot-contracts)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time at /usr/bin/time" >&2; exit 2; }

work=$(mktemp -d)
server_pid=
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

python3 - "$bytes" "$work/port" "$work/served" <<'PY' &
import http.server, json, sys, threading
size, port_file, served_file = int(sys.argv[1]), sys.argv[2], sys.argv[3]
head = b'{"error":{"code":"INTERNAL_SERVER_ERROR","message":"'
tail = b'"}}'
body = head + b"x" * (size - len(head) - len(tail)) + tail
json.loads(body)  # a valid JSON answer: the runner parses and renders it
count = 0
lock = threading.Lock()

class Handler(http.server.BaseHTTPRequestHandler):
    def answer(self):
        global count
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        self.send_response(500)
        self.send_header("Content-Type", "application/json")
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        with lock:
            count += 1
            with open(served_file, "w") as f:
                f.write(str(count))

    def log_message(self, *args):
        pass

for method in ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]:
    setattr(Handler, "do_" + method, Handler.answer)

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(port_file, "w") as f:
    f.write(str(server.server_address[1]))
server.serve_forever()
PY
server_pid=$!
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(cat "$work/port")

set +e
/usr/bin/time -v -o "$work/time" "$binary" run --base-url "http://127.0.0.1:$port" --cases 20 --max-requests "$answers" \
    --timeout 60 --deadline 3600 --max-response-bytes $((bytes + 1024)) --no-progress --report-json "$work/report.json" >"$work/out" 2>"$work/err"
status=$?
set -e
peak_kib=$(awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }' "$work/time")
served=$(cat "$work/served" 2>/dev/null || echo 0)
echo "exit code: $status (1 expected: every answer fails)"
echo "peak memory: $((peak_kib / 1024)) MiB for $served failing answers of $bytes bytes (target: under 300 MiB for 300 of 4 MiB)"
