#!/usr/bin/env bash
# Builds and runs one libFuzzer target (not part of CI: `swift build` and
# `swift test` never see Tests/Fuzz/, which is no SwiftPM target).
#
#   .ci/fuzz.sh TARGET [SECONDS]     run TARGET for SECONDS (default 600), in rounds of 150 s
#   .ci/fuzz.sh list                 the targets
#
# TARGET is a folder of Tests/Fuzz/ (requests, policy-json, appconnect-plist,
# info-plist, plist-oracle, tables). plist-oracle compares the property-list
# readers with CoreFoundation's (it links Foundation, and the test oracle
# Tests/OpenInPolicyTests/CoreFoundationOracle.swift). The modules are compiled with swiftc directly, with
# -sanitize=fuzzer,address, into .build/fuzz/; the corpus lives in
# .build/fuzz/corpus/TARGET, seeded from Examples/ and Rules/; a crash is
# written to .build/fuzz/crash-TARGET-*. Extra libFuzzer flags can be given
# in FUZZ_FLAGS (say FUZZ_FLAGS=-jobs=2).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/.build/fuzz
targets=$(cd Tests/Fuzz && ls -d */ | tr -d /)

target=${1:-}
seconds=${2:-600}
if [[ -z $target || $target == list ]]; then
    echo "targets: $(echo $targets)"
    [[ -n $target ]] && exit 0 || exit 64
fi
if [[ ! -f Tests/Fuzz/$target/main.swift ]]; then
    echo "fuzz.sh: unknown target '$target': use one of: $(echo $targets)" >&2
    exit 64
fi

flags=(-parse-as-library -sanitize=fuzzer,address -O -g -enable-testing -package-name openin_check)
mkdir -p "$out/modules"

# Compiles one module of Sources/ into a static library, unless it is up to date.
build_module() {
    local name=$1 library=$out/lib$1.a
    if [[ -f $library ]] && [[ -z $(find "Sources/$name" -newer "$library" -name '*.swift' | head -1) ]]; then
        return
    fi
    echo "fuzz.sh: compiling $name" >&2
    swiftc "${flags[@]}" -module-name "$name" -I "$out/modules" \
        -emit-module -emit-module-path "$out/modules/$name.swiftmodule" \
        -emit-library -static -o "$library" \
        $(find "Sources/$name" -name '*.swift' | sort)
}

# Several runs may share .build/fuzz: one compiles at a time.
exec 9>"$out/.lock"
flock 9
build_module OpenInPolicy
build_module AppConnectRuntime
build_module OpenInCheckCLI
binary=$out/$target
extra=()
[[ $target == plist-oracle ]] && extra=(Tests/OpenInPolicyTests/CoreFoundationOracle.swift)
if [[ ! -f $binary || Tests/Fuzz/$target/main.swift -nt $binary || Tests/Fuzz/FuzzProperties.swift -nt $binary || $out/libOpenInCheckCLI.a -nt $binary || $out/libOpenInPolicy.a -nt $binary || ( -n ${extra[*]:-} && ${extra[0]} -nt $binary ) ]]; then
    echo "fuzz.sh: linking $target" >&2
    swiftc "${flags[@]}" -module-name "Fuzz_${target//-/_}" -I "$out/modules" \
        "Tests/Fuzz/$target/main.swift" Tests/Fuzz/FuzzProperties.swift ${extra[@]+"${extra[@]}"} \
        "$out/libOpenInCheckCLI.a" "$out/libAppConnectRuntime.a" "$out/libOpenInPolicy.a" \
        -o "$binary" 2> >(grep -v "Cannot export local symbol '__asan" >&2)
fi
flock -u 9

# Seeds: the examples and tables the target reads, split per line for requests.
corpus=$out/corpus/$target
mkdir -p "$corpus"
case $target in
    requests) cp Examples/*.jsonl "$corpus/"; split -l 1 -a 3 Examples/requests.jsonl "$corpus/line-" ;;
    policy-json) cp Examples/policies/*.json "$corpus/" ;;
    appconnect-plist) cp Examples/AppConnect.plist "$corpus/"; cp Examples/Info*.plist "$corpus/" ;;
    plist-oracle) cp Examples/Info*.plist Examples/AppConnect.plist "$corpus/"; cp Examples/TravelDocs/Info.plist "$corpus/source-Info.plist" ;;
    info-plist) cp Examples/Info*.plist Examples/AppConnect.plist "$corpus/"; cp Examples/TravelDocs/Info.plist "$corpus/source-Info.plist"; cp Examples/TravelDocs.app/Info.plist "$corpus/built-Info.plist" ;;
    tables) cp Rules/*.md "$corpus/" ;;
esac

# The Swift runtime's backtracer would hang on a crash under libFuzzer; libFuzzer reports crashes itself.
export SWIFT_BACKTRACE=enable=no
# Leak checking is on, in libFuzzer and at exit: the package reads plists with
# readers of its own, and links no Foundation. Rounds of at most 150 s, each a
# fresh process on the same corpus, keep a long run under the RSS limit.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
left=$seconds
while (( left > 0 )); do
    round=$(( left < 150 ? left : 150 ))
    "$binary" "$corpus" -max_total_time="$round" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$out/crash-$target-" -print_final_stats=1 ${FUZZ_FLAGS:-}
    left=$(( left - round ))
done
