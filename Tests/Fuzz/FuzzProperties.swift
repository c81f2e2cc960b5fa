// Properties the fuzz targets assert, compiled into every target by .ci/fuzz.sh.
import OpenInPolicy

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("fuzz property violated: \(message())") }
}

/// Whether `text` is a bundle ID the SDK could list: valid, and ASCII byte for byte.
func isASCIIBundleID(_ text: String) -> Bool {
    text.utf8.allSatisfy { $0 < 0x80 } && BundleID.problem(in: text) == nil
}

/// The override keys are read only when spelled with exactly their bytes, and only for the values that turn them on.
func checkOverrides(_ config: [String: String]) {
    let read = AppConfig(config)
    if read.disablesSchemeBlocking {
        check(config.contains { $0.key.utf8.elementsEqual("MI_AC_DISABLE_SCHEME_BLOCKING".utf8) && $0.value.utf8.elementsEqual("true".utf8) },
              "scheme blocking turned off without the exact key and value: \(config)")
    }
    if read.disablesOpenInEnforcement {
        check(config.contains { entry in
            entry.key.utf8.elementsEqual("MI_AC_DISABLE_OPEN_IN_ENFORCEMENT".utf8)
                && ["yes", "true"].contains { entry.value.utf8.map { $0 | 0x20 }.elementsEqual($0.utf8) }
        }, "enforcement turned off without the exact key and a yes/true value: \(config)")
    }
}
