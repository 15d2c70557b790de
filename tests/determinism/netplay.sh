#!/bin/bash
# SPDX-License-Identifier: MIT
# Two framegate processes play the sample duel over ENet on 127.0.0.1, each behind the link shim
# (LATENCY ms one way, so the round trip is twice that, LOSS percent lost), ten times faster than
# real time. Their hashes after every tick must equal each other's and those of the same scripts
# played in one world without a network, and so must the presentation cues each emitted (each
# once: presentation runs on confirmed ticks only); the host's recording must replay and verify.
# CASE:
#   kill      the joiner is killed mid-match: the host reports the disconnect and its recording
#             of the ticks so far replays;
#   rejoin    the joiner's connection drops for 2 s of match time (it reconnects): the match goes
#             on to the end, the same as without the outage;
#   late      the joiner's connection drops for 7 s, past the 5 s timeout: the host reports the
#             disconnect, its recording so far replays, and the joiner, back, reports the host gone;
#   pause     as late, but both wait 20 s more for a lost peer (--rejoin-wait): both pause, and the
#             match goes on when the connection is back, the same as without the outage;
#   restart   the joiner is killed mid-match and started again with --rejoin past the disconnect
#             timeout: the host pauses, sends it the state of the match, and both play to the end;
#             the host's hashes, cues and recording are the local run's, and so are the new
#             joiner's hashes and cues from the tick it rejoined at;
#   spectate  a third process spectates: its hashes and its recording are the players';
#   delay     both players change their input delay three times mid-match (--delay-at), and the
#             local run gives the input the same ticks.
#   netplay.sh CLI SAMPLES LATENCY LOSS [CASE]
set -u
cli=$1 samples=$2 latency=$3 loss=$4 case=${5:-}
ticks=3600
dir=$(mktemp -d)
host_pid= join_pid= spec_pid=
trap 'kill $host_pid $join_pid $spec_pid 2>/dev/null; rm -rf "$dir"' EXIT
common=(--input "$samples/duel/netplay.txt" --ticks $ticks --speed 10 --timeout 60
        --latency "$latency" --jitter $((latency / 10)) --loss "$loss" --quiet)
# Ten times faster than real time, the 5 s disconnect timeout is half a second of real time, which
# a loaded machine can stall a process for: the cases that do not test it allow 30 s (3 s real).
join_extra=() both=(--disconnect 30000)
case $case in
  rejoin) join_extra=(--outage 1200:2000) ;;
  late) join_extra=(--outage 1200:7000) both=() ;;
  pause) join_extra=(--outage 1200:7000) both=(--rejoin-wait 20000) ;;
  restart) both=(--rejoin-wait 60000) ;;
  kill) both=() ;;
  spectate) both+=(--spectators 1) ;;
  delay) both+=(--delay-at 600:5 --delay-at 1800:0 --delay-at 2400:3) ;;
esac
fail() { echo "$*"; exit 1; }

"$cli" netplay host 0 "$samples/duel" "${common[@]}" "${both[@]}" --port-file "$dir/port" \
  --hashes "$dir/host.txt" --cues "$dir/host.cues" --record "$dir/host.fgr" >"$dir/host.out" 2>&1 &
host_pid=$!
for _ in $(seq 100); do [ -s "$dir/port" ] && break; sleep 0.1; done
[ -s "$dir/port" ] || { cat "$dir/host.out"; fail "the host never listened"; }
address=127.0.0.1:$(cat "$dir/port")
"$cli" netplay join "$address" "$samples/duel" "${common[@]}" "${both[@]}" "${join_extra[@]}" \
  --hashes "$dir/join.txt" --cues "$dir/join.cues" >"$dir/join.out" 2>&1 &
join_pid=$!
if [ "$case" = spectate ]; then
  "$cli" netplay spectate "$address" "$samples/duel" --ticks $ticks --speed 10 --timeout 60 \
    --latency "$latency" --loss "$loss" --quiet "${both[@]}" --hashes "$dir/spec.txt" \
    --record "$dir/spec.fgr" >"$dir/spec.out" 2>&1 &
  spec_pid=$!
fi

# The host stops on a disconnect; the recording of the ticks it confirmed replays.
host_disconnected() {
  wait $host_pid; local rc=$?
  cat "$dir/host.out"
  [ $rc = 1 ] || fail "the host exited with $rc, expected 1"
  grep -q "player 2 disconnected" "$dir/host.out" || fail "no disconnect reported"
  "$cli" replay "$dir/host.fgr" || fail "the recording so far does not replay"
  n=$(grep -c . "$dir/host.txt")
  [ "$n" -gt 100 ] && [ "$n" -lt $ticks ] || fail "$n ticks confirmed: not mid-match"
}
if [ "$case" = kill ]; then
  sleep 2
  kill -9 $join_pid
  wait $join_pid 2>/dev/null
  host_disconnected
  echo "killed mid-match: the host reported it at tick $n and its recording replays"
  exit 0
fi
if [ "$case" = restart ]; then
  sleep 2
  kill -9 $join_pid
  wait $join_pid 2>/dev/null
  cat "$dir/join.out"
  sleep 1 # ten seconds of the match: past the 5 s disconnect timeout, the host is paused
  "$cli" netplay join "$address" "$samples/duel" "${common[@]}" "${both[@]}" --rejoin \
    --hashes "$dir/join2.txt" --cues "$dir/join2.cues" >"$dir/join2.out" 2>&1 &
  join_pid=$!
  wait $join_pid; jrc=$?
  wait $host_pid; hrc=$?
  cat "$dir/host.out" "$dir/join2.out"
  [ $hrc = 0 ] && [ $jrc = 0 ] || fail "exit codes: host $hrc, rejoined joiner $jrc"
  "$cli" netplay local "$samples/duel" --input "$samples/duel/netplay.txt" --ticks $ticks \
    --hashes "$dir/local.txt" --cues "$dir/local.cues" || exit 1
  grep -q "waiting for a lost peer" "$dir/host.out" || fail "the host did not pause"
  at=$(sed -n 's/^tick \([0-9]*\): rejoined the match.*/\1/p' "$dir/join2.out")
  [ -n "$at" ] && [ "$at" -gt 100 ] || fail "the joiner did not report where it rejoined"
  cmp "$dir/host.txt" "$dir/local.txt" || fail "the host's hashes differ from the local run"
  cmp "$dir/host.cues" "$dir/local.cues" || fail "the host's cues differ from the local run's"
  awk -v at="$at" '$1 >= at' "$dir/local.txt" >"$dir/local.after"
  awk -v at="$at" '$1 >= at' "$dir/join2.txt" >"$dir/join2.after"
  [ "$(grep -c . "$dir/join2.after")" = $((ticks - at)) ] || fail "the joiner missed ticks"
  cmp "$dir/join2.after" "$dir/local.after" || fail "the rejoined joiner's hashes differ"
  awk -v at="$at" '$1 >= at' "$dir/local.cues" >"$dir/local.cues.after"
  cmp "$dir/join2.cues" "$dir/local.cues.after" || fail "the rejoined joiner's cues differ"
  "$cli" replay "$dir/host.fgr" || fail "the host's recording does not replay"
  echo "the joiner was killed and rejoined at tick $at: the match ended the same as the local run"
  exit 0
fi
if [ "$case" = late ]; then
  host_disconnected
  wait $join_pid; jrc=$?
  cat "$dir/join.out"
  [ $jrc = 1 ] || fail "the joiner exited with $jrc, expected 1"
  grep -q "outage: connection dropped" "$dir/join.out" || fail "the joiner had no outage"
  grep -q "player 1 disconnected" "$dir/join.out" || fail "the joiner did not report the host gone"
  echo "back after the timeout: the host reported the disconnect at tick $n, its recording replays"
  exit 0
fi
wait $join_pid; jrc=$?
wait $host_pid; hrc=$?
cat "$dir/host.out" "$dir/join.out"
[ $hrc = 0 ] && [ $jrc = 0 ] || fail "exit codes: host $hrc, join $jrc"
"$cli" netplay local "$samples/duel" --input "$samples/duel/netplay.txt" --ticks $ticks \
  "${both[@]}" --hashes "$dir/local.txt" --cues "$dir/local.cues" || exit 1
[ "$(grep -c . "$dir/host.txt")" = $ticks ] || fail "the host did not hash every tick"
cmp "$dir/host.txt" "$dir/join.txt" || fail "the two processes' hashes differ"
cmp "$dir/host.txt" "$dir/local.txt" || fail "the processes' hashes differ from the local run"
# Presentation ran once per confirmed tick on each side: the same cues, each once, as the local run.
[ "$(grep -c . "$dir/local.cues")" -gt 20 ] || fail "the local run emitted too few cues to compare"
cmp "$dir/host.cues" "$dir/local.cues" || fail "the host's cues differ from the local run's"
cmp "$dir/join.cues" "$dir/local.cues" || fail "the joiner's cues differ from the local run's"
"$cli" replay "$dir/host.fgr" || fail "the recording does not replay"
case $case in
  pause)
    grep -q "waiting for a lost peer" "$dir/host.out" || fail "the host did not pause"
    grep -q "the match goes on" "$dir/host.out" || fail "the host did not go on"
    grep -q "the match goes on" "$dir/join.out" || fail "the joiner did not go on"
    echo "the joiner dropped for 7 s, past the timeout: both paused and the match went on" ;;
  rejoin)
    grep -q "outage: connection dropped" "$dir/join.out" || fail "the joiner had no outage"
    grep -q ", 1 rejoins;" "$dir/host.out" || fail "the host did not see the joiner rejoin"
    grep -q ", 1 rejoins;" "$dir/join.out" || fail "the joiner did not reconnect"
    echo "the joiner dropped for 2 s and came back: the match went on to the end, the same" ;;
  spectate)
    wait $spec_pid; src=$?
    cat "$dir/spec.out"
    [ $src = 0 ] || fail "the spectator exited with $src"
    cmp "$dir/host.txt" "$dir/spec.txt" || fail "the spectator's hashes differ"
    "$cli" replay "$dir/spec.fgr" || fail "the spectator's recording does not replay"
    echo "a spectator saw the same $ticks ticks and recorded them" ;;
  delay)
    for d in 5 0 3; do
      grep -q "input delay $d\$" "$dir/host.out" && grep -q "input delay $d\$" "$dir/join.out" \
        || fail "no change to input delay $d reported"
    done
    echo "input delay changed three times mid-match on both sides: the same as the local run" ;;
esac
echo "$ticks ticks at ${latency} ms one way and ${loss}% loss: both processes and the local run agree"
