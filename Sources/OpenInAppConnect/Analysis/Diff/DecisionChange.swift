import OpenInCore
import OpenInFleet
import OpenInKit

/// How one request's decision changes when one policy replaces another, and in which direction.
///
/// Two decisions *decide differently* when they differ in what the app and the
/// user observe: the outcome, the receiving app, the callbacks (selector and
/// argument), the audience of a copy, the Open In UI state, or the dummy file name. The deciding rule
/// is shown but not compared: two policies that deliver the same way for
/// different reasons are equivalent (AUTHORIZED and
/// `MI_AC_DISABLE_OPEN_IN_ENFORCEMENT = yes` are).
///
/// Permissiveness orders decisions by what is delivered:
/// `allow` > `redirect` > `substitute-dummy-file` = `deliver-encrypted` > `deny` (the requested app
/// gets the content; another app gets it; the requested app gets a file it
/// cannot open, a dummy or one Intune encrypted; nothing is delivered). When the outcome is the same, a copy
/// readable by all apps is more permissive than one readable by AppConnect
/// apps only, and then an enabled Open In UI is more permissive than a
/// disabled one. A change of
/// receiving app or callback with the same outcome and UI is neither more nor
/// less permissive.
public struct DecisionChange: Sendable, Hashable {
    /// The request, a representative of its class.
    public let request: ShareRequest
    /// The decision under the old policy.
    public let old: Decision
    /// The decision under the new policy.
    public let new: Decision

    /// The group the change is reported in.
    public var kind: Kind { Kind(old: old, new: new) }

    /// Whether the new decision is more permissive, less permissive, or neither.
    public var direction: Direction { Direction(old: old, new: new) }

    /// Creates the change from `old` to `new` for `request`, or `nil` when the
    /// two decisions do not decide differently.
    public init?(request: ShareRequest, old: Decision, new: Decision) {
        guard old.decidesDifferently(from: new) else { return nil }
        self.request = request
        self.old = old
        self.new = new
    }

    /// The group a change is reported in.
    public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The outcome moves down the order: less is delivered (e.g. `allow` → `deny`, `allow` → `substitute-dummy-file`).
        case newlyBlocked = "newly blocked"
        /// The outcome moves up the order: more is delivered (e.g. `deny` → `allow`).
        case newlyAllowed = "newly allowed"
        /// Delivered before and after, to another app: the outcome moves between `allow` and
        /// `redirect` (`mailto:` allowed to native Mail, then redirected to Email+). Nothing is
        /// blocked: the destination changes. (The ``Direction`` still orders `allow` above `redirect`.)
        case deliveredElsewhere = "delivered elsewhere"
        /// The outcome is the same; the receiving app, a callback or the Open In UI changes.
        case changed

        package init(old: Decision, new: Decision) {
            // No set made per change: a diff of large policies asks this millions of times.
            func delivered(_ outcome: Outcome) -> Bool { outcome == .allow || outcome == .redirect }
            if old.outcome != new.outcome, delivered(old.outcome), delivered(new.outcome) {
                self = .deliveredElsewhere
                return
            }
            switch Permissiveness.move(from: old, to: new, outcomeOnly: true) {
            case 1: self = .newlyAllowed
            case -1: self = .newlyBlocked
            default: self = .changed
            }
        }

        public var description: String { rawValue }
    }

    /// Which way a change goes in the permissiveness order.
    public enum Direction: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// More is delivered, or the same with the Open In UI newly enabled.
        case morePermissive = "more permissive"
        /// Less is delivered, or the same with the Open In UI newly disabled.
        case lessPermissive = "less permissive"
        /// The same outcome and UI, delivered to another app or with another callback.
        case neither

        package init(old: Decision, new: Decision) {
            switch Permissiveness.move(from: old, to: new) {
            case 1: self = .morePermissive
            case -1: self = .lessPermissive
            default: self = .neither
            }
        }

        public var description: String { rawValue }
    }
}

/// The order of decisions by what is delivered: the outcome, then a copy's audience, then the Open In UI.
enum Permissiveness {
    /// Whether `new` is more permissive than `old` (1), less (-1) or neither (0): by outcome
    /// and, when the outcome is the same and `outcomeOnly` is false, by audience, then by Open In UI.
    static func move(from old: Decision, to new: Decision, outcomeOnly: Bool = false) -> Int {
        func step(_ before: Int, _ after: Int) -> Int? { before == after ? nil : after > before ? 1 : -1 }
        if let move = step(rank(old.outcome), rank(new.outcome)) { return move }
        if outcomeOnly { return 0 }
        return step(rank(old.audience), rank(new.audience)) ?? step(rank(old.openInUI), rank(new.openInUI)) ?? 0
    }

    /// Outcomes: nothing delivered, a file the app cannot open, another app, the requested app.
    static func rank(_ outcome: Outcome) -> Int {
        switch outcome {
        case .deny: 0
        case .substituteDummyFile, .deliverEncrypted: 1
        case .redirect: 2
        case .allow: 3
        }
    }

    /// Who can read a copy: AppConnect apps only, then every app (no audience ranks lowest).
    static func rank(_ audience: CopyAudience?) -> Int {
        switch audience {
        case nil: 0
        case .appConnectApps, .managedApps: 1
        case .allApps: 2
        }
    }

    /// The Open In UI: disabled, then enabled.
    static func rank(_ ui: OpenInUI) -> Int { ui == .enabled ? 1 : 0 }
}

extension Decision {
    /// Whether `other` differs from this decision in anything the app or the
    /// user observes: outcome, receiving app, callbacks, audience, Open In UI or
    /// dummy file name. The deciding rule is not compared.
    public func decidesDifferently(from other: Decision) -> Bool {
        // The dummy name is a function of the target and the substituted document:
        // comparing those compares names without building them.
        outcome != other.outcome || target != other.target || callback != other.callback || audience != other.audience
            || openInUI != other.openInUI || substitutedDocument != other.substitutedDocument
    }
}
