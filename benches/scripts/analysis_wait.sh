#!/bin/bash
# The wait for a round's analysis at the end of a round, as a player meets
# it: plays a Kalah(6,4) round of level:3 against level:5 full screen in
# tmux (default speed and think time), presses A at "Play again?" and
# prints the seconds until the whole analysis is on screen.
#
#   benches/scripts/analysis_wait.sh BINARY [LABEL]
#
# Run two builds in turn (A B A B ...) to compare them; see
# docs/PERFORMANCE.md.
set -eu
bin=$1
label=${2:-$bin}
name="analysis-wait-$$"
data=$(mktemp -d)
config=$(mktemp -d)
trap 'tmux kill-session -t "$name" 2>/dev/null || true; rm -rf "$data" "$config"' EXIT
tmux new-session -d -s "$name" -x 100 -y 30 \
    "MANCALA_DATA_DIR=$data MANCALA_CONFIG_DIR=$config $bin --south level:3 --north level:5; sleep 5"
start=$(date +%s.%N)
until tmux capture-pane -p -t "$name" | grep -q "Play again"; do sleep 0.2; done
round=$(echo "$(date +%s.%N) - $start" | bc)
pressed=$(date +%s.%N)
tmux send-keys -t "$name" A
# the table's legend is up and the progress line gone: the whole analysis
until screen=$(tmux capture-pane -p -t "$name") &&
    echo "$screen" | grep -q "value for" && ! echo "$screen" | grep -q "Analysing"; do
    sleep 0.05
done
shown=$(date +%s.%N)
echo "$label: round ${round} s, A to the whole analysis $(echo "$shown - $pressed" | bc) s"
