#!/usr/bin/env bash
# The long run of one harness (docs/fuzzing.md): `tests/fuzz/long.sh HARNESS SECONDS [OUT]`.
# One core, at low priority; the corpus grows in OUT/corpus-HARNESS (kept between runs), the
# crashes land in OUT/HARNESS/crash-*, and each libFuzzer session's log in OUT/HARNESS-N.log.
# A crash ends a session (Atheris exits on it): the run starts the next one from the corpus
# until SECONDS have passed. Summary: `grep -h DONE OUT/HARNESS-*.log` (executions, cov, ft).
set -euo pipefail
cd "$(dirname "$0")/../.."
harness=${1:?harness: check, mail, league or config}
seconds=${2:?seconds}
out=${3:-fuzz-out}
mkdir -p "$out/corpus-$harness" "$out/$harness"
end=$(( $(date +%s) + seconds ))
session=0
while [ "$(date +%s)" -lt "$end" ]; do
    session=$((session + 1))
    left=$(( end - $(date +%s) ))
    nice -n 10 python -m tests.fuzz "$harness" -max_total_time="$left" -timeout=60 -print_final_stats=1 \
        -artifact_prefix="$out/$harness/" "$out/corpus-$harness" tests/fuzz/corpus/"$harness" \
        $( [ "$harness" = check ] && echo tests/data/conformance ) \
        > "$out/$harness-$session.log" 2>&1 || true
done
