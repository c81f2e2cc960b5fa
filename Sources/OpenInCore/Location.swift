import OpenInKit

/// A place org data is saved to ("Save copies of org data") or opened from ("Open data into Org
/// documents"): the names of Microsoft Graph's `managedAppDataStorageLocation` and
/// `managedAppDataIngestionLocation`, and `other` for any service a policy cannot list (Dropbox,
/// Google Drive, the Files app's unmanaged locations).
public enum DataLocation: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `oneDriveForBusiness`: OneDrive for Business (and SharePoint Online, for Save As).
    case oneDriveForBusiness
    /// `sharePoint`: SharePoint (on-premises, for Save As; SharePoint Online, for opening).
    case sharePoint
    /// `box`: Box (a storage location only).
    case box
    /// `localStorage`: the managed app's own local storage (a storage location only).
    case localStorage
    /// `photoLibrary`: the device's photo library.
    case photoLibrary
    /// `iManage`: iManage (a storage location only).
    case iManage
    /// `egnyte`: Egnyte (a storage location only).
    case egnyte
    /// `camera`: the camera (an ingestion location only).
    case camera
    /// Any other service or source: no policy can list it, so it is allowed only where the setting is not blocked.
    case other

    public var description: String { rawValue }

    /// Graph's `managedAppDataStorageLocation` values (`allowedDataStorageLocations`).
    public static let storage: [DataLocation] = [.oneDriveForBusiness, .sharePoint, .box, .localStorage, .photoLibrary, .iManage, .egnyte]
    /// Graph's `managedAppDataIngestionLocation` values (`allowedDataIngestionLocations`).
    public static let ingestion: [DataLocation] = [.oneDriveForBusiness, .sharePoint, .camera, .photoLibrary]
}

/// The two Intune data-transfer settings that name a location rather than an app: Intune-only
/// requests, with no AppConnect control.
public enum LocationChannel: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// "Save copies of org data" (`saveAsBlocked`, `allowedDataStorageLocations`): the app saves a copy to a location.
    case saveAs = "save-as"
    /// "Open data into Org documents" (`blockDataIngestionIntoOrganizationDocuments`,
    /// `allowedDataIngestionLocations`): the app opens data from a location into an org document.
    case openIntoOrgDocument = "open-into-org-document"

    public var description: String { rawValue }

    /// The locations a request on this channel may name: Graph's list for the setting, and `other`.
    public var locations: [DataLocation] {
        (self == .saveAs ? DataLocation.storage : DataLocation.ingestion) + [.other]
    }

    /// The Intune setting and its Graph properties, for messages.
    public var setting: String {
        switch self {
        case .saveAs: "Save copies of org data (saveAsBlocked, allowedDataStorageLocations)"
        case .openIntoOrgDocument: "Open data into Org documents (blockDataIngestionIntoOrganizationDocuments, allowedDataIngestionLocations)"
        }
    }

    /// The channel named exactly `text`, if any.
    public init?(named text: String) {
        guard let channel = Self.allCases.first(where: { ExactText.same($0.rawValue, text) }) else { return nil }
        self = channel
    }
}

/// A request on an Intune location channel: save a copy to, or open data from, one location.
public struct LocationRequest: Sendable, Hashable {
    /// The channel.
    public let channel: LocationChannel
    /// The location.
    public let location: DataLocation

    /// Creates a request, checking that the channel takes the location.
    /// - Throws: ``InputError/intuneLocation(_:)`` for a location the channel does not take.
    public init(channel: LocationChannel, location: DataLocation) throws(InputError) {
        guard channel.locations.contains(location) else {
            throw .intuneLocation("\(channel) does not take the location \(location): its locations are \(channel.locations.map(\.rawValue).joined(separator: ", "))")
        }
        self.channel = channel
        self.location = location
    }

    /// Creates a request from its names, byte for byte.
    /// - Throws: ``InputError/intuneLocation(_:)`` for a missing or unknown location, with the
    ///   channel's locations and "Did you mean".
    public init(channel: LocationChannel, location text: String?) throws(InputError) {
        let names = channel.locations.map(\.rawValue)
        guard let text, !text.isEmpty else {
            throw .intuneLocation("channel \(channel) needs a location: one of \(names.joined(separator: ", "))")
        }
        guard let location = channel.locations.first(where: { ExactText.same($0.rawValue, text) }) else {
            let nonASCII = ExactText.asciiProblem(in: text).map { " (\($0))" } ?? ""
            throw .intuneLocation("unknown \(channel) location \(JSONWriter.quoted(text))\(nonASCII): use \(names.joined(separator: ", ")).\(Suggestion.phrase(for: text, among: names))")
        }
        try self.init(channel: channel, location: location)
    }
}
