// libFuzzer target: the AppConnect.plist reader (and the policy file's kind detection).
// Run: .ci/fuzz.sh appconnect-plist [SECONDS]
//
// Besides crashes (ours or Foundation's) it checks: a policy file's kind is
// decided by its first bytes, and a plist policy is read only from what
// PolicyFile takes for a plist; both entry points agree.
import OpenInPolicy

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("fuzz property violated: \(message())") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let direct = try? AppConnectPlist.read(bytes)
    let viaFile = try? PolicyFile.read(bytes, file: "fuzz")
    if let direct {
        _ = direct.policy
        if (try? PolicyFile.kind(of: bytes)) == .appConnectPlist {
            check(viaFile == direct, "PolicyFile and AppConnectPlist disagree")
        }
    }
    if viaFile != nil, (try? PolicyFile.kind(of: bytes)) == .appConnectPlist {
        check(direct != nil, "PolicyFile read a plist policy AppConnectPlist rejects")
    }
    return 0
}
