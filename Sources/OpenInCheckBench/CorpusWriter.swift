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
