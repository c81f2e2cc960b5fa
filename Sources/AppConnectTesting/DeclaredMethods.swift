internal import OpenInPolicy
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The methods a type declares, as the symbol table of the file that holds it names them:
/// what lets the harness see a method that nearly matches an SDK callback, which Swift
/// (with no Objective-C runtime on Linux) has no other way to list.
///
/// Reads the ELF symbol table (`.symtab`) of the executable or library holding the type's
/// metadata and demangles the Swift function symbols there. A stripped binary, or a
/// platform whose binaries are not ELF, gives `nil`: the caller then says it could not look.
enum DeclaredMethods {
    /// One method: its base name, argument labels (`_` for none) and parameter types, as demangled.
    struct Method: Hashable {
        let name: String
        let labels: [String]
        let types: [String]

        /// `appConnect(_:configChangedTo:)`.
        var swiftName: String { "\(name)(\(labels.map { $0 + ":" }.joined()))" }
    }

    /// The methods `type` declares, or nil when its file's symbol table cannot be read.
    static func of(_ type: Any.Type) -> [Method]? {
        let typeName = String(reflecting: type)
        guard let symbols = functionSymbols(holding: type) else { return nil }
        let prefix = typeName + "."
        var methods: Set<Method> = []
        for symbol in symbols where symbol.hasPrefix(prefix) {
            if let method = parse(symbol.dropFirst(prefix.count)) { methods.insert(method) }
        }
        return methods.sorted { $0.swiftName < $1.swiftName }
    }

    /// `appConnect(_: AppConnect.AppConnect, configChangedTo: [Swift.String : Any]) -> ()` as a method;
    /// nil for anything else (a nested type's member, an accessor, a closure).
    static func parse(_ text: Substring) -> Method? {
        let name = text.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        guard !name.isEmpty, text.dropFirst(name.count).first == "(" else { return nil }
        var labels: [String] = []
        var types: [String] = []
        var depth = 0
        var current = ""
        var rest = text.dropFirst(name.count + 1)
        while let character = rest.first {
            rest = rest.dropFirst()
            if depth == 0 && (character == "," || character == ")") {
                let parameter = current.drop { $0 == " " }
                if !parameter.isEmpty {
                    // `label: Type`, or a bare `Type` for an unlabelled parameter.
                    if let colon = parameter.firstIndex(of: ":"), parameter[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
                       parameter[parameter.index(after: colon)...].first == " " {
                        labels.append(String(parameter[..<colon]))
                        types.append(String(parameter[parameter.index(colon, offsetBy: 2)...]))
                    } else {
                        labels.append("_")
                        types.append(String(parameter))
                    }
                }
                current = ""
                if character == ")" { break }
                continue
            }
            if "([<".contains(character) { depth += 1 }
            if ")]>".contains(character) { depth -= 1 }
            current.append(character)
        }
        guard rest.hasPrefix(" -> ") else { return nil }
        return Method(name: String(name), labels: labels, types: types)
    }

    // MARK: The symbol table

    private static let cache = Cache()

    /// Every demangled Swift function symbol of the file holding `type`'s metadata (cached per file).
    private static func functionSymbols(holding type: Any.Type) -> [String]? {
        let address = UInt(bitPattern: unsafeBitCast(type, to: UnsafeRawPointer.self))
        guard let path = fileMapped(at: address) else { return nil }
        return cache.symbols(path: path) { ELFSymbols.functionNames(path: path)?.compactMap(demangle) }
    }

    /// The file mapped at `address` in this process, from `/proc/self/maps` (Linux); nil elsewhere.
    static func fileMapped(at address: UInt) -> String? {
        guard let bytes = try? CappedFile.read(path: "/proc/self/maps", what: "memory map") else { return nil }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            // start-end perms offset dev inode path
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6, let dash = fields[0].firstIndex(of: "-"),
                  let start = UInt(fields[0][..<dash], radix: 16), let end = UInt(fields[0][fields[0].index(after: dash)...], radix: 16),
                  (start..<end).contains(address) else { continue }
            let path = fields[5].drop { $0 == " " }
            return path.hasPrefix("/") ? String(path) : nil
        }
        return nil
    }

    /// The demangled form of a Swift symbol (`$s…`), or nil for any other symbol.
    static func demangle(_ symbol: String) -> String? {
        guard symbol.hasPrefix("$s"), symbol.hasSuffix("F") else { return nil }
        return symbol.withCString { pointer in
            guard let demangled = swiftDemangle(pointer, strlen(pointer), nil, nil, 0) else { return nil }
            defer { free(demangled) }
            return String(cString: demangled)
        }
    }

    /// The demangled symbols per file, read once.
    private final class Cache: @unchecked Sendable {
        private var files: [String: [String]?] = [:]
        private var lock = pthread_mutex_t()

        init() { pthread_mutex_init(&lock, nil) }

        func symbols(path: String, read: () -> [String]?) -> [String]? {
            pthread_mutex_lock(&lock)
            defer { pthread_mutex_unlock(&lock) }
            if let known = files[path] { return known }
            let found = read()
            files[path] = .some(found)
            return found
        }
    }
}

/// The Swift runtime's demangler (`swift_demangle` in the runtime's public C interface).
@_silgen_name("swift_demangle")
private func swiftDemangle(_ mangledName: UnsafePointer<CChar>?, _ mangledNameLength: Int, _ outputBuffer: UnsafeMutablePointer<CChar>?,
                           _ outputBufferSize: UnsafeMutablePointer<Int>?, _ flags: UInt32) -> UnsafeMutablePointer<CChar>?

/// The names of the function symbols in an ELF file's `.symtab`.
enum ELFSymbols {
    /// The names of the `STT_FUNC` symbols of the 64-bit little-endian ELF file at `path`, or nil when the
    /// file is not one, cannot be read, or has no symbol table (stripped).
    static func functionNames(path: String) -> [String]? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 64 else { return nil }
        let size = Int(status.st_size)
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else { return nil }
        defer { munmap(mapped, size) }
        return names(in: UnsafeRawBufferPointer(start: mapped, count: size))
    }

    /// The function symbol names in an ELF image; every offset is checked against the image's size.
    static func names(in file: UnsafeRawBufferPointer) -> [String]? {
        func load<T: FixedWidthInteger>(_ offset: Int, as type: T.Type) -> T? {
            guard offset >= 0, offset + MemoryLayout<T>.size <= file.count else { return nil }
            return T(littleEndian: file.loadUnaligned(fromByteOffset: offset, as: T.self))
        }
        // "\x7FELF", 64-bit (class 2), little-endian (data 1).
        guard file.count > 64, file[0] == 0x7F, file[1] == 0x45, file[2] == 0x4C, file[3] == 0x46, file[4] == 2, file[5] == 1,
              let sectionsOffset = load(0x28, as: UInt64.self), let entrySize = load(0x3A, as: UInt16.self),
              let count = load(0x3C, as: UInt16.self), entrySize >= 64 else { return nil }
        func section(_ index: Int) -> (type: UInt32, offset: Int, size: Int, link: Int, entrySize: Int)? {
            let base = Int(sectionsOffset) + index * Int(entrySize)
            guard let type = load(base + 4, as: UInt32.self), let offset = load(base + 0x18, as: UInt64.self),
                  let size = load(base + 0x20, as: UInt64.self), let link = load(base + 0x28, as: UInt32.self),
                  let entry = load(base + 0x38, as: UInt64.self), offset <= UInt64(file.count), size <= UInt64(file.count) - offset else { return nil }
            return (type, Int(offset), Int(size), Int(link), Int(entry))
        }
        let symbolTableType: UInt32 = 2
        guard let table = (0..<Int(count)).lazy.compactMap(section).first(where: { $0.type == symbolTableType }),
              table.entrySize >= 24, let strings = section(table.link) else { return nil }
        var names: [String] = []
        for index in 0..<(table.size / table.entrySize) {
            let entry = table.offset + index * table.entrySize
            guard let nameOffset = load(entry, as: UInt32.self), let info = load(entry + 4, as: UInt8.self),
                  info & 0xF == 2, Int(nameOffset) < strings.size else { continue }  // STT_FUNC
            let start = strings.offset + Int(nameOffset)
            let end = file[start..<(strings.offset + strings.size)].firstIndex(of: 0) ?? (strings.offset + strings.size)
            guard end - start > 2, file[start] == UInt8(ascii: "$"), file[start + 1] == UInt8(ascii: "s") else { continue }
            names.append(String(decoding: file[start..<end], as: UTF8.self))
        }
        return names
    }
}
