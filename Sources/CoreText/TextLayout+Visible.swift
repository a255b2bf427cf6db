import CoreGraphics

// Breaking and truncating lines, reading the runs' text only as far as the visible rectangle
// needs it.
//
// Design note
// -----------
// The text is read through `Position`s (a run and an index in its text), forwards for the
// lines and backwards from a paragraph's or the text's end for truncation at the start or in
// the middle. Lines are laid out top to bottom until one would start at or below the bottom of
// `visible`, or `maxGlyphs` are kept: the text after that is not read, except that a truncated
// last line takes as much of the rest's start and end as can fit (an ellipsis never hides
// glyphs that would fit, so reading more than the width's worth from either end changes
// nothing). An unwrapped line is read twice: once for its width, which alignment and Core
// Text's typographic bounds need, and once to keep the glyphs that can reach `visible`.
extension TextLayout {
    /// A place in the runs' text: a run and an index in its text.
    struct Position: Comparable {
        var run: Int
        var index: String.Index

        static func < (a: Position, b: Position) -> Bool { (a.run, a.index) < (b.run, b.index) }
    }

    var startPosition: Position { Position(run: 0, index: texts[0].startIndex) }
    var endPosition: Position { Position(run: texts.count - 1, index: texts[texts.count - 1].endIndex) }

    /// The glyph after `p` (a line break character is a glyph too), moving `p` past it; nil at
    /// the end of the text. Runs without a style are skipped.
    func glyph(after p: inout Position) -> Glyph? {
        while p.run < texts.count {
            let text = texts[p.run]
            if let style = runStyles[p.run], p.index < text.endIndex {
                // An ASCII character other than CR followed by another ASCII one (or the end)
                // is a character of its own: read without grapheme breaking.
                let utf8 = text.utf8
                let byte = utf8[p.index], following = utf8.index(after: p.index)
                if byte < 0x80, byte != 0x0D, following == utf8.endIndex || utf8[following] < 0x80 {
                    p.index = following
                    return asciiGlyph(byte, style: style)
                }
                let next = text.index(after: p.index)
                let c = text[p.index]
                p.index = next
                return Glyph(char: c, style: style, advance: advance(of: c, style: style))
            }
            guard p.run + 1 < texts.count else { p.index = text.endIndex; return nil }
            p.run += 1
            p.index = texts[p.run].startIndex
        }
        return nil
    }

    /// The glyph before `p`, moving `p` before it; nil at the start of the text.
    func glyph(before p: inout Position) -> Glyph? {
        while p.run >= 0 {
            let text = texts[p.run]
            if let style = runStyles[p.run], p.index > text.startIndex {
                // As `glyph(after:)`: an ASCII character after one (or the start), not a CR or LF
                // (which may end a CRLF).
                let utf8 = text.utf8
                let before = utf8.index(before: p.index), byte = utf8[before]
                if byte < 0x80, byte != 0x0D, byte != 0x0A, before == utf8.startIndex || utf8[utf8.index(before: before)] < 0x80 {
                    p.index = before
                    return asciiGlyph(byte, style: style)
                }
                p.index = text.index(before: p.index)
                let c = text[p.index]
                return Glyph(char: c, style: style, advance: advance(of: c, style: style))
            }
            guard p.run > 0 else { p.index = text.startIndex; return nil }
            p.run -= 1
            p.index = texts[p.run].endIndex
        }
        return nil
    }

    /// Moves `p` over the ASCII characters from it that a table look-up measures (each followed
    /// by ASCII or its run's end, none a line break), while `x` plus the next one's advance
    /// stays below `limit`, adding their advances to `x` and their number to `count`; returns
    /// the style they were read in, nil when none was. The fast path of a megabyte-long line.
    @discardableResult
    func skim(_ p: inout Position, below limit: Double, x: inout Double, count: inout Int) -> Int? {
        guard p.run < texts.count, let style = runStyles[p.run] else { return nil }
        let text = texts[p.run], utf8 = text.utf8
        let table = advances.asciiTable(styles[style].faceSlot), scale = styles[style].scale, extra = styles[style].extra
        let start = utf8.distance(from: utf8.startIndex, to: p.index)
        var sum = x, taken = 0
        let stop: Int? = utf8.withContiguousStorageIfAvailable { bytes in
            var o = start
            while o < bytes.count {
                let b = bytes[o]
                guard b < 0x80, b < 0x0A || b > 0x0D, o + 1 == bytes.count || bytes[o + 1] < 0x80 else { break }
                let advance = table[Int(b)] * scale + extra
                guard sum + advance < limit else { break }
                sum += advance; taken += 1; o += 1
            }
            return o
        }
        guard let stop, taken > 0 else { return nil }
        p.index = utf8.index(utf8.startIndex, offsetBy: stop)
        x = sum; count += taken
        return style
    }

    /// The glyph of an ASCII character.
    private func asciiGlyph(_ byte: UInt8, style: Int) -> Glyph {
        Glyph(char: Character(Unicode.Scalar(byte)), style: style, advance: advance(ascii: byte, style: style),
              isSpace: byte == 0x20, isNewline: byte >= 0x0A && byte <= 0x0D)
    }

    /// The largest ascent, descent and height of `glyphs`' styles (the first style's for none).
    func measured(_ glyphs: [Glyph], endsParagraph: Bool) -> Line {
        var line = Line(glyphs: glyphs, width: 0, count: glyphs.count, ascent: 0, descent: 0, height: 0,
                        endsParagraph: endsParagraph)
        let first = styles[glyphs.first?.style ?? 0]
        line.ascent = first.ascender; line.descent = first.descender; line.height = first.lineHeight
        for g in glyphs { widen(&line, by: g) }
        return line
    }

    /// `line`'s width and vertical metrics with `g` counted.
    private func widen(_ line: inout Line, by g: Glyph) {
        line.width += g.advance
        widen(&line, to: g.style)
    }

    /// `line`'s vertical metrics with `style`'s counted.
    private func widen(_ line: inout Line, to style: Int) {
        let s = styles[style]
        line.ascent = max(line.ascent, s.ascender)
        line.descent = max(line.descent, s.descender)
        line.height = max(line.height, s.lineHeight)
    }

    // MARK: - Laying out

    /// Lays the lines out down to the bottom of `visible`, then truncates.
    mutating func layOut(_ truncationMode: TextTruncation) {
        var p = startPosition
        var kept = 0
        var pending: [Glyph] = []   // read, not yet on a line, when wrapping stopped
        var stopped = false
        while !stopped {
            let endedAtBreak: Bool
            if isWrapped {
                (endedAtBreak, stopped) = wrapParagraph(&p, kept: &kept, pending: &pending)
            } else {
                endedAtBreak = unwrappedLine(&p, truncationMode: truncationMode)
                kept += lines[lines.count - 1].glyphs.count
                stopped = !mayContinue(kept: kept)
            }
            if !endedAtBreak { break }
        }
        if isWrapped, truncationMode != .none { truncateWrapped(truncationMode, pending: pending, from: p) }
        shapeLines()
    }

    /// Whether another line may follow the last one: it would start above the bottom of
    /// `visible`, and fewer than `maxGlyphs` are kept.
    private func mayContinue(kept: Int) -> Bool {
        Double(bounds.minY) + usedHeight < Double(visible.maxY) && kept < Self.maxGlyphs
    }

    /// Lays out the wrapped lines of the paragraph at `p`, moving `p` past it (and its line
    /// break); returns whether a line break ended it and whether layout stopped at `visible`'s
    /// bottom or `maxGlyphs` (with the glyphs read but not placed in `pending`).
    private mutating func wrapParagraph(_ p: inout Position, kept: inout Int,
                                        pending: inout [Glyph]) -> (endedAtBreak: Bool, stopped: Bool) {
        let width = Double(bounds.width)
        var current: [Glyph] = [], currentWidth = 0.0
        var word: [Glyph] = [], wordWidth = 0.0
        var space: Glyph?
        /// Ends a line; false when no more lines may follow.
        func emit(_ glyphs: [Glyph], endsParagraph: Bool) -> Bool {
            append(measured(glyphs, endsParagraph: endsParagraph))
            kept += glyphs.count
            return mayContinue(kept: kept)
        }
        func stop() -> (Bool, Bool) {
            pending = current + (current.isEmpty || word.isEmpty ? [] : space.map { [$0] } ?? []) + word
            return (true, true)
        }
        /// Puts the word on the current line, or the current line out and the word on the next.
        func endWord() -> Bool {
            let joined = (current.isEmpty ? 0 : space?.advance ?? 0) + wordWidth
            if !current.isEmpty && currentWidth + joined > width {
                guard emit(current, endsParagraph: false) else { current = []; return false }
                current = word; currentWidth = wordWidth
            } else {
                if !current.isEmpty, let space { current.append(space) }
                current += word; currentWidth += joined
            }
            word = []; wordWidth = 0
            return true
        }
        while let g = glyph(after: &p) {
            if g.isNewline {
                guard endWord() else { return stop() }
                let more = emit(current, endsParagraph: true)
                current = []
                return (true, !more)
            }
            if g.isSpace {
                guard endWord() else { return stop() }
                space = g
                continue
            }
            word.append(g); wordWidth += g.advance
            // A word wider than the line starts a line of its own and is broken between characters.
            if (wordWidth > width && word.count > 1) || word.count >= Self.maxGlyphs {
                let last = word.removeLast()
                if !current.isEmpty {
                    guard emit(current, endsParagraph: false) else { current = []; word.append(last); return stop() }
                    current = []; currentWidth = 0
                }
                guard emit(word, endsParagraph: false) else { word = [last]; return stop() }
                word = [last]; wordWidth = last.advance
            }
        }
        guard endWord() else { return stop() }
        _ = emit(current, endsParagraph: true)
        return (false, true)
    }

    /// Lays out the unwrapped line of the paragraph at `p`, moving `p` past it and its line
    /// break; returns whether a line break ended it. A line wider than the bounds is truncated
    /// (`truncationMode`), or keeps only the glyphs that can reach `visible`.
    private mutating func unwrappedLine(_ p: inout Position, truncationMode: TextTruncation) -> Bool {
        let start = p
        var line = measured([], endsParagraph: true)
        line.ascent = 0; line.descent = 0; line.height = 0
        var end = p, endedAtBreak = false, em = 0.0
        while true {
            if let style = skim(&p, below: .infinity, x: &line.width, count: &line.count) {
                end = p
                widen(&line, to: style)
                em = max(em, Double(styles[style].size))
            }
            guard let g = glyph(after: &p) else { break }
            if g.isNewline { endedAtBreak = true; break }
            end = p
            widen(&line, by: g)
            line.count += 1
            em = max(em, Double(styles[g.style].size))
        }
        if line.count == 0 { line = measured([], endsParagraph: true) }
        let width = Double(bounds.width)
        if truncationMode != .none, line.width > width {
            let (head, headEnd) = read(from: start, to: end, width: width)
            let tail = truncationMode == .end ? [] : read(backFrom: end, to: headEnd, width: width)
            append(measured(truncated(head + tail, width: width, mode: truncationMode), endsParagraph: true))
            return endedAtBreak
        }
        // The glyphs whose advance box, grown by the largest font size, reaches `visible`.
        let x0: Double
        switch alignment {
        case .center: x0 = Double(bounds.midX) - line.width / 2
        case .right: x0 = Double(bounds.maxX) - line.width
        case .natural, .left, .justified: x0 = Double(bounds.minX)
        }
        let low = Double(visible.minX) - x0 - em, high = Double(visible.maxX) - x0 + em
        var q = start, x = 0.0, skipped = 0
        while q < end, x <= high, line.glyphs.count < Self.maxGlyphs {
            skim(&q, below: low, x: &x, count: &skipped)   // the glyphs that end before the window
            guard q < end, let g = glyph(after: &q) else { break }
            if x + g.advance >= low {
                if line.glyphs.isEmpty { line.offset = x }
                line.glyphs.append(g)
            }
            x += g.advance
        }
        append(line)
        return endedAtBreak
    }

    /// Adds a line below the others.
    private mutating func append(_ line: Line) {
        lines.append(line)
        usedHeight += line.height
    }

    /// The glyphs from `start` on, before `end`, until their advances pass `width` (or
    /// `maxGlyphs` are read), and where they end.
    private func read(from start: Position, to end: Position, width: Double) -> ([Glyph], Position) {
        var glyphs: [Glyph] = [], sum = 0.0, q = start
        while q < end, sum <= width, glyphs.count < Self.maxGlyphs, let g = glyph(after: &q) {
            glyphs.append(g.isNewline ? space(like: g) : g)
            sum += glyphs[glyphs.count - 1].advance
        }
        return (glyphs, q)
    }

    /// The glyphs before `end`, back to `start`, until their advances pass `width` (or
    /// `maxGlyphs` are read), in text order.
    private func read(backFrom end: Position, to start: Position, width: Double) -> [Glyph] {
        var glyphs: [Glyph] = [], sum = 0.0, q = end
        while start < q, sum <= width, glyphs.count < Self.maxGlyphs, let g = glyph(before: &q) {
            glyphs.append(g.isNewline ? space(like: g) : g)
            sum += glyphs[glyphs.count - 1].advance
        }
        return glyphs.reversed()
    }

    /// A space in `g`'s style: a line break inside a truncated last line reads as a space.
    private func space(like g: Glyph) -> Glyph {
        Glyph(char: " ", style: g.style, advance: advance(of: " ", style: g.style))
    }

    // MARK: - Truncating

    /// Wrapped text: the lines whose whole height fits the bounds are kept; the last of them
    /// takes the rest of the text (the lines after it, `pending` and the text from `p`), and
    /// is truncated.
    private mutating func truncateWrapped(_ mode: TextTruncation, pending: [Glyph], from p: Position) {
        guard !lines.isEmpty else { return }
        var used = 0.0, fitting = 0
        for line in lines {
            used += line.height
            guard used <= Double(bounds.height) + 1e-9 || fitting == 0 else { break }
            fitting += 1
        }
        var probe = p
        let unread = glyph(after: &probe) != nil
        guard fitting < lines.count || !pending.isEmpty || unread else { return }
        let width = Double(bounds.width)
        var rest = lines[fitting - 1].glyphs
        for more in lines[fitting...].map(\.glyphs) + [pending] where !more.isEmpty {
            if let last = rest.last { rest.append(space(like: last)) }
            rest += more
        }
        if unread {
            var (head, headEnd) = read(from: p, to: endPosition, width: width)
            if let last = rest.last, let first = head.first, !first.isSpace { head.insert(space(like: last), at: 0) }
            rest += head
            if mode != .end { rest += read(backFrom: endPosition, to: headEnd, width: width) }
        }
        lines.removeSubrange((fitting - 1)...)
        lines.append(measured(truncated(rest, width: width, mode: mode), endsParagraph: true))
    }

    /// `glyphs` with glyphs removed at the start, middle or end for an ellipsis (in the style of
    /// the glyph it replaces) until the whole fits `width`: the longest such line, tried from the
    /// whole text down one glyph at a time. Each try costs O(1) through prefix sums of the
    /// advances, so a line of n glyphs is truncated in O(n) (re-measuring the whole candidate
    /// per try made a 10 000-character line cost seconds per frame).
    ///
    /// Removing from the middle takes, each time, the glyph at index count / 2 of what is left,
    /// so m kept glyphs are always the first ⌈m/2⌉ and the last ⌊m/2⌋, and the ellipsis goes at
    /// index ⌊m/2⌋. `glyphs` may be a line's first and last glyphs only, each part wider than
    /// `width`: any m that would reach into the missing middle keeps a part too wide to fit.
    func truncated(_ glyphs: [Glyph], width: Double, mode: TextTruncation) -> [Glyph] {
        guard let first = glyphs.first else { return glyphs }
        let n = glyphs.count
        var prefix = [0.0]
        prefix.reserveCapacity(n + 1)
        for g in glyphs { prefix.append(prefix[prefix.count - 1] + g.advance) }
        /// The kept glyphs' ranges when m are kept, and where the ellipsis goes among them.
        func kept(_ m: Int) -> (head: Range<Int>, tail: Range<Int>, at: Int) {
            switch mode {
            case .start: return (0..<0, (n - m)..<n, 0)
            case .middle: return (0..<((m + 1) / 2), (n - m / 2)..<n, m / 2)
            case .none, .end: return (0..<m, n..<n, m)
            }
        }
        /// The kept glyph at index i of the kept sequence.
        func glyph(_ i: Int, _ k: (head: Range<Int>, tail: Range<Int>, at: Int)) -> Glyph {
            i < k.head.count ? glyphs[k.head.lowerBound + i] : glyphs[k.tail.lowerBound + i - k.head.count]
        }
        var ellipsisAdvance: [Int: Double] = [:]
        func ellipsis(_ m: Int, _ k: (head: Range<Int>, tail: Range<Int>, at: Int)) -> Glyph {
            let style = m == 0 ? first.style : glyph(min(k.at, m - 1), k).style
            if ellipsisAdvance[style] == nil { ellipsisAdvance[style] = advance(of: "…", style: style) }
            return Glyph(char: "…", style: style, advance: ellipsisAdvance[style]!)
        }
        var m = n
        while m > 0 {
            let k = kept(m)
            let used = prefix[k.head.upperBound] - prefix[k.head.lowerBound] + prefix[k.tail.upperBound] - prefix[k.tail.lowerBound]
            if used + ellipsis(m, k).advance <= width { break }
            m -= 1
        }
        let k = kept(m)
        var out = Array(glyphs[k.head]) + Array(glyphs[k.tail])
        out.insert(ellipsis(m, k), at: k.at)
        return out
    }
}
