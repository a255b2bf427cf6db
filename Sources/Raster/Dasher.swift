/// Dashing: cuts polylines into the "on" pieces of a dash pattern.
///
/// Core Graphics semantics (`CGContext.setLineDash(phase:lengths:)`): `lengths` alternate
/// painted and unpainted lengths, starting with painted; `phase` is how far into the pattern
/// each subpath starts. The pattern restarts at every subpath: Quartz draws with the PDF imaging
/// model, whose reference says that when a path of several subpaths is stroked "each subpath is
/// treated independently—that is, the dash pattern is restarted and the dash phase is reapplied
/// to it at the beginning of each subpath" (PDF Reference 1.7, §4.3.2 "Line Dash Pattern"). A
/// closed polyline is dashed as an open one that returns to its start; a dash running across
/// the closing point is joined with the first dash, as Core Graphics draws it. Negative
/// lengths, or a pattern whose sum is not positive, disable dashing (the stroke is solid); so
/// does a pattern so fine that the path would need more than `maxDashes` pieces, dashes and gaps
/// (Skia draws those solid too), which bounds the time a stroke takes.
///
/// Dashing streams (a stroke of a million dashes was built whole): `DashSink` takes a
/// path's flattened points as the flattener makes them and hands each dash over as soon as it
/// ends, so it holds the dash being cut and — while a subpath that starts painted may still
/// close onto it — that subpath's first dash, never the path's points or all its dashes.
/// `DashPlan` surveys the path first (its length, for `maxDashes`, and which subpaths are not
/// finite: the flattener drops those whole, and a streamed dash cannot be taken back).
enum Dasher {
    /// Most pieces (dashes and gaps) a dashed path may have; past it the stroke is solid.
    static let maxDashes = 1_000_000

    /// `lines` dashed, or as they are when the pattern does not dash (see the type's rules).
    static func dash(_ lines: [Polyline], lengths: [Double], phase: Double) -> [Polyline] {
        dashes(lines, lengths: lengths, phase: phase) ?? lines
    }

    /// The dashes of `lines`, in order (a subpath's first dash first), or nil when the pattern
    /// does not dash: invalid, or needing more than `maxDashes` pieces.
    static func dashes(_ lines: [Polyline], lengths: [Double], phase: Double) -> [Polyline]? {
        guard let pattern = DashPattern(lengths: lengths, phase: phase) else { return nil }
        var survey = DashSurvey()
        for line in lines { survey.feed(line) }
        guard pattern.fits(length: survey.length) else { return nil }
        var out: [Polyline] = []
        var subpathStart = 0
        withoutActuallyEscaping({ (dash: Polyline, leads: Bool) in
            if leads { out.insert(dash, at: subpathStart) } else { out.append(dash) }
        }) { take in
            var sink = DashSink(pattern: pattern, skipping: survey.nonFiniteSubpaths, take: take)
            for line in lines {
                subpathStart = out.count
                sink.feed(line)
            }
        }
        return out
    }

    /// Whether `lengths` make a dash pattern: none negative, a finite positive total.
    static func isValidPattern(_ lengths: [Double]) -> Bool {
        let total = lengths.reduce(0, +)
        return total > 0 && total.isFinite && lengths.allSatisfy { $0 >= 0 }
    }

    static func distance(_ a: Point, _ b: Point) -> Double {
        ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
    }
}

/// A valid dash pattern and where in it every subpath starts.
struct DashPattern {
    let lengths: [Double]
    let total: Double
    /// The index of the length `phase` falls in, and how much of that length is left.
    let startIndex: Int
    let startRemaining: Double

    /// Nil when `lengths` is not a valid pattern (`Dasher.isValidPattern`).
    init?(lengths: [Double], phase: Double) {
        guard Dasher.isValidPattern(lengths) else { return nil }
        self.lengths = lengths
        total = lengths.reduce(0, +)
        var offset = phase.truncatingRemainder(dividingBy: total)
        if offset < 0 { offset += total }
        var index = 0
        while offset >= lengths[index] {
            offset -= lengths[index]
            index = (index + 1) % lengths.count
        }
        startIndex = index
        startRemaining = lengths[index] - offset
    }

    /// Whether a path of `length` (its finite subpaths, closing segments included) needs at
    /// most `Dasher.maxDashes` pieces.
    func fits(length: Double) -> Bool {
        length / total * Double(lengths.count) <= Double(Dasher.maxDashes)
    }
}

/// A path about to be dashed: its pattern, checked against the path's length, and the
/// subpaths to leave out (not finite).
struct DashPlan {
    let pattern: DashPattern
    let nonFiniteSubpaths: [Int]

    /// Nil when `path`, mapped by `transform` and flattened within `tolerance`, is not dashed:
    /// the pattern is invalid or the path would need more than `Dasher.maxDashes` pieces. One
    /// walk of the flattener, holding nothing but the indices of non-finite subpaths.
    init?(_ path: Path, transform: Transform, tolerance: Double, lengths: [Double], phase: Double) {
        guard let pattern = DashPattern(lengths: lengths, phase: phase) else { return nil }
        var survey = DashSurvey()
        Flattener.walk(path, transform: transform, tolerance: tolerance, into: &survey)
        guard pattern.fits(length: survey.length) else { return nil }
        self.pattern = pattern
        nonFiniteSubpaths = survey.nonFiniteSubpaths
    }

    /// Hands every dash of `path` (the path the plan was made for, with the same transform and
    /// tolerance) to `take` as the flattener reaches its end, with whether it is its subpath's
    /// first dash (handed over at the subpath's end, after the others).
    func walk(_ path: Path, transform: Transform, tolerance: Double, take: (Polyline, _ leads: Bool) -> Void) {
        withoutActuallyEscaping(take) { take in
            var sink = DashSink(pattern: pattern, skipping: nonFiniteSubpaths, take: take)
            Flattener.walk(path, transform: transform, tolerance: tolerance, into: &sink)
        }
    }
}

/// The total length of a path's finite subpaths, closing segments included, and the indices of
/// those that are not finite.
struct DashSurvey: FlattenSink {
    static var preservesArea: Bool { false }
    private(set) var length = 0.0
    private(set) var nonFiniteSubpaths: [Int] = []
    private var subpathIndex = -1
    private var subpathLength = 0.0
    private var start = Point.zero, last = Point.zero
    /// NaN once a point of the subpath is not finite (as `EdgeSink`).
    private var nonFinite = 0.0

    mutating func begin(_ p: Point) {
        subpathIndex += 1
        subpathLength = 0
        start = p; last = p
        nonFinite = p.x * 0 + p.y * 0
    }

    mutating func line(to p: Point) {
        nonFinite += p.x * 0 + p.y * 0
        subpathLength += Dasher.distance(last, p)
        last = p
    }

    mutating func end(closed: Bool) {
        if closed { line(to: start) }
        if nonFinite == 0 { length += subpathLength } else { nonFiniteSubpaths.append(subpathIndex) }
    }
}

/// Cuts the subpaths it is fed into the dashes of `pattern` as their points arrive (see
/// `Dasher`), handing each dash to `take` when it ends. A subpath that starts painted keeps its
/// first dash until the subpath ends: if it closes while painted, its last dash runs on into the
/// first and the two are handed over as one.
struct DashSink: FlattenSink {
    static var preservesArea: Bool { false }
    private let pattern: DashPattern
    /// Subpaths left out (their indices, in order): those with a non-finite point.
    private let skipping: [Int]
    private var nextSkipped = 0
    private var subpathIndex = -1
    private var skips = false
    private let take: (Polyline, _ leads: Bool) -> Void
    /// The pattern's length the current point is in, what is left of it, and whether it paints.
    private var index = 0, remaining = 0.0, on = false
    private var startsOn = false
    private var start = Point.zero, last = Point.zero
    /// The dash being cut (its points so far), and the subpath's first one while held.
    private var current: [Point] = []
    private var first: [Point]?

    init(pattern: DashPattern, skipping: [Int], take: @escaping (Polyline, _ leads: Bool) -> Void) {
        self.pattern = pattern
        self.skipping = skipping
        self.take = take
    }

    mutating func begin(_ p: Point) {
        subpathIndex += 1
        skips = nextSkipped < skipping.count && skipping[nextSkipped] == subpathIndex
        if skips {
            nextSkipped += 1
            return
        }
        index = pattern.startIndex
        remaining = pattern.startRemaining
        on = index % 2 == 0
        startsOn = on
        start = p; last = p
        first = nil
        current.removeAll(keepingCapacity: true)
        if on { current.append(p) }
    }

    mutating func line(to b: Point) {
        if skips { return }
        var a = last
        var segLength = Dasher.distance(a, b)
        while segLength > remaining {
            let t = remaining / segLength
            let p = Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
            if on {
                current.append(p)
                endDash()
            } else {
                current.removeAll(keepingCapacity: true)
                current.append(p)
            }
            on.toggle()
            segLength -= remaining
            a = p
            index = (index + 1) % pattern.lengths.count
            remaining = pattern.lengths[index]
        }
        remaining -= segLength
        if on { current.append(b) }
        last = b
    }

    /// Hands over the dash just cut, or keeps it if it is the first of a subpath starting painted.
    private mutating func endDash() {
        if startsOn && first == nil {
            first = current
        } else {
            take(Polyline(points: current, closed: false), false)
        }
        current.removeAll(keepingCapacity: true)
    }

    mutating func end(closed: Bool) {
        if skips { return }
        if closed { line(to: start) }
        let trailing = on && current.count >= 2
        if let first {
            if trailing && closed {
                // The last dash runs into the first one across the closing point: join them.
                take(Polyline(points: current.dropLast() + first, closed: false), true)
            } else {
                take(Polyline(points: first, closed: false), true)
                if trailing { take(Polyline(points: current, closed: false), false) }
            }
        } else if trailing {
            take(Polyline(points: current, closed: false), false)
        }
        first = nil
        current.removeAll(keepingCapacity: true)
    }
}

extension FlattenSink {
    /// Feeds one polyline as a subpath.
    mutating func feed(_ line: Polyline) {
        guard let head = line.points.first else { return }
        begin(head)
        for p in line.points.dropFirst() { self.line(to: p) }
        end(closed: line.closed)
    }
}

extension Path {
    /// The "on" pieces of the dash pattern `lengths` starting `phase` into it, as open subpaths
    /// of line segments (curves flattened within `tolerance`).
    public func dashed(lengths: [Double], phase: Double, tolerance: Double = 0.05) -> Path {
        var out = Path()
        for line in Dasher.dash(Flattener.polylines(self, tolerance: tolerance), lengths: lengths, phase: phase) {
            out.move(to: line.points[0])
            for p in line.points.dropFirst() { out.line(to: p) }
        }
        return out
    }
}
