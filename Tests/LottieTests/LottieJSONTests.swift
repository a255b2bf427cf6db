import Foundation
import Lottie
import Testing

/// The importer's own JSON reader, through the public API: what RFC 8259 allows is read as
/// JavaScript's `JSON.parse` (which lottie-web uses) reads it, what it does not is refused with
/// the byte offset.
@Suite struct LottieJSONTests {
    static func animation(fr: String, v: String = #""5.7.0""#) throws -> LottieAnimation {
        try LottieAnimation.from(data: Data(#"{"v": \#(v), "fr": \#(fr), "ip": 0, "op": 10, "w": 10, "h": 10, "layers": []}"#.utf8))
    }

    /// Every spelling of ten that RFC 8259 §6 allows is ten.
    @Test func numbersInEverySpelling() throws {
        for text in ["10", "10.0", "1e1", "1E+1", "100e-1", "0.01e3", "10.000000000000000000000001", "1000000000000000000000e-20"] {
            #expect(try Self.animation(fr: text).framerate == 10, "\(text)")
        }
    }

    /// Decimal fractions are the nearest doubles: 0.1 + 0.2 in IEEE 754 binary64 is
    /// 0.30000000000000004 (17 significant digits, past the exact fast path), 29.97 is 2997/100.
    @Test func decimalsAreTheNearestDoubles() throws {
        #expect(try Self.animation(fr: "0.30000000000000004").framerate == 0.1 + 0.2)
        #expect(try Self.animation(fr: "29.97").framerate == 2997.0 / 100.0)
        #expect(try Self.animation(fr: "2.5e-3").framerate == 0.0025)
    }

    /// String escapes of RFC 8259 §7, a surrogate pair among them (U+1F600).
    @Test func stringEscapes() throws {
        let a = try Self.animation(fr: "30", v: #""5.\u0037\t\"\\\/\ud83d\ude00é""#)
        #expect(a.version == "5.7\t\"\\/\u{1F600}é")
    }

    /// A repeated key: the last one counts, as in `JSON.parse`.
    @Test func theLastOfARepeatedKeyCounts() throws {
        let a = try LottieAnimation.from(data: Data(#"{"fr": 12, "fr": 24, "ip": 0, "op": 10, "w": 10, "h": 10, "layers": []}"#.utf8))
        #expect(a.framerate == 24)
    }

    @Test func notJSONIsRefusedWithTheByte() {
        #expect(LottieErrorTests.error(#"{"fr": 30,}"#) == "not valid JSON: expected a member name in quotes at byte 10")
        #expect(LottieErrorTests.error(#"{"fr": 030}"#) == "not valid JSON: expected ',' or '}' in an object at byte 8")
        #expect(LottieErrorTests.error("{\"v\": \"a\u{1}b\"}") == "not valid JSON: a control character inside a string at byte 8")
        for text in [#"{"v": "open"#, #"{"fr": -}"#, #"{"fr": tru}"#, #"{"fr": 1.}"#, #"{"fr": 1e}"#, #"{"v": "\x"}"#, "{} {}", "   "] {
            let message = LottieErrorTests.error(text)
            #expect(message?.hasPrefix("not valid JSON: ") == true, "\(text): \(message ?? "accepted")")
        }
    }
}
