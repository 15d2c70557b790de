#!/bin/bash
# SPDX-License-Identifier: MIT
# Two framegate processes play the sample duel over ENet on 127.0.0.1, each behind the link shim
# (LATENCY ms one way, so the round trip is twice that, LOSS percent lost), ten times faster than
# real time. Their hashes after every tick must equal each other's and those of the same scripts
# played in one world without a network; the host's recording must replay and verify. With KILL
# set, the joiner is killed mid-match: the host must report the disconnect and its recording of
# the ticks so far must replay.
#   netplay.sh CLI SAMPLES LATENCY LOSS [KILL]
set -u
cli=$1 samples=$2 latency=$3 loss=$4 kill=${5:-}
ticks=3600
dir=$(mktemp -d)
host_pid= join_pid=
trap 'kill $host_pid $join_pid 2>/dev/null; rm -rf "$dir"' EXIT
common=(--input "$samples/duel/netplay.txt" --ticks $ticks --speed 10 --timeout 60
        --latency "$latency" --jitter $((latency / 10)) --loss "$loss" --quiet)

"$cli" netplay host 0 "$samples/duel" "${common[@]}" --port-file "$dir/port" \
  --hashes "$dir/host.txt" --record "$dir/host.fgr" >"$dir/host.out" 2>&1 &
host_pid=$!
for _ in $(seq 100); do [ -s "$dir/port" ] && break; sleep 0.1; done
[ -s "$dir/port" ] || { cat "$dir/host.out"; echo "the host never listened"; exit 1; }
"$cli" netplay join "127.0.0.1:$(cat "$dir/port")" "$samples/duel" "${common[@]}" \
  --hashes "$dir/join.txt" >"$dir/join.out" 2>&1 &
join_pid=$!
if [ -n "$kill" ]; then
  sleep 2
  kill -9 $join_pid
  wait $join_pid 2>/dev/null
  wait $host_pid; rc=$?
  cat "$dir/host.out"
  [ $rc = 1 ] || { echo "the host exited with $rc, expected 1"; exit 1; }
  grep -q "player 2 disconnected" "$dir/host.out" || { echo "no disconnect reported"; exit 1; }
  "$cli" replay "$dir/host.fgr" || { echo "the recording so far does not replay"; exit 1; }
  n=$(grep -c . "$dir/host.txt")
  [ "$n" -gt 100 ] && [ "$n" -lt $ticks ] || { echo "$n ticks confirmed: not mid-match"; exit 1; }
  echo "killed mid-match: the host reported it at tick $n and its recording replays"
  exit 0
fi
wait $join_pid; jrc=$?
wait $host_pid; hrc=$?
cat "$dir/host.out" "$dir/join.out"
[ $hrc = 0 ] && [ $jrc = 0 ] || { echo "exit codes: host $hrc, join $jrc"; exit 1; }
"$cli" netplay local "$samples/duel" --input "$samples/duel/netplay.txt" --ticks $ticks \
  --hashes "$dir/local.txt" || exit 1
[ "$(grep -c . "$dir/host.txt")" = $ticks ] || { echo "the host did not hash every tick"; exit 1; }
cmp "$dir/host.txt" "$dir/join.txt" || { echo "the two processes' hashes differ"; exit 1; }
cmp "$dir/host.txt" "$dir/local.txt" || { echo "the processes' hashes differ from the local run"; exit 1; }
"$cli" replay "$dir/host.fgr" || { echo "the recording does not replay"; exit 1; }
echo "$ticks ticks at ${latency} ms one way and ${loss}% loss: both processes and the local run agree"
