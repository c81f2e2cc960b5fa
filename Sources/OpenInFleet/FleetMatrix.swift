import OpenInCore
import OpenInKit

/// A device's end-to-end outcomes at a glance: for each channel, every fleet app as sender × every
/// fleet app and "any other app" as receiver.
///
/// A cell is the end-to-end outcome of the request from the row's app to the column's; `nil` when
/// there is no such request: an app to itself, an app not installed on the device (on either side:
/// it has no documents there, and nothing reaches it), or `open-url` to an app that handles no
/// custom scheme on the device.
///
/// Keyboards do not fit a sender × receiver grid (a keyboard extension is not an app receiving a
/// document), so each sender has a keyboard line of its own: typing in it with a third-party
/// keyboard and with the system keyboard (``keyboard(sender:system:)``).
public struct FleetMatrix: Sendable {
    /// The device profile's name.
    public let device: String
    /// The channels, one grid each: those that name the receiver (``FleetChannel/matrixChannels``).
    public let channels: [FleetChannel]
    /// The rows: the fleet's apps, in file order.
    public let senders: [BundleID]
    /// The columns: the fleet's apps, then "any other app".
    public let receivers: [FleetNode]
    /// The cells, channel by channel, row by row.
    package let cells: [Outcome?]
    /// Per sender, the keyboard outcomes: a third-party keyboard, then the system keyboard.
    package let keyboards: [Outcome?]
    /// Per sender, the decisions no receiver takes part in: copy, print, and Intune's Save As and
    /// Open into Org documents by location.
    public let oneSided: [FleetOneSided]

    package init(device: String, channels: [FleetChannel], senders: [BundleID], receivers: [FleetNode], cells: [Outcome?], keyboards: [Outcome?],
         oneSided: [FleetOneSided]) {
        precondition(cells.count == channels.count * senders.count * receivers.count && keyboards.count == 2 * senders.count
                     && oneSided.count == senders.count)
        self.oneSided = oneSided
        self.device = device
        self.channels = channels
        self.senders = senders
        self.receivers = receivers
        self.cells = cells
        self.keyboards = keyboards
    }

    /// The outcome of typing in `senders[sender]` with a third-party keyboard (`system` false) or the
    /// system keyboard (`system` true), or `nil` when the sender is not installed on the device.
    public func keyboard(sender: Int, system: Bool) -> Outcome? { keyboards[2 * sender + (system ? 1 : 0)] }

    /// The keyboard extension a matrix's third-party keyboard requests name: a bundle ID no fleet
    /// lists, standing for every custom keyboard (the evaluators only ask whether it is the system one).
    public static let thirdPartyKeyboard = BundleID(known: "third-party-keyboard.openin-check")

    /// The end-to-end outcome on `channel` from `senders[sender]` to `receivers[receiver]`, or `nil` when there is no such request.
    public func outcome(_ channel: FleetChannel, sender: Int, receiver: Int) -> Outcome? {
        guard let grid = channels.firstIndex(of: channel) else { return nil }
        return cells[(grid * senders.count + sender) * receivers.count + receiver]
    }
}

/// A sender's decisions that no receiver takes part in, as a matrix shows them.
public struct FleetOneSided: Sendable {
    /// Its copy decision (with its audience: who may paste the copy); `nil` when the sender is not
    /// installed, or its policy sets no pasteboard control.
    public let copy: Decision?
    /// Its print decision; `nil` when the sender is not installed, or its policy sets no print control.
    public let print: Decision?
    /// Intune's Save As, each location of `save-as` with its outcome (empty for AppConnect: no such control).
    public let saveAs: [(location: DataLocation, outcome: Outcome)]
    /// Intune's Open into Org documents, each location with its outcome (empty for AppConnect).
    public let openInto: [(location: DataLocation, outcome: Outcome)]

    /// Nothing decided: the sender is not installed.
    package static let none = FleetOneSided(copy: nil, print: nil, saveAs: [], openInto: [])

    package init(copy: Decision?, print: Decision?, saveAs: [(location: DataLocation, outcome: Outcome)], openInto: [(location: DataLocation, outcome: Outcome)]) {
        self.copy = copy
        self.print = print
        self.saveAs = saveAs
        self.openInto = openInto
    }
}

extension FleetChannel {
    /// The channels a matrix shows: those whose request names its receiver (the target, or the
    /// handler of an `open-url`'s custom scheme). `mail-link` and `mail-compose` always go to the
    /// device's mail app, so a column per receiver says nothing for them.
    public static let matrixChannels: [FleetChannel] = [.documentInteraction, .quickLook, .appExtension, .activityView, .dragAndDrop, .paste, .openURL]
}

/// One sender's row of a matrix (`FleetMatrixRows`).
package struct FleetMatrixRow {
    /// The cells of the grids made, grid by grid from `firstGrid`, each `columns` long.
    package var cells: [Outcome?]
    /// The grid `cells` starts at (`FleetMatrixRows/channels` order).
    let firstGrid: Int
    let columns: Int
    /// Typing in the sender with a third-party keyboard, then with the system keyboard.
    package var keyboard: (thirdParty: Outcome?, system: Outcome?)
    /// The sender's one-sided decisions.
    package var oneSided: FleetOneSided

    /// A row with room for every grid (`only` `nil`), for `only`'s grid alone, or for none (a channel with no grid).
    package init(channels: [FleetChannel], columns: Int, only: FleetChannel?) {
        self.columns = columns
        keyboard = (nil, nil)
        oneSided = .none
        guard let only else {
            (firstGrid, cells) = (0, Array(repeating: nil, count: channels.count * columns))
            return
        }
        let grid = channels.firstIndex(of: only)
        (firstGrid, cells) = (grid ?? 0, Array(repeating: nil, count: grid == nil ? 0 : columns))
    }

    /// Whether grid `c`'s cells are made.
    package func has(grid c: Int) -> Bool { c >= firstGrid && (c - firstGrid + 1) * columns <= cells.count }

    /// The cell of grid `c` (`FleetMatrixRows/channels` order) for receiver `r`; `nil` when there is no such request, or the grid was not made.
    package func outcome(grid c: Int, receiver r: Int) -> Outcome? { has(grid: c) ? cells[(c - firstGrid) * columns + r] : nil }

    /// Grid `c`'s cells by receiver (index them from the slice's `startIndex`); empty when the grid was not made.
    /// A writer takes the slice once per row: a cell read through the row copies no row.
    package func cells(grid c: Int) -> ArraySlice<Outcome?> {
        has(grid: c) ? cells[((c - firstGrid) * columns)..<((c - firstGrid + 1) * columns)] : []
    }

    /// Sets the cell of grid `c` for receiver `r` (a grid that was made).
    package mutating func set(grid c: Int, receiver r: Int, _ outcome: Outcome?) { cells[(c - firstGrid) * columns + r] = outcome }
}

/// A device's matrix (either vendor's), made one sender's row at a time as it is printed: memory
/// for one row (O(apps)) and the device's tables, never for every cell.
package struct FleetMatrixRows {
    /// The device profile's name.
    package let device: String
    /// The channels, one grid each (``FleetChannel/matrixChannels``).
    package let channels: [FleetChannel]
    /// The rows.
    package let senders: [BundleID]
    /// The columns.
    package let receivers: [FleetNode]
    /// The vendor's maker of the rows (AppConnect: a control not set can throw; an Intune decision never throws).
    package let rows: any FleetMatrixRowMaker
    /// Whether making a row can throw.
    package var canThrow: Bool { rows.canThrow }

    /// The matrix of `senders` × `receivers` on `channels`, whose rows `rows` makes.
    package init(device: String, channels: [FleetChannel], senders: [BundleID], receivers: [FleetNode], rows: any FleetMatrixRowMaker) {
        (self.device, self.channels, self.senders, self.receivers, self.rows) = (device, channels, senders, receivers, rows)
    }

    /// `senders[s]`'s row (every grid, or only `channel`'s), or `nil` when the sender is not installed
    /// on the device (every cell, keyboard and one-sided decision `nil`).
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs.
    package func row(sender s: Int, only channel: FleetChannel? = nil) throws(FleetError) -> FleetMatrixRow? { try rows.row(sender: s, only: channel) }

    /// Makes every row once and lets each go: what printing will throw, thrown before anything is printed.
    /// A device where no row can throw is not made twice (nothing to find).
    package func check() throws(FleetError) {
        guard canThrow else { return }
        for s in senders.indices { _ = try rows.row(sender: s, only: nil) }
    }

    /// The whole matrix.
    package func matrix() throws(FleetError) -> FleetMatrix {
        let count = senders.count, columns = receivers.count
        var cells = [Outcome?](repeating: nil, count: channels.count * count * columns)
        var keyboards = [Outcome?](repeating: nil, count: 2 * count)
        var oneSided = [FleetOneSided](repeating: .none, count: count)
        for s in 0..<count {
            guard let row = try rows.row(sender: s, only: nil) else { continue }
            for c in channels.indices {
                for r in 0..<columns { cells[(c * count + s) * columns + r] = row.outcome(grid: c, receiver: r) }
            }
            (keyboards[2 * s], keyboards[2 * s + 1]) = row.keyboard
            oneSided[s] = row.oneSided
        }
        return FleetMatrix(device: device, channels: channels, senders: senders, receivers: receivers, cells: cells, keyboards: keyboards, oneSided: oneSided)
    }
}
