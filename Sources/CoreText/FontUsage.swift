import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Which fonts text drawing used, for the exports' record of them (a PNG `iTXt` "Comment").
//
// Design note
// -----------
// * A `FontUsage` is made active on a thread (`recording(_:)`) around the work whose text it
//   records — one frame's render in the exporter. `TextRenderer.glyphs` (every text drawn:
//   `CATextLayer`, `CTLineDraw`, `CTFrameDraw`, `NSAttributedString.draw`) adds the resolved font
//   of each of the layout's styles to the calling thread's active usage, if any: one lookup per
//   style per layout, nothing per glyph, no allocation once a font is known.
// * Text laid out only to be measured (`CTLineGetTypographicBounds`, `boundingRect`) is not
//   drawing and is not recorded.

/// The fonts (`FontResolution`s) that text drawing used while this usage was recording, in
/// order of first use. Safe to merge into from several threads.
package final class FontUsage: @unchecked Sendable {
    private var fonts: [FontResolution] = []
    private let lock = NSLock()

    package init() {}

    /// The fonts recorded, in order of first use.
    package var resolutions: [FontResolution] {
        lock.lock(); defer { lock.unlock() }
        return fonts
    }

    package var isEmpty: Bool { resolutions.isEmpty }

    /// Adds `font` unless it is there already.
    package func record(_ font: FontResolution) {
        lock.lock(); defer { lock.unlock() }
        if !fonts.contains(font) { fonts.append(font) }
    }

    /// Adds the fonts of `other` that are not there yet.
    package func merge(_ other: FontUsage) {
        for font in other.resolutions { record(font) }
    }

    package func removeAll() {
        lock.lock(); defer { lock.unlock() }
        fonts.removeAll(keepingCapacity: true)
    }

    /// Runs `body` with this usage recording the text drawn on the calling thread (the usage
    /// active before it is restored afterwards).
    package func recording<R>(_ body: () throws -> R) rethrows -> R {
        let before = pthread_getspecific(Self.activeSlot)
        pthread_setspecific(Self.activeSlot, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(Self.activeSlot, before) }
        return try body()
    }

    /// The usage recording on the calling thread, if any (a drawing moved to another thread —
    /// a fresh stack — records into it there through `recording`).
    package static var active: FontUsage? {
        pthread_getspecific(activeSlot).map { Unmanaged<FontUsage>.fromOpaque($0).takeUnretainedValue() }
    }

    private static let activeSlot: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The record written into exports: "Fonts: " and each font as its family and file name —
    /// "Fonts: Nimbus Sans (NimbusSans-Regular.otf), DejaVu Sans (DejaVuSans.ttf)" — followed,
    /// for a family standing in for another (`FontPolicy`), by " for" the asked family and
    /// whether its advance widths are the same — "Nimbus Sans (NimbusSans-Regular.otf) for
    /// Helvetica, same widths" — or " for the system font" (San Francisco's widths are not
    /// compared, as `citrine info --fonts` says). nil when nothing was recorded.
    package var summary: String? {
        let fonts = resolutions
        guard !fonts.isEmpty else { return nil }
        var entries: [String] = []
        for font in fonts {
            var entry = "\(font.family) (\((font.file as NSString).lastPathComponent))"
            if font.isSubstitute, let row = FontPolicy.row(forFamily: font.asked), row.names[0] == ".SFUI" {
                entry += " for the system font"
            } else if font.isSubstitute {
                entry += " for \(font.asked), \(font.metricCompatible ? "same" : "other") widths"
            }
            if !entries.contains(entry) { entries.append(entry) }
        }
        return "Fonts: " + entries.joined(separator: ", ")
    }
}
