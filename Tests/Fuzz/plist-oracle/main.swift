// libFuzzer target: the property-list readers against CoreFoundation's.
// Run: .ci/fuzz.sh plist-oracle [SECONDS]
//
// Any input our readers read (XML or binary), swift-corelibs-foundation's
// PropertyListSerialization (CoreFoundation's CFPropertyList and CFBinaryPList,
// the code Apple ships) must read too, as the same tree: the readers' rule is
// "what CoreFoundation reads, or refused". Inputs we refuse are not given to
// CoreFoundation (some, like a binary set, crash it). The comparison is
// CoreFoundationOracle (Tests/OpenInPolicyTests), compiled in by fuzz.sh.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let problem = CoreFoundationOracle.disagreement(bytes) {
        check(false, "the readers disagree with CoreFoundation: \(problem)")
    }
    return 0
}
