import Foundation

/// One value of a parsed JSON document and its path from the root (`layers[3].ks.p`), so that
/// every reading error names where in the file it is. Reads are typed and checked: a number must
/// be finite and within `LottieLimits.magnitude`. The path is a chain of parent links, spelled
/// out only when asked for (an error): reading a large file builds no path strings.
struct JSONNode {
    let value: JSONValue
    private let location: Location?

    /// Where a value is: its parent's location and its key or index (nil: the root).
    private final class Location {
        let parent: Location?
        let key: String?
        let index: Int

        init(parent: Location?, key: String?, index: Int) {
            self.parent = parent
            self.key = key
            self.index = index
        }

        var path: String {
            let prefix = parent?.path ?? ""
            guard let key else { return "\(prefix)[\(index)]" }
            return prefix.isEmpty ? key : "\(prefix).\(key)"
        }
    }

    private init(_ value: JSONValue, _ location: Location?) {
        self.value = value
        self.location = location
    }

    /// The JSON path from the root (`layers[3].ks.p`); empty for the root.
    var path: String { location?.path ?? "" }

    /// Parses `data`, refusing a file past `LottieLimits.fileBytes` or nested deeper than
    /// `LottieLimits.nesting` (checked as the parser descends, before any deeper value is read).
    static func parse(_ data: Data) throws(LottieError) -> JSONNode {
        guard data.count <= LottieLimits.fileBytes else {
            throw LottieError("", "the file is \(data.count) bytes; the limit is \(LottieLimits.fileBytes) bytes")
        }
        let result = data.withUnsafeBytes { raw -> Result<JSONValue, LottieError> in
            do {
                return .success(try JSONParser.parse(raw.bindMemory(to: UInt8.self), maxDepth: LottieLimits.nesting))
            } catch is JSONParser.TooDeep {
                return .failure(LottieError("", "arrays and objects are nested more than \(LottieLimits.nesting) deep"))
            } catch let error as JSONSyntaxError {
                return .failure(LottieError("", "not valid JSON: \(error.reason) at byte \(error.offset)"))
            } catch {
                return .failure(LottieError("", "not valid JSON: \(error)"))
            }
        }
        return JSONNode(try result.get(), nil)
    }

    /// A child of this node (`key` of an object, or element `index` of an array).
    private func child(_ value: JSONValue, key: String?, index: Int = 0) -> JSONNode {
        JSONNode(value, Location(parent: location, key: key, index: index))
    }

    /// The path of a member, for messages.
    private func path(of key: String) -> String {
        let path = path
        return path.isEmpty ? key : "\(path).\(key)"
    }

    // MARK: - Members

    /// The member `key` of this object; nil when absent or null. Throws when this is no object.
    func member(_ key: String) throws(LottieError) -> JSONNode? {
        guard case .object = value else { throw LottieError(path, "expected an object") }
        guard let found = value[key] else { return nil }
        if case .null = found { return nil }
        return child(found, key: key)
    }

    /// The member `key`, which must be there.
    func required(_ key: String) throws(LottieError) -> JSONNode {
        guard let found = try member(key) else { throw LottieError(path(of: key), "missing") }
        return found
    }

    /// Whether this is an object with a member `key` that is not null.
    func has(_ key: String) -> Bool {
        guard let found = value[key] else { return false }
        if case .null = found { return false }
        return true
    }

    // MARK: - Values

    var isArray: Bool { if case .array = value { true } else { false } }
    var isObject: Bool { if case .object = value { true } else { false } }

    /// The elements of an array value, at most `LottieLimits.elements`.
    private func elements() throws(LottieError) -> [JSONValue] {
        guard case let .array(items) = value else { throw LottieError(path, "expected an array") }
        guard items.count <= LottieLimits.elements else {
            throw LottieError(path, "\(items.count) elements; the limit is \(LottieLimits.elements)")
        }
        return items
    }

    /// The elements of this array, each with its path; at most `LottieLimits.elements`.
    func array() throws(LottieError) -> [JSONNode] {
        try elements().enumerated().map { child($1, key: nil, index: $0) }
    }

    /// A finite number within ±`LottieLimits.magnitude` (JSON `true`/`false` read as 1/0, as
    /// Bodymovin writes flags either way).
    func number() throws(LottieError) -> Double {
        guard let x = Self.number(value) else { throw numberError(value, path) }
        return x
    }

    /// `value` as a number in range, or nil.
    private static func number(_ value: JSONValue) -> Double? {
        let x: Double
        switch value {
        case let .number(n): x = n
        case let .bool(b): x = b ? 1 : 0
        default: return nil
        }
        return x.isFinite && abs(x) <= LottieLimits.magnitude ? x : nil
    }

    /// Why `value` (at `path`) is not a number in range.
    private func numberError(_ value: JSONValue, _ path: String) -> LottieError {
        switch value {
        case let .number(x): LottieError(path, "\(x) is out of range: expected a number between -1e9 and 1e9")
        default: LottieError(path, "expected a number")
        }
    }

    func int() throws(LottieError) -> Int {
        let x = try number()
        guard x == x.rounded() else { throw LottieError(path, "expected a whole number, not \(x)") }
        return Int(x)
    }

    func string() throws(LottieError) -> String {
        guard case let .string(s) = value else { throw LottieError(path, "expected a string") }
        return s
    }

    /// A number, or an array of numbers (a vector: position, colour, scale).
    func numbers() throws(LottieError) -> [Double] {
        guard isArray else { return [try number()] }
        let items = try elements()
        var result: [Double] = []
        result.reserveCapacity(items.count)
        for (n, item) in items.enumerated() {
            guard let x = Self.number(item) else { throw numberError(item, "\(path)[\(n)]") }
            result.append(x)
        }
        return result
    }

    /// An array of pairs of numbers (`[[x, y], …]`, a path's vertices; extra numbers in a pair are
    /// ignored), read without a node per element; an error names the element at fault.
    func pairs() throws(LottieError) -> [(Double, Double)] {
        let items = try elements()
        var result: [(Double, Double)] = []
        result.reserveCapacity(items.count)
        for (n, item) in items.enumerated() {
            guard case let .array(pair) = item, pair.count >= 2 else { throw LottieError("\(path)[\(n)]", "expected [x, y]") }
            guard let x = Self.number(pair[0]) else { throw numberError(pair[0], "\(path)[\(n)][0]") }
            guard let y = Self.number(pair[1]) else { throw numberError(pair[1], "\(path)[\(n)][1]") }
            result.append((x, y))
        }
        return result
    }

    // MARK: - Optional members with defaults

    func number(_ key: String, default value: Double) throws(LottieError) -> Double {
        try member(key)?.number() ?? value
    }

    func int(_ key: String, default value: Int) throws(LottieError) -> Int {
        try member(key)?.int() ?? value
    }

    func string(_ key: String) throws(LottieError) -> String? {
        try member(key)?.string()
    }

    func flag(_ key: String) throws(LottieError) -> Bool {
        try member(key).map { node throws(LottieError) in try node.number() != 0 } ?? false
    }
}
