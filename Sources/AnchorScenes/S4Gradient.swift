import Raster

/// S4 `gradient` — 1920×1080, no random numbers: a full-canvas linear gradient, then a circle
/// filled with a radial gradient whose stops all have alpha 200.
public struct S4Gradient: Sendable {
    public let width = 1920, height = 1080
    public let rectPath = SceneGeometry.rect(x: 0, y: 0, w: 1920, h: 1080)
    public let linearPaint = Paint(shader: .linearGradient(LinearGradient(
        start: Point(x: 0, y: 0), end: Point(x: 1920, y: 1080),
        stops: [GradientStop(offset: 0, color: RGBA8(32, 64, 160).color),
                GradientStop(offset: 0.5, color: RGBA8(240, 200, 80).color),
                GradientStop(offset: 1, color: RGBA8(200, 40, 90).color)],
        spread: .pad)))
    public let circlePath = SceneGeometry.circle(cx: 960, cy: 540, r: 400)
    public let radialPaint = Paint(shader: .radialGradient(RadialGradient(
        startCenter: Point(x: 960, y: 540), startRadius: 0, endCenter: Point(x: 960, y: 540), endRadius: 400,
        stops: [GradientStop(offset: 0, color: RGBA8(255, 255, 255, 200).color),
                GradientStop(offset: 0.6, color: RGBA8(60, 180, 140, 200).color),
                GradientStop(offset: 1, color: RGBA8(20, 20, 60, 200).color)],
        spread: .pad)))

    public init() {}
}
