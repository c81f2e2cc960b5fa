// libFuzzer target: the Info.plist reader.
// Run: .ci/fuzz.sh info-plist [SECONDS]
//
// Besides crashes (ours or Foundation's) it checks the fail-closed rule of
// the override: it is only ever turned on by a Boolean true under
// MI_APP_CONNECT, so an input without the key's name cannot turn it on; and
// every URL scheme it reads from CFBundleURLTypes is a valid ASCII scheme.
import OpenInPolicy

private let keyBytes = Array("MI_AC_DISABLE_SCHEME_BLOCKING".utf8)

private func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
    guard bytes.count >= needle.count else { return false }
    return (0...(bytes.count - needle.count)).contains { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let contents = try? InfoPlist.read(bytes) else { return 0 }
    // Every scheme read is one the engine accepts, ASCII only: none is kept that a device would not register.
    for declared in contents.urlSchemes {
        check(declared.scheme.utf8.allSatisfy { $0 < 0x80 }, "the non-ASCII scheme \(declared.scheme) was read")
        var app = AppFacts()
        check((try? app.addScheme(declared.scheme)) != nil, "the malformed scheme \(declared.scheme) was read")
    }
    if contents.overrides.disableSchemeBlocking {
        // XML spells the key out; a binary plist stores it as ASCII too (or as UTF-16 for non-ASCII keys, which this is not).
        check(contains(bytes, keyBytes), "the override was turned on by a plist without the key")
    }
    return 0
}
