// A small program that embeds the OpenInPolicy library: it builds a policy in
// code, reads another from a JSON policy file, decides a few requests, and
// prints each decision as a JSON record. Run it from the package root:
//
//   swift run embed-example
import OpenInPolicy

/// A policy built in code: WHITELIST with native Mail (both IDs) and one viewer; each string is
/// checked as a bundle ID (one `try`), and the one initializer sets the other controls too.
func policyInCode() throws -> Policy {
    var device = DeviceFacts()
    try device.setHandler(BundleID("com.getdropbox.Dropbox"), for: "dropbox")
    return try Policy(status: .whitelist,
                      whitelist: ["com.apple.UIKit.activity.Mail", "com.apple.mobilemail", "com.example.docviewer"],
                      device: device, pasteboard: .unauthorized, print: .authorized)
}

/// A policy read from a file with the library's own reader (JSON policy or AppConnect.plist; no Foundation).
func policyFromFile(_ path: String) -> Policy? {
    try? Policy(contentsOfFile: path)
}

do {
    let requests = [
        try ShareRequest(channel: "document-interaction", target: "com.example.docviewer", document: "plan.pdf"),
        try ShareRequest(channel: "quick-look", target: "com.example.unlisted", document: "plan.pdf"),
        try ShareRequest(channel: "open-url", url: "mailto:someone@example.com"),
        try ShareRequest(channel: "open-url", url: "dropbox://upload"),
    ]
    var policies = [("built in code", try policyInCode())]
    let path = "Examples/policies/whitelist-half-pair.json"
    if let policy = policyFromFile(path) {
        policies.append((path, policy))
    } else {
        print("# skipped \(path): run from the package root to read it")
    }

    for (name, policy) in policies {
        print("# \(name)")
        let evaluator = Evaluator(policy: policy)
        for request in requests {
            let decision = evaluator.decide(request)
            print(DecisionRecord.jsonLine(decision))
        }
    }

    // Bad input is an error, never a decision.
    do {
        _ = try ShareRequest(channel: "quick-look", target: "not a bundle id")
    } catch {
        print("# invalid request: \(error)")
    }
} catch {
    print("error: \(error)")
}
