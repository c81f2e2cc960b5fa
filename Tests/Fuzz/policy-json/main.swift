// libFuzzer target: the strict JSON reader and the JSON policy file reader.
// Run: .ci/fuzz.sh policy-json [SECONDS]
//
// Besides crashes it checks: a policy is read only from valid JSON; what
// JSONReader accepts, JSONWriter writes back to the same value; a policy that
// reads, read again from its written form, is the same policy (nothing in
// the file is lost or guessed); every listed ID is a valid ASCII bundle ID;
// an override is on only under its exact key bytes.
import OpenInPolicy

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
