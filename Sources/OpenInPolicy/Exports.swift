// The bytes-and-text layer below the engine, re-exported: `import OpenInPolicy` keeps giving
// `FormatError` and `JSONPosition`, which the readers throw and name.
@_exported import OpenInKit
