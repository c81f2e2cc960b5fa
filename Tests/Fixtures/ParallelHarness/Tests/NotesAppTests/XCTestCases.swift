import AppConnect
import AppConnectTesting
import NotesApp
import XCTest

/// XCTest's tests, run as `swift test` runs them (one at a time, before Swift Testing's).
final class NotesXCTests: XCTestCase {
    func testSharesToTheListedViewer() throws {
        let harness = try AppConnectHarness([.openInPolicy(.whitelist, whitelist: ["com.example.viewer.xc1"])], callbacks: .declaredByTheApp)
        let app = NotesDelegate()
        app.launch()
        harness.checkIn()
        XCTAssertTrue(ShareButton.canShare(to: "com.example.viewer.xc1"))
        XCTAssertEqual(harness.problems, [])
    }

    func testAnotherTestsHarnessIsNotSeen() throws {
        let harness = try AppConnectHarness([.openInPolicy(.whitelist, whitelist: ["com.example.viewer.xc2"])], callbacks: .declaredByTheApp)
        XCTAssertNil(AppConnect.sharedInstance(), "a new harness starts with no library")
        let app = NotesDelegate()
        app.launch()
        harness.checkIn()
        XCTAssertFalse(ShareButton.canShare(to: "com.example.viewer.xc1"))
        XCTAssertTrue(ShareButton.canShare(to: "com.example.viewer.xc2"))
        XCTAssertEqual(harness.problems, [])
    }
}
