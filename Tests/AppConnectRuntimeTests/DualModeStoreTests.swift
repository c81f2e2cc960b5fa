import AppConnectRuntime
import Foundation
import Testing

/// Persisting the dual-mode and data encryption states.
@Suite struct DualModeStoreTests {
    /// The path of `state.json` in a new folder of its own (not written yet).
    static func temporaryPath() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dual-mode-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("state.json").path
    }

    /// Removes the folder `temporaryPath()` made for `path`, with all it holds.
    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }

    @Test func aMissingFileIsAFirstLaunch() throws {
        let path = try Self.temporaryPath()
        defer { Self.remove(path) }
        #expect(try FileDualModeStore(path: path).load() == nil)
    }

    @Test func whatIsSavedIsLoaded() throws {
        let path = try Self.temporaryPath()
        defer { Self.remove(path) }
        let store = FileDualModeStore(path: path)
        let record = DualModeRecord(state: .pendingAppConnectMode, dataEncryption: .encrypted)
        try store.save(record)
        #expect(try store.load() == record)
        try store.save(DualModeRecord(state: .nonAppConnectMode))
        #expect(try store.load() == DualModeRecord(state: .nonAppConnectMode))
    }

    @Test func theFileIsSmallReadableJSONAndNoTemporaryFileIsLeft() throws {
        let path = try Self.temporaryPath()
        defer { Self.remove(path) }
        try FileDualModeStore(path: path).save(DualModeRecord(state: .appConnectMode, dataEncryption: .encrypted))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == #"{"dataEncryption":"encrypted","state":"appconnect-mode"}"#)
        let directory = (path as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["state.json"])
    }

    @Test func aCorruptFileIsAnErrorThatSaysWhatToDo() throws {
        let path = try Self.temporaryPath()
        defer { Self.remove(path) }
        try #"{"state":"sideways"}"#.write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            try FileDualModeStore(path: path).load()
        } throws: { error in
            guard let error = error as? DualModeStoreError else { return false }
            return error.location == path && error.reason.contains("delete the file")
        }
    }

    @Test func aLaunchWithAnUnreadableStoreStartsNothing() throws {
        let path = try Self.temporaryPath()
        defer { Self.remove(path) }
        try "not json".write(toFile: path, atomically: true, encoding: .utf8)
        let device = SimulatedDevice()
        let controller = DualModeController(device: device, store: FileDualModeStore(path: path), delegate: MinimalApp())
        #expect(throws: DualModeStoreError.self) { try controller.launch() }
        #expect(controller.appConnect == nil)
        #expect(device.timeline.isEmpty)
    }

    @Test func theStatesPersistAcrossLaunchesInAFile() throws {
        let path = try Self.temporaryPath()
        defer { Self.remove(path) }
        let device = SimulatedDevice()
        let first = DualModeController(device: device, store: FileDualModeStore(path: path), delegate: MinimalApp())
        try first.launch()
        device.checkIn()
        device.terminateApp()
        let second = DualModeController(device: device, store: FileDualModeStore(path: path), delegate: MinimalApp())
        try second.launch()
        #expect(second.state == .appConnectMode)
        #expect(second.dataEncryption == .encrypted)
    }

    @Test func aFailedSaveIsReportedAndTheAppGoesOn() throws {
        let device = SimulatedDevice(ivantiClient: .notInstalled)
        let store = FileDualModeStore(path: "/nonexistent-directory-\(UUID().uuidString)/state.json")
        let controller = DualModeController(device: device, store: store, delegate: MinimalApp())
        try controller.launch()
        #expect(controller.state == .appConnectNotAvailable)
        guard case .dualMode(.storeFailed(let error)) = device.timeline.last else {
            Issue.record("expected a storeFailed event, got \(String(describing: device.timeline.last))")
            return
        }
        #expect(error.reason.hasPrefix("cannot be written"))
    }
}
