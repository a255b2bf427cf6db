import Raster

// Gradients (Apple's drawLinearGradient / drawRadialGradient). Both paint the whole clip
// area; where the gradient is undefined nothing is drawn.
//
// Without options Core Graphics draws only where the gradient parameter t is in 0…1;
// `.drawsBeforeStartLocation` / `.drawsAfterEndLocation` extend the first / last colour over
// t < 0 / t > 1. The pixel engine's spreads are symmetric (`.pad` both ways, `.decal` neither),
// so one-sided extension is drawn with `.decal` over a longer gradient: its geometry is
// extrapolated to t = −K / 1 + K (K large enough to pass the bitmap's far corner, at most
// 4096) and the stops are remapped into the matching sub-range.

extension CGContext {
    /// Fills the clip area with `gradient` along the axis `start` → `end` (user space).
    /// Nothing is drawn when `start == end`.
    public func drawLinearGradient(_ gradient: CGGradient, start: CGPoint, end: CGPoint,
                                   options: CGGradientDrawingOptions) {
        let d = end - start
        guard start.isFinite, end.isFinite, d.length > 0 else { return }
        let k = extensionFactor(scale: d.length)
        let (low, high) = parameterRange(options, k: k, lowestValid: -k)
        let shader = Shader.linearGradient(LinearGradient(
            start: Point(start + d * low), end: Point(start + d * high),
            stops: remappedStops(gradient.stops, low: low, high: high, options: options),
            spread: spread(options), transform: deviceTransform.rasterTransform))
        fillClipArea(with: shader)
    }

    /// Fills the clip area with the two-circle gradient from circle (`startCenter`,
    /// `startRadius`) at t = 0 to (`endCenter`, `endRadius`) at t = 1 (user space); negative
    /// radii count as 0.
    public func drawRadialGradient(_ gradient: CGGradient, startCenter: CGPoint, startRadius: CGFloat,
                                   endCenter: CGPoint, endRadius: CGFloat, options: CGGradientDrawingOptions) {
        guard startCenter.isFinite, endCenter.isFinite, startRadius.isFinite, endRadius.isFinite else { return }
        let r0 = max(startRadius, 0), r1 = max(endRadius, 0)
        let dc = endCenter - startCenter, dr = r1 - r0
        let change = max(dc.length, abs(dr))
        guard change > 0 || r0 > 0 else { return }
        let k = extensionFactor(scale: change > 0 ? change : r0)
        // circles shrink to nothing going backwards when the radius grows: stop at r = 0
        let lowestValid = dr > 0 ? max(-k, -r0 / dr) : -k
        let (low, high) = parameterRange(options, k: k, lowestValid: lowestValid)
        func center(_ t: CGFloat) -> CGPoint { startCenter + dc * t }
        func radius(_ t: CGFloat) -> CGFloat { max(r0 + dr * t, 0) }
        let shader = Shader.radialGradient(RadialGradient(
            startCenter: Point(center(low)), startRadius: Double(radius(low)),
            endCenter: Point(center(high)), endRadius: Double(radius(high)),
            stops: remappedStops(gradient.stops, low: low, high: high, options: options),
            spread: spread(options), transform: deviceTransform.rasterTransform))
        fillClipArea(with: shader)
    }

    // MARK: Internals

    private func fillClipArea(with shader: Shader) {
        let area = CGPath(rect: CGRect(x: 0, y: 0, width: target.width, height: target.height), transform: nil)
        render(area, rule: .nonZero, shader: shader)
    }

    /// Both options: plain `.pad`; otherwise `.decal` over the extended range.
    private func spread(_ options: CGGradientDrawingOptions) -> SpreadMode {
        options.contains([.drawsBeforeStartLocation, .drawsAfterEndLocation]) ? .pad : .decal
    }

    /// How many gradient lengths (`scale` user units each) reach past the bitmap's far corner.
    private func extensionFactor(scale: CGFloat) -> CGFloat {
        let userBounds = CGRect(x: 0, y: 0, width: target.width, height: target.height)
            .applying(deviceTransform.inverted())
        let reach = hypot(userBounds.width, userBounds.height) + abs(userBounds.minX) + abs(userBounds.minY)
            + abs(userBounds.maxX) + abs(userBounds.maxY)
        return min(max(reach / scale + 1, 1), 4096)
    }

    private func parameterRange(_ options: CGGradientDrawingOptions, k: CGFloat, lowestValid: CGFloat)
        -> (CGFloat, CGFloat) {
        if options.contains([.drawsBeforeStartLocation, .drawsAfterEndLocation]) { return (0, 1) }
        let low = options.contains(.drawsBeforeStartLocation) ? min(lowestValid, 0) : 0
        let high = options.contains(.drawsAfterEndLocation) ? 1 + k : 1
        return (low, high)
    }

    /// Stops moved from 0…1 into `low…high` of the extended gradient, with the end colours
    /// held out to its ends.
    private func remappedStops(_ stops: [GradientStop], low: CGFloat, high: CGFloat,
                               options: CGGradientDrawingOptions) -> [GradientStop] {
        guard low != 0 || high != 1, let first = stops.first, let last = stops.last else { return stops }
        let span = high - low
        var result = stops.map { GradientStop(offset: Float((CGFloat($0.offset) - low) / span), color: $0.color) }
        if low < 0 { result.insert(GradientStop(offset: 0, color: first.color), at: 0) }
        if high > 1 { result.append(GradientStop(offset: 1, color: last.color)) }
        return result
    }
}
