#!/usr/bin/env bash
# make test's runner: the built tests in several processes at once.
#
# Why: Swift Testing runs a process's tests on Swift's cooperative pool,
# one thread per core, and most end-to-end tests wait on a program they
# started (waitpid, a tmux screen polled): each holds a thread while the
# core sits idle, so on two cores only two tests were ever under way.
# Several processes each get their own pool. The unit tests of the core
# and the upgrades are dealt round two processes by the CPU their suites
# take, the screens' take one, the clean Debian install one, and the
# end-to-end suites are dealt round the rest.
#
# Each process's whole output goes to a log, printed in turn when all are
# done (never interleaved); the summary names every group, its result,
# and every test skipped and why. Exit status: 0 only when every group passed.
#
#   BULWARK_TEST_PROCESSES  how many processes (default 7: three of end-to-end suites)
#   BULWARK_TEST_LOGS       where the logs go (default .build/test-logs)
#   BULWARK_TESTS_BUILD     a command that builds the tests (make test's `make test-build
#                           clean-root`: the debug build with its tests, and the test
#                           tools then the clean Debian root)
#
# The tests are the debug build's (.build/debug), whose domain, upgrades and
# screens are optimised file by file (Package.swift says why). From
# acfd67b7 to c8a24940 make test built in release instead, the installed
# binary and the tests at once: the tests as quick, but the build 760 to
# 800 s from a fresh clone where this one takes 555 to 605, and 258 s
# again after one file of the domain changed, where this takes 11
# (release optimises each module whole). make test-release runs these
# tests against the release binary. The checks a release binary makes
# only when asked (BULWARK_SELF_CHECKS) are asked for in the test
# processes and every program they start.
set -u
cd "$(dirname "$0")/.."
processes=${BULWARK_TEST_PROCESSES:-7}
logs=${BULWARK_TEST_LOGS:-.build/test-logs}
rm -rf "$logs" && mkdir -p "$logs"

tests_build=${BULWARK_TESTS_BUILD:-}
export BULWARK_SELF_CHECKS=1
pids=()
# Ctrl-C or a kill ends the test processes, which as a script's background
# jobs ignore it.
stop() {
  trap - INT TERM
  for p in "${pids[@]}"; do kill -- -"$p" 2>/dev/null; done
  echo "run-tests: stopped"
  exit "$1"
}
trap 'stop 130' INT
trap 'stop 143' TERM
if [ -n "$tests_build" ]; then
  bash -c "$tests_build" || {
    echo "run-tests: the tests could not be built ($tests_build)"
    exit 1
  }
fi

# The test binary itself, not `swift test`: SwiftPM holds a lock on .build
# for the whole run, so that two `swift test` at once run one after the other.
tests=.build/debug/bulwarkPackageTests.xctest
[ -x "$tests" ] || { echo "run-tests: $tests is not built (swift build --build-tests)"; exit 1; }
listing=$(swift test --skip-build --list-tests 2>"$logs/list.err") || { cat "$logs/list.err"; echo "run-tests: the tests could not be listed"; exit 1; }
# $1 suites (Target.Suite, one a line) dealt round $2 processes, a filter
# each, by weight (Tests/unit-suite-weights.txt, one CPU-second for a suite
# not there, as every end-to-end suite): heaviest first, each to the
# process with the least so far.
deal() {
  local line
  while IFS= read -r line; do
    filters+=("^($line)/")
  done < <(printf '%s\n' "$1" | awk 'NR == FNR { if ($0 !~ /^#/ && NF == 2) weight[$2] = $1; next }
      NF { print ($0 in weight ? weight[$0] : 1), $0 }' Tests/unit-suite-weights.txt - | sort -k1,1 -rn |
    awk -v n="$2" '{ best = 0; for (g = 1; g < n; g++) if (load[g] < load[best]) best = g
                     load[best] += $1; name = $2; gsub(/\./, "\\.", name); names[best] = names[best] (names[best] == "" ? "" : "|") name }
                   END { for (g = 0; g < n; g++) if (names[g] != "") print names[g] }')
}
declare -a filters=()
# The core's and the upgrades' unit tests in two processes, dealt by the
# CPU their suites take: some take half a minute alone, and dealt in name
# order they fell together (at 253cf2d5 one process had 194 CPU-seconds of
# work and the other 131; dealt round three, 186 of 341; by weight, round
# three, 120, 111 and 120, and the run was no shorter: both cores are busy
# to the end either way, so a process more only adds its own start). The
# screens' in one, the end-to-end suites dealt round the processes left.
deal "$(printf '%s\n' "$listing" | sed -n -E 's/^((BulwarkCoreTests|BulwarkUpgradesTests)\.[A-Za-z0-9_]*)\/.*/\1/p' | sort -u)" 2
filters+=('^BulwarkTUITests\.')
# The clean Debian install is one long chain of programs (the package made
# and compressed, a root unpacked, apt, the binary run there), so it has a
# process of its own: dealt among the other end-to-end suites at acfd67b7,
# it held one of its process's two threads for 395 s and a crash test the
# other, and fifteen suites beside them waited for a thread to the end.
alone='EndToEndTests\.DebianPackageTests'
filters+=("^$alone/")
e2e_groups=$((processes > 4 ? processes - 4 : 1))
deal "$(printf '%s\n' "$listing" | sed -n 's|^\(EndToEndTests\.[A-Za-z0-9_]*\)/.*|\1|p' | sort -u | grep -Ev "^$alone$")" "$e2e_groups"
# A test no group's filter takes would never run: say so and stop (a new test target needs a group).
pattern=$(IFS='|'; echo "${filters[*]}")
left=$(printf '%s\n' "$listing" | grep -Ev "$pattern" | grep -v '^$' || true)
if [ -n "$left" ]; then
  echo "run-tests: no group runs these tests (Tests/run-tests.sh deals the targets out):"
  printf '%s\n' "$left" | head -20
  exit 1
fi

start=$(date +%s)
# Each process in a session of its own: stop() ends it whole (its process
# group: the tests and the programs they started), and `times` there gives
# the CPU it used, printed in the summary (programs that start sessions of
# their own, tmux servers and agents, aside). The figures show where the
# time goes: at b332aa1e, 872 CPU-s in 522 s on two cores, each process
# getting about its share (2/7 of a core), the longest the ones with the
# most work (the unit tests, 192 CPU-s; the package and clean Debian root,
# 154). A session each did not make the run shorter (517 s before).
launch() {
  setsid -w bash -c '"$@" >"$0" 2>&1; status=$?; times >"${0%.log}.times"; exit $status' \
    "$logs/group-$1.log" "$tests" --testing-library swift-testing --filter "${filters[$1]}" </dev/null &
  pids[$1]=$!
}
for g in "${!filters[@]}"; do launch "$g"; done
status=0
results=()
for g in "${!filters[@]}"; do
  if wait "${pids[g]}"; then results+=("passed"); else results+=("FAILED"); status=1; fi
done
elapsed=$(( $(date +%s) - start ))

for g in "${!filters[@]}"; do
  echo "=== group $g: ${filters[g]}"
  cat "$logs/group-$g.log"
done
echo
echo "=== make test: ${#filters[@]} processes, ${elapsed} s"
for g in "${!filters[@]}"; do
  line=$(sed 's/\x1b\[[0-9;]*m//g' "$logs/group-$g.log" | grep -E "Test run with [0-9]+ tests" | tail -1)
  # times: the shell's own line, then its children's "user sys" (e.g. 4m2.100s 0m30.250s).
  cpu=$(sed -n 2p "$logs/group-$g.times" 2>/dev/null | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); t += p[1] * 60 + p[2] } printf "%d", t }')
  printf '  group %d %-7s %s%s\n' "$g" "${results[g]}" "${line:-no summary (see its log above)}" "${cpu:+ (CPU ${cpu} s)}"
done
skipped=$(sed 's/\x1b\[[0-9;]*m//g' "$logs"/group-*.log | grep -E "Test .* skipped" | sed 's/^[^A-Za-z]*//' | sort -u)
if [ -n "$skipped" ]; then
  echo "  skipped:"
  printf '%s\n' "$skipped" | sed 's/^/    /'
fi
exit $status
