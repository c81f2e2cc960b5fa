import OpenInPolicy

/// The notes a text answer adds about a request's apps, in words.
extension FleetAppNames: FleetAppLookup {
    /// What a text answer on `device` adds about the request's apps: a target the fleet does not know
    /// (any other app), a sender or target the device does not install (and which devices do).
    public func notes(_ request: FleetRequest, device: String) -> [String] {
        var notes: [String] = []
        if questions.devicesByName == nil {
            questions.devicesByName = Dictionary(installed.indices.map { (Array(installed[$0].device.utf8), [$0]) }, uniquingKeysWith: +)
        }
        let here = questions.devicesByName?[Array(device.utf8)] ?? []
        // A lookup in this device's apps, not a walk of every device: the notes are asked once per device.
        func installedHere(_ id: BundleID) -> Bool { id.isNativeMail || here.contains { installed[$0].apps.contains(key(id)) } }
        if !installedHere(request.from) { notes.append("\(request.from) is not installed on this device (\(whereInstalled(request.from)))") }
        if let target = request.target, request.channel != .keyboard {
            if !isKnown(target) {
                notes.append("\(target) is not an app of \(file): decided as any other app")
            } else if !installedHere(target) {
                notes.append("\(target) is not installed on this device (\(whereInstalled(target)))")
            }
        }
        return notes
    }

    /// "installed on a, b", "installed on a, b, c, d, e and 12 more" or "no device profile installs it".
    package func whereInstalled(_ id: BundleID) -> String {
        let key = key(id)
        if let last = questions.lastWhere, last.key == key { return last.text }
        let names = devices(installing: id)
        // A few names, then how many more: a fleet of thousands of device profiles must not make a note as long as the fleet.
        let text = names.isEmpty ? "no device profile installs it" : "installed on " + Printable.list(names.map { DecisionText.escaped($0) })
        questions.lastWhere = (key, text)
        return text
    }
}
