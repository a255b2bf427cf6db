// Compiled animation programs shared between layers, and the memo of their last evaluation.
//
// Many layers often run the same animations: a list's cells sliding in, a grid of identical
// spinners, every implicit animation of one transaction (one begin time, one duration, one
// timing function). Their programs compile to the same tracks and numbers, so they share one
// storage: a frame reads its lines once for all those layers instead of once per layer. A
// program whose every track is a function of the time alone (see `AnimationProgram.init`) also
// keeps, in that storage, the value each track gave at the last time it was evaluated: the
// next layer asking at the same time (its siblings, in the same frame) copies those values
// instead of evaluating the timing model, timing curves and keyframe search again. The values
// are the very bytes the evaluation wrote, so presentation values are identical either way.
//
// The memo is a sequence lock: a layer evaluating records under an odd sequence number taken
// with a compare-exchange (one per shared program per frame); a reader copies the values and
// keeps them only when the sequence was even and unchanged throughout, so layers of separate
// trees evaluated on separate threads (an export's workers) never see a half-written memo.
import CAtomicWords
import Synchronization

extension AnimationProgram {
    /// What a storage holds, in `Double` words: `memoWords` of memo (0 for a program whose
    /// tracks read the field's current value), then `trackCount` tracks, each followed by its
    /// numbers.
    struct StorageHeader {
        var trackCount: Int
        var memoWords: Int
    }

    /// One program's tracks and numbers, shared by every program with the same ones.
    final class Storage: ManagedBuffer<StorageHeader, Double> {}

    /// A storage as a key of the shared table: equal when the tracks are equal field by field
    /// (not byte by byte: a track has padding) and their numbers bit for bit. (Sendable: after
    /// it is made, only the memo is written, through atomic words.)
    private struct Shared: Hashable, @unchecked Sendable {
        let storage: Storage

        /// The first track (nil for none), and how many.
        private var tracks: (first: UnsafeRawPointer?, count: Int) {
            storage.withUnsafeMutablePointers { header, words in
                (header.pointee.trackCount > 0 ? UnsafeRawPointer(words + header.pointee.memoWords) : nil,
                 header.pointee.trackCount)
            }
        }

        /// The track at `p` and its numbers' bytes, and where the next track starts.
        private static func track(at p: UnsafeRawPointer) -> (Track, UnsafeRawBufferPointer, next: UnsafeRawPointer) {
            let track = p.load(as: Track.self)
            let numbers = UnsafeRawBufferPointer(start: p + MemoryLayout<Track>.stride, count: 8 * Int(track.numberCount))
            return (track, numbers, p + MemoryLayout<Track>.stride + numbers.count)
        }

        static func == (a: Shared, b: Shared) -> Bool {
            let (ta, tb) = (a.tracks, b.tracks)
            guard ta.count == tb.count, a.storage.header.memoWords == b.storage.header.memoWords else { return false }
            guard var p = ta.first, var q = tb.first else { return true }
            for _ in 0..<ta.count {
                let (x, xNumbers, nextP) = track(at: p)
                let (y, yNumbers, nextQ) = track(at: q)
                guard x == y, xNumbers.elementsEqual(yNumbers) else { return false }
                (p, q) = (nextP, nextQ)
            }
            return true
        }

        func hash(into hasher: inout Hasher) {
            guard var p = tracks.first else { return }
            for _ in 0..<tracks.count {
                let (track, numbers, next) = Self.track(at: p)
                hasher.combine(track.offset)
                hasher.combine(track.schedule)
                hasher.combine(bytes: numbers)
                p = next
            }
        }
    }

    /// The storages made so far, at most `sharedLimit` (then the table starts again; programs
    /// keep their storages).
    private static let shared = Mutex<Set<Shared>>([])
    private static let sharedLimit = 4096

    /// The storage for `tracks`, each followed by its numbers (with a memo when `memoized`): one
    /// made before for an equal program if there is one.
    static func storage(_ tracks: [(track: Track, numbers: [Double])], memoized: Bool) -> Storage {
        let trackWords = MemoryLayout<Track>.stride / MemoryLayout<Double>.stride
        assert(MemoryLayout<Track>.stride == 48 && MemoryLayout<Track>.stride % MemoryLayout<Double>.stride == 0,
               "tracks must tile the numbers")
        let memoWords = memoized && !tracks.isEmpty ? Memo.words(trackCount: tracks.count) : 0
        let count = tracks.reduce(memoWords) { $0 + trackWords + $1.numbers.count }
        let made = unsafeDowncast(Storage.create(minimumCapacity: count) { _ in
            StorageHeader(trackCount: tracks.count, memoWords: memoWords)
        }, to: Storage.self)
        made.withUnsafeMutablePointerToElements { words in
            words.initialize(repeating: 0, count: count)
            var p = words + memoWords
            for (track, numbers) in tracks {
                UnsafeMutableRawPointer(p).storeBytes(of: track, as: Track.self)
                p += trackWords
                for x in numbers {
                    p.pointee = x
                    p += 1
                }
            }
        }
        let found = Shared(storage: made)
        let kept = shared.withLock { table in
            if let i = table.firstIndex(of: found) { return table[i] }
            if table.count >= sharedLimit { table.removeAll(keepingCapacity: true) }
            table.insert(found)
            return found
        }
        if kept.storage !== made, memoWords > 0 {
            kept.storage.withUnsafeMutablePointerToElements { Memo($0, trackCount: tracks.count).markShared() }
        }
        return kept.storage
    }

    /// The memo at the start of a storage: a sequence number (0: empty; odd: being written),
    /// the time evaluated, whether a second program found the storage (until then nothing is
    /// recorded: a program no other layer shares would pay for the bookkeeping every frame and
    /// never read it), and per track a slot of three words: where its field is and whether the
    /// track applied (`slotInfo`), then the bytes it left in the field (a point, or a number in
    /// the first bytes). A frame that finds the memo current reads these words only, not the
    /// tracks.
    struct Memo {
        let words: UnsafeMutableRawPointer
        let trackCount: Int

        init(_ storage: UnsafeMutablePointer<Double>, trackCount: Int) {
            words = UnsafeMutableRawPointer(storage)
            self.trackCount = trackCount
        }

        static func words(trackCount: Int) -> Int { 3 + 3 * trackCount }

        @inline(__always)
        private func slot(_ track: Int) -> UnsafeMutableRawPointer { words + 8 * (3 + 3 * track) }

        /// A slot's first word: the field's byte offset in `LayerState` (bits 0–15), its
        /// `StateField.Scalar` (bits 16–23) and whether the track applied (bit 24).
        @inline(__always)
        private static func slotInfo(offset: UInt16, scalar: StateField.Scalar, applied: Bool) -> UInt64 {
            UInt64(offset) | UInt64(scalar.rawValue) << 16 | (applied ? 1 << 24 : 0)
        }

        /// From now on evaluations record their values.
        func markShared() { citrine_word_store(words + 16, 1) }

        /// Writes the remembered values into `state` when the memo holds time `t` (a track that
        /// did not apply puts the model's value back), and whether it did. When another thread
        /// wrote meanwhile the fields may hold anything: the caller then evaluates, restoring
        /// every field from the model.
        @inline(__always)
        func apply(to state: UnsafeMutableRawPointer, restoringFrom model: UnsafeRawPointer, at t: CFTimeInterval) -> Bool {
            let sequence = citrine_word_load_acquire(words)
            guard sequence != 0, sequence & 1 == 0, citrine_word_load(words + 8) == t.bitPattern else { return false }
            for i in 0..<trackCount {
                let slot = slot(i)
                let info = citrine_word_load(slot)
                let offset = Int(info & 0xffff)
                // Written by `slotInfo` from a Scalar: a valid raw value.
                let scalar = StateField.Scalar(rawValue: UInt8(truncatingIfNeeded: info >> 16)) ?? .double
                if info & 1 << 24 != 0 {
                    let value = (citrine_word_load(slot + 8), citrine_word_load(slot + 16))
                    withUnsafeBytes(of: value) { scalar.copy(from: $0.baseAddress!, to: state + offset) }
                } else {
                    scalar.copy(from: model + offset, to: state + offset)
                }
            }
            citrine_fence_acquire()
            return citrine_word_load(words) == sequence
        }

        /// Takes the memo for recording the values at `t`: the odd sequence number to pass to
        /// `endRecording`, or nil when the storage is not shared or another thread is recording.
        @inline(__always)
        func beginRecording(at t: CFTimeInterval) -> UInt64? {
            let sequence = citrine_word_load(words)
            guard sequence & 1 == 0, citrine_word_load(words + 16) != 0, citrine_word_exchange(words, sequence, sequence &+ 1) else { return nil }
            citrine_fence_release()
            citrine_word_store(words + 8, t.bitPattern)
            return sequence &+ 1
        }

        /// Remembers what track `i` (`track`) left in its field, at `field`.
        @inline(__always)
        func record(track i: Int, _ track: Track, applied: Bool, field: UnsafeRawPointer) {
            let slot = slot(i)
            citrine_word_store(slot, Self.slotInfo(offset: track.offset, scalar: track.scalar, applied: applied))
            guard applied else { return }
            var value: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &value) { track.scalar.copy(from: field, to: $0.baseAddress!) }
            citrine_word_store(slot + 8, value.0)
            citrine_word_store(slot + 16, value.1)
        }

        /// Publishes the values recorded since `beginRecording` returned `sequence`.
        @inline(__always)
        func endRecording(_ sequence: UInt64) { citrine_word_store_release(words, sequence &+ 1) }
    }
}
