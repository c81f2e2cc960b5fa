// libFuzzer target: the AppConnect.plist reader (and the policy file's kind detection).
// Run: .ci/fuzz.sh appconnect-plist [SECONDS]
//
// Besides crashes (ours or Foundation's) it checks: a policy file's kind is
// decided by its first bytes, and a plist policy is read only from what
// PolicyFile takes for a plist; both entry points agree; every listed ID and
// AppConnect app is a valid ASCII bundle ID; an override is on only under
// its exact key bytes (a Kelvin-sign look-alike never turns it on).
import OpenInPolicy

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
