import CPrefetch
import QuartzCore
import Raster

extension LayerRenderer {
    /// Fetches, while one sibling of a long list is drawn, what the next one's retained bitmap
    /// will read first.
    ///
    /// A retained leaf's draw starts with a chain of objects the frame has not touched before:
    /// the leaf record, its pixmap and texel extents, the extents' row pairs and strips, the
    /// first texels. Each is found through the one before it, so their cache misses come one
    /// after another. The storm's 1000 layers (`layer-storm-bench`) draw 1000 such chains a
    /// frame. A list of at least `minimumSiblings` siblings therefore records, per position, the
    /// addresses its retained bitmap's draw read first (`Lines`, kept by the leaf), and in the
    /// next frame, while sibling i is drawn, prefetches sibling i + 1's.
    ///
    /// Only addresses are kept, never references: they are prefetched, never read through, and a
    /// prefetch never faults. So one that is stale by the next frame (the list changed, the
    /// bitmap was dropped or redrawn) costs a useless fetch and nothing more. One list is served
    /// at a time, the first long one a frame draws (nested lists are drawn without); its owner
    /// is remembered so that another list's positions start empty.
    struct SiblingPrefetch {
        /// The addresses a retained bitmap's draw reads first (0: none).
        struct Lines {
            var leaf: UInt = 0, pixmap: UInt = 0, texels: UInt = 0, extents: UInt = 0
            var rowPairs: UInt = 0, strips: UInt = 0, stripRows: UInt = 0, stripWords: UInt = 0

            init() {}

            init(leaf: Leaf, pixmap: Pixmap, extents: TexelExtents?) {
                self.leaf = UInt(bitPattern: Unmanaged.passUnretained(leaf).toOpaque())
                self.pixmap = UInt(bitPattern: Unmanaged.passUnretained(pixmap).toOpaque())
                texels = UInt(bitPattern: pixmap.words)
                guard let extents else { return }
                self.extents = UInt(bitPattern: Unmanaged.passUnretained(extents).toOpaque())
                (rowPairs, strips, stripRows, stripWords) = extents.firstReads
            }

            /// Asks for the cache lines at every address (two lines of the leaf record and of the
            /// extents, whose fields span them).
            func prefetch() {
                guard leaf != 0 else { return }
                Self.prefetch(leaf)
                Self.prefetch(leaf &+ 64)
                Self.prefetch(pixmap)
                Self.prefetch(texels)
                guard extents != 0 else { return }
                Self.prefetch(extents)
                Self.prefetch(extents &+ 64)
                Self.prefetch(rowPairs)
                guard strips != 0 else { return }
                Self.prefetch(strips)
                Self.prefetch(stripRows)
                Self.prefetch(stripWords)
            }

            @inline(__always)
            private static func prefetch(_ address: UInt) { citrine_prefetch(UnsafeRawPointer(bitPattern: address)) }
        }

        /// Lists shorter than this are drawn without: their chains are few.
        static let minimumSiblings = 16

        /// Per position of the served list, what its retained bitmap's draw read first in the
        /// last frame that drew it.
        private var lines: [Lines] = []
        /// The `_serial` of the layer whose sublayers `lines` belong to.
        private var owner: UInt64 = 0
        /// Whether a list is being drawn with prefetching (nested lists are not).
        private var active = false
        /// The lines of the retained bitmap drawn last in the served list, and its layer's serial.
        private var drawnLines = Lines(), drawnOwner: UInt64 = 0

        /// Starts drawing `parent`'s `siblings` sublayers: whether they are prefetched (then
        /// `end` follows the list). The positions start empty for another list than last time's.
        mutating func begin(_ parent: CALayer, siblings: Int) -> Bool {
            guard !active, siblings >= Self.minimumSiblings else { return false }
            if owner != parent._serial || lines.count != siblings {
                owner = parent._serial
                lines.removeAll(keepingCapacity: true)
                lines.append(contentsOf: repeatElement(Lines(), count: siblings))
            }
            active = true
            return true
        }

        /// Before sibling `i` is drawn: fetches what sibling i + 1 read first last time.
        mutating func prefetch(after i: Int) {
            drawnOwner = 0
            if i + 1 < lines.count { lines[i + 1].prefetch() }
        }

        /// A retained bitmap drawn as it was kept (`cachedLeaf`).
        mutating func drawn(_ leaf: Leaf) {
            guard active else { return }
            drawnLines = leaf.firstReads
            drawnOwner = leaf.owner
        }

        /// After sibling `i` (its layer `serial`) is drawn: keeps what its retained bitmap read
        /// first, or nothing when it drew none (a layer drawn otherwise, or only its sublayers').
        mutating func record(_ i: Int, serial: UInt64) {
            lines[i] = drawnOwner == serial ? drawnLines : Lines()
        }

        /// The list is drawn.
        mutating func end() { active = false }
    }
}
