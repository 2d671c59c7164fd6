#!/bin/sh
# noisy.sh C DIR - a stand-in candidate for `lego tune --run`: prints the
# time of candidate C at its n-th call (counted in DIR/C) from a table
# whose noise is known, and logs C to DIR/log.  Candidate 1's first draw
# is lucky (0.5 ms, then about 1 ms); candidate 2 is the fastest on the
# median (0.82) but loses its first re-measured round to candidate 3
# (0.95 against 0.88), whose median is 0.92; candidate 4 is slow.
c=$1 dir=$2
n=$(($(cat "$dir/$c" 2>/dev/null || echo 0) + 1))
echo $n >"$dir/$c"
printf '%s ' "$c" >>"$dir/log"
case $c in
1) set -- 0.5 1.0 1.1 0.9 1.05 0.95 ;;
2) set -- 0.8 0.95 0.75 0.82 0.81 0.83 ;;
3) set -- 0.9 0.88 0.92 0.93 0.91 0.94 ;;
*) set -- 2.0 2.1 1.9 2.05 1.95 2.0 ;;
esac
shift $((n > 6 ? 5 : n - 1))
echo "time $1"
