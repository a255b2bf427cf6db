import Foundation

/// The plans of the birth steps an emitter's last frame drew, kept for its next frame.
///
/// When animations change birth values, a particle takes the values presented at its 1/60 s
/// birth step (`AnimatedBirthValues`), so a frame needs one set of cell plans per step in which
/// a live particle was born (≈ 150 for particles living 2.5 s). A step's values never change
/// once the animations and the birth history are fixed, so a frame reuses the previous frame's
/// plans and builds only those of steps it meets first. What the values depend on decides
/// when they are dropped:
/// - the model's animations and birth history (`AnimatedBirthValues.Token`: the animation
///   store's and the history's generation counters): any change drops every step;
/// - the segment's base values (`CellPlan`s of its cells, and what the renderer and the key
///   paths read from a cell besides: its name and sprite): compared every frame, so a direct
///   write to a cell object (seen at once by every particle, see `CAEmitterCell`) drops the
///   segment's steps too.
/// Steps and segments the last frame did not use are dropped after it, so the memory kept is
/// one frame's.
///
/// Kept in the `ParticleFrame` the caller reuses (one per renderer): frames drawn by different
/// renderers, in any order or at once, share nothing.
struct BirthStepCache {
    private var emitters: [EmitterBirthSteps] = []

    /// The steps kept for `model`'s emitter, emptied when `token` differs from the last frame's.
    mutating func steps(of model: CAEmitterLayer, token: AnimatedBirthValues.Token) -> EmitterBirthSteps {
        if let kept = emitters.first(where: { $0.model === model }) {
            kept.beginFrame(token: token)
            return kept
        }
        emitters.removeAll { $0.model == nil }
        let fresh = EmitterBirthSteps(model: model, token: token)
        emitters.append(fresh)
        return fresh
    }
}

/// One emitter's kept steps, by segment of its birth history.
final class EmitterBirthSteps {
    private(set) weak var model: CAEmitterLayer?
    private var token: AnimatedBirthValues.Token
    private var frame = 0
    private var segments: [ObjectIdentifier: SegmentBirthSteps] = [:]

    init(model: CAEmitterLayer, token: AnimatedBirthValues.Token) {
        self.model = model
        self.token = token
    }

    func beginFrame(token: AnimatedBirthValues.Token) {
        if token != self.token {
            segments.removeAll()
            self.token = token
        }
        frame &+= 1
    }

    /// The steps of the segment whose base values are `values` (planned as `base` this frame).
    func segment(of values: CAEmitterLayer, base: [CellPlan?]) -> SegmentBirthSteps {
        let key = ObjectIdentifier(values)
        let looks = CellLook.all(values.readableCells)
        if let kept = segments[key], kept.base == base, kept.looks == looks {
            kept.frame = frame
            return kept
        }
        let fresh = SegmentBirthSteps(base: base, looks: looks, frame: frame)
        segments[key] = fresh
        return fresh
    }

    /// Drops the segments and steps this frame did not use.
    func endFrame() {
        if segments.values.contains(where: { $0.frame != frame }) {
            for key in segments.filter({ $0.value.frame != frame }).map(\.key) { segments[key] = nil }
        }
        for segment in segments.values { segment.dropSteps(unusedSince: frame) }
    }
}

/// One segment's kept steps.
final class SegmentBirthSteps {
    /// A step's plans: `plans[i]` is top-level cell i's (nil: disabled), indices into `cells`;
    /// `cellBase` is where `cells` start in the frame's cells in the frame that last used it.
    final class Step {
        let cells: [CAEmitterCell]
        let plans: [CellPlan?]
        fileprivate(set) var cellBase = 0
        fileprivate var frame = -1

        init(cells: [CAEmitterCell], plans: [CellPlan?]) {
            self.cells = cells
            self.plans = plans
        }
    }

    let base: [CellPlan?]
    let looks: [CellLook]
    fileprivate(set) var frame: Int
    private var steps: [Double: Step] = [:]
    /// The step asked for last (a cell's births come in time order, many to a step).
    private var last: (step: Double, entry: Step)?

    init(base: [CellPlan?], looks: [CellLook], frame: Int) {
        self.base = base
        self.looks = looks
        self.frame = frame
    }

    /// The plans of `step`, made from the layer `values(step)` returns when not kept; the
    /// step's cells are appended to `cells` the first time this frame uses it.
    func step(_ step: Double, appendingCellsTo cells: inout [CAEmitterCell],
              values: (Double) -> CAEmitterLayer) -> Step {
        if let last, last.step == step, last.entry.frame == frame { return last.entry }
        let entry: Step
        if let kept = steps[step] {
            entry = kept
        } else {
            let layer = values(step)
            var own: [CAEmitterCell] = []
            let plans = (layer.readableCells ?? []).enumerated().map { CellPlan($1, sibling: $0, layer: layer, cells: &own) }
            entry = Step(cells: own, plans: plans)
            steps[step] = entry
        }
        if entry.frame != frame {
            entry.frame = frame
            entry.cellBase = cells.count
            cells += entry.cells
        }
        last = (step, entry)
        return entry
    }

    fileprivate func dropSteps(unusedSince frame: Int) {
        last = nil
        guard steps.values.contains(where: { $0.frame != frame }) else { return }
        for key in steps.filter({ $0.value.frame != frame }).map(\.key) { steps[key] = nil }
    }
}

/// What a step's cells take from a base cell besides its plan: the name animation key paths
/// find it by, and the sprite the renderer draws (its `CGImage` contents, by identity, and
/// their rectangle and scale).
struct CellLook: Equatable {
    let name: String?
    let contents: ObjectIdentifier?
    let contentsRect: CGRect
    let contentsScale: CGFloat

    /// The looks of `cells` and their sub-cells, parents first.
    static func all(_ cells: [CAEmitterCell]?) -> [CellLook] {
        var looks: [CellLook] = []
        func visit(_ cells: [CAEmitterCell]?) {
            for cell in cells ?? [] {
                looks.append(CellLook(name: cell.name, contents: (cell.contents as? CGImage).map(ObjectIdentifier.init),
                                      contentsRect: cell.contentsRect, contentsScale: cell.contentsScale))
                visit(cell.emitterCells)
            }
        }
        visit(cells)
        return looks
    }
}
