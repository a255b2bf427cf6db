import Raster

/// Which corner a project-made context's user space starts at (project API, see
/// `CGContext.init(pixmap:origin:scale:)`).
public enum CGContextOrigin: Sendable {
    /// Core Graphics' bitmap-context convention: origin bottom-left, y up.
    case bottomLeft
    /// The convention of the context iOS hands to `CALayer.draw(in:)` / `UIView.draw(_:)`:
    /// origin top-left, y down (a flip concatenated to the CTM, which `ctm` reports).
    case topLeft
}

/// A bitmap drawing context (Apple's `CGContext`), drawing premultiplied RGBA8 sRGB pixels
/// with the pixel engine.
///
/// Coordinates, exactly as a Core Graphics bitmap context: the default user space has its
/// origin at the **bottom-left** corner of the bitmap, +y up, one unit per pixel; device space
/// is the bitmap (row 0 = first row in memory = *top* of the image). So filling
/// `CGRect(x: 0, y: 0, width: 10, height: 10)` colours the last 10 rows of memory, and
/// `makeImage()` gives an image that shows it at the bottom-left. `ctm` starts at identity and
/// maps user space to that default space. The current path is stored as it is built, with the
/// CTM of the moment applied to each point (Apple: later CTM changes do not move it); line
/// widths and dashes use the CTM at the time of stroking.
///
/// For layer drawing, `CGContext(pixmap:origin: .topLeft, scale:)` makes a context whose user
/// space is top-left / y-down like the one iOS passes to `draw(in:)`.
///
/// Threading: like Apple's, a context must be used from one thread at a time.
public final class CGContext: @unchecked Sendable {
    /// The pixels drawn into (project API). For a context created over caller memory this is
    /// a private copy, synchronised with the caller's buffer around each drawing call.
    public let pixmap: Pixmap
    /// Maps text space to user space for Core Text drawing (`CTLineDraw`): a glyph point p lands
    /// at `p.applying(textMatrix)` + `textPosition` in user space. Default identity. As on Apple,
    /// it is not part of the graphics state (`saveGState`/`restoreGState` leave it alone).
    public var textMatrix: CGAffineTransform = .identity
    /// Where the next line of text starts, in user space: the origin of its baseline. Default
    /// (0, 0); not part of the graphics state.
    public var textPosition: CGPoint = .zero
    /// Caller-provided memory (`init(data:…)` with non-nil data) and its row stride.
    private let callerData: UnsafeMutableRawPointer?
    private let callerBytesPerRow: Int

    public var width: Int { pixmap.width }
    public var height: Int { pixmap.height }
    public var bitsPerComponent: Int { 8 }
    public var bitsPerPixel: Int { 32 }
    public var bytesPerRow: Int { callerData == nil ? pixmap.bytesPerRow : callerBytesPerRow }
    public var colorSpace: CGColorSpace? { CGColorSpaceCreateDeviceRGB() }
    public var alphaInfo: CGImageAlphaInfo { .premultipliedLast }
    public var bitmapInfo: CGBitmapInfo { CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue) }
    /// The bitmap memory: the caller's buffer, or the context's own.
    public var data: UnsafeMutableRawPointer? { callerData ?? UnsafeMutableRawPointer(pixmap.pixels) }

    /// Where drawing goes: `pixmap`, or the innermost transparency layer's pixels.
    var target: Pixmap
    var state: GraphicsState
    var savedStates: [GraphicsState] = []
    /// The current path, in device space.
    var currentPath = CGMutablePath()
    /// Maps the default user space (y up) to device pixels (y down).
    let baseTransform: CGAffineTransform
    /// The CTM the context was made with (its default user space).
    let defaultCTM: CGAffineTransform
    /// Open transparency layers, innermost last.
    var layers: [TransparencyLayer] = []

    /// A bitmap context (Apple's initializer). Citrine supports one format: 8 bits per
    /// component, RGB colour space, `CGImageAlphaInfo.premultipliedLast` with the default or
    /// 32-bit big-endian byte order (bytes R, G, B, A in memory). Anything else, or a size the
    /// pixel engine refuses (see `Pixmap.maxDimension`), returns nil.
    ///
    /// With `data == nil` the context owns zeroed memory; otherwise it draws into the caller's
    /// buffer, which must hold `height * bytesPerRow` bytes and outlive the context.
    /// `bytesPerRow` 0 means `width * 4`; smaller non-zero values are refused.
    public init?(data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int,
                 bytesPerRow: Int, space: CGColorSpace, bitmapInfo: UInt32) {
        let info = CGBitmapInfo(rawValue: bitmapInfo)
        let alpha = info.intersection(.alphaInfoMask).rawValue
        let order = info.intersection(.byteOrderMask)
        guard bitsPerComponent == 8, space.model == .rgb,
              alpha == CGImageAlphaInfo.premultipliedLast.rawValue,
              order == .byteOrderDefault || order == .byteOrder32Big,
              !info.contains(.floatComponents),
              width > 0, height > 0, width <= Int.max / 4,
              bytesPerRow == 0 || bytesPerRow >= width * 4,
              let pixmap = try? Pixmap(width: width, height: height)
        else { return nil }
        self.pixmap = pixmap
        self.target = pixmap
        self.callerData = data
        self.callerBytesPerRow = bytesPerRow == 0 ? width * 4 : bytesPerRow
        self.baseTransform = CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(height))
        self.state = GraphicsState()
        self.defaultCTM = .identity
        copyInFromCaller()
    }

    /// A context drawing into `pixmap` (project API; e.g. a layer's backing store), with one
    /// user unit = `scale` pixels.
    ///
    /// - `origin: .bottomLeft`: Apple's bitmap-context convention; the CTM starts as
    ///   `CGAffineTransform(scaleX: scale, y: scale)`.
    /// - `origin: .topLeft`: the context iOS hands to `CALayer.draw(in:)` for a layer whose
    ///   `contentsScale` is `scale`: user point (x, y) lands x·scale pixels right of and
    ///   y·scale pixels below the top-left corner. The CTM starts as
    ///   `(a: scale, b: 0, c: 0, d: −scale, tx: 0, ty: height)` and `ctm` reports it, as on iOS.
    ///
    /// The initial CTM is the bottom of the state stack: `restoreGState` never removes it.
    public init(pixmap: Pixmap, origin: CGContextOrigin = .bottomLeft, scale: CGFloat = 1) {
        self.pixmap = pixmap
        self.target = pixmap
        self.callerData = nil
        self.callerBytesPerRow = pixmap.bytesPerRow
        self.baseTransform = CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(pixmap.height))
        self.state = GraphicsState()
        let s = scale.isFinite && scale > 0 ? scale : 1
        switch origin {
        case .bottomLeft:
            state.ctm = CGAffineTransform(scaleX: s, y: s)
        case .topLeft:
            state.ctm = CGAffineTransform(a: s, b: 0, c: 0, d: -s, tx: 0, ty: CGFloat(pixmap.height))
        }
        defaultCTM = state.ctm
    }

    /// A snapshot of the pixels as an image (Apple's `makeImage()`); later drawing does not
    /// change it.
    public func makeImage() -> CGImage? {
        copyInFromCaller()
        guard let copy = try? Pixmap(width: width, height: height) else { return nil }
        copy.pixels.update(from: pixmap.pixels, count: height * pixmap.bytesPerRow)
        return CGImage(pixmap: copy)
    }

    /// Hands buffered drawing to the bitmap (Apple's `flush()`; drawing is immediate here).
    public func flush() {}
    /// Apple's `synchronize()`; drawing is immediate here.
    public func synchronize() {}

    // MARK: Caller memory

    /// Before drawing: picks up what the caller wrote into its buffer.
    func copyInFromCaller() {
        guard let callerData else { return }
        for row in 0..<height {
            (pixmap.pixels + row * pixmap.bytesPerRow).update(
                from: (callerData + row * callerBytesPerRow).assumingMemoryBound(to: UInt8.self),
                count: width * 4)
        }
    }

    /// After drawing: writes the result to the caller's buffer.
    func copyOutToCaller() {
        guard let callerData else { return }
        for row in 0..<height {
            (callerData + row * callerBytesPerRow).assumingMemoryBound(to: UInt8.self)
                .update(from: pixmap.pixels + row * pixmap.bytesPerRow, count: width * 4)
        }
    }
}

// MARK: - Graphics state

/// Everything `saveGState`/`restoreGState` saves (Apple's list, minus what Citrine lacks).
struct GraphicsState {
    var ctm: CGAffineTransform = .identity
    var fillColor: CGColor = .black
    var strokeColor: CGColor = .black
    var alpha: CGFloat = 1
    var lineWidth: CGFloat = 1
    var lineCap: CGLineCap = .butt
    var lineJoin: CGLineJoin = .miter
    var miterLimit: CGFloat = 10
    var dashPhase: CGFloat = 0
    var dashLengths: [CGFloat] = []
    var blendMode: CGBlendMode = .normal
    var shouldAntialias = true
    var interpolationQuality: CGInterpolationQuality = .default
    /// Device-space clip coverage; nil = no clip (the whole bitmap).
    var clip: Mask?
    var shadow: Shadow?
}

/// A shadow as set by `setShadow` (offset in base space, blur as Apple's parameter).
struct Shadow {
    var offset: CGSize
    var blur: CGFloat
    var color: Color
}

/// A transparency layer in progress: where drawing went before it, and the state to
/// composite it with.
struct TransparencyLayer {
    var target: Pixmap
    var alpha: CGFloat
    var blendMode: CGBlendMode
    var shadow: Shadow?
    var clip: Mask?
}

extension CGContext {
    /// Pushes a copy of the graphics state (CTM, colours, line style, alpha, blend mode,
    /// clip, shadow, antialiasing, interpolation quality). The current path is not part of it.
    public func saveGState() { savedStates.append(state) }
    /// Pops the last saved graphics state; ignored when none is saved.
    public func restoreGState() {
        if let last = savedStates.popLast() { state = last }
    }

    /// The current transformation matrix: user space → default user space.
    public var ctm: CGAffineTransform { state.ctm }
    /// `ctm = translation × ctm` (Apple's `translateBy`: the translation happens in user space).
    public func translateBy(x tx: CGFloat, y ty: CGFloat) { state.ctm = state.ctm.translatedBy(x: tx, y: ty) }
    public func scaleBy(x sx: CGFloat, y sy: CGFloat) { state.ctm = state.ctm.scaledBy(x: sx, y: sy) }
    /// Rotates user space by `angle` radians (positive: +x towards +y).
    public func rotate(by angle: CGFloat) { state.ctm = state.ctm.rotated(by: angle) }
    /// `ctm = transform × ctm`.
    public func concatenate(_ transform: CGAffineTransform) { state.ctm = transform.concatenating(state.ctm) }
    /// User space → device pixels (top-left origin, y down).
    var deviceTransform: CGAffineTransform { state.ctm.concatenating(baseTransform) }
    /// User space → pixels of `pixmap` (top-left origin, y down) (Citrine: for drawing into the
    /// bitmap directly, as `CALayer.render(in:)` does, through `_withTargetPixels`).
    package var _userSpaceToPixels: CGAffineTransform { deviceTransform }

    /// Runs `body` on the pixels drawing goes to — the bitmap, or the innermost transparency
    /// layer — kept in sync with caller memory (Citrine: for `CALayer.render(in:)`, which draws
    /// a layer tree straight into them; the clip, alpha and blend mode are not applied).
    package func _withTargetPixels(_ body: (Pixmap) -> Void) {
        copyInFromCaller()
        body(target)
        copyOutToCaller()
    }
    /// Apple's `userSpaceToDeviceSpaceTransform`: here device space is the default user
    /// space (y up), as Apple reports for bitmap contexts at scale 1.
    public var userSpaceToDeviceSpaceTransform: CGAffineTransform { state.ctm }
    public func convertToDeviceSpace(_ point: CGPoint) -> CGPoint { point.applying(state.ctm) }
    public func convertToUserSpace(_ point: CGPoint) -> CGPoint { point.applying(state.ctm.inverted()) }

    public func setFillColor(_ color: CGColor) { state.fillColor = color }
    public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        state.fillColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }
    public func setFillColor(gray: CGFloat, alpha: CGFloat) { state.fillColor = CGColor(gray: gray, alpha: alpha) }
    public func setStrokeColor(_ color: CGColor) { state.strokeColor = color }
    public func setStrokeColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        state.strokeColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }
    public func setStrokeColor(gray: CGFloat, alpha: CGFloat) { state.strokeColor = CGColor(gray: gray, alpha: alpha) }
    /// Global alpha multiplied into everything drawn, clamped to 0…1 (default 1).
    public func setAlpha(_ alpha: CGFloat) { state.alpha = alpha.isNaN ? 0 : min(max(alpha, 0), 1) }
    /// Stroke width in user space at the time of stroking (default 1); negative is ignored.
    public func setLineWidth(_ width: CGFloat) { if width >= 0, width.isFinite { state.lineWidth = width } }
    public func setLineCap(_ cap: CGLineCap) { state.lineCap = cap }
    public func setLineJoin(_ join: CGLineJoin) { state.lineJoin = join }
    public func setMiterLimit(_ limit: CGFloat) { if limit.isFinite { state.miterLimit = limit } }
    /// Dash pattern (user-space lengths, on/off alternating) and starting offset. An empty
    /// pattern, or one that is all zeros or has a negative length, draws solid lines.
    public func setLineDash(phase: CGFloat, lengths: [CGFloat]) {
        let valid = lengths.allSatisfy { $0 >= 0 && $0.isFinite } && lengths.contains { $0 > 0 }
        state.dashLengths = valid ? lengths : []
        state.dashPhase = phase.isFinite ? phase : 0
    }
    public func setBlendMode(_ mode: CGBlendMode) { state.blendMode = mode }
    /// Anti-aliased edges (default true).
    public func setShouldAntialias(_ shouldAntialias: Bool) { state.shouldAntialias = shouldAntialias }
    /// Apple's `setAllowsAntialiasing`: Citrine has one switch, `setShouldAntialias`.
    public func setAllowsAntialiasing(_ allowsAntialiasing: Bool) { state.shouldAntialias = allowsAntialiasing }
    /// Image sampling quality for `draw(_:in:)` (default `.default`).
    public var interpolationQuality: CGInterpolationQuality {
        get { state.interpolationQuality }
        set { state.interpolationQuality = newValue }
    }
}
