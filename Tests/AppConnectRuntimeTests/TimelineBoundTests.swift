import AppConnectRuntime
import OpenInPolicy
import Testing

/// The device's timeline keeps its latest events only, and counts the rest.
struct TimelineBoundTests {
    @Test func theTimelineKeepsTheLatestEventsAndCountsEveryOne() {
        let device = SimulatedDevice(timelineLimit: 3)
        let policies: [ACPrintPolicy] = [.authorized, .unauthorized, .authorized, .unauthorized, .authorized]
        for policy in policies { device.push(.printPolicy(policy)) }
        #expect(device.recordedEventCount == 5)
        #expect(device.timeline == [.server(.printPolicy(.authorized)), .server(.printPolicy(.unauthorized)), .server(.printPolicy(.authorized))])
        #expect(device.events(since: 3) == [.server(.printPolicy(.unauthorized)), .server(.printPolicy(.authorized))])
        // Events already dropped are left out.
        #expect(device.events(since: 0) == device.timeline)
    }

    @Test func aDeviceKeepsTheDefaultNumberOfEvents() {
        let device = SimulatedDevice()
        for _ in 0..<(SimulatedDevice.defaultTimelineLimit + 10) { device.push(.printPolicy(.authorized)) }
        #expect(device.timeline.count == SimulatedDevice.defaultTimelineLimit)
        #expect(device.recordedEventCount == SimulatedDevice.defaultTimelineLimit + 10)
    }
}
