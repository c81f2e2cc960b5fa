import OpenInPolicy

/// What `fleet paths --write-baseline` says once it has written the file: the counts, then each entry
/// dropped as resolved and each kept entry that has expired.
public enum BaselineWriteText {
    /// The summary of `merge`, written to `file`, one line each and the entries indented.
    public static func summary(file: String, merge: BaselineWriter.Merge) -> String {
        var text = "baseline \(DecisionText.escaped(file)) written: \(merge.kept) kept, \(merge.added) added, \(merge.dropped.count) dropped as resolved\n"
        for entry in merge.dropped {
            text += "  dropped: \(DecisionText.escaped(entry.deviceName)): \(DecisionText.escaped(entry.from.rawValue)) → \(DecisionText.escaped(entry.to.description))"
            text += "  (line \(entry.line ?? 0): no such path any more)\n"
        }
        for entry in merge.expired {
            text += "  still expired: \(DecisionText.escaped(entry.deviceName)): \(DecisionText.escaped(entry.from.rawValue)) → \(DecisionText.escaped(entry.to.description))"
            text += "  (line \(entry.line ?? 0): expired on \(entry.expires); kept as it was: renew it in the file if the review does)\n"
        }
        return text
    }
}
