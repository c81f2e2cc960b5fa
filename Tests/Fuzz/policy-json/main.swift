// libFuzzer target: the strict JSON reader and the JSON policy file reader.
// Run: .ci/fuzz.sh policy-json [SECONDS]
//
// Besides crashes it checks: a policy is read only from valid JSON; what
// JSONReader accepts, JSONWriter writes back to the same value; a policy that
// reads, read again from its written form, is the same policy (nothing in
// the file is lost or guessed); every listed ID is a valid ASCII bundle ID;
// an override is on only under its exact key bytes.
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
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let value: JSONValue
    do throws(JSONError) {
        value = try JSONReader().read(bytes)
    } catch {
        check((try? PolicyJSON.read(bytes)) == nil, "a policy was read from invalid JSON")
        check(error.position.line >= 1 && error.position.column >= 1, "an error position before the input")
        return 0
    }
    let written = JSONWriter.compact(value)
    guard let reread = try? JSONReader().read(written) else {
        fatalError("fuzz property violated: JSONWriter wrote what JSONReader rejects: \(written)")
    }
    check(reread == value, "the value changed on a round trip: \(written)")
    let policy = try? PolicyJSON.read(bytes)
    let policyFromWritten = try? PolicyJSON.read(Array(written.utf8))
    check(policy == policyFromWritten, "the policy changed on a round trip: \(written)")
    if let policy {
        _ = policy.policy
        for id in policy.stated.whitelist { check(isASCIIBundleID(id.rawValue), "listed \(id.rawValue)") }
        for id in policy.stated.device.appConnectApps { check(isASCIIBundleID(id.rawValue), "AppConnect app \(id.rawValue)") }
        checkOverrides(policy.stated.config.values)
    }
    return 0
}
