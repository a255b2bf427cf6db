/// A frame rate as an exact fraction: `frames` frames every `seconds` seconds (30 fps is 30/1,
/// NTSC's 29.97 fps is 30000/1001). Encoders that store per-frame delays (APNG's
/// `delay_num/delay_den`, GIF's centiseconds) derive them from this fraction so that the
/// average rate over the whole animation is exact, not the rounded per-frame delay.
public struct FrameRate: Sendable, Equatable, CustomStringConvertible {
    /// Frames per `seconds`; both positive and reduced to lowest terms.
    public let frames: Int
    public let seconds: Int

    /// Highest rate accepted (frames per second).
    public static let maximum = 1_000.0
    /// Lowest rate accepted (frames per second): one frame every 1 000 s.
    public static let minimum = 0.001

    /// `frames`/`seconds` frames per second, reduced. Nil unless both are positive and the rate
    /// lies within `minimum…maximum`.
    public init?(frames: Int, seconds: Int) {
        guard frames > 0, seconds > 0 else { return nil }
        let rate = Double(frames) / Double(seconds)
        guard rate >= Self.minimum, rate <= Self.maximum else { return nil }
        let g = Self.gcd(frames, seconds)
        self.frames = frames / g
        self.seconds = seconds / g
    }

    /// The closest fraction with a denominator of at most 1 001 000 (so 29.97 becomes
    /// 30000/1001 and 23.976 becomes 24000/1001, as video tools write them; integers stay exact).
    /// Nil for a non-finite rate or one outside `minimum…maximum`.
    public init?(_ fps: Double) {
        guard fps.isFinite, fps >= Self.minimum, fps <= Self.maximum else { return nil }
        for ntsc in [24.0, 30.0, 48.0, 60.0, 120.0] where abs(fps - ntsc * 1000 / 1001) < 0.0006 {
            self.init(frames: Int(ntsc) * 1000, seconds: 1001)
            return
        }
        let (n, d) = Self.closestFraction(to: fps, maxDenominator: 1_001_000)
        self.init(frames: n, seconds: d)
    }

    /// Frames per second as a `Double`.
    public var perSecond: Double { Double(frames) / Double(seconds) }

    /// The time at which frame `index` starts, counted from the first frame: `index·seconds/frames`.
    public func time(ofFrame index: Int) -> Double { Double(index) * Double(seconds) / Double(frames) }

    /// The number of whole `unitsPerSecond` units (100 for GIF's centiseconds) from the first
    /// frame's start to frame `index`'s start, rounded to nearest: frame i lasts
    /// `units(upTo: i + 1) − units(upTo: i)`, so the rounding errors never accumulate.
    public func units(upTo index: Int, unitsPerSecond: Int) -> Int {
        let numerator = index * seconds * unitsPerSecond
        return (2 * numerator + frames) / (2 * frames)
    }

    public var description: String { seconds == 1 ? "\(frames) fps" : "\(frames)/\(seconds) fps" }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

    /// Best rational approximation by continued fractions.
    private static func closestFraction(to x: Double, maxDenominator: Int) -> (Int, Int) {
        var (h0, h1, k0, k1) = (0, 1, 1, 0)
        var value = x
        for _ in 0..<64 {
            let a = Int(value.rounded(.down))
            let (h2, k2) = (a * h1 + h0, a * k1 + k0)
            guard k2 <= maxDenominator else { break }
            (h0, h1, k0, k1) = (h1, h2, k1, k2)
            let fraction = value - Double(a)
            guard fraction > 1e-12, abs(Double(h1) / Double(k1) - x) > 1e-12 else { break }
            value = 1 / fraction
        }
        return (max(h1, 1), max(k1, 1))
    }
}
