import Export

/// `--shard I/N`: slice I (from 0) of N, so that N processes or machines (GNU parallel's jobs, a
/// Kubernetes Indexed Job's pods with `JOB_COMPLETION_INDEX` as I) share one render.
///
/// Several inputs are dealt round-robin — slice I takes positions I, I + N, I + 2N … — so that
/// slices get the same number of inputs within one, whatever their order. One input's frames are
/// cut into contiguous runs (a video is joined from its parts in order): with F frames, slice I
/// has frames ⌊I·F/N⌋ up to ⌊(I+1)·F/N⌋, so the slices cover every frame once and differ in
/// length by at most one. Each frame keeps its time in the whole timeline
/// (`ExportTimeline.frames(_:)`), so the slices draw what one run draws.
struct Shard {
    /// I: which slice, from 0.
    let index: Int
    /// N: how many slices.
    let count: Int
    /// The option's value as given, for messages.
    let text: String

    /// Most slices: as many as an export's frames.
    static let maxCount = ExportTimeline.maxFrameCount

    init(_ text: String) throws(Failure) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0].trimmingCharacters(in: .whitespaces)),
              let count = Int(parts[1].trimmingCharacters(in: .whitespaces)),
              (1...Self.maxCount).contains(count), (0..<count).contains(index) else {
            throw .badValue("--shard", text, expected: "I/N: slice I of N slices, N from 1 to \(Self.maxCount) and I from 0 "
                            + "to N − 1, e.g. 0/4")
        }
        (self.index, self.count, self.text) = (index, count, text)
    }

    /// This slice's items: positions index, index + count, index + 2·count … of `items`.
    func select<T>(_ items: [T]) -> [T] {
        stride(from: index, to: items.count, by: count).map { items[$0] }
    }

    /// This slice's frames of `timeline`; nil when it has none (with more slices than frames).
    func slice(of timeline: ExportTimeline) -> ExportTimeline? {
        let total = timeline.frameCount
        return timeline.frames(index * total / count ..< (index + 1) * total / count)
    }
}
