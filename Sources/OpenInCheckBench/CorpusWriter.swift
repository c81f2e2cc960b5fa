#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a bench corpus to files: the request lines, and the policy next to them.
enum CorpusWriter {
    /// Where the policy of a corpus written to `file` goes: `file` with `.jsonl` replaced by `.policy.json`.
    static func policyPath(for file: String) -> String {
        (file.hasSuffix(".jsonl") ? String(file.dropLast(".jsonl".count)) : file) + ".policy.json"
    }

    /// Writes `lines` request lines (the benchmark mix) to `file` and the policy to ``policyPath(for:)``, streaming.
    /// - Returns: the size of the request file in bytes.
    /// - Throws: ``BenchError/invalidInput(_:)`` when a file cannot be written.
    @discardableResult
    static func write(_ corpus: BenchCorpus, lines: Int, to file: String) throws(BenchError) -> Int {
        try write(corpus.policyFile, to: policyPath(for: file))
        var bytes = 0
        try withFile(file) { output in
            for line in corpus.lines(count: lines) {
                output.write(line.text)
                output.write("\n")
                bytes += line.text.utf8.count + 1
            }
        }
        return bytes
    }

    /// Writes `lines` request lines as a program that escapes every non-ASCII character
    /// (Python's `json.dumps`) might: each channel's `-` written `\u002D`, and each document
    /// ending in `\u00e9` (é) before its extension. Every line is valid and none is plain ASCII
    /// without escapes.
    /// - Returns: the size of the file in bytes.
    @discardableResult
    static func writeEscaped(_ corpus: BenchCorpus, lines: Int, to file: String) throws(BenchError) -> Int {
        var bytes = 0
        try withFile(file) { output in
            for line in corpus.lines(count: lines, mix: .plain) {
                guard let fields = line.fields else { continue }
                var text = line.text.replacingFirst("\"channel\":\"\(fields.channel)\"",
                                                    with: "\"channel\":\"\(fields.channel.replacingFirst("-", with: "\\u002D"))\"")
                if let document = fields.document, let dot = document.lastIndex(of: ".") {
                    text = text.replacingFirst("\"document\":\"\(document)\"",
                                               with: "\"document\":\"\(document[..<dot])\\u00e9\(document[dot...])\"")
                }
                output.write(text)
                output.write("\n")
                bytes += text.utf8.count + 1
            }
        }
        return bytes
    }

    /// Writes `text` to `path`.
    /// - Throws: ``BenchError/invalidInput(_:)`` when the file cannot be written.
    static func write(_ text: String, to path: String) throws(BenchError) {
        try withFile(path) { output in output.write(text) }
    }

    private static func withFile(_ path: String, _ body: (BenchOutput) -> Void) throws(BenchError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if descriptor < 0 {
            throw .invalidInput("cannot write '\(path)': \(String(cString: strerror(errno)).lowercased())")
        }
        let output = BenchOutput(fileDescriptor: descriptor)
        body(output)
        output.flush()
        if close(descriptor) != 0 {
            throw .invalidInput("cannot write '\(path)': \(String(cString: strerror(errno)).lowercased())")
        }
    }
}

extension String {
    /// The string with the first occurrence of `target` replaced (no Foundation).
    func replacingFirst(_ target: String, with replacement: String) -> String {
        let characters = Array(self), needle = Array(target)
        guard !needle.isEmpty, characters.count >= needle.count else { return self }
        for start in 0...(characters.count - needle.count) where characters[start..<start + needle.count].elementsEqual(needle) {
            return String(characters[..<start]) + replacement + String(characters[(start + needle.count)...])
        }
        return self
    }
}
