#!/bin/sh
# run.sh BUILD - the reference tests: legoref.py's selftest, then the
# differential test of BUILD/lego against it.  Last line:
# "ref: N passed, N failed".  REF_COUNT / REF_SEED change the CI defaults.
build=${1:-build}
dir=$(dirname "$0")
python3 "$dir/legoref.py" --selftest
selftest=$?
exec python3 "$dir/difftest.py" --build "$build" --seed "${REF_SEED:-1}" \
	--count "${REF_COUNT:-2000}" --extra-failed $((selftest != 0))
