import OpenInCore
import OpenInFleet
import OpenInKit

/// The fleet's JSON shapes: a request line `{"id"?, "from", "channel", "target"?, "url"?, "document"?}`
/// and the end-to-end record `{"id"?, "device", "from", "channel", "target"?, "url"?, "outcome", "to"?,
/// "sender": {…}, "receiver": {…} | null, "explanation"?}`.
public enum FleetRecord {
    /// The keys a fleet request line may have.
    package static let keys = ["id", "from", "channel", "target", "url", "document", "location"]

    /// One request line, read: its id, and the request's strings (checked when decided on a device).
    public struct Line: Sendable {
        /// The line's `id`, when given: a JSON string or number.
        public let id: JSONValue?
        /// The request, its parts checked when it is decided on a device.
        public let request: FleetRequest
    }

    /// Reads one line of a fleet request stream.
    /// - Throws: ``RequestLine/Failure`` naming the key, with the line's id when it could be read.
    public static func read<Bytes: Collection>(_ bytes: Bytes) throws(RequestLine.Failure) -> Line where Bytes.Element == UInt8 {
        let value: JSONValue
        do throws(JSONError) {
            value = try JSONReader().read(bytes)
        } catch {
            if error.message.hasPrefix("expected a JSON value, found the end of the input") {
                throw RequestLine.Failure(id: nil, message: "blank line: write one JSON request per line")
            }
            throw RequestLine.Failure(id: nil, message: "column \(error.position.column): not valid JSON: \(error.message)")
        }
        guard case .object(let object) = value else {
            throw RequestLine.Failure(id: nil, message: "a fleet request must be a JSON object such as {\"from\": \"com.acme.hr\", \"channel\": \"document-interaction\", \"target\": \"com.acme.viewer\"}, not \(value.kindDescription)")
        }
        var id: JSONValue? = nil
        if let given = object["id"] {
            switch given {
            case .string, .number: id = given
            default: throw RequestLine.Failure(id: nil, message: "id: must be a string or a number, not \(JSONCursor(given).found)")
            }
        }
        let fields: JSONFields
        do throws(FormatError) {
            fields = try JSONCursor(value).members(allowed: keys, what: "a fleet request")
        } catch {
            throw RequestLine.Failure(id: id, message: error.message)
        }
        func text(_ key: String) throws(RequestLine.Failure) -> String? {
            guard let field = fields[key] else { return nil }
            guard case .string(let string) = field.value else {
                throw RequestLine.Failure(id: id, message: "\(key): must be a string, not \(field.found)")
            }
            return string
        }
        guard let from = try text("from") else {
            throw RequestLine.Failure(id: id, message: "from: missing: add \"from\": the bundle ID of the sending app (for paste, the app the copy was made in)")
        }
        guard let channel = try text("channel") else {
            throw RequestLine.Failure(id: id, message: "channel: missing: add \"channel\": one of \(FleetChannel.names)")
        }
        do {
            return Line(id: id, request: try request(from: from, channel: channel, target: try text("target"), url: try text("url"), document: try text("document"),
                                                          location: try text("location")))
        } catch let error as RequestLine.Failure {
            throw RequestLine.Failure(id: id, message: error.message)
        } catch {
            throw RequestLine.Failure(id: id, message: "\(error)")
        }
    }

    /// A request from strings.
    /// - Throws: ``FleetError`` for an unknown channel or an invalid part, naming it.
    public static func request(from: String, channel: String, target: String?, url: String?, document: String?, location: String? = nil) throws(FleetError) -> FleetRequest {
        let fleetChannel = try FleetChannel(parsing: channel)
        let sender: BundleID
        do throws(InputError) { sender = try BundleID(from) } catch { throw FleetError("from: \(error.description)") }
        do throws(InputError) {
            return try FleetRequest(from: sender, channel: fleetChannel, target: try target.map { text throws(InputError) in try BundleID(text) },
                                    url: try url.map { text throws(InputError) in try ShareURL(text) }, document: document, location: location)
        } catch {
            if case .missingTarget = error, fleetChannel == .paste {
                throw FleetError("paste needs a target: the app the copy is pasted into")
            }
            if case .unexpectedField("target", _) = error, fleetChannel == .copy {
                throw FleetError("copy names no target in a fleet: its audience says who may paste the copy; a copy pasted into an app is channel paste, from the app the copy is made in, target the app pasted into")
            }
            throw FleetError(error.description)
        }
    }

    /// The record of a decision.
    package static func json(_ decision: FleetDecision, id: JSONValue?, explain: Bool) -> JSONObject {
        var members: [JSONObject.Member] = []
        if let id { members.append(.init("id", id)) }
        members.append(.init("device", .string(decision.device)))
        members.append(.init("from", .string(decision.request.from.rawValue)))
        members.append(.init("channel", .string(decision.request.channel.rawValue)))
        if let target = decision.request.target { members.append(.init("target", .string(target.rawValue))) }
        if let url = decision.request.url { members.append(.init("url", .string(url.rawValue))) }
        members.append(.init("outcome", .string(decision.outcome.rawValue)))
        if decision.delivers, let to = decision.receiverApp { members.append(.init("to", .string(to.rawValue))) }
        members.append(.init("sender", .object(part(decision.sender, app: decision.request.from))))
        members.append(.init("receiver", decision.receiver.map { .object(part($0, app: decision.receiverApp!)) } ?? .null))
        if explain { members.append(.init("explanation", .object(explanation(decision)))) }
        return JSONObject(members: members)
    }

    package static func part(_ decision: Decision, app: BundleID) -> JSONObject {
        var members: [JSONObject.Member] = [.init("app", .string(app.rawValue)), .init("rule", .string(decision.rule.rawValue)),
                                            .init("outcome", .string(decision.outcome.rawValue))]
        if let audience = decision.audience { members.append(.init("audience", .string(audience.rawValue))) }
        members.append(.init("callbacks", .array(JSONArray(decision.callbacks.map { .object(DecisionRecord.json($0)) }))))
        members.append(.init("reason", .string(decision.reason)))
        if let dummy = decision.dummyFileName { members.append(.init("dummyFileName", .string(dummy))) }
        return JSONObject(members: members)
    }

    /// `--explain`: for each side, how the app is authorized and where each control came from.
    package static func explanation(_ decision: FleetDecision) -> JSONObject {
        guard let senderPolicy = decision.senderPolicy else { return JSONObject(members: []) }
        var members: [JSONObject.Member] = [.init("sender", .object(provenance(senderPolicy, inputs: senderInputs(decision))))]
        if let receiver = decision.receiverPolicy { members.append(.init("receiver", .object(provenance(receiver, inputs: receiverInputs(decision))))) }
        return JSONObject(members: members)
    }

    static func provenance(_ policy: EffectivePolicy, inputs: [String]) -> JSONObject {
        var controls: [JSONObject.Member] = policy.sources.map { .init($0.control.rawValue, .string($0.source.description)) }
        // Named only where a policy sets it, so the explanation of a fleet that excludes no activity is as before.
        if policy.excludedActivitiesSource != .notSet {
            controls.append(.init(FleetJSON.excludedActivitiesKey, .string(policy.excludedActivitiesSource.description)))
        }
        controls.append(.init("config", .string(policy.configSource?.description ?? "none applies")))
        return JSONObject(members: [.init("app", .string(policy.app.rawValue)), .init("authorization", .string(policy.authorization.description)),
                                    .init("controls", .object(JSONObject(members: controls))),
                                    .init("inputs", .array(JSONArray(inputs.map { .string($0) })))])
    }

    /// What mattered to the sender's rule, as the single-app explanation says it.
    package static func senderInputs(_ decision: FleetDecision) -> [String] {
        guard let policy = decision.senderPolicy, let request = decision.request.senderRequest else { return [] }
        return Explanation(decision.sender, request: request, policyInputs: PolicyInputs(policy.policy)).inputs
    }

    /// What mattered to the receiver's Open From rule.
    package static func receiverInputs(_ decision: FleetDecision) -> [String] {
        guard let receiver = decision.receiver, let policy = decision.receiverPolicy else { return [] }
        return Explanation(receiver, request: try! ShareRequest(channel: .openFrom, source: decision.request.from), policyInputs: PolicyInputs(policy.policy)).inputs
    }

    /// The provenance lines `--explain` prints in text: `openInPolicy: container policy "HR" (label "Employees")`.
    package static func provenanceLines(_ policy: EffectivePolicy) -> [String] {
        ["\(policy.app): \(policy.authorization)"] + policy.sources.map { "\($0.control.rawValue): \($0.source)" }
            + (policy.excludedActivitiesSource == .notSet ? [] : ["\(FleetJSON.excludedActivitiesKey): \(policy.excludedActivitiesSource)"])
            + ["config: \(policy.configSource?.description ?? "none applies")"]
    }
}
