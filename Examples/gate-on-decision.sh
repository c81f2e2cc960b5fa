#!/bin/sh
# Gate a step on a decision: run the step only when the policy lets the app
# hand the document to the viewer. Exit statuses of `openin-check eval`:
# 0 allow, 2 some decision is not allow, 1 invalid input, 64 usage error.
#
#   sh Examples/gate-on-decision.sh [POLICY] [TARGET]
#
# Set OPENIN_CHECK to the binary to use (default: swift run openin-check).
set -u
policy=${1:-Examples/policies/whitelist-mail-pair.json}
target=${2:-com.example.docviewer}
cli=${OPENIN_CHECK:-swift run --quiet openin-check}

record=$($cli eval --policy "$policy" --channel document-interaction \
    --target "$target" --document quarterly-report.pdf --format jsonl)
status=$?

case $status in
    0)
        echo "allowed: sharing quarterly-report.pdf with $target"
        # The gated step goes here, e.g. upload the report for that app.
        ;;
    2)
        echo "blocked by the Open In policy, so the step is skipped: $record" >&2
        exit 1
        ;;
    *)
        echo "cannot decide (openin-check exited with $status); failing closed" >&2
        exit "$status"
        ;;
esac
