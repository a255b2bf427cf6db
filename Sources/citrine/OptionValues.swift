import Export
import CoreText
import Foundation
import ImageCodecs
import QuartzCore

// The values of `citrine`'s options, read from their text. ArgumentParser hands the command
// strings; these functions turn them into numbers and colours, and a value they cannot use into
// `bad --OPTION 'VALUE': expected …` (status 1) — a bad value is bad input, not bad usage.

enum OptionValue {
    /// Seconds: `1.5`, `1.5s` or `250ms` (ffmpeg's duration suffixes), finite.
    static func seconds(_ text: String, _ option: String, allowNegative: Bool = true) throws(Failure) -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var number = trimmed, unit = 1.0
        if trimmed.hasSuffix("ms") {
            number = String(trimmed.dropLast(2)); unit = 0.001
        } else if trimmed.hasSuffix("s") {
            number = String(trimmed.dropLast())
        }
        let expected = allowNegative ? "seconds, e.g. 1.5, 1.5s or 250ms"
                                     : "a non-negative number of seconds, e.g. 1.5, 1.5s or 250ms"
        guard let value = Double(number), value.isFinite, allowNegative || value >= 0 else {
            throw .badValue(option, text, expected: expected)
        }
        return value * unit
    }

    /// Frames per second: `30`, `29.97` or `30000/1001`, within `FrameRate`'s range.
    static func fps(_ text: String) throws(Failure) -> Double {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let value: Double?
        switch parts.count {
        case 1: value = Double(text)
        case 2: value = Double(parts[0]).flatMap { n in Double(parts[1]).map { n / $0 } }
        default: value = nil
        }
        guard let value, FrameRate(value) != nil else {
            throw .badValue("--fps", text, expected: "frames per second from \(number(FrameRate.minimum)) to "
                            + "\(number(FrameRate.maximum)), e.g. 30, 29.97 or 30000/1001")
        }
        return value
    }

    /// A whole number in `range`.
    static func integer(_ text: String, _ option: String, in range: ClosedRange<Int>, expected: String) throws(Failure) -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
            throw .badValue(option, text, expected: expected)
        }
        return value
    }

    /// A positive, finite number.
    static func positive(_ text: String, _ option: String, expected: String) throws(Failure) -> Double {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, value > 0 else {
            throw .badValue(option, text, expected: expected)
        }
        return value
    }

    /// `--scale`: pixels per point, a positive number.
    static func scale(_ text: String) throws(Failure) -> CGFloat {
        CGFloat(try positive(text, "--scale", expected: "pixels per point, a positive number (e.g. 1, 2, 1.5)"))
    }

    /// `WxH` in pixels (`x` or `×`).
    static func pixelSize(_ text: String, _ option: String) throws(Failure) -> (width: Int, height: Int) {
        let parts = text.lowercased().split(whereSeparator: { $0 == "x" || $0 == "×" }).map(String.init)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else {
            throw .badValue(option, text, expected: "WIDTHxHEIGHT in pixels, e.g. 640x480")
        }
        return (w, h)
    }

    /// `transparent` (nil), `#RRGGBB` or `#RRGGBBAA`.
    static func background(_ text: String) throws(Failure) -> CGColor? {
        if text.lowercased() == "transparent" { return nil }
        let hex = text.hasPrefix("#") ? text.dropFirst() : text[...]
        guard hex.count == 6 || hex.count == 8, hex.allSatisfy(\.isHexDigit), let bits = UInt32(hex, radix: 16) else {
            throw .badValue("--background", text, expected: "transparent, #RRGGBB or #RRGGBBAA")
        }
        let rgba = hex.count == 6 ? bits << 8 | 0xFF : bits
        func channel(_ shift: UInt32) -> CGFloat { CGFloat((rgba >> shift) & 0xFF) / 255 }
        return CGColor(red: channel(24), green: channel(16), blue: channel(8), alpha: channel(0))
    }

    /// One of `ExportFormat`'s names.
    static func format(_ text: String) throws(Failure) -> ExportFormat {
        guard let format = ExportFormat(rawValue: text.lowercased()) else {
            throw .badValue("--format", text, expected: ExportFormat.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return format
    }

    /// A number as people write it: `30`, `0.5`, `0.001`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

extension OptionValue {
    /// `--font-dir DIR`: text is drawn only with the fonts in DIR, here and in a child that runs
    /// the user's code (`CITRINE_FONT_DIR`, which the child inherits), so two machines given the
    /// same folder draw the same pixels.
    static func useFontDirectory(_ folder: String?) throws(Failure) {
        guard let folder else { return }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw Failure(.badInput, "--font-dir \(folder): not a folder")
        }
        let absolute = URL(fileURLWithPath: folder).standardizedFileURL.path
        setenv("CITRINE_FONT_DIR", absolute, 1)
        CoreText.useFontDirectory(absolute)
    }
}
