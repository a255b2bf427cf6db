// Shaping each laid-out line with HarfBuzz (`HarfBuzz`): kerning, ligatures, mark positioning,
// contextual forms, and right-to-left runs in visual order.
//
// Design note
// -----------
// * Lines are broken and truncated on the fonts' own advances (`TextLayout+Visible.swift`), then
//   each line's kept glyphs are shaped, run by run of one style and one direction; the line's
//   width becomes the shaped width (kerning usually narrows a line, so it still fits). The
//   characters stay on the line (`Line.glyphs`: what Core Text's frames give back as text);
//   `Line.shaped` holds what is drawn. Without HarfBuzz, lines keep their characters'
//   advances (one line on standard error says what is lost).
// * Direction is a minimal form of the Unicode Bidirectional Algorithm (UAX #9) for runs of
//   strong right-to-left characters: a line's base direction is its first strong character's
//   (rules P2–P3, applied per line); letters and digits of other scripts are strong left to
//   right; neutral characters (spaces, punctuation) between two strong characters of one
//   direction take it, others the base direction (N1–N2). Runs are placed in the base
//   direction's order, each right-to-left run shaped right to left. Not done: explicit
//   embeddings and isolates, numbers as weak types (digits between right-to-left words are a
//   left-to-right run of their own), mirrored brackets.
extension TextLayout {
    /// A glyph as drawn: its glyph index (nil: the character's own glyph, unshaped), its
    /// character (the first of its cluster), style, pen position from the start of the line's
    /// kept glyphs, advance and offset (points, y up), and whether it is a space.
    struct ShapedGlyph {
        let glyph: UInt32?
        let char: Character
        let style: Int
        let x: Double, advance: Double
        let xOffset: Double, yOffset: Double
        let isSpace: Bool
    }

    /// Shapes every line (nothing without HarfBuzz).
    mutating func shapeLines() {
        guard let harfBuzz = HarfBuzz.shared else { return }
        for i in lines.indices where !lines[i].glyphs.isEmpty { shape(line: i, with: harfBuzz) }
    }

    private mutating func shape(line i: Int, with harfBuzz: HarfBuzz) {
        let glyphs = lines[i].glyphs
        let rtl = Self.directions(of: glyphs)
        let base = rtl.first ?? false
        // Runs of one direction in logical order, each split into pieces of one style.
        var runs: [(rightToLeft: Bool, pieces: [Range<Int>])] = []
        var start = 0
        for end in 1...glyphs.count where end == glyphs.count || rtl[end + 1] != rtl[start + 1] || glyphs[end].style != glyphs[start].style {
            let piece = start..<end
            if let last = runs.last, last.rightToLeft == rtl[start + 1] {
                runs[runs.count - 1].pieces.append(piece)
            } else {
                runs.append((rtl[start + 1], [piece]))
            }
            start = end
        }
        if base { runs.reverse() }
        var shaped: [ShapedGlyph] = []
        var x = 0.0
        for run in runs {
            for piece in run.rightToLeft ? run.pieces.reversed() : run.pieces {
                let style = styles[glyphs[piece.lowerBound].style]
                let chars = glyphs[piece].map(\.char)
                if let out = harfBuzz.shape(chars, file: style.file, index: style.faceIndex,
                                            direction: run.rightToLeft ? .rightToLeft : .leftToRight,
                                            features: Self.features(style)) {
                    for g in out {
                        let source = glyphs[piece.lowerBound + min(g.cluster, chars.count - 1)]
                        let advance = g.advance * style.scale + style.extra
                        shaped.append(ShapedGlyph(glyph: g.glyph, char: source.char, style: source.style, x: x,
                                                  advance: advance, xOffset: g.xOffset * style.scale,
                                                  yOffset: g.yOffset * style.scale, isSpace: source.isSpace))
                        x += advance
                    }
                } else {
                    for g in glyphs[piece] {
                        shaped.append(ShapedGlyph(glyph: nil, char: g.char, style: g.style, x: x, advance: g.advance,
                                                  xOffset: 0, yOffset: 0, isSpace: g.isSpace))
                        x += g.advance
                    }
                }
            }
        }
        lines[i].width += x - glyphs.reduce(0) { $0 + $1.advance }
        lines[i].count += shaped.count - glyphs.count
        lines[i].shaped = shaped
    }

    /// The OpenType features that differ from HarfBuzz's defaults for `style`: kerning off under
    /// a `kCTKernAttributeName` value; standard and contextual ligatures off for ligatures 0;
    /// discretionary ligatures on for 2 (HarfBuzz's defaults are Core Text's otherwise).
    static func features(_ style: Style) -> [(tag: String, value: UInt32)] {
        var features: [(tag: String, value: UInt32)] = []
        if !style.fontKerning { features.append(("kern", 0)) }
        if style.ligatures == 0 { features += [("liga", 0), ("clig", 0)] }
        if style.ligatures == 2 { features.append(("dlig", 1)) }
        return features
    }

    /// Whether each glyph is laid out right to left, after the line's base direction at index 0
    /// (so the glyphs' are at 1…count).
    static func directions(of glyphs: [Glyph]) -> [Bool] {
        // nil: neutral; else whether strong right to left.
        let strong: [Bool?] = glyphs.map { g in
            guard let scalar = g.char.unicodeScalars.first else { return nil }
            if isRightToLeft(scalar.value) { return true }
            let p = scalar.properties
            return p.isAlphabetic || p.numericType != nil ? false : nil
        }
        let base = strong.lazy.compactMap { $0 }.first ?? false
        var resolved = [base]
        var i = 0
        while i < strong.count {
            if let s = strong[i] { resolved.append(s); i += 1; continue }
            // A stretch of neutrals takes the direction of the strong characters around it when
            // both have one, the base direction otherwise (the line's ends count as the base).
            var j = i
            while j < strong.count, strong[j] == nil { j += 1 }
            let before = i > 0 ? strong[i - 1]! : base, after = j < strong.count ? strong[j]! : base
            resolved += Array(repeating: before == after ? before : base, count: j - i)
            i = j
        }
        return resolved
    }

    /// Whether a scalar is a strong right-to-left character: the Hebrew, Arabic, Syriac, Thaana,
    /// N'Ko, Samaritan and Mandaic blocks (U+0590–U+08FF), Hebrew and Arabic presentation forms
    /// (U+FB1D–U+FDFF, U+FE70–U+FEFF) and the right-to-left planes' ranges (U+10800–U+10FFF,
    /// U+1E800–U+1EFFF): bidi classes R and AL (Unicode's DerivedBidiClass.txt defaults).
    static func isRightToLeft(_ v: UInt32) -> Bool {
        (0x0590...0x08FF).contains(v) || (0xFB1D...0xFDFF).contains(v) || (0xFE70...0xFEFF).contains(v)
            || (0x10800...0x10FFF).contains(v) || (0x1E800...0x1EFFF).contains(v)
    }
}
