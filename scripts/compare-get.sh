#!/usr/bin/env bash
# Side by side, in one run: `pooldeck get pools -A -o json` and `kubectl get cp -A -o json`
# against the demo cluster's `large` scenario, with wall time and maximum resident memory
# from /usr/bin/time -v for each. Usage: scripts/compare-get.sh [POOLS]  (default 2000)
set -euo pipefail
cd "$(dirname "$0")/.."
pools="${1:-2000}"
for tool in /usr/bin/time kubectl; do
  command -v "$tool" >/dev/null || { echo "compare-get: $tool is needed" >&2; exit 2; }
done
cargo build --release --quiet
work="$(mktemp -d)"
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
./target/release/pooldeck demo serve --scenario large --pools "$pools" --kubeconfig "$work/kubeconfig" >"$work/serve.out" 2>"$work/serve.err" &
server=$!
for _ in $(seq 1 100); do
  grep -q KUBECONFIG "$work/serve.out" 2>/dev/null && break
  sleep 0.1
done
export KUBECONFIG="$work/kubeconfig" HOME="$work"
# Warm both (discovery cache, page cache) so neither pays first-run costs alone.
./target/release/pooldeck get pools -A -o json >/dev/null
kubectl get cp -A -o json >/dev/null

measure() {
  local name="$1"; shift
  /usr/bin/time -v "$@" >"$work/$name.json" 2>"$work/$name.time"
  local wall rss items
  wall=$(grep "Elapsed (wall clock)" "$work/$name.time" | awk '{print $NF}')
  rss=$(grep "Maximum resident set size" "$work/$name.time" | awk '{print $NF}')
  items=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['items']))" "$work/$name.json")
  printf '  %-42s wall %8s   max RSS %7.1f MB   items %s\n' "$*" "$wall" "$(awk -v k="$rss" 'BEGIN{print k/1024}')" "$items"
}

echo "pooldeck get vs kubectl get, demo cluster scenario large with $pools pools"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
measure pooldeck ./target/release/pooldeck get pools -A -o json
measure kubectl kubectl get cp -A -o json
