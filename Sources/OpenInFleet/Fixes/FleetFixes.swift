import OpenInCore
import OpenInKit

/// One leak path as `fleet paths` counts it: on a device, from an app, to one app of the `--to` set.
public struct LeakPath: Sendable, Hashable, Comparable {
    /// The device profile.
    public let device: String
    /// The app whose documents leak.
    public let from: String
    /// The app reached (a bundle ID, or `any other app`).
    public let to: String

    /// The path on `device` from `from` to `to`.
    public init(device: String, from: String, to: String) {
        self.device = device
        self.from = from
        self.to = to
    }

    /// By device, then from, then to, each by its bytes.
    public static func < (lhs: LeakPath, rhs: LeakPath) -> Bool {
        if !ExactText.same(lhs.device, rhs.device) { return lhs.device.utf8.lexicographicallyPrecedes(rhs.device.utf8) }
        if !ExactText.same(lhs.from, rhs.from) { return lhs.from.utf8.lexicographicallyPrecedes(rhs.from.utf8) }
        return lhs.to.utf8.lexicographicallyPrecedes(rhs.to.utf8)
    }

    /// The same path: each name the same bytes.
    public static func == (lhs: LeakPath, rhs: LeakPath) -> Bool {
        ExactText.same(lhs.device, rhs.device) && ExactText.same(lhs.from, rhs.from) && ExactText.same(lhs.to, rhs.to)
    }

    /// Hashes each name's bytes, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        LeakPath.combine(device, into: &hasher)
        LeakPath.combine(from, into: &hasher)
        LeakPath.combine(to, into: &hasher)
    }

    /// `text`'s UTF-8 bytes and their count, without an array per field.
    static func combine(_ text: String, into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(text.utf8.count)
    }

    /// `paths` in order (``<(_:_:)``): each distinct name ranked once by its bytes, then the paths sorted
    /// by their ranks, so a large set is not sorted by comparing strings.
    package static func sorted(_ paths: some Collection<LeakPath>) -> [LeakPath] {
        // By bytes (`String ==` is canonical equivalence, which would merge two names the SDK tells apart).
        var exact: [[UInt8]: Int] = [:]
        for path in paths {
            for name in [path.device, path.from, path.to] { exact[Array(name.utf8)] = 0 }
        }
        let order = exact.keys.sorted { $0.lexicographicallyPrecedes($1) }
        for (rank, name) in order.enumerated() { exact[name] = rank }
        let keyed = paths.map { path in (exact[Array(path.device.utf8)]!, exact[Array(path.from.utf8)]!, exact[Array(path.to.utf8)]!, path) }
        return keyed.sorted { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }.map(\.3)
    }

    /// `{"device", "from", "to"}`.
    public var json: JSONValue { .object(JSONObject(["device": .string(device), "from": .string(from), "to": .string(to)])) }

    /// The node reached: any other app, or the app.
    package var toNode: FleetNode {
        if ExactText.same(to, FleetNode.anyOtherAppName) { return .anyOtherApp }
        return (try? BundleID(to)).map(FleetNode.app) ?? .anyOtherApp
    }
}

/// An end-to-end flow between two apps inside a device's zone of trust: what a user notices when a change blocks it.
package struct InsideFlow: Sendable, Hashable, Comparable {
    package let device: String
    package let from: String
    package let channel: String
    package let to: String

    package init(device: String, from: String, channel: String, to: String) {
        self.device = device
        self.from = from
        self.channel = channel
        self.to = to
    }

    package static func < (lhs: InsideFlow, rhs: InsideFlow) -> Bool {
        FixOrder.precedes([lhs.device, lhs.from, lhs.to, lhs.channel], [rhs.device, rhs.from, rhs.to, rhs.channel])
    }

    package static func == (lhs: InsideFlow, rhs: InsideFlow) -> Bool {
        ExactText.same(lhs.device, rhs.device) && ExactText.same(lhs.from, rhs.from) && ExactText.same(lhs.channel, rhs.channel) && ExactText.same(lhs.to, rhs.to)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(Array(device.utf8))
        hasher.combine(Array(from.utf8))
        hasher.combine(Array(channel.utf8))
        hasher.combine(Array(to.utf8))
    }

    /// `{"device", "from", "channel", "to"}`.
    package var json: JSONValue {
        .object(JSONObject(["device": .string(device), "from": .string(from), "channel": .string(channel), "to": .string(to)]))
    }
}

enum FixOrder {
    /// Whether `lhs` sorts before `rhs`, field by field, each by its UTF-8 bytes.
    static func precedes(_ lhs: [String], _ rhs: [String]) -> Bool {
        for (left, right) in zip(lhs, rhs) where !ExactText.same(left, right) {
            return left.utf8.lexicographicallyPrecedes(right.utf8)
        }
        return false
    }
}

/// One input file a fix can patch: its name as the user gave it and its JSON, as read (with positions).
package struct FixDocument: Sendable {
    /// The file's path.
    package let file: String
    /// The file's JSON value.
    package let value: JSONValue
    /// Where the document's value starts in the file.
    package let start: JSONPosition

    package init(file: String, value: JSONValue, start: JSONPosition = JSONPosition(line: 1, column: 1)) {
        self.file = file
        self.value = value
        self.start = start
    }
}

/// Which paths a `fleet fixes` run is about: as `fleet paths --device --from --to`.
public struct FixScope: Sendable {
    /// One device profile, or every one.
    public var device: String?
    /// One app, or every fleet app installed on the device (`nil`).
    public var from: String?
    /// One app, or outside the zone of trust (`nil`).
    public var to: String?

    /// The paths of `device` (or every device) from `from` (or every app) to `to` (or outside).
    public init(device: String? = nil, from: String? = nil, to: String? = nil) {
        self.device = device
        self.from = from
        self.to = to
    }
}

/// A change of one setting a vendor proposes: the sentence, the patch, the file.
package struct FixCandidate: Sendable {
    /// The change, in one sentence.
    package let change: String
    /// The index of the document (``FixSubject/documents``) the patch applies to.
    package let document: Int
    /// The RFC 6902 operations.
    package let patch: [JSONPatchOperation]
    /// The apps whose policy the change can alter; `nil` for any (a global policy's control).
    package let apps: [BundleID]?
    /// The one delivery (sender, receiver) the change can stop, when it can stop only one (a whitelist entry).
    package let edge: (from: BundleID, to: BundleID)?
    /// Why the change cannot be made, when it cannot (its patch is then empty): reported, never verified.
    package let unbuilt: String?

    package init(change: String, document: Int, patch: [JSONPatchOperation], apps: [BundleID]? = nil, edge: (from: BundleID, to: BundleID)? = nil,
                 unbuilt: String? = nil) {
        self.change = change
        self.document = document
        self.patch = patch
        self.apps = apps
        self.edge = edge
        self.unbuilt = unbuilt
    }
}

/// A candidate change `fleet fixes` could not make or could not verify, and why: reported, not dropped.
package struct UnbuiltFix: Sendable, Equatable {
    /// The change, in one sentence.
    package let change: String
    /// Why it was not made or not verified.
    package let why: String

    package init(change: String, why: String) {
        self.change = change
        self.why = why
    }

    /// `{"change", "why"}`.
    package var json: JSONValue { .object(JSONObject(["change": .string(change), "why": .string(why)])) }
}

/// What a patched fleet does, compared with the unpatched one.
package struct FixVerdict: Sendable {
    /// The paths to the scope's `--to` set after the change.
    package var paths: Set<LeakPath>
    /// The flows inside the zone of trust (the unpatched fleet's) the change blocks: every cell of `fleet matrix`
    /// between two apps inside the zone that delivers before the change and not after.
    package var collateral: Set<InsideFlow>
    /// The flows inside the zone of trust (the unpatched fleet's) the change newly allows: every such cell that
    /// does not deliver before the change and does after.
    package var allowed: Set<InsideFlow> = []
    /// The apps whose effective policy the change alters, on some device.
    package var touched: Set<String>
    /// The deliveries from inside the zone of trust to outside after the change (``FixSubject/exposure``).
    package var exposure: Int
    /// Whether every delivery is as before (``paths`` are then the subject's own).
    package var unchanged = false
    /// Whether every app reaches what it reached (``paths`` are then the subject's own; the exposure may be lower).
    package var samePaths = false

    package init(paths: Set<LeakPath>, collateral: Set<InsideFlow>, touched: Set<String>, exposure: Int, unchanged: Bool = false) {
        (self.paths, self.collateral, self.touched, self.exposure, self.unchanged) = (paths, collateral, touched, exposure, unchanged)
    }
}

/// A vendor's side of `fleet fixes`: its input documents, its paths, its candidate changes, and the
/// verification of one change (applied to a copy of one document, the paths found again).
package protocol FixSubject {
    /// The input files, as the user gave them.
    var documents: [FixDocument] { get }
    /// The paths to close, before any change.
    var paths: Set<LeakPath> { get }
    /// How many deliveries go from an app inside the zone of trust to one outside (per device, sender,
    /// receiver and, where the vendor tells them apart, channel): the plan's measure of progress when
    /// no single change closes a path, because each of several channels leaks on its own.
    var exposure: Int { get }
    /// Every change of one setting that may close a path.
    func candidates() -> [FixCandidate]
    /// Whether `candidate` certainly changes no path (checked before it is verified): for one that can
    /// stop one delivery only, when that delivery does not happen or its receiver is reached another way.
    func cannotChangePaths(_ candidate: FixCandidate) -> Bool
    /// What the fleet does with `candidate`'s document replaced by `patched`; `nil` when the patched file
    /// is not a valid fleet (the change is then not offered). The collateral is worked out only when
    /// asked for (a change that closes no path needs none).
    func verify(_ patched: JSONValue, candidate: FixCandidate, collateral: Bool) -> FixVerdict?
    /// The same subject on changed documents (for the plan's next step).
    func replacing(_ document: Int, with value: JSONValue) throws(FixError) -> Self
    /// Per candidate, an upper bound of how many paths it can close, worked out without verifying it
    /// (a verification budget verifies the highest first; a bound of 0 needs no verification).
    func closingBounds(_ candidates: [FixCandidate]) -> [Int]
    /// Why `patched` (`candidate`'s document changed) is not a fleet the subject can verify, when
    /// ``verify(_:candidate:collateral:)`` found none: read on the failure path only.
    func invalidity(_ patched: JSONValue, candidate: FixCandidate) -> String
}

/// Why `fleet fixes` cannot run.
public struct FixError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, as a sentence.
    public let message: String
    package init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// A verified fix: the change, its patch and where it applies, and what it closes, leaves and breaks.
package struct FleetFix: Sendable {
    package let change: String
    package let file: String
    package let line: Int?
    package let patch: [JSONPatchOperation]
    package let closes: [LeakPath]
    /// The paths left (counted, not listed: a large fleet's would be most of its paths per fix).
    package let remaining: Set<LeakPath>
    /// The flows inside the zone of trust it blocks, on every channel `fleet matrix` decides.
    package let collateral: [InsideFlow]
    /// The flows inside the zone of trust it newly allows (blocked before), on every channel `fleet matrix` decides.
    package let newlyAllowed: [InsideFlow]
    /// How many apps' effective policies it alters.
    let appsTouched: Int
    /// The index of the document it patches.
    package let document: Int

    /// The JSON record: `{"change", "file", "line", "patch", "closes", "remaining", "collateral", "newlyAllowed", "appsTouched", "closed"}`.
    package var json: JSONValue { json(listing: nil) }

    /// The JSON record listing at most `limit` closed paths, collateral and newly allowed flows, each list
    /// followed by `"closedOmitted"` / `"collateralOmitted"` / `"newlyAllowedOmitted"` (how many it left out) when it was cut.
    package func json(listing limit: Int?) -> JSONValue {
        let listed = limit.map { Array(closes.prefix($0)) } ?? closes
        let flows = limit.map { Array(collateral.prefix($0)) } ?? collateral
        let allowed = limit.map { Array(newlyAllowed.prefix($0)) } ?? newlyAllowed
        var members: [JSONObject.Member] = [
            .init("change", .string(change)), .init("file", .string(file)), .init("line", line.map { .number(JSONNumber($0)) } ?? .null),
            .init("patch", JSONPatch.json(patch)), .init("closes", .number(JSONNumber(closes.count))),
            .init("remaining", .number(JSONNumber(remaining.count))), .init("collateral", .array(JSONArray(flows.map(\.json)))),
        ]
        if flows.count < collateral.count { members.append(.init("collateralOmitted", .number(JSONNumber(collateral.count - flows.count)))) }
        members.append(.init("newlyAllowed", .array(JSONArray(allowed.map(\.json)))))
        if allowed.count < newlyAllowed.count { members.append(.init("newlyAllowedOmitted", .number(JSONNumber(newlyAllowed.count - allowed.count)))) }
        members.append(.init("appsTouched", .number(JSONNumber(appsTouched))))
        members.append(.init("closed", .array(JSONArray(listed.map(\.json)))))
        if listed.count < closes.count { members.append(.init("closedOmitted", .number(JSONNumber(closes.count - listed.count)))) }
        return .object(JSONObject(members: members))
    }
}

/// The plan: changes chosen greedily, each verified with the earlier ones applied.
package struct FleetFixPlan: Sendable {
    /// The steps, in order; each step's counts are against the fleet with the earlier steps applied.
    package let changes: [FleetFix]
    /// Per file, the operations of every step in order: one patch that applies the whole plan.
    package let patches: [(file: String, patch: [JSONPatchOperation])]
    /// The paths the plan closes, of those there were.
    package let closes: [LeakPath]
    /// The paths left after the plan.
    package let remaining: [LeakPath]
    /// Every inside flow the whole plan blocks (delivering before the plan, not after it).
    package let collateral: [InsideFlow]
    /// Every inside flow the whole plan newly allows (not delivering before the plan, delivering after it).
    package let newlyAllowed: [InsideFlow]
    /// Why the paths left are left, when some are.
    package let why: String?

    /// `{"changes", "file"?, "patch", "patches", "closes", "remaining", "collateral", "newlyAllowed", "left"?, "why"?}`.
    package var json: JSONValue { json(listing: nil) }

    /// The JSON listing at most `limit` paths left, collateral and newly allowed flows (then `"leftOmitted"` /
    /// `"collateralOmitted"` / `"newlyAllowedOmitted"`).
    package func json(listing limit: Int?) -> JSONValue {
        let collateral = limit.map { Array(self.collateral.prefix($0)) } ?? self.collateral
        let allowed = limit.map { Array(newlyAllowed.prefix($0)) } ?? newlyAllowed
        let remaining = limit.map { Array(self.remaining.prefix($0)) } ?? self.remaining
        var members: [JSONObject.Member] = [.init("changes", .array(JSONArray(changes.map { .string($0.change) })))]
        if patches.count == 1 { members.append(.init("file", .string(patches[0].file))) }
        members.append(.init("patch", JSONPatch.json(patches.flatMap(\.patch))))
        members.append(.init("patches", .array(JSONArray(patches.map { .object(JSONObject(["file": .string($0.file), "patch": JSONPatch.json($0.patch)])) }))))
        members.append(.init("closes", .number(JSONNumber(closes.count))))
        members.append(.init("remaining", .number(JSONNumber(self.remaining.count))))
        members.append(.init("collateral", .array(JSONArray(collateral.map(\.json)))))
        if collateral.count < self.collateral.count { members.append(.init("collateralOmitted", .number(JSONNumber(self.collateral.count - collateral.count)))) }
        members.append(.init("newlyAllowed", .array(JSONArray(allowed.map(\.json)))))
        if allowed.count < newlyAllowed.count { members.append(.init("newlyAllowedOmitted", .number(JSONNumber(newlyAllowed.count - allowed.count)))) }
        if !remaining.isEmpty {
            members.append(.init("left", .array(JSONArray(remaining.map(\.json)))))
            if remaining.count < self.remaining.count { members.append(.init("leftOmitted", .number(JSONNumber(self.remaining.count - remaining.count)))) }
            if let why { members.append(.init("why", .string(why))) }
        }
        return .object(JSONObject(members: members))
    }
}

/// Everything `fleet fixes` found.
public struct FleetFixReport: Sendable {
    /// The paths to close.
    public let paths: [LeakPath]
    /// The verified fixes that close at least one path, best first.
    package let fixes: [FleetFix]
    /// The plan.
    package let plan: FleetFixPlan
    /// How many candidate changes were verified (or ruled out by a bound of 0).
    package let candidates: Int
    /// The candidate changes that could not be made or verified, with why (not counted in ``candidates``).
    package var unbuilt: [UnbuiltFix] = []
    /// With a verification budget: the budget, and how many candidates it left unverified, the highest
    /// upper bound of what one of those could close.
    package var budget: FixBudget? = nil

    /// `{"paths", "candidates", "notBuilt", "fixes", "plan"}`, with `"budget", "unverified", "unverifiedCloseAtMost"` when a budget applied.
    public var json: JSONValue { json(listing: nil) }

    /// The JSON with each list of paths and flows cut at `limit` (``FleetFix/json(listing:)``, ``FleetFixPlan/json(listing:)``).
    package func json(listing limit: Int?) -> JSONValue {
        var members: [JSONObject.Member] = [.init("paths", .number(JSONNumber(paths.count))), .init("candidates", .number(JSONNumber(candidates)))]
        if let budget {
            members.append(.init("budget", .number(JSONNumber(budget.limit))))
            members.append(.init("unverified", .number(JSONNumber(budget.unverified))))
            members.append(.init("unverifiedCloseAtMost", .number(JSONNumber(budget.unverifiedBound))))
        }
        members.append(.init("notBuilt", .array(JSONArray(unbuilt.map(\.json)))))
        members.append(.init("fixes", .array(JSONArray(fixes.map { $0.json(listing: limit) }))))
        members.append(.init("plan", plan.json(listing: limit)))
        return .object(JSONObject(members: members))
    }
}

/// A limit on how many candidate changes `fleet fixes` verifies (the report's, so a large fleet's page
/// is made in seconds), and what it left out.
package struct FixBudget: Sendable, Equatable {
    /// At most this many candidates verified (those with the highest upper bound of paths they can close first).
    package var limit: Int
    /// How many candidates were left unverified.
    package var unverified = 0
    /// The highest upper bound among those: none of them can close more paths.
    package var unverifiedBound = 0

    package init(limit: Int) { self.limit = limit }
}

/// Ranking, verification and the greedy plan, the same for every vendor.
enum FleetFixes {
    /// Which paths count as paths to close (with a baseline: those it does not accept).
    typealias Counted = (LeakPath) -> Bool

    /// Verifies every candidate of `subject` and ranks those that close a path: most paths closed,
    /// then least collateral, then fewest apps touched (then the change's text, for a stable order).
    /// Also returns the change that lowers the exposure most without closing or opening a path (the
    /// plan's step when no change closes one), with its collateral.
    /// - Complexity: one ``FixSubject/verify(_:candidate:collateral:)`` per candidate that may change a
    ///   path; a second, with the collateral, for each that closes one.
    package static func fixes(_ subject: some FixSubject, only: Set<String>? = nil, counting counted: Counted? = nil, budget: inout FixBudget?)
        -> (fixes: [FleetFix], verified: Int, progress: FleetFix?, lowering: [String], unbuilt: [UnbuiltFix]) {
        var fixes: [FleetFix] = []
        var verified = 0
        let base = counted.map { subject.paths.filter($0) } ?? subject.paths
        var progress: (candidate: FixCandidate, patched: JSONValue, exposure: Int)?
        // The changes that lower the exposure without closing a path, with the exposure they leave.
        var lowering: [(change: String, exposure: Int)] = []
        guard !base.isEmpty else { return ([], 0, nil, [], []) }
        var candidates = subject.candidates()
        if let only { candidates = candidates.filter { only.contains($0.change) } }
        // A change that cannot be made is reported with why, before any budget: never verified, never dropped.
        var unbuilt = candidates.compactMap { candidate in candidate.unbuilt.map { UnbuiltFix(change: candidate.change, why: $0) } }
        if !unbuilt.isEmpty { candidates = candidates.filter { $0.unbuilt == nil } }
        if var limit = budget {
            // The highest bound first (stable: the candidates' own order among equals); a bound of 0 closes nothing.
            let bounds = subject.closingBounds(candidates)
            let order = candidates.indices.sorted { bounds[$0] != bounds[$1] ? bounds[$0] > bounds[$1] : $0 < $1 }
            let promising = order.filter { bounds[$0] > 0 }
            verified += order.count - promising.count
            let kept = promising.prefix(limit.limit)
            limit.unverified = promising.count - kept.count
            limit.unverifiedBound = promising.dropFirst(kept.count).first.map { bounds[$0] } ?? 0
            budget = limit
            candidates = kept.map { candidates[$0] }
        }
        func fix(_ candidate: FixCandidate, _ verdict: FixVerdict, closes: Set<LeakPath>) -> FleetFix {
            let document = subject.documents[candidate.document]
            let line = candidate.patch.first.flatMap { JSONPatch.position(of: $0.path, in: document.value, root: document.start)?.line }
            return FleetFix(change: candidate.change, file: document.file, line: line, patch: candidate.patch,
                            closes: LeakPath.sorted(closes), remaining: verdict.paths, collateral: verdict.collateral.sorted(),
                            newlyAllowed: verdict.allowed.sorted(), appsTouched: verdict.touched.count, document: candidate.document)
        }
        func counting(_ verdict: FixVerdict) -> FixVerdict {
            guard let counted else { return verdict }
            var verdict = verdict
            verdict.paths = verdict.paths.filter(counted)
            return verdict
        }
        for candidate in candidates {
            verified += 1
            if subject.cannotChangePaths(candidate) { continue }
            let document = subject.documents[candidate.document]
            let patched: JSONValue
            do throws(JSONPatchError) { patched = try JSONPatch.apply(candidate.patch, to: document.value) } catch {
                unbuilt.append(UnbuiltFix(change: candidate.change, why: "its patch does not apply to \(document.file): \(error.message)"))
                verified -= 1
                continue
            }
            guard let quick = subject.verify(patched, candidate: candidate, collateral: false) else {
                unbuilt.append(UnbuiltFix(change: candidate.change, why: subject.invalidity(patched, candidate: candidate)))
                verified -= 1
                continue
            }
            // Every delivery as before: nothing closes, nothing progresses.
            if quick.unchanged { continue }
            if quick.samePaths {
                if quick.exposure < subject.exposure {
                    lowering.append((candidate.change, quick.exposure))
                    if progress.map({ quick.exposure < $0.exposure }) ?? true { progress = (candidate, patched, quick.exposure) }
                }
                continue
            }
            let verdict = counting(quick)
            let closes = base.subtracting(verdict.paths)
            guard !closes.isEmpty else {
                // No path closed, and none opened: progress when fewer deliveries leave the zone.
                if verdict.exposure < subject.exposure, verdict.paths.count == base.count, verdict.paths.isSubset(of: base) {
                    lowering.append((candidate.change, verdict.exposure))
                    if progress.map({ verdict.exposure < $0.exposure }) ?? true { progress = (candidate, patched, verdict.exposure) }
                }
                continue
            }
            guard let full = subject.verify(patched, candidate: candidate, collateral: true).map(counting) else {
                unbuilt.append(UnbuiltFix(change: candidate.change, why: subject.invalidity(patched, candidate: candidate)))
                verified -= 1
                continue
            }
            fixes.append(fix(candidate, full, closes: closes))
        }
        fixes.sort { lhs, rhs in
            if lhs.closes.count != rhs.closes.count { return lhs.closes.count > rhs.closes.count }
            if lhs.collateral.count != rhs.collateral.count { return lhs.collateral.count < rhs.collateral.count }
            if lhs.appsTouched != rhs.appsTouched { return lhs.appsTouched < rhs.appsTouched }
            return lhs.change.utf8.lexicographicallyPrecedes(rhs.change.utf8)
        }
        let step = progress.flatMap { best in
            subject.verify(best.patched, candidate: best.candidate, collateral: true).map { fix(best.candidate, counting($0), closes: []) }
        }
        lowering.sort { $0.exposure < $1.exposure }
        return (fixes, verified, step, lowering.prefix(maxLoweringTried).map(\.change), unbuilt)
    }

    /// How many of the changes that lower the exposure most the plan's later steps try again.
    static let maxLoweringTried = 64

    /// How many plan steps in a row may lower the exposure without closing a path before the plan stops
    /// (each such step verifies every candidate again).
    static let maxStepsWithoutClosing = 3

    /// The fixes and the greedy plan.
    /// - Throws: ``FixError`` when a step's patched fleet cannot be read back (a bug: every fix was verified on it).
    /// - Parameter budget: at most this many candidates verified (``FixBudget``); the report says what it left out.
    package static func run<Subject: FixSubject>(_ subject: Subject, counting counted: Counted? = nil, budget limit: Int? = nil) throws(FixError) -> FleetFixReport {
        var budget = limit.map(FixBudget.init(limit:))
        let (fixes, verified, progress, lowering, unbuilt) = fixes(subject, counting: counted, budget: &budget)
        let base = counted.map { subject.paths.filter($0) } ?? subject.paths
        var current = subject
        var steps: [FleetFix] = []
        var next = fixes.first { $0.remaining.count < base.count } ?? progress
        var withoutClosing = 0
        var stopped = false
        // Each step closes a path or lowers the exposure, so the plan ends.
        while let step = next {
            if step.closes.isEmpty {
                withoutClosing += 1
                if withoutClosing > maxStepsWithoutClosing {
                    stopped = true
                    break
                }
            } else {
                withoutClosing = 0
            }
            steps.append(step)
            let patched: JSONValue
            do throws(JSONPatchError) { patched = try JSONPatch.apply(step.patch, to: current.documents[step.document].value) } catch {
                throw FixError("the plan's step \"\(step.change)\" no longer applies: \(error.message)")
            }
            current = try current.replacing(step.document, with: patched)
            let left = counted.map { current.paths.filter($0) } ?? current.paths
            if left.isEmpty { break }
            // Later steps try every candidate again on a small fleet; on a large one, the changes that closed a
            // path on the fleet as given and those that lowered the exposure most.
            let only = verified <= maxLoweringTried * 8 && budget == nil ? nil : Set(fixes.map(\.change) + lowering)
            var unlimited: FixBudget? = nil
            let found = FleetFixes.fixes(current, only: only, counting: counted, budget: &unlimited)
            next = found.fixes.first { $0.remaining.count < left.count } ?? found.progress
        }
        let remaining = counted.map { current.paths.filter($0) } ?? current.paths
        // Steps after the last that closed a path close nothing (a step that lowers the exposure leaves the paths as
        // they were): they are not the plan's. A plan that closes nothing has no step, and so no patch.
        let made = steps.count
        while let last = steps.last, last.closes.isEmpty { steps.removeLast() }
        let tried = stopped || made > steps.count
        var patches: [(file: String, patch: [JSONPatchOperation])] = []
        // What the whole plan blocks and newly allows: each step's, against the fleet with the earlier steps made,
        // netted (a flow one step blocks and a later one allows again is as it was).
        var blocked: Set<InsideFlow> = [], allowed: Set<InsideFlow> = []
        for step in steps {
            if let last = patches.indices.last, ExactText.same(patches[last].file, step.file) {
                patches[last].patch += step.patch
            } else {
                patches.append((step.file, step.patch))
            }
            for flow in step.collateral where allowed.remove(flow) == nil { blocked.insert(flow) }
            for flow in step.newlyAllowed where blocked.remove(flow) == nil { allowed.insert(flow) }
        }
        let unverified = budget.map { FleetFixes.unverified($0, verified: verified, paths: base.count) } ?? ""
        let lowered = "changes that each lowered the deliveries leaving the zone of trust were tried, up to \(maxStepsWithoutClosing) in a row, and closed none"
        let why: String? = remaining.isEmpty ? nil
            : steps.isEmpty ? "no change of one setting closes any of them\(tried ? "; \(lowered)" : "")\(unverified)"
            : "no further change of one setting closes any of them once the plan's changes are made\(tried ? "; \(lowered)" : "")\(unverified)"
        var report = FleetFixReport(paths: LeakPath.sorted(base), fixes: fixes,
                                    plan: FleetFixPlan(changes: steps, patches: patches, closes: LeakPath.sorted(base.subtracting(remaining)),
                                                       remaining: LeakPath.sorted(remaining), collateral: blocked.sorted(), newlyAllowed: allowed.sorted(),
                                                       why: why),
                                    candidates: verified)
        report.budget = budget
        report.unbuilt = unbuilt
        return report
    }

    /// What a budget left unverified, for the plan's why: how many, and the most any of them can close, when that
    /// bounds anything (a bound of every path says nothing about them).
    package static func unverified(_ budget: FixBudget, verified: Int, paths: Int) -> String {
        guard budget.unverified > 0 else { return "" }
        let bound = budget.unverifiedBound < paths
            ? "none of those can close more than \(budget.unverifiedBound) of the \(paths) paths"
            : "any of those might close some (no bound below all \(paths) paths is known for them)"
        return " (of the \(verified) candidate changes verified; \(budget.unverified) were not, within the budget of \(budget.limit): \(bound); openin-check fleet fixes verifies every one)"
    }
}

/// Reading an input file as a ``FixDocument``: the JSON exactly as the user wrote it, with positions.
package enum FixDocuments {
    /// Reads `bytes` (a UTF-8 byte order mark is skipped, as the fleet readers skip it).
    /// - Throws: `FormatError` for text that is not JSON, with its line and column.
    package static func read(_ bytes: some Collection<UInt8>, file: String) throws(FormatError) -> FixDocument {
        var data = Array(bytes)
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data.removeFirst(3) }
        let value: JSONValue
        do throws(JSONError) { value = try JSONReader().read(data) } catch {
            throw FormatError("not valid JSON: \(error.message)", at: error.position, file: file)
        }
        var line = 1, column = 1
        for byte in data {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte == 0x20 || byte == 0x09 || byte == 0x0D {
                column += 1
            } else {
                break
            }
        }
        return FixDocument(file: file, value: value, start: JSONPosition(line: line, column: column))
    }
}

/// What every vendor's fix subject counts a flow and a reach by.
package enum FixFlows {
    /// The nodes `rows` reach from `start`, `start` included: a search over the rows' words, each node visited once.
    package static func reachable(from start: Int, rows: [NodeSet]) -> NodeSet {
        var seen = NodeSet(count: rows.count)
        seen.insert(start)
        var frontier = [start]
        while let x = frontier.popLast() {
            for w in rows[x].words.indices {
                var fresh = rows[x].words[w] & ~seen.words[w]
                guard fresh != 0 else { continue }
                seen.words[w] |= fresh
                while fresh != 0 {
                    frontier.append(w << 6 | fresh.trailingZeroBitCount)
                    fresh &= fresh - 1
                }
            }
        }
        return seen
    }

    /// The channels an inside flow is counted on: every grid of `fleet matrix` (those that name their
    /// receiver, `open-url` to the receiver's first custom scheme included).
    package static let flowChannels: [FleetChannel] = FleetChannel.matrixChannels

    /// Whether a matrix cell's outcome delivers (allowed, or redirected), as `fleet diff` counts a flow.
    package static func delivers(_ outcome: Outcome?) -> Bool { outcome == .allow || outcome == .redirect }
}
