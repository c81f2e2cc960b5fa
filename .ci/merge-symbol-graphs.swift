// Merges the symbol graphs of the library's modules into one module's graph, so that the umbrella's
// DocC catalog (OpenInPolicy.docc) documents and links every symbol the umbrella re-exports as one
// module: DocC resolves a ``symbol`` link only within the module a catalog documents.
//
//   swift .ci/merge-symbol-graphs.swift OUTPUT_DIR MODULE GRAPH.symbols.json...
//
// Symbols and relationships are concatenated (a symbol given twice is kept once); the module is
// renamed MODULE. Used by .ci/docs.sh.
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: merge-symbol-graphs.swift OUTPUT_DIR MODULE GRAPH.symbols.json...\n".utf8))
    exit(64)
}
let output = arguments[arguments.startIndex]
let module = arguments[arguments.startIndex + 1]
var merged: [String: Any] = [:]
var symbols: [[String: Any]] = [], relationships: [[String: Any]] = []
var seen: Set<String> = []
for path in arguments.dropFirst(2) {
    guard let data = FileManager.default.contents(atPath: path),
        let graph = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    else {
        FileHandle.standardError.write(Data("merge-symbol-graphs: cannot read \(path)\n".utf8))
        exit(1)
    }
    if merged.isEmpty {
        merged = graph
        var moduleInfo = graph["module"] as? [String: Any] ?? [:]
        moduleInfo["name"] = module
        merged["module"] = moduleInfo
    }
    for symbol in graph["symbols"] as? [[String: Any]] ?? [] {
        let id = (symbol["identifier"] as? [String: Any])?["precise"] as? String ?? UUID().uuidString
        if seen.insert(id).inserted { symbols.append(symbol) }
    }
    relationships += graph["relationships"] as? [[String: Any]] ?? []
}
merged["symbols"] = symbols
merged["relationships"] = relationships
let data = try JSONSerialization.data(withJSONObject: merged)
try data.write(to: URL(fileURLWithPath: output).appendingPathComponent("\(module).symbols.json"))
