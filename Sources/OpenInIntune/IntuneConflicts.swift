import OpenInCore
import OpenInFleet
import OpenInKit

/// Which value wins when several app protection policies reach one app for one user.
package enum ConflictMode: String, Sendable, CaseIterable {
    /// Per setting, the most restrictive value: what Intune applies when the policies apply at once
    /// (Microsoft Learn, "Common questions, answers, and scenarios with policies and profiles in
    /// Microsoft Intune", section "App protection policies that conflict").
    case mostRestrictive = "most-restrictive"
    /// Per setting, the least restrictive value: the auditor's worst case (`--conflicts least-restrictive`),
    /// for a tenant where an earlier policy may have stayed in force.
    case leastRestrictive = "least-restrictive"
}

/// Merges several Intune app protection policies that reach one app for one user into the one policy
/// that applies, setting by setting, in the order `Rules/intune/conflicts.md` states (each with its
/// source or marked as our choice).
///
/// Microsoft Learn: "Conflict values are the most restrictive settings available in an app protection
/// policy. The exception is numeric entry fields … set the same as the values, as if you created a MAM
/// policy using the recommended settings option." An export does not say which policy came first, so
/// "the first policy takes precedence" cannot be applied: ``ConflictMode/leastRestrictive`` bounds it.
package enum IntuneConflicts {
    /// What ``merge(_:mode:)`` names as the decider of a numeric field set to its recommended value
    /// when no policy gives that value.
    static let recommendedValue = "(recommended value)"
    /// The recommended `allowedOutboundClipboardSharingExceptionLength`: 0, as every level of Microsoft
    /// Learn's "Data protection framework using app protection policies" sets "Cut and copy character
    /// limit for any app".
    static let recommendedClipboardExceptionLength = 0

    /// The Graph properties each decision names, in the order of `Rules/intune/conflicts.md`.
    package static let keys = [
        "allowedOutboundDataTransferDestinations", "filterOpenInToOnlyManagedApps", "disableProtectionOfManagedOutboundOpenInData",
        "allowedInboundDataTransferSources", "protectInboundDataFromUnknownSources", "allowedOutboundClipboardSharingLevel",
        "allowedOutboundClipboardSharingExceptionLength", "printBlocked", "thirdPartyKeyboardsBlocked", "saveAsBlocked",
        "allowedDataStorageLocations", "blockDataIngestionIntoOrganizationDocuments", "allowedDataIngestionLocations",
        "exemptedAppProtocols", "exemptedUniversalLinks", "managedUniversalLinks", "managedBrowserToOpenLinksRequired", "managedBrowser",
        "customBrowserProtocol", "dialerRestrictionLevel", "customDialerAppProtocol", "protectedMessagingRedirectAppType",
        "messagingRedirectAppUrlScheme",
    ]

    /// The policy that applies when every one of `policies` reaches the app, and for each setting (its
    /// Graph property name, as ``keys`` lists them) the `displayName` of the policy whose value won; a
    /// value no single policy gives (an intersection or union of lists) names the policies it combines,
    /// joined by ` + `.
    ///
    /// The merged policy's name is the policies' names joined by ` + `; it targets the apps every policy
    /// targets; its settings keep Graph's constraints between properties (each group moves whole).
    /// One policy merges to itself. Ties go to the earlier policy in `policies`.
    /// - Complexity: O(p × s), for p policies of s settings and list entries.
    package static func merge(_ policies: [IntunePolicy], mode: ConflictMode) -> (policy: IntunePolicy, decidedBy: [String: String]) {
        guard let first = policies.first else { return (IntunePolicy(displayName: ""), [:]) }
        var merger = Merger(policies: policies, mode: mode, merged: first)
        merger.merge()
        return (merger.merged, merger.decidedBy)
    }

    /// Restrictiveness of "Send org data to other apps" (higher: more restrictive).
    static func sendRank(_ policy: IntunePolicy) -> Int {
        switch policy.send {
        case .allApps: 0
        case .managedApps: policy.disableProtectionOfManagedOutboundOpenInData ? 1 : policy.filterOpenInToOnlyManagedApps ? 3 : 2
        case .none: 4
        }
    }

    /// Restrictiveness of "Receive data from other apps".
    static func receiveRank(_ policy: IntunePolicy) -> Int {
        switch policy.receive {
        case .allApps: policy.protectInboundDataFromUnknownSources ? 1 : 0
        case .managedApps: 2
        case .none: 3
        }
    }

    /// Restrictiveness of "Restrict cut, copy and paste between other apps".
    static func clipboardRank(_ level: IntuneClipboardLevel) -> Int {
        switch level {
        case .allApps: 0
        case .managedAppsWithPasteIn: 1
        case .managedApps: 2
        case .blocked: 3
        }
    }

    /// Restrictiveness of "Restrict web content transfer with other apps".
    static func browserRank(_ policy: IntunePolicy) -> Int {
        guard policy.managedBrowserRequired else { return 0 }
        return policy.customBrowserProtocol.isEmpty ? 2 : 1
    }

    /// Restrictiveness of "Transfer telecommunication data to".
    static func dialerRank(_ level: IntuneDialerLevel) -> Int {
        switch level {
        case .allApps: 0
        case .managedApps: 1
        case .customApp: 2
        case .blocked: 3
        }
    }

    /// Restrictiveness of "Transfer messaging data to".
    static func messagingRank(_ level: IntuneMessagingLevel) -> Int {
        switch level {
        case .anyApp: 0
        case .anyManagedApp: 1
        case .specificApps: 2
        case .blocked: 3
        }
    }
}

/// One merge in progress.
private struct Merger {
    let policies: [IntunePolicy]
    let mode: ConflictMode
    var merged: IntunePolicy
    var decidedBy: [String: String] = [:]

    var most: Bool { mode == .mostRestrictive }

    /// The index of the policy whose rank wins (the highest when most restrictive, else the lowest); the earliest on a tie.
    func winner(_ rank: (IntunePolicy) -> Int) -> Int {
        var best = 0
        for index in policies.indices.dropFirst() {
            let (a, b) = (rank(policies[index]), rank(policies[best]))
            if most ? a > b : a < b { best = index }
        }
        return best
    }

    func names(_ indices: [Int]) -> String { indices.map { policies[$0].displayName }.joined(separator: " + ") }

    /// Records `keys` as decided by `who`, with the sources of the policy at `index` when one policy decided.
    mutating func decided(_ keys: [String], by who: String, index: Int?) {
        for key in keys {
            decidedBy[key] = who
            merged.sources.keys[key] = index.flatMap { policies[$0].sources.keys[key] }
        }
    }

    mutating func decided(_ keys: [String], by index: Int) { decided(keys, by: policies[index].displayName, index: index) }

    mutating func merge() {
        merged.displayName = policies.map(\.displayName).joined(separator: " + ")
        merged.id = policies.count == 1 ? policies[0].id : nil
        merged.apps = policies[0].apps.filter { app in policies.allSatisfy { IntuneBundleID.contains($0.apps, app) } }

        let send = winner(IntuneConflicts.sendRank)
        merged.send = policies[send].send
        merged.filterOpenInToOnlyManagedApps = policies[send].filterOpenInToOnlyManagedApps
        merged.disableProtectionOfManagedOutboundOpenInData = policies[send].disableProtectionOfManagedOutboundOpenInData
        decided(["allowedOutboundDataTransferDestinations", "filterOpenInToOnlyManagedApps", "disableProtectionOfManagedOutboundOpenInData"], by: send)

        let receive = winner(IntuneConflicts.receiveRank)
        merged.receive = policies[receive].receive
        merged.protectInboundDataFromUnknownSources = policies[receive].protectInboundDataFromUnknownSources
        decided(["allowedInboundDataTransferSources", "protectInboundDataFromUnknownSources"], by: receive)

        let clipboard = winner { IntuneConflicts.clipboardRank($0.clipboard) }
        merged.clipboard = policies[clipboard].clipboard
        decided(["allowedOutboundClipboardSharingLevel"], by: clipboard)

        mergeClipboardLength()
        mergeFlag(\.printBlocked, "printBlocked")
        mergeFlag(\.thirdPartyKeyboardsBlocked, "thirdPartyKeyboardsBlocked")
        mergeLocations(\.saveAsBlocked, \.allowedDataStorageLocations, ("saveAsBlocked", "allowedDataStorageLocations"))
        mergeLocations(\.blockDataIngestion, \.allowedDataIngestionLocations, ("blockDataIngestionIntoOrganizationDocuments", "allowedDataIngestionLocations"))
        mergeExemptions()
        mergeLinks(\.exemptedUniversalLinks, "exemptedUniversalLinks")
        mergeLinks(\.managedUniversalLinks, "managedUniversalLinks")
        mergeBrowser()
        mergeDialer()
        mergeMessaging()
    }

    /// A numeric field: equal values stand; differing ones take the recommended value when most
    /// restrictive (Learn's exception for numeric entry fields), the largest when least restrictive.
    mutating func mergeClipboardLength() {
        let key = "allowedOutboundClipboardSharingExceptionLength"
        let lengths = policies.map(\.clipboardExceptionLength)
        if most {
            let value = lengths.allSatisfy { $0 == lengths[0] } ? lengths[0] : IntuneConflicts.recommendedClipboardExceptionLength
            merged.clipboardExceptionLength = value
            if let index = lengths.firstIndex(of: value) { decided([key], by: index) } else { decided([key], by: IntuneConflicts.recommendedValue, index: nil) }
        } else {
            let index = winner { -$0.clipboardExceptionLength }
            merged.clipboardExceptionLength = lengths[index]
            decided([key], by: index)
        }
    }

    /// A "blocked" Boolean: true wins when most restrictive, false when least.
    mutating func mergeFlag(_ flag: WritableKeyPath<IntunePolicy, Bool>, _ key: String) {
        let index = winner { $0[keyPath: flag] ? 1 : 0 }
        merged[keyPath: flag] = policies[index][keyPath: flag]
        decided([key], by: index)
    }

    /// Save As or Open into org documents, and the locations allowed when blocked: a policy that does not
    /// block restricts no location, so the locations combine over the policies that block (intersection
    /// when most restrictive; union when least restrictive and every policy blocks).
    mutating func mergeLocations(_ flag: WritableKeyPath<IntunePolicy, Bool>, _ list: WritableKeyPath<IntunePolicy, [DataLocation]>, _ keys: (String, String)) {
        let index = winner { $0[keyPath: flag] ? 1 : 0 }
        merged[keyPath: flag] = policies[index][keyPath: flag]
        decided([keys.0], by: index)
        let blockers = policies.indices.filter { policies[$0][keyPath: flag] }
        guard merged[keyPath: flag], blockers.count > 1 else {
            merged[keyPath: list] = policies[index][keyPath: list]
            decided([keys.1], by: index)
            return
        }
        let lists = blockers.map { policies[$0][keyPath: list] }
        var result: [DataLocation]
        if most {
            result = lists[0].filter { location in lists.allSatisfy { $0.contains(location) } }
        } else {
            result = []
            for entries in lists { for location in entries where !result.contains(location) { result.append(location) } }
        }
        merged[keyPath: list] = result
        if let same = blockers.first(where: { Set(policies[$0][keyPath: list]) == Set(result) }) {
            decided([keys.1], by: same)
        } else {
            decided([keys.1], by: names(blockers), index: nil)
        }
    }

    /// Exempted URL schemes: those every policy exempts (most restrictive), or any policy exempts (least);
    /// a policy whose schemes are exactly those decides (its exemptions kept as written), else the policies combine.
    mutating func mergeExemptions() {
        let sets = policies.map { Set($0.exemptedSchemes) }
        let keep = most ? sets.dropFirst().reduce(sets[0]) { $0.intersection($1) } : sets.reduce(Set<String>()) { $0.union($1) }
        if let index = sets.firstIndex(of: keep) {
            // One policy's exemptions are the result: kept as it writes them, names and order.
            merged.exemptions = policies[index].exemptions
            decided(["exemptedAppProtocols"], by: index)
            return
        }
        var seen: Set<String> = []
        var result: [IntuneExemption] = []
        for policy in policies {
            for exemption in policy.exemptions {
                let schemes = exemption.schemes.filter { keep.contains($0) && seen.insert($0).inserted }
                if !schemes.isEmpty { result.append(IntuneExemption(name: exemption.name, schemes: schemes)) }
            }
        }
        merged.exemptions = result
        decided(["exemptedAppProtocols"], by: names(Array(policies.indices)), index: nil)
    }

    /// Universal links: those every policy lists (most restrictive), or any policy lists (least), compared byte for byte.
    mutating func mergeLinks(_ list: WritableKeyPath<IntunePolicy, [String]>, _ key: String) {
        let sets = policies.map { Set($0[keyPath: list].map(ExactKey.init)) }
        let keep = most ? sets.dropFirst().reduce(sets[0]) { $0.intersection($1) } : sets.reduce(Set<ExactKey>()) { $0.union($1) }
        if let index = sets.firstIndex(of: keep) {
            merged[keyPath: list] = policies[index][keyPath: list]
            decided([key], by: index)
            return
        }
        var seen: Set<ExactKey> = []
        var result: [String] = []
        for policy in policies {
            for link in policy[keyPath: list] where keep.contains(ExactKey(link)) && seen.insert(ExactKey(link)).inserted { result.append(link) }
        }
        merged[keyPath: list] = result
        decided([key], by: names(Array(policies.indices)), index: nil)
    }

    /// Web links: Any app < an unmanaged browser (`customBrowserProtocol`) < Microsoft Edge. Two different
    /// unmanaged browsers: Edge when most restrictive (neither browser is allowed by both), Any app when
    /// least (each browser is allowed by one).
    mutating func mergeBrowser() {
        let keys = ["managedBrowserToOpenLinksRequired", "managedBrowser", "customBrowserProtocol"]
        let index = winner(IntuneConflicts.browserRank)
        let chosen = policies[index]
        let custom = policies.indices.filter { IntuneConflicts.browserRank(policies[$0]) == 1 }
        let differing = custom.contains { !ExactText.sameIgnoringASCIICase(policies[$0].customBrowserProtocol, chosen.customBrowserProtocol) }
        if IntuneConflicts.browserRank(chosen) == 1, differing {
            merged.managedBrowserRequired = most
            merged.managedBrowser = most ? .microsoftEdge : .notConfigured
            merged.customBrowserProtocol = ""
            decided(keys, by: names(custom), index: nil)
            return
        }
        merged.managedBrowserRequired = chosen.managedBrowserRequired
        merged.managedBrowser = chosen.managedBrowser
        merged.customBrowserProtocol = chosen.customBrowserProtocol
        decided(keys, by: index)
    }

    /// Phone numbers: Any dialer app < Any policy-managed dialer app < A specific dialer app < None. Two
    /// different specific apps: None when most restrictive, Any dialer app when least.
    mutating func mergeDialer() {
        mergeSpecificApp(["dialerRestrictionLevel", "customDialerAppProtocol"], level: \.dialer, scheme: \.customDialerAppProtocol,
                         rank: IntuneConflicts.dialerRank, specific: .customApp, none: .blocked, any: .allApps)
    }

    /// Messages: Any messaging app < Any policy-managed messaging app < A specific messaging app < None,
    /// as the dialer.
    mutating func mergeMessaging() {
        mergeSpecificApp(["protectedMessagingRedirectAppType", "messagingRedirectAppUrlScheme"], level: \.messaging, scheme: \.messagingRedirectAppUrlScheme,
                         rank: IntuneConflicts.messagingRank, specific: .specificApps, none: .blocked, any: .anyApp)
    }

    /// A level that may name one specific app by its URL scheme (`keys`: the level's and the scheme's Graph
    /// properties): the most (least) restrictive level; two policies naming different specific apps (schemes
    /// compared ignoring ASCII case) give `none` when most restrictive (neither app is allowed by both), `any`
    /// when least (each app is allowed by one).
    mutating func mergeSpecificApp<Level: Equatable>(_ keys: [String], level: WritableKeyPath<IntunePolicy, Level>, scheme: WritableKeyPath<IntunePolicy, String>,
                                                     rank: (Level) -> Int, specific: Level, none: Level, any: Level) {
        let index = winner { rank($0[keyPath: level]) }
        let chosen = policies[index]
        let naming = policies.indices.filter { policies[$0][keyPath: level] == specific }
        if chosen[keyPath: level] == specific, naming.contains(where: { !ExactText.sameIgnoringASCIICase(policies[$0][keyPath: scheme], chosen[keyPath: scheme]) }) {
            merged[keyPath: level] = most ? none : any
            merged[keyPath: scheme] = ""
            decided(keys, by: names(naming), index: nil)
            return
        }
        merged[keyPath: level] = chosen[keyPath: level]
        merged[keyPath: scheme] = chosen[keyPath: scheme]
        decided(keys, by: index)
    }
}
