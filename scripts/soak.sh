#!/usr/bin/env bash
# Soak: the demo server playing the fleet at --speed 50 and the console watching it, for
# DURATION seconds (default 600). Prints the resident memory of each every INTERVAL seconds
# (default 60) and the peak; exits non-zero only if a process died. Figures, not a test.
# Usage: scripts/soak.sh [DURATION] [INTERVAL]   (needs tmux; builds the release binary)
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-600}
interval=${2:-60}
cargo build --release --quiet
binary=$PWD/target/release/pooldeck
work=$(mktemp -d)
session="pooldeck-soak-$$"
cleanup() {
  tmux kill-session -t "$session" 2>/dev/null || true
  [ -n "${server:-}" ] && kill "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

XDG_RUNTIME_DIR=$work "$binary" demo serve --scenario fleet --speed 50 >"$work/serve.out" 2>"$work/serve.err" &
server=$!
for _ in $(seq 1 100); do grep -q '^export KUBECONFIG=' "$work/serve.out" 2>/dev/null && break; sleep 0.1; done
kubeconfig=$(sed -n 's/^export KUBECONFIG=//p' "$work/serve.out")
tmux new-session -d -s "$session" -x 160 -y 48 "KUBECONFIG=$kubeconfig $binary -A; sleep 3600"
sleep 2
console=$(pgrep -P "$(tmux list-panes -t "$session" -F '#{pane_pid}')" pooldeck)

rss() { awk '/VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/$1/status" 2>/dev/null || echo "gone"; }
echo "pooldeck soak: fleet at --speed 50 for ${duration}s; machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
printf "%8s  %14s  %14s\n" "seconds" "server RSS MB" "console RSS MB"
peak_server=0; peak_console=0
for elapsed in $(seq 0 "$interval" "$duration"); do
  [ "$elapsed" -gt 0 ] && sleep "$interval"
  s=$(rss "$server"); c=$(rss "$console")
  printf "%8s  %14s  %14s\n" "$elapsed" "$s" "$c"
  [ "$s" = gone ] || [ "$c" = gone ] && { echo "a process died"; exit 1; }
  peak_server=$(awk -v a="$peak_server" -v b="$s" 'BEGIN {print (b > a ? b : a)}')
  peak_console=$(awk -v a="$peak_console" -v b="$c" 'BEGIN {print (b > a ? b : a)}')
done
echo "peak: server ${peak_server} MB, console ${peak_console} MB"
