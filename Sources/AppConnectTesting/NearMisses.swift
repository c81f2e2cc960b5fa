/// Methods of the app's delegate that nearly match an SDK callback: the SDK would never call them.
///
/// Swift cannot tell "the app does not implement this callback" from "the app implements it with
/// another signature": both run the protocol's default. ``AppConnectHarness/Callbacks/declaredByTheApp``
/// accepts the first, so it looks for the second among the methods the delegate's type declares
/// (``DeclaredMethods``): a method with a callback's name and labels but other parameter types,
/// or with its name and one label a few letters off (`newWhitelist:` for `whitelist:`,
/// `openURLAttemptedWhenUnauthorizedForURL:` for `openURLAttemptedWhenUnauthorizedFor:`).
enum NearMisses {
    /// One SDK callback as Swift declares it in `AppConnectDelegate`: name, labels and parameter types
    /// without module names.
    struct Requirement {
        let callback: AppConnectHarness.Callback
        let name: String
        let labels: [String]
        let types: [String]

        var swiftName: String { "\(name)(\(labels.map { $0 + ":" }.joined()))" }
        var declaration: String { "\(name)(\(zip(labels, types).map { $0 == "_" ? "_: \($1)" : "\($0): \($1)" }.joined(separator: ", ")))" }
    }

    /// Every method of `AppConnectDelegate`, as the SDK double declares it.
    static let requirements: [Requirement] = [
        .init(callback: .isReady, name: "appConnectIsReady", labels: ["_"], types: ["AppConnect"]),
        .init(callback: .authStateChanged, name: "appConnect", labels: ["_", "authStateChangedTo", "withMessage"], types: ["AppConnect", "ACAuthState", "String?"]),
        .init(callback: .managedPolicyChanged, name: "appConnect", labels: ["_", "managedPolicyChangedTo"], types: ["AppConnect", "ACManagedPolicy"]),
        .init(callback: .configChanged, name: "appConnect", labels: ["_", "configChangedTo"], types: ["AppConnect", "[AnyHashable : Any]"]),
        .init(callback: .openInPolicyChanged, name: "appConnect", labels: ["_", "openInPolicyChangedTo", "whitelist"], types: ["AppConnect", "ACOpenInPolicy", "Set<String>"]),
        .init(callback: .openFromPolicyChanged, name: "appConnect", labels: ["_", "openFromPolicyChangedTo", "whitelist"], types: ["AppConnect", "ACOpenFromPolicy", "Set<String>"]),
        .init(callback: .pasteboardPolicyChanged, name: "appConnect", labels: ["_", "pasteboardPolicyChangedTo"], types: ["AppConnect", "ACPasteboardPolicy"]),
        .init(callback: .printPolicyChanged, name: "appConnect", labels: ["_", "printPolicyChangedTo"], types: ["AppConnect", "ACPrintPolicy"]),
        .init(callback: .secureFileIOPolicyChanged, name: "appConnect", labels: ["_", "secureFileIOPolicyChangedTo"], types: ["AppConnect", "ACSecureFileIOPolicy"]),
        .init(callback: .logLevelChanged, name: "appConnect", labels: ["_", "logLevelChangedTo"], types: ["AppConnect", "ACLogLevel"]),
        .init(callback: .secureServicesAvailabilityChanged, name: "appConnect", labels: ["_", "secureServicesAvailabilityChangedTo"],
              types: ["AppConnect", "ACSecureServicesAvailability"]),
        .init(callback: .copyAttemptedWhenUnauthorized, name: "appConnect", labels: ["_", "copyAttemptedWhenUnauthorized"], types: ["AppConnect", "ACPasteboardPolicy"]),
        .init(callback: .openURLAttemptedWhenUnauthorized, name: "appConnect", labels: ["_", "openURLAttemptedWhenUnauthorizedFor"], types: ["AppConnect", "URL"]),
        .init(callback: .openInAttemptedWhenBlocked, name: "appConnect", labels: ["_", "openInAttemptedWhenACOpenInPolicyBlocked"], types: ["AppConnect", "ACOpenInPolicy"]),
        .init(callback: .openFromAttemptedWhenBlocked, name: "appConnect", labels: ["_", "openFromAttemptedWhenACOpenFromPolicyBlocked", "sourceApplication"],
              types: ["AppConnect", "ACOpenFromPolicy", "String?"]),
        .init(callback: .dragAndDropToNonAppConnectApp, name: "appConnectAttemptedDragAndDropToNonAppConnectApp", labels: ["_"], types: ["AppConnect"]),
        .init(callback: .willResignActive, name: "applicationWillResignActiveForAppConnect", labels: ["_"], types: ["AppConnect"]),
        .init(callback: .didBecomeActive, name: "applicationDidBecomeActiveFromAppConnect", labels: ["_"], types: ["AppConnect"]),
    ]

    /// One line per near miss among `methods` (those of `typeName`), in method order.
    static func lines(typeName: String, methods: [DeclaredMethods.Method]) -> [String] {
        var lines: [String] = []
        for method in methods {
            let types = method.types.map(withoutModules)
            if requirements.contains(where: { $0.name == method.name && $0.labels == method.labels && $0.types.map(canonical) == types.map(canonical) }) { continue }
            guard let (requirement, why) = requirements.lazy.compactMap({ r in nearness(method, types, r).map { (r, $0) } }).first else { continue }
            lines.append("\(typeName).\(method.name)(\(zip(method.labels, types).map { $0 == "_" ? "_: \($1)" : "\($0): \($1)" }.joined(separator: ", "))) "
                + "nearly matches the SDK callback \(requirement.callback.rawValue) but is not it (\(why)), so the SDK would never call it: "
                + "declare it as \(requirement.declaration)")
        }
        return lines
    }

    /// Why `method` (with `types` without modules) nearly matches `requirement`, or nil when it does not.
    static func nearness(_ method: DeclaredMethods.Method, _ types: [String], _ requirement: Requirement) -> String? {
        if method.name == requirement.name, method.labels == requirement.labels {
            let differing = zip(types, requirement.types).enumerated().filter { canonical($0.element.0) != canonical($0.element.1) }
            let described = differing.map { "\($0.element.0) where the SDK passes \($0.element.1)" }.joined(separator: "; ")
            return "another parameter type: \(described)"
        }
        if method.name == requirement.name, method.labels.count == requirement.labels.count {
            let differing = zip(method.labels, requirement.labels).filter { $0 != $1 }
            if differing.count == 1, close(differing[0].0, differing[0].1) {
                return "the label \(differing[0].0): where the SDK's is \(differing[0].1):"
            }
        }
        if method.name != requirement.name, method.labels.count == requirement.labels.count, requirement.labels.count == 1,
           close(method.name, requirement.name) {
            return "the name \(method.name) where the SDK's is \(requirement.name)"
        }
        return nil
    }

    /// Whether two names are a few letters apart (at most 4 edits, ignoring letter case) or one holds the other.
    static func close(_ a: String, _ b: String) -> Bool {
        let x = Array(a.lowercased()), y = Array(b.lowercased())
        if x.count >= 4, y.count >= 4, a.lowercased().contains(b.lowercased()) || b.lowercased().contains(a.lowercased()) { return true }
        guard abs(x.count - y.count) <= 4 else { return false }
        var previous = Array(0...y.count)
        for i in 1...max(x.count, 1) where !x.isEmpty {
            var current = [i] + Array(repeating: 0, count: y.count)
            for j in 1...max(y.count, 1) where !y.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[y.count] <= 4 && previous[y.count] * 3 < max(x.count, y.count)
    }

    /// A type as written or demangled, in one spelling for comparison: no spaces, `[K : V]` as
    /// `Dictionary<K,V>`, `[T]` as `Array<T>`, `Optional<T>` as `T?` (at the top level, enough for the SDK's types).
    static func canonical(_ type: String) -> String {
        var text = withoutModules(type).filter { $0 != " " }
        if text.hasPrefix("["), text.hasSuffix("]") {
            let inner = text.dropFirst().dropLast()
            var depth = 0
            var colon: String.Index? = nil
            for index in inner.indices {
                switch inner[index] {
                case "[", "<", "(": depth += 1
                case "]", ">", ")": depth -= 1
                case ":" where depth == 0: colon = index
                default: break
                }
            }
            text = colon.map { "Dictionary<\(inner[..<$0]),\(inner[inner.index(after: $0)...])>" } ?? "Array<\(inner)>"
        }
        return text
    }

    /// `[Swift.AnyHashable : Any]` → `[AnyHashable : Any]`: every `Module.` qualifier dropped, and `Optional<T>` written `T?`.
    static func withoutModules(_ type: String) -> String {
        var result = ""
        var word = ""
        for character in type {
            if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
            } else if character == ".", !word.isEmpty {
                word = ""
            } else {
                result += word
                word = ""
                result.append(character)
            }
        }
        result += word
        // The demangler writes `String?` as `Optional<String>`.
        if result.hasPrefix("Optional<"), result.hasSuffix(">") { return String(result.dropFirst("Optional<".count).dropLast()) + "?" }
        return result
    }
}
