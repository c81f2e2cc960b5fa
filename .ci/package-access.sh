#!/usr/bin/env bash
# The command line reaches no module's `package` API: it type-checks the command line's sources against the
# modules `swift build` built, under a package name of its own, so every use of a `package` declaration (a
# type, a member, an initializer, an extension's method) is a compile error, as it would be for an embedder.
# `package` is for sibling modules of the library; what the command line uses is public, or done below it.
#
# Run after a debug build (`swift build`, or the `swift test` of .ci/run). Takes a few seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(swift build --show-bin-path)
for module in OpenInPolicy OpenInReports AppConnectRuntime; do
    if [[ ! -e $bin/Modules/$module.swiftmodule ]]; then
        echo ".ci/package-access.sh: $bin/Modules/$module.swiftmodule is missing: run swift build first" >&2
        exit 1
    fi
done
# The flags SwiftPM compiles the target with (the C module BuildInfo included), but another package's name.
if ! swiftc -typecheck -continue-building-after-errors -swift-version 6 -parse-as-library -module-name OpenInCheckCLI -package-name an-embedder-of-openin-check \
    -DSWIFT_PACKAGE -DDEBUG -I "$bin/Modules" -module-cache-path "$bin/ModuleCache" \
    -Xcc -fmodule-map-file="$bin/BuildInfo.build/module.modulemap" -Xcc -I -Xcc Sources/BuildInfo/include \
    Sources/OpenInCheckCLI/*.swift; then
    echo ".ci/package-access.sh: the command line uses a package declaration of the library (above): make it a documented public API, or do the work below the command line" >&2
    exit 1
fi
echo "package access: the command line uses only the library's public API"
