// A JSON parser (RFC 8259) into plain Swift values, for Bodymovin files: one pass over the bytes,
// no Foundation object per value (JSONSerialization made an NSNumber per number and bridged
// dictionaries, most of the import time of a large file), the nesting bound checked as it
// descends (so a hostile file cannot overflow the stack), and an error naming the byte offset.

/// One parsed JSON value. Objects keep their members in file order, looked up by a linear scan
/// (a Bodymovin object has a handful of short keys); with a repeated key the last one counts,
/// as in JavaScript's `JSON.parse`, which lottie-web reads files with.
enum JSONValue {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    /// The member `key` of an object (the last one of that name); nil for other values.
    subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        for member in members.reversed() where member.key == key { return member.value }
        return nil
    }
}

/// Why bytes are not JSON: the reason and the byte offset (from 0) where it was found.
struct JSONSyntaxError: Error {
    let reason: String
    let offset: Int
}

/// Parses UTF-8 JSON text, arrays and objects nested at most `maxDepth` deep.
struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let maxDepth: Int
    private var i = 0

    /// Thrown, instead of a syntax error, when arrays and objects nest deeper than `maxDepth`.
    struct TooDeep: Error {}

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) throws -> JSONValue {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        parser.skipSpace()
        guard parser.i < bytes.count else { throw JSONSyntaxError(reason: "no value (the text is empty)", offset: 0) }
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.i == bytes.count else { throw parser.fail("text after the value") }
        return value
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    private func fail(_ reason: String) -> JSONSyntaxError { JSONSyntaxError(reason: reason, offset: i) }

    private mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws -> JSONValue {
        guard i < bytes.count else { throw fail("the text ends where a value should be") }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            guard depth < maxDepth else { throw TooDeep() }
            i += 1
            var members: [(key: String, value: JSONValue)] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a member name in quotes") }
                let key = try string()
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':' after a member name") }
                i += 1
                skipSpace()
                members.append((key, try value(depth: depth + 1)))
                skipSpace()
                guard i < bytes.count else { throw fail("the text ends inside an object") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                guard bytes[i] == UInt8(ascii: "}") else { throw fail("expected ',' or '}' in an object") }
                i += 1
                return .object(members)
            }
        case UInt8(ascii: "["):
            guard depth < maxDepth else { throw TooDeep() }
            i += 1
            var items: [JSONValue] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard i < bytes.count else { throw fail("the text ends inside an array") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                guard bytes[i] == UInt8(ascii: "]") else { throw fail("expected ',' or ']' in an array") }
                i += 1
                return .array(items)
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            try word("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try word("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try word("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try number())
        default:
            throw fail("unexpected character '\(Unicode.Scalar(bytes[i]))'")
        }
    }

    private mutating func word(_ text: StaticString) throws {
        let n = text.utf8CodeUnitCount
        guard i + n <= bytes.count else { throw fail("unexpected end of the text") }
        for k in 0..<n where bytes[i + k] != text.utf8Start[k] { throw fail("unexpected word") }
        i += n
    }

    /// A string from its opening quote; the escapes of RFC 8259 §7 (an unpaired surrogate
    /// becomes U+FFFD, and so do bytes that are not UTF-8, as `String(decoding:)` repairs them).
    private mutating func string() throws -> String {
        i += 1
        let start = i
        // The common case: no escape — the bytes as they are.
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                defer { i += 1 }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
            }
            if b == UInt8(ascii: "\\") { break }
            guard b >= 0x20 else { throw fail("a control character inside a string") }
            i += 1
        }
        var out = Array(bytes[start..<i])
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            guard b >= 0x20 else { throw fail("a control character inside a string") }
            guard b == UInt8(ascii: "\\") else { out.append(b); i += 1; continue }
            guard i + 1 < bytes.count else { break }
            i += 2
            switch bytes[i - 1] {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar), i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") {
                    let save = i
                    i += 2
                    let low = try hex4()
                    if (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        i = save
                    }
                }
                out.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
            default:
                i -= 1
                throw fail("an unknown escape in a string")
            }
        }
        throw JSONSyntaxError(reason: "a string is not closed", offset: start - 1)
    }

    private mutating func hex4() throws -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail("a \\u escape needs four hex digits") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
            default: throw fail("a \\u escape needs four hex digits")
            }
            v = v << 4 | UInt32(d)
            i += 1
        }
        return v
    }

    /// Powers of ten exactly representable as doubles (10²² is the last).
    private static let exactPowers: [Double] = (0...22).map { n in (0..<n).reduce(1.0) { r, _ in r * 10 } }

    /// A number per RFC 8259 §6. Up to 15 significant digits and a decimal exponent within ±22
    /// are converted exactly (one correctly rounded multiplication or division: Clinger's fast
    /// path); anything else by the standard library's correctly rounded `Double(_:)`.
    private mutating func number() throws -> Double {
        let start = i
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var mantissa: UInt64 = 0, significant = 0, exponent = 0
        func digit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
        guard i < bytes.count, digit(bytes[i]) else { throw fail("a number needs a digit") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            while i < bytes.count, digit(bytes[i]) {
                if significant < 19 { mantissa = mantissa * 10 + UInt64(bytes[i] - UInt8(ascii: "0")) } else { exponent += 1 }
                significant += 1
                i += 1
            }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < bytes.count, digit(bytes[i]) else { throw fail("a number needs a digit after '.'") }
            while i < bytes.count, digit(bytes[i]) {
                let d = UInt64(bytes[i] - UInt8(ascii: "0"))
                if significant == 0 && d == 0 {
                    exponent -= 1
                } else if significant < 19 {
                    mantissa = mantissa * 10 + d
                    significant += 1
                    exponent -= 1
                } else {
                    significant += 1
                }
                i += 1
            }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            var sign = 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                if bytes[i] == UInt8(ascii: "-") { sign = -1 }
                i += 1
            }
            guard i < bytes.count, digit(bytes[i]) else { throw fail("a number needs a digit in its exponent") }
            var e = 0
            while i < bytes.count, digit(bytes[i]) {
                if e < 100_000 { e = e * 10 + Int(bytes[i] - UInt8(ascii: "0")) }
                i += 1
            }
            exponent += sign * e
        }
        if significant <= 15, abs(exponent) <= 22 {
            let m = Double(mantissa)
            let x = exponent < 0 ? m / Self.exactPowers[-exponent] : m * Self.exactPowers[exponent]
            return negative ? -x : x
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        guard let x = Double(text) else { throw JSONSyntaxError(reason: "the number \(text) cannot be read", offset: start) }
        return x
    }
}
