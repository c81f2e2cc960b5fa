import Foundation
import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy
import OpenInTestSupport

/// `fleet matrix` made one row at a time (``FleetMatrixRows``): the rows are the whole matrix, a row made
/// for one grid holds that grid alone, and native Mail has a column of its own on both vendors.
@Suite struct FleetMatrixRowsTests {
    static let root = FleetTests.root

    static func intune() throws -> FleetAnalysis {
        let policies = root.appendingPathComponent("Examples/intune/acme-app-protection.json").path
        let devices = root.appendingPathComponent("Examples/intune/devices.json").path
        var fleet = IntuneFleet(policies: try IntuneGraphJSON.read(Array(try Data(contentsOf: URL(fileURLWithPath: policies))), file: policies), file: policies)
        (fleet.apps, fleet.devices) = try IntuneDevicesJSON.read(Array(try Data(contentsOf: URL(fileURLWithPath: devices))), file: devices)
        return FleetAnalysis(fleet, devicesFile: devices)
    }

    static func analyses() throws -> [FleetAnalysis] { [FleetAnalysis(try FleetTests.example()), try intune()] }

    /// Each row, made for one grid at a time, gives the cells of the whole matrix, and holds that grid's
    /// cells alone (a row of the receivers, not a row of every grid: what printing keeps in memory).
    @Test func rowsMadeGridByGridAreTheWholeMatrix() throws {
        for analysis in try Self.analyses() {
            for device in try analysis.devices() {
                let matrix = try device.matrix()
                let rows = device.matrixRows()
                #expect(rows.receivers == matrix.receivers && rows.senders == matrix.senders)
                for (c, channel) in rows.channels.enumerated() {
                    for s in rows.senders.indices {
                        let row = try rows.row(sender: s, only: channel)
                        if let row { #expect(row.cells.count == rows.receivers.count, "\(channel): one grid, not \(row.cells.count / rows.receivers.count)") }
                        for r in rows.receivers.indices {
                            #expect(row?.outcome(grid: c, receiver: r) == matrix.outcome(channel, sender: s, receiver: r))
                        }
                    }
                }
                for s in rows.senders.indices {
                    let row = try rows.row(sender: s, only: .keyboard)
                    #expect(row.map(\.cells.isEmpty) ?? true, "a keyboard row makes no grid")
                    #expect(row?.keyboard.thirdParty == matrix.keyboard(sender: s, system: false))
                    #expect(row?.keyboard.system == matrix.keyboard(sender: s, system: true))
                    #expect(row?.oneSided.copy?.outcome == matrix.oneSided[s].copy?.outcome)
                    #expect(row?.oneSided.print?.outcome == matrix.oneSided[s].print?.outcome)
                    #expect(row?.oneSided.saveAs.map(\.outcome) ?? [] == matrix.oneSided[s].saveAs.map(\.outcome))
                }
            }
        }
    }

    /// Native Mail is a receiver of every matrix (it is on every device and always outside, and `paths`
    /// reports it as a destination); where a targeted channel delivers to it (or `mailto:` opens it),
    /// `paths` reaches it in one hop from the same sender.
    @Test func nativeMailIsAColumnThatAgreesWithPaths() throws {
        var delivering = 0
        for analysis in try Self.analyses() {
            for device in try analysis.devices() {
                let matrix = try device.matrix()
                let mail = try #require(matrix.receivers.firstIndex(of: .app(.mobileMail)), "\(analysis.vendor) \(device.name): no native Mail column")
                #expect(device.isOutside(matrix.receivers[mail]))
                for (s, sender) in matrix.senders.enumerated() where device.isInstalled(sender) {
                    let oneHop = try device.paths(from: sender, maxHops: 1).contains { $0.to == .app(.mobileMail) }
                    for channel in matrix.channels where channel != .openURL {
                        #expect(matrix.outcome(channel, sender: s, receiver: mail) != nil, "\(channel) \(sender) → native Mail has a request")
                    }
                    let delivers = matrix.channels.contains { channel in
                        [Outcome.allow, .redirect].contains(matrix.outcome(channel, sender: s, receiver: mail)) && channel != .openURL
                    }
                    if delivers {
                        delivering += 1
                        #expect(oneHop, "\(analysis.vendor) \(device.name): \(sender) delivers to native Mail in the matrix, paths does not reach it")
                    }
                }
            }
        }
        #expect(delivering > 0)
    }

    /// On random fleets, the native Mail column's cells are the end-to-end decisions of the requests to
    /// native Mail (none on `open-url`: `mailto:` goes to the mail app).
    @Test(arguments: [false, true]) func nativeMailCellsAreEndToEndDecisionsOnRandomFleets(excluding: Bool) throws {
        var random = SplitMix64(seed: 0x6D61_696C)
        var cells = 0
        for _ in 0..<80 {
            let spec = FleetReferenceModelTests.randomSpec(&random, excluding: excluding)
            let device = try FleetJSON.read(Array(FleetReferenceModelTests.json(spec).utf8), file: "random.json").device(named: "d")
            let matrix = try device.matrix()
            let mail = try #require(matrix.receivers.firstIndex { if case .app(let id) = $0 { id.isNativeMail } else { false } })
            for channel in matrix.channels {
                for (s, sender) in matrix.senders.enumerated() {
                    let cell = matrix.outcome(channel, sender: s, receiver: mail)
                    guard device.isInstalled(sender), channel != .openURL, let request = device.matrixRequest(channel, from: sender, to: matrix.receivers[mail]) else {
                        #expect(cell == nil)
                        continue
                    }
                    #expect(cell == (try device.decide(request)).outcome, "\(channel) \(sender) → native Mail")
                    cells += 1
                }
            }
        }
        #expect(cells > 500)
    }

    /// A row made the fast way (the sender's decisions once per kind of receiver, each distinct whitelist's
    /// receivers a bit set made once per device, receivers' Open From read from per-device answers where no
    /// row can throw, keyboard and one-sided decisions only where shown) is the row the tests' oracle decides
    /// cell by cell from the device alone (``MatrixRowOracle``), for every grid alone and all at once, and
    /// throws what it throws; and each cell is the end-to-end decision of its request.
    @Test(arguments: [false, true]) func fastRowsAreStraightforwardRowsOnRandomFleets(excluding: Bool) throws {
        var random = SplitMix64(seed: 0x6661_7374)
        var cells = 0, quiet = 0, throwing = 0, denied = 0, answered = 0, excluded = 0, errors = 0
        for _ in 0..<Soak.size(200) {
            var spec = FleetReferenceModelTests.randomSpec(&random, excluding: excluding)
            // Some fleets leave a control of the global policy unset (rows that may throw are made the checked way).
            switch random.below(8) {
            case 0: spec.global.openFrom = nil
            case 1: spec.global.pasteboard = nil
            default: break
            }
            let text = FleetReferenceModelTests.json(spec)
            guard let device = try? FleetJSON.read(Array(text.utf8), file: "random.json").device(named: "d") else { continue }
            let shape = device.matrixRows()
            let rows = AppConnectMatrixRows(device, senders: shape.senders, receivers: shape.receivers)
            if rows.canThrow { throwing += 1 } else { quiet += 1 }
            // The per-device Open From answers are read where a receiver is an authorized AppConnect app.
            if rows.openFrom != nil, rows.authorized.contains(true) { answered += 1 }
            for s in shape.senders.indices {
                for only in [nil, .keyboard] + shape.channels.map(Optional.some) {
                    let fast = Result { try rows.row(sender: s, only: only) }
                    let plain = Result { try MatrixRowOracle.row(device, senders: shape.senders, receivers: shape.receivers, sender: s, only: only) }
                    switch (fast, plain) {
                    case (.failure(let a), .failure(let b)):
                        #expect(String(describing: a) == String(describing: b))
                        errors += 1
                        continue
                    case (.success(let a), .success(let b)):
                        #expect((a == nil) == (b == nil))
                        guard let a, let b else { continue }
                        for (c, channel) in shape.channels.enumerated() where only == nil || only == channel {
                            for r in shape.receivers.indices {
                                let cell = a.outcome(grid: c, receiver: r)
                                #expect(cell == b.outcome(grid: c, receiver: r), "\(channel) \(shape.senders[s]) → \(shape.receivers[r]) in:\n\(text)")
                                let request = device.matrixRequest(channel, from: shape.senders[s], to: shape.receivers[r])
                                #expect((request == nil) == (cell == nil))
                                if let request, let decided = try? device.decide(request) {
                                    #expect(cell == decided.outcome, "\(channel) \(shape.senders[s]) → \(shape.receivers[r]): end to end \(decided.outcome) in:\n\(text)")
                                    if decided.outcome == .deny { denied += 1 }
                                    if decided.sender.rule == ExcludedActivityRule.excluded.id { excluded += 1 }
                                }
                                cells += 1
                            }
                        }
                        #expect(a.cells.count == b.cells.count, "the same grids made")
                        #expect(a.keyboard.thirdParty == b.keyboard.thirdParty && a.keyboard.system == b.keyboard.system)
                        #expect(a.oneSided.copy?.outcome == b.oneSided.copy?.outcome && a.oneSided.copy?.audience == b.oneSided.copy?.audience)
                        #expect(a.oneSided.print?.outcome == b.oneSided.print?.outcome)
                    default:
                        Issue.record("one way throws, the other does not: \(shape.senders[s]) \(String(describing: only)) in:\n\(text)")
                    }
                }
            }
        }
        #expect(cells > Soak.least(20_000) && denied > Soak.least(1_000), "\(cells) cells, \(denied) denied")
        // With excluded activities, the share sheet's cells the server's list decides occur (and agree above).
        #expect(excluding ? excluded > Soak.least(100) : excluded == 0, "\(excluded) cells decided by an excluded activity")
        #expect(quiet > Soak.least(50) && throwing > Soak.least(10) && answered > Soak.least(30), "\(quiet) devices said not to throw (\(answered) reading Open From answers), \(throwing) that may")
        // Rows that throw occur, and throw the oracle's error (above).
        #expect(errors > Soak.least(10), "\(errors) rows that throw")
    }

    /// A device whose rows are said not to throw is printed without the checking pass: on random
    /// fleets, every such device's rows are made without an error, and devices whose rows throw
    /// are always said to be able to.
    @Test func rowsSaidNotToThrowNeverThrow() throws {
        var random = SplitMix64(seed: 0x7468_726F)
        var quiet = 0, throwing = 0
        for _ in 0..<150 {
            var spec = FleetReferenceModelTests.randomSpec(&random)
            // A third of the fleets leave one of the global policy's controls unset (container policies may still set it).
            switch random.below(9) {
            case 0: spec.global.openFrom = nil
            case 1: spec.global.dragAndDrop = nil
            case 2: spec.global.pasteboard = nil
            default: break
            }
            guard let device = try? FleetJSON.read(Array(FleetReferenceModelTests.json(spec).utf8), file: "random.json").device(named: "d") else { continue }
            let rows = device.matrixRows()
            var threw = false
            for s in rows.senders.indices {
                do { _ = try rows.row(sender: s) } catch { threw = true }
            }
            if threw {
                throwing += 1
                #expect(rows.canThrow, "a row threw on a device said not to throw")
            }
            if !rows.canThrow { quiet += 1 }
        }
        #expect(quiet > 10 && throwing > 0, "both kinds of device occur: \(quiet) said not to throw, \(throwing) throwing")
    }
}

/// An Intune device's contexts share what the device gives every app: one managed-app set, looked up
/// (not a walk of every managed app per decision), and the same context the fleet makes one at a time.
@Suite struct IntuneDeviceIndexTests {
    @Test func contextsShareOneManagedSetAndEqualTheFleetsContexts() throws {
        let analysis = try FleetMatrixRowsTests.intune()
        let fleet = try #require(analysis.intune)
        for profile in fleet.devices {
            let index = try fleet.index(device: profile.name)
            for app in profile.installed + [.mobileMail, try BundleID("com.example.unlisted")] {
                let context = index.context(for: app)
                let keys = try #require(context.managedIndex.keys, "\(app): a context of the index looks managed apps up in a set")
                #expect(keys == Set(index.managed.map(IntuneBundleID.key)))
                #expect(context == fleet.context(for: app, on: profile), "\(app) on \(profile.name)")
                for other in profile.installed { #expect(context.isManaged(other) == IntuneBundleID.contains(fleet.managedApps(on: profile), other)) }
            }
        }
        // A context whose managed apps are set again walks the new list: the set is never stale.
        var context = try FleetMatrixRowsTests.intune().devices().first.map { _ in try fleet.index(device: fleet.devices[0].name).context(for: fleet.devices[0].installed[0]) }!
        context.managedApps = []
        #expect(context.managedIndex.keys == nil)
        #expect(!context.isManaged(fleet.devices[0].installed[0]))
    }
}
