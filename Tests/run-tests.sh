#!/usr/bin/env bash
# make test's runner: the built tests in several processes at once.
#
# Why: Swift Testing runs a process's tests on Swift's cooperative pool,
# one thread per core, and most end-to-end tests wait on a program they
# started (waitpid, a tmux screen polled): each holds a thread while the
# core sits idle, so on two cores only two tests were ever under way.
# Several processes each get their own pool. The unit tests take one
# process each per target; the end-to-end suites are dealt round the rest.
#
# Each process's whole output goes to a log, printed in turn when all are
# done (never interleaved); the summary names every group, its result,
# and every test skipped and why. Exit status: 0 only when every group passed.
#
#   BULWARK_TEST_PROCESSES  how many processes (default 5: three of end-to-end suites)
#   BULWARK_TEST_LOGS       where the logs go (default .build/test-logs)
#   BULWARK_RELEASE_BUILD   a command that builds the release binary (make test's
#                           `make release`): run beside the tests, the suites that
#                           test that binary (install, package) waiting for it in a
#                           process of their own. The release build compiles each
#                           module whole, one after another, on about one core: beside
#                           the tests rather than before them, make test ends sooner.
set -u
cd "$(dirname "$0")/.."
processes=${BULWARK_TEST_PROCESSES:-5}
logs=${BULWARK_TEST_LOGS:-.build/test-logs}
rm -rf "$logs" && mkdir -p "$logs"

# The test binary itself, not `swift test`: SwiftPM holds a lock on .build
# for the whole run, so that two `swift test` at once run one after the other.
tests=.build/debug/bulwarkPackageTests.xctest
[ -x "$tests" ] || { echo "run-tests: $tests is not built (swift build --build-tests)"; exit 1; }
release_build=${BULWARK_RELEASE_BUILD:-}
release_suites='InstallTests|DebianPackageTests'
if [ -n "$release_build" ]; then
  bash -c "$release_build" >"$logs/release-build.log" 2>&1 &
  release_pid=$!
fi
listing=$(swift test --skip-build --list-tests 2>"$logs/list.err") || { cat "$logs/list.err"; echo "run-tests: the tests could not be listed"; exit 1; }
# The end-to-end suites, dealt round the processes left after the unit targets' two.
e2e_groups=$((processes > 2 ? processes - 2 : 1))
mapfile -t e2e_suites < <(printf '%s\n' "$listing" | sed -n 's|^EndToEndTests\.\([A-Za-z0-9_]*\)/.*|\1|p' | sort -u |
  if [ -n "$release_build" ]; then grep -Ev "^($release_suites)$"; else cat; fi)
declare -a filters=('^(BulwarkCoreTests|BulwarkUpgradesTests)\.' '^BulwarkTUITests\.')
for ((g = 0; g < e2e_groups; g++)); do
  names=()
  for ((i = g; i < ${#e2e_suites[@]}; i += e2e_groups)); do names+=("${e2e_suites[i]}"); done
  filters+=("^EndToEndTests\\.($(IFS='|'; echo "${names[*]}"))/")
done
# The release binary's suites last, in a process started once it is built.
[ -n "$release_build" ] && filters+=("^EndToEndTests\\.($release_suites)/")
# A test no group's filter takes would never run: say so and stop (a new test target needs a group).
pattern=$(IFS='|'; echo "${filters[*]}")
left=$(printf '%s\n' "$listing" | grep -Ev "$pattern" | grep -v '^$' || true)
if [ -n "$left" ]; then
  echo "run-tests: no group runs these tests (Tests/run-tests.sh deals the targets out):"
  printf '%s\n' "$left" | head -20
  exit 1
fi

start=$(date +%s)
pids=()
last=$(( ${#filters[@]} - 1 ))
launch() {
  "$tests" --testing-library swift-testing --filter "${filters[$1]}" >"$logs/group-$1.log" 2>&1 &
  pids[$1]=$!
}
for g in "${!filters[@]}"; do
  if [ -n "$release_build" ] && [ "$g" = "$last" ]; then continue; fi
  launch "$g"
done
if [ -n "$release_build" ]; then
  if wait "$release_pid"; then
    echo "release build: done after $(( $(date +%s) - start )) s of the tests" >"$logs/release-build.note"
    launch "$last"
  else
    { echo "run-tests: the release build failed ($release_build):"; tail -40 "$logs/release-build.log"; } >"$logs/group-$last.log"
    pids[last]=""
  fi
fi
status=0
results=()
for g in "${!filters[@]}"; do
  if [ -n "${pids[g]}" ] && wait "${pids[g]}"; then results+=("passed"); else results+=("FAILED"); status=1; fi
done
elapsed=$(( $(date +%s) - start ))

for g in "${!filters[@]}"; do
  echo "=== group $g: ${filters[g]}"
  cat "$logs/group-$g.log"
done
echo
echo "=== make test: ${#filters[@]} processes, ${elapsed} s"
[ -f "$logs/release-build.note" ] && echo "  $(cat "$logs/release-build.note")"
for g in "${!filters[@]}"; do
  line=$(sed 's/\x1b\[[0-9;]*m//g' "$logs/group-$g.log" | grep -E "Test run with [0-9]+ tests" | tail -1)
  printf '  group %d %-7s %s\n' "$g" "${results[g]}" "${line:-no summary (see its log above)}"
done
skipped=$(sed 's/\x1b\[[0-9;]*m//g' "$logs"/group-*.log | grep -E "Test .* skipped" | sed 's/^[^A-Za-z]*//' | sort -u)
if [ -n "$skipped" ]; then
  echo "  skipped:"
  printf '%s\n' "$skipped" | sed 's/^/    /'
fi
exit $status
