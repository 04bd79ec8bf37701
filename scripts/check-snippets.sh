#!/usr/bin/env bash
# Builds every ```swift block of README.md, docs/*.md and Contracts/README.md against this
# repository by path, as an app team would use them, and checks what the README promises:
#
#   1. The README's app package (blocks marked `file=ReportFlowContracts/...`) is assembled from
#      the README's text alone beside a link named petspot-contracts (so
#      `.package(path: "../petspot-contracts")` resolves as written), must equal Tests/AppExample,
#      builds without warnings, and its tests pass.
#   2. With its planted bug (APP_EXAMPLE_PLANTED_BUG=1) the property fails at its propertyCheck
#      line with the shrunk input and a replay line; the replay line, run as printed, fails with
#      the same shrunk input.
#   3. Every other block builds in DocSnippets (Tests/Snippets: blocks marked
#      `file=DocSnippets/PATH` at PATH, the others as files of its test target), and the adapter
#      of docs/ADAPTERS.md passes `petspot-contracts check --sut`.
#
# Everything is built under .build/snippets with one scratch path of its own, so this
# repository's own build is untouched and the dependency is compiled once for both packages.
set -euo pipefail
cd "$(dirname "$0")/.."

work=.build/snippets
scratch=$PWD/$work/scratch
app=$work/ReportFlowContracts
docs=$work/DocSnippets
started=$SECONDS

fail() {
    echo "check-snippets: $*" >&2
    exit 1
}

# Runs the README app's property test with the planted bug into the file $1 (extra variables
# before the command: PETSPOT_SEED). swift test collects the test's output through pipes and, in
# about 1 run in 150 on this toolchain (6.3.1), loses a chunk of it: the run says "failed ... with
# 1 issue" but the issue's lines are gone (the test binary run directly never loses them, 3,000
# runs). Such a run is repeated, at most 3 times; any other outcome is kept as it is.
run_planted_bug() {
    local log=$1 attempt
    shift
    for attempt in 1 2 3; do
        if env "$@" APP_EXAMPLE_PLANTED_BUG=1 swift test --skip-build --package-path "$app" \
            --scratch-path "$scratch" --filter appMatchesTheReferenceModel >"$log" 2>&1; then
            return 0
        fi
        grep -q "failed after .* with [0-9]* issue" "$log" && ! grep -q "recorded an issue" "$log" || return 1
        echo "check-snippets: swift test's output lost the issue's lines (attempt $attempt of 3)" >&2
    done
    return 1
}

rm -rf "$app" "$docs"
mkdir -p "$work"
ln -sfn ../.. "$work/petspot-contracts"
cp -R Tests/Snippets "$docs"

# Extract the blocks. A fence line is ```swift, optionally followed by file=PACKAGE/PATH; the
# fence's indentation is removed from the block's lines.
documents=(README.md docs/*.md Contracts/README.md)
awk -v work="$work" '
    function flush() { if (out != "") close(out); out = "" }
    FNR == 1 { flush(); doc = FILENAME; gsub(/[^A-Za-z0-9]+/, "-", doc); n = 0 }
    !inside && match($0, /^[ ]*```swift([ ].*)?$/) {
        indent = match($0, /[^ ]/) - 1
        n += 1
        file = ""
        if (match($0, /file=[^ ]+/)) file = substr($0, RSTART + 5, RLENGTH - 5)
        if (file == "") file = "DocSnippets/Tests/DocSnippetTests/" doc "-" n ".swift"
        out = work "/" file
        dir = out; sub(/\/[^\/]*$/, "", dir)
        system("mkdir -p \"" dir "\"")
        if (seen[out]++) { print "check-snippets: two blocks write " file > "/dev/stderr"; exit 3 }
        printf "" > out
        inside = 1
        blocks += 1
        printf "  %s: block %d -> %s\n", FILENAME, n, file
        next
    }
    inside && match($0, /^[ ]*```[ ]*$/) { inside = 0; flush(); next }
    inside { line = $0; if (substr(line, 1, indent) ~ /^[ ]*$/) line = substr(line, indent + 1); print line >> out }
    END { if (inside) { print "check-snippets: an unterminated ```swift block in " FILENAME > "/dev/stderr"; exit 3 }
          printf "check-snippets: %d Swift blocks extracted\n", blocks }
' "${documents[@]}"

# 1. The README's app package: as written, equal to Tests/AppExample, builds clean, passes.
[ -f "$app/Package.swift" ] || fail "README.md has no block marked file=ReportFlowContracts/Package.swift"
if ! diff -r Tests/AppExample "$app" >/dev/null; then
    diff -ru Tests/AppExample "$app" >&2 || true
    fail "README.md's app package differs from Tests/AppExample (above): change both together"
fi
build_log=$(mktemp)
echo "check-snippets: building the README's app package (the dependency is compiled once, under $work/scratch)"
if ! swift build --build-tests --package-path "$app" --scratch-path "$scratch" >"$build_log" 2>&1; then
    cat "$build_log" >&2
    fail "the README's app package does not build"
fi
if grep -E "warning:" "$build_log" | grep -v "/petspot-contracts/" >&2; then
    fail "the README's app package builds with warnings (above)"
fi
echo "check-snippets: running its tests"
swift test --skip-build --package-path "$app" --scratch-path "$scratch" >"$build_log" 2>&1 || {
    cat "$build_log" >&2
    fail "the README's app package's tests fail without the planted bug"
}

# 2. The planted bug: reported at the propertyCheck line, shrunk, with a replay line that replays it.
test_file=Tests/ReportFlowContractTests/ReportFlowContractTests.swift
line=$(grep -n "propertyCheck(" "$app/$test_file" | head -1 | cut -d: -f1)
[ -n "$line" ] || fail "no propertyCheck( in $test_file"
bug_log=$(mktemp)
if run_planted_bug "$bug_log"; then
    cat "$bug_log" >&2
    fail "with APP_EXAMPLE_PLANTED_BUG=1 the property passed: the planted bug was not found"
fi
location=$(grep -o "ReportFlowContractTests.swift:$line:[0-9]*: Issue recorded" "$bug_log" | head -1) \
    || { cat "$bug_log" >&2; fail "the failure is not reported at the propertyCheck line ($test_file:$line)"; }
grep -qF "$location" README.md || fail "README.md's sample failure does not show the location the test reports: $location"
shrunk=$(grep -A1 "Shrunk counterexample" "$bug_log" | tail -1 | sed 's/^ *//')
case "$shrunk" in
    '{"flow":"found",'*) ;;
    *) cat "$bug_log" >&2; fail "no shrunk Found report in the failure" ;;
esac
grep -q '"status":"found"' "$bug_log" || fail "the failure does not show the app's lower-case status"
replay=$(grep -o 'PETSPOT_SEED=[0-9]* swift test --filter "appMatchesTheReferenceModel"' "$bug_log" | head -1)
[ -n "$replay" ] || { cat "$bug_log" >&2; fail "no replay line in the failure"; }
echo "check-snippets: planted bug reported at $test_file:$line, shrunk to $shrunk"
echo "check-snippets: replaying: $replay"
seed=${replay#PETSPOT_SEED=}
seed=${seed%% *}
replay_log=$(mktemp)
if run_planted_bug "$replay_log" PETSPOT_SEED="$seed"; then
    fail "the replay line passed"
fi
grep -qF "$shrunk" "$replay_log" || { cat "$replay_log" >&2; fail "the replay did not reach the same shrunk input"; }

# 3. The other blocks, and the documented adapter under check --sut.
echo "check-snippets: building the other blocks (DocSnippets)"
if ! swift build --build-tests --package-path "$docs" --scratch-path "$scratch" >"$build_log" 2>&1; then
    cat "$build_log" >&2
    fail "a documentation snippet does not build (the file names above say which)"
fi
if grep -E "warning:" "$build_log" | grep -v "/petspot-contracts/" >&2; then
    fail "a documentation snippet builds with warnings (above)"
fi
adapter=$scratch/debug/PetSpotFlowAdapter
[ -x "$adapter" ] || fail "docs/ADAPTERS.md's adapter was not built (a block marked file=DocSnippets/Sources/PetSpotFlowAdapter/main.swift)"
swift build --product petspot-contracts >/dev/null 2>&1 || fail "petspot-contracts does not build"
tool=$(swift build --show-bin-path)/petspot-contracts
echo "check-snippets: docs/ADAPTERS.md's adapter under check --sut"
"$tool" check --sut "$adapter" --cases 100 --seed 20261124 --no-mock --no-progress >"$build_log" 2>&1 || {
    cat "$build_log" >&2
    fail "docs/ADAPTERS.md's adapter fails check --sut"
}
rm -f "$build_log" "$bug_log" "$replay_log"
echo "check-snippets: OK in $((SECONDS - started)) s"
