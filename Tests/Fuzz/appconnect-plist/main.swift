// libFuzzer target: the AppConnect.plist reader (and the policy file's kind detection).
// Run: .ci/fuzz.sh appconnect-plist [SECONDS]
//
// Besides crashes (ours or Foundation's) it checks: a policy file's kind is
// decided by its first bytes, and a plist policy is read only from what
// PolicyFile takes for a plist; both entry points agree; every listed ID and
// AppConnect app is a valid ASCII bundle ID; an override is on only under
// its exact key bytes (a Kelvin-sign look-alike never turns it on).
import OpenInPolicy

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("fuzz property violated: \(message())") }
}

/// Whether `text` is a bundle ID the SDK could list: valid, and ASCII byte for byte.
private func isASCIIBundleID(_ text: String) -> Bool {
    text.utf8.allSatisfy { $0 < 0x80 } && BundleID.problem(in: text) == nil
}

/// The override keys are read only when spelled with exactly their bytes, and only for the values that turn them on.
private func checkOverrides(_ config: [String: String]) {
    let read = AppConfig(config)
    if read.disablesSchemeBlocking {
        check(config.contains { $0.key.utf8.elementsEqual("MI_AC_DISABLE_SCHEME_BLOCKING".utf8) && $0.value.utf8.elementsEqual("true".utf8) },
              "scheme blocking turned off without the exact key and value: \(config)")
    }
    if read.disablesOpenInEnforcement {
        check(config.contains { entry in
            entry.key.utf8.elementsEqual("MI_AC_DISABLE_OPEN_IN_ENFORCEMENT".utf8)
                && ["yes", "true"].contains { entry.value.utf8.map { $0 | 0x20 }.elementsEqual($0.utf8) }
        }, "enforcement turned off without the exact key and a yes/true value: \(config)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let direct = try? AppConnectPlist.read(bytes)
    let viaFile = try? PolicyFile.read(bytes, file: "fuzz")
    if let direct {
        _ = direct.policy
        // An entry that is not a valid ASCII bundle ID is never listed (a Greek question mark splits nothing).
        for id in direct.stated.whitelist { check(isASCIIBundleID(id.rawValue), "listed \(id.rawValue)") }
        for id in direct.stated.device.appConnectApps { check(isASCIIBundleID(id.rawValue), "AppConnect app \(id.rawValue)") }
        checkOverrides(direct.stated.config.values)
        if (try? PolicyFile.kind(of: bytes)) == .appConnectPlist {
            check(viaFile == direct, "PolicyFile and AppConnectPlist disagree")
        }
    }
    if viaFile != nil, (try? PolicyFile.kind(of: bytes)) == .appConnectPlist {
        check(direct != nil, "PolicyFile read a plist policy AppConnectPlist rejects")
    }
    return 0
}
