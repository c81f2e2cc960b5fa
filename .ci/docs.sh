#!/usr/bin/env bash
# Builds every DocC catalog (Sources/*/*.docc) offline with the toolchain's own docc, no package
# plugin, treating every warning as an error: a broken ``symbol`` or <doc:…> link in a `///` comment
# or an article fails the build. The symbol graphs come from the debug build `swift test` already
# made (`swift package dump-symbol-graph`); each catalog gets its own module's graphs.
#
#   .ci/docs.sh                      # archives in .build/docs/<Module>.doccarchive
#   DOCS_OUTPUT=/tmp/docs .ci/docs.sh
#
# Browse one with `docc preview Sources/OpenInPolicy/OpenInPolicy.docc --additional-symbol-graph-dir
# .build/docs/symbol-graphs/OpenInPolicy`, or serve an archive's files with any static web server.
set -euo pipefail
cd "$(dirname "$0")/.."
output=${DOCS_OUTPUT:-.build/docs}

docc=$(command -v docc || true)
if [ -z "$docc" ]; then
    swift_bin=$(dirname "$(readlink -f "$(command -v swift)")")
    docc=$swift_bin/docc
fi
[ -x "$docc" ] || { echo "docs: no docc next to swift ($docc): install a Swift toolchain that ships docc" >&2; exit 1; }

log=$(swift package dump-symbol-graph --minimum-access-level public 2>&1) || { echo "$log" >&2; exit 1; }
graphs=$(printf '%s\n' "$log" | sed -n 's/^Files written to //p' | tail -1)
[ -d "$graphs" ] || { echo "$log" >&2; echo "docs: swift package dump-symbol-graph wrote no symbol graphs" >&2; exit 1; }

status=0
for catalog in Sources/*/*.docc; do
    module=$(basename "$catalog" .docc)
    symbols=$output/symbol-graphs/$module
    rm -rf "$symbols" "$output/$module.doccarchive"
    mkdir -p "$symbols"
    [ -f "$graphs/$module.symbols.json" ] || { echo "docs: no symbol graph for $module in $graphs" >&2; exit 1; }
    if [ "$module" = OpenInPolicy ]; then
        # The umbrella documents every module it re-exports, as one module (DocC links within one).
        parts=()
        for part in OpenInPolicy OpenInKit OpenInCore OpenInFleet OpenInAppConnect OpenInIntune OpenInVendors; do
            [ -f "$graphs/$part.symbols.json" ] || { echo "docs: no symbol graph for $part in $graphs" >&2; exit 1; }
            parts+=("$graphs/$part.symbols.json")
            for extension in "$graphs/$part@"*.symbols.json; do [ -e "$extension" ] && parts+=("$extension"); done
        done
        swift .ci/merge-symbol-graphs.swift "$symbols" OpenInPolicy "${parts[@]}"
        echo "$module: ${#parts[@]} symbol graphs merged"
    else
        cp "$graphs/$module.symbols.json" "$symbols/"
        for extension in "$graphs/$module@"*.symbols.json; do
            [ -e "$extension" ] && cp "$extension" "$symbols/"
        done
    fi
    echo "docs: $catalog"
    if ! "$docc" convert "$catalog" --additional-symbol-graph-dir "$symbols" --warnings-as-errors \
        --output-path "$output/$module.doccarchive"; then
        status=1
    fi
done
[ "$status" -eq 0 ] && echo "docs: every catalog built without a warning, in $output"
exit "$status"
