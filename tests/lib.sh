# lib.sh — shared by the shell tests (sourced; sets nothing else).
# expect STATUS PATTERN -- command...: the command's status is STATUS and
# its stdout+stderr match PATTERN (grep -E); counts in $pass / $fail.
# With EXPECT_LIMIT=N the command is killed after N seconds (a hang or a
# regression to quadratic time fails instead of blocking the suite).
expect() {
	want=$1 pat=$2
	shift 3
	if [ -n "${EXPECT_LIMIT:-}" ]; then
		out=$(timeout -s KILL "$EXPECT_LIMIT" "$@" 2>&1)
	else
		out=$("$@" 2>&1)
	fi
	st=$?
	if [ "$st" -eq "$want" ] && printf '%s\n' "$out" | grep -E -q -- "$pat"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $* -> status $st (want $want), output lacks /$pat/:"
		printf '%s\n' "$out" | sed 's/^/    /' | head -20
	fi
}
