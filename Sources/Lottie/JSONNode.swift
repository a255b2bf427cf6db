import Foundation

/// One value of a parsed JSON document and its path from the root (`layers[3].ks.p`), so that
/// every reading error names where in the file it is. Reads are typed and checked: a number must
/// be finite and within `LottieLimits.magnitude`.
struct JSONNode {
    let value: Any
    let path: String

    /// Parses `data`, refusing a file past `LottieLimits.fileBytes` or nested deeper than
    /// `LottieLimits.nesting` before Foundation's parser sees it.
    static func parse(_ data: Data) throws(LottieError) -> JSONNode {
        guard data.count <= LottieLimits.fileBytes else {
            throw LottieError("", "the file is \(data.count) bytes; the limit is \(LottieLimits.fileBytes) bytes")
        }
        try checkNesting(data)
        do {
            let value = try JSONSerialization.jsonObject(with: data, options: [])
            return JSONNode(value: value, path: "")
        } catch {
            let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            throw LottieError("", "not valid JSON: \(text)")
        }
    }

    /// One pass over the bytes counting brackets outside strings.
    private static func checkNesting(_ data: Data) throws(LottieError) {
        var depth = 0, inString = false, escaped = false
        for byte in data {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true }
                else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > LottieLimits.nesting {
                    throw LottieError("", "arrays and objects are nested more than \(LottieLimits.nesting) deep")
                }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
    }

    // MARK: - Members

    /// The member `key` of this object; nil when absent or null. Throws when this is no object.
    func member(_ key: String) throws(LottieError) -> JSONNode? {
        guard let object = value as? [String: Any] else { throw LottieError(path, "expected an object") }
        guard let found = object[key], !(found is NSNull) else { return nil }
        return JSONNode(value: found, path: path.isEmpty ? key : "\(path).\(key)")
    }

    /// The member `key`, which must be there.
    func required(_ key: String) throws(LottieError) -> JSONNode {
        guard let found = try member(key) else {
            throw LottieError(path.isEmpty ? key : "\(path).\(key)", "missing")
        }
        return found
    }

    func has(_ key: String) -> Bool { (try? member(key)) != nil }

    // MARK: - Values

    var isArray: Bool { value is [Any] }
    var isObject: Bool { value is [String: Any] }

    /// The elements of this array, each with its path; at most `LottieLimits.elements`.
    func array() throws(LottieError) -> [JSONNode] {
        guard let items = value as? [Any] else { throw LottieError(path, "expected an array") }
        guard items.count <= LottieLimits.elements else {
            throw LottieError(path, "\(items.count) elements; the limit is \(LottieLimits.elements)")
        }
        return items.enumerated().map { JSONNode(value: $1, path: "\(path)[\($0)]") }
    }

    /// A finite number within ±`LottieLimits.magnitude` (JSON `true`/`false` read as 1/0, as
    /// Bodymovin writes flags either way).
    func number() throws(LottieError) -> Double {
        guard !(value is String), let n = value as? NSNumber else { throw LottieError(path, "expected a number") }
        let x = n.doubleValue
        guard x.isFinite, abs(x) <= LottieLimits.magnitude else {
            throw LottieError(path, "\(x) is out of range: expected a number between -1e9 and 1e9")
        }
        return x
    }

    func int() throws(LottieError) -> Int {
        let x = try number()
        guard x == x.rounded() else { throw LottieError(path, "expected a whole number, not \(x)") }
        return Int(x)
    }

    func string() throws(LottieError) -> String {
        guard let s = value as? String else { throw LottieError(path, "expected a string") }
        return s
    }

    /// A number, or an array of numbers (a vector: position, colour, scale).
    func numbers() throws(LottieError) -> [Double] {
        if isArray { return try array().map { item throws(LottieError) in try item.number() } }
        return [try number()]
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
