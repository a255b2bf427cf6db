import CKernels

extension TexelExtents {
    /// The texels a translated draw samples, copied out of the image and packed row after row:
    /// per row, the columns that the sampled runs around a flat run read — from the first
    /// texel that may be non-transparent to a few columns into the flat run (`Pixmap.split`
    /// moves a flat run's ends in by up to three columns), and from a few columns before its end
    /// to the last — as one or two strips (one when they come within a cache line of each other).
    ///
    /// A layer's bitmap drawn in device orientation (a rounded rectangle at an angle, a border
    /// around a solid background) is sampled at each row in a few texels at both ends of its
    /// flat run. In the image those lie a row apart, a cache line or two on either side, on as
    /// many pages as the image holds rows; in the strips they lie together, in the order the rows
    /// are drawn. `citrine_translated_rows` reads a run there when both its rows' strips hold all
    /// of its columns (else from the image: a row clipped inside its flat run), so the words,
    /// and the pixels, are the same (AVX2KernelsTests.translatedTexturesMatchTheSwiftLoop,
    /// TextureTests.ringsReadFromStripsMatchThePatternFill). Measured on the CALayer storm,
    /// frames alternating with and without them in one process: about 5 % less time a frame
    /// (Benchmarks/NOTES.md).
    ///
    /// Only the AVX2 and AVX-512 row loops read them; the Swift loop reads the image. They add
    /// at most half the image's size to what a retained bitmap holds.
    final class Strips: Sendable {
        /// Per image row, where its strips lie in `words` (C's layout).
        let rows: [citrine_strip_row]
        let words: [UInt32]

        /// The strips of `image` from its row pairs (`TexelExtents.rowPairs`), or nil when no
        /// pair has a flat run or the strips would take more than half the image's words (an
        /// image sampled whole: the copies would only add to what is read).
        init?(of image: Pixmap, pairs: [RowPair]) {
            let w = image.width, h = image.height
            guard pairs.count == h + 1, pairs.contains(where: { $0.flatStart < $0.flatEnd }) else { return nil }
            var rows = [citrine_strip_row]()
            rows.reserveCapacity(h)
            var count = 0
            for j in 0..<h {
                let (left, right) = Strips.columns(ofRow: j, pairs: pairs, width: w)
                let leftOffset = count
                count += left.count
                let rightOffset = right == left ? leftOffset : count
                if right != left { count += right.count }
                rows.append(citrine_strip_row(leftStart: Int32(left.lowerBound), leftEnd: Int32(left.upperBound),
                                              rightStart: Int32(right.lowerBound), rightEnd: Int32(right.upperBound),
                                              leftOffset: leftOffset, rightOffset: rightOffset))
            }
            guard count * 2 <= w * h else { return nil }
            var words = [UInt32]()
            words.reserveCapacity(count)
            for (j, row) in rows.enumerated() {
                let texels = image.words + j * w
                words.append(contentsOf: UnsafeBufferPointer(start: texels + Int(row.leftStart), count: Int(row.leftEnd - row.leftStart)))
                if row.rightOffset != row.leftOffset {
                    words.append(contentsOf: UnsafeBufferPointer(start: texels + Int(row.rightStart),
                                                                 count: Int(row.rightEnd - row.rightStart)))
                }
            }
            self.rows = rows
            self.words = words
        }

        /// The columns of row `j` that translated draws sample, as a left and a right strip (the
        /// same range twice when they make one): those the runs of pairs j (rows j − 1, j) and
        /// j + 1 (rows j, j + 1) read, within the image's `width` columns. A pair's run before its
        /// flat run reads columns from its reach's start to at most three past the flat run's start,
        /// the run after it from at most three before the flat run's end (`Pixmap.split`) to one
        /// past its reach (the right texel of its last pixel); a pair without one reads its reach.
        static func columns(ofRow j: Int, pairs: [RowPair], width: Int) -> (left: Range<Int>, right: Range<Int>) {
            func hull(_ a: Range<Int>?, _ b: Range<Int>) -> Range<Int> {
                a.map { Swift.min($0.lowerBound, b.lowerBound)..<Swift.max($0.upperBound, b.upperBound) } ?? b
            }
            var left: Range<Int>?, right: Range<Int>?
            for index in j...j + 1 {
                let pair = pairs[index]
                guard pair.reachStart < pair.reachEnd else { continue }
                let reach = Int(pair.reachStart)..<Int(pair.reachEnd) + 1
                if pair.flatStart < pair.flatEnd {
                    left = hull(left, reach.lowerBound..<Swift.max(reach.lowerBound, Int(pair.flatStart) + 4))
                    right = hull(right, Swift.min(Int(pair.flatEnd) - 4, reach.upperBound)..<reach.upperBound)
                } else {
                    left = hull(left, reach)
                    right = hull(right, reach)
                }
            }
            let l = (left ?? 0..<0).clamped(to: 0..<width), r = (right ?? 0..<0).clamped(to: 0..<width)
            if l.isEmpty || r.isEmpty || r.lowerBound <= l.upperBound + 16 {
                let one = l.isEmpty ? r : r.isEmpty ? l : hull(l, r)
                return (one, one)
            }
            return (l, r)
        }
    }
}
