import Foundation

/// The size of a large random or differential run: all of it under `OPENIN_SOAK=1` (which `.ci/run` sets) or
/// `CI=true`, so CI checks as much as ever; a third of it under plain `swift test`, so a newcomer's run stays short.
public enum Soak {
    /// Whether the soak size runs.
    public static let isOn: Bool = {
        let environment = ProcessInfo.processInfo.environment
        return environment["OPENIN_SOAK"] == "1" || environment["CI"] == "true"
    }()

    /// How much smaller the fast size is.
    public static let divisor = 3

    /// `count` cases at soak size, a third of them (at least one) otherwise.
    public static func size(_ count: Int) -> Int { isOn ? count : max(1, (count + divisor - 1) / divisor) }

    /// The least work (cases, paths, groups) a run of ``size(_:)`` cases must cover: `least` at soak size, a third of it otherwise.
    public static func least(_ least: Int) -> Int { isOn ? least : least / divisor }
}
