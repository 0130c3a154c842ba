#!/bin/sh
# The import through a running server's admin socket against the same import run directly, on fresh embedded
# stores, interleaved by round (bench/NOTES.md 65). Usage: bench/import-socket.sh ROUNDS FILE...
# Writes its stores and summaries under bench/runs/import-socket/ and one line per import on stdout.
set -e
rounds=$1
shift
cli=$(cd "$(dirname "$0")/.." && pwd)/bin/orgraph.js
work=$(cd "$(dirname "$0")" && pwd)/runs/import-socket
mkdir -p "$work"
export DATABASE_URL= LOG_LEVEL=warn
timed() { # label store file...
  label=$1; store=$2; shift 2
  start=$(date +%s.%N)
  DATA_DIR=$store node "$cli" import "$@" --rejects "$work/rejects.ndjson" > "$work/summary.json" || [ $? -eq 2 ]
  end=$(date +%s.%N)
  echo "$label: wall $(echo "$end - $start" | bc) s, $(jq -c '{read, written, rejected, seconds, initial_load}' "$work/summary.json")"
}
for round in $(seq 1 "$rounds"); do
  rm -rf "$work/direct" "$work/served" "$work"/*.lock "$work"/*.lock.owner "$work"/*.admin
  DATA_DIR=$work/direct node "$cli" migrate 2>/dev/null
  timed "round $round direct first" "$work/direct" "$@"
  timed "round $round direct again" "$work/direct" "$@"
  DATA_DIR=$work/served PORT=0 node "$cli" serve > "$work/serve.out" 2> "$work/serve.err" &
  server=$!
  for i in $(seq 1 600); do grep -q listening "$work/serve.err" && break; sleep 1; done
  timed "round $round socket first" "$work/served" "$@"
  timed "round $round socket again" "$work/served" "$@"
  kill -TERM $server
  wait $server
done
