/// Which installed font draws a font name: Apple's font names → the closest free fonts a Debian
/// machine can install, metric-compatible ones first, each chain ending in a DejaVu family
/// (`fonts-dejavu-core`, on a new Debian machine).
///
/// A name is resolved in this order:
/// 1. the family itself when it is installed (a machine with real Arial draws Arial);
/// 2. the first installed family of its row below (the name's family compared without case,
///    spaces or a leading "."; "Helvetica-Bold" is the family "Helvetica" with its style kept);
/// 3. DejaVu Sans for a name no row lists;
/// 4. with none of these installed (a font folder without DejaVu, `CITRINE_FONT_DIR`),
///    fontconfig's best match for the name.
/// A font drawn with other advance widths than the one asked for, where the policy knows a
/// metric-compatible family that is not installed (or knows nothing of the name), is named on
/// standard error once per name per process; a metric-compatible stand-in, or the documented
/// choice for a font no free font matches (the system font, Helvetica Neue, Menlo, Georgia), is
/// silent (`citrine info --fonts` lists every one).
///
/// Metric-compatible means the same advance widths, so lines break and truncate where they do on
/// iOS. Each claim below was checked by `scripts/check-font-metrics`: the free family's advance
/// widths (its `hmtx` table, read with fontTools) against Adobe's published AFM widths of the
/// PostScript core fonts (Helvetica, Helvetica-Bold, Times-Roman, Times-Bold, Courier,
/// Courier-Bold, as shipped in pdfminer.six), all printable ASCII: Nimbus Sans, TeX Gyre Heros and
/// Liberation Sans within 0.2/1000 em of Helvetica; Nimbus Roman, TeX Gyre Termes and Liberation
/// Serif of Times-Roman; Nimbus Mono PS, TeX Gyre Cursor and Liberation Mono of Courier (DejaVu
/// Sans Mono is 2.1/1000 em wider; DejaVu Sans and Serif differ by up to 0.37 em). Arial, Times New
/// Roman and Courier New share the widths of Helvetica, Times and Courier (they were drawn as
/// metric-compatible replacements; Liberation's stated aim is to match those three, Red Hat's
/// Liberation fonts README).
///
/// Not verified, so not claimed: San Francisco (the system font; not redistributable, its widths
/// unpublished), Helvetica Neue, Menlo (Apple's Menlo is derived from Bitstream Vera Sans Mono /
/// DejaVu Sans Mono, whose name table it keeps; its widths were not at hand) and Georgia
/// (Gelasio, made metric-compatible with it, is not packaged in Debian 12).
package enum FontPolicy {
    package struct Row: Sendable {
        /// Apple's names for the family, as written in Apple's font lists.
        package let names: [String]
        /// Installed families tried in order; the last is a DejaVu family.
        package let families: [String]
        /// The families of `families` whose advance widths match the Apple font's.
        package let metricCompatible: Set<String>
    }

    static let helveticaLike = ["Nimbus Sans", "TeX Gyre Heros", "Liberation Sans"]
    static let arialLike = ["Liberation Sans", "Nimbus Sans", "TeX Gyre Heros"]
    static let timesLike = ["Nimbus Roman", "TeX Gyre Termes", "Liberation Serif"]
    static let timesNewRomanLike = ["Liberation Serif", "Nimbus Roman", "TeX Gyre Termes"]
    static let courierLike = ["Nimbus Mono PS", "TeX Gyre Cursor", "Liberation Mono"]
    static let courierNewLike = ["Liberation Mono", "Nimbus Mono PS", "TeX Gyre Cursor"]

    /// The policy, row by row (README: Fonts prints the same table).
    package static let rows: [Row] = [
        // The system font (`UIFont.systemFont`): San Francisco cannot be installed; Citrine draws
        // it with Helvetica's fonts, the family of iOS's system font before San Francisco
        // (Helvetica Neue, iOS 7 and 8). Its names: SF Pro and the hidden ".SF…" names UIKit reports.
        Row(names: [".SFUI", ".SFUIText", ".SFUIDisplay", ".SF UI Text", ".SF UI Display",
                    "San Francisco", "SF Pro", "SF Pro Text", "SF Pro Display", ".AppleSystemUIFont"],
            families: helveticaLike + ["DejaVu Sans"], metricCompatible: []),
        Row(names: ["Helvetica"], families: helveticaLike + ["DejaVu Sans"], metricCompatible: Set(helveticaLike)),
        Row(names: ["Helvetica Neue"], families: helveticaLike + ["DejaVu Sans"], metricCompatible: []),
        Row(names: ["Arial", "ArialMT"], families: arialLike + ["DejaVu Sans"], metricCompatible: Set(arialLike)),
        Row(names: ["Times", "Times Roman"], families: timesLike + ["DejaVu Serif"], metricCompatible: Set(timesLike)),
        Row(names: ["Times New Roman", "TimesNewRomanPSMT"], families: timesNewRomanLike + ["DejaVu Serif"],
            metricCompatible: Set(timesNewRomanLike)),
        Row(names: ["Courier"], families: courierLike + ["DejaVu Sans Mono"], metricCompatible: Set(courierLike)),
        Row(names: ["Courier New", "CourierNewPSMT"], families: courierNewLike + ["DejaVu Sans Mono"],
            metricCompatible: Set(courierNewLike)),
        Row(names: ["Menlo", "SF Mono", "Monaco"], families: ["DejaVu Sans Mono"], metricCompatible: []),
        Row(names: ["Georgia"], families: ["DejaVu Serif"], metricCompatible: []),
    ]

    /// The Debian packages that install the preferred families (`scripts/install-fonts`).
    package static let packages = ["fonts-urw-base35", "fonts-liberation2", "fonts-dejavu-core"]

    /// The family of a font name for the table: case, spaces and a leading "." ignored.
    static func key(_ family: String) -> String {
        String(family.lowercased().filter { $0 != " " }.drop { $0 == "." })
    }

    private static let rowByKey: [String: Row] = {
        var index: [String: Row] = [:]
        for row in rows { for name in row.names { index[key(name)] = row } }
        return index
    }()

    /// The row for a family, if any.
    package static func row(forFamily family: String) -> Row? { rowByKey[key(family)] }

    /// The families to try for `family`, in order, and whether each is metric-compatible.
    static func chain(forFamily family: String) -> [(family: String, metricCompatible: Bool)] {
        let row = row(forFamily: family)
        let families = [family] + (row?.families ?? ["DejaVu Sans"])
        return families.map { ($0, $0 == family || row?.metricCompatible.contains($0) == true) }
    }

    /// A fontconfig pattern split into its family and the rest (":bold", ":size=12", …).
    static func split(_ pattern: String) -> (family: String, rest: Substring) {
        guard let colon = pattern.firstIndex(of: ":") else { return (pattern, "") }
        return (String(pattern[..<colon]), pattern[colon...])
    }
}

/// The font file that draws a font name, and how it was chosen (`FontPolicy`).
package struct FontResolution: Sendable, Equatable {
    /// The family asked for ("Helvetica" for "Helvetica:bold").
    package let asked: String
    /// The installed family that draws it.
    package let family: String
    package let file: String
    /// The face's index in `file` (a font collection holds several).
    package let index: Int
    /// Whether `family` has the asked font's advance widths (or is the asked font).
    package let metricCompatible: Bool

    package var isSubstitute: Bool { FontPolicy.key(family) != FontPolicy.key(asked) }

    /// Whether the substitution is said on standard error: other advance widths, and either a
    /// metric-compatible family the policy lists is missing or the name is not in the policy.
    package var isAnnounced: Bool {
        isSubstitute && !metricCompatible && FontPolicy.row(forFamily: asked)?.metricCompatible.isEmpty != true
    }

    /// The one line said on standard error when `isAnnounced`.
    package var substitutionNote: String {
        "Citrine: font \"\(asked)\" is drawn with \(family) (\(file)), other advance widths"
            + (FontPolicy.row(forFamily: asked) == nil ? ": not installed"
               : "; scripts/install-fonts installs the metric-compatible fonts")
    }
}
