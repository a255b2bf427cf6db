import CoreGraphics
import FuzzSupport

runFuzzer { data, size in fuzzPath(data ?? UnsafePointer(bitPattern: 1)!, size) }

/// One fuzz input (exported as LLVMFuzzerTestOneInput too, which libFuzzer's runtime needs):
/// the bytes are read as a path — a verb byte, then its coordinates —
/// and the path is filled, stroked and stroked with a dash pattern into a 64×64 context.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPath(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(UnsafeBufferPointer(start: data, count: size))
    guard let ctx = CGContext(data: nil, width: 64, height: 64, bitsPerComponent: 8, bytesPerRow: 0,
                              space: CGColorSpaceCreateDeviceRGB(),
                              bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue) else { return 0 }
    let path = CGMutablePath()
    path.move(to: input.point())
    while !input.isEmpty {
        switch input.byte() % 7 {
        case 0: path.move(to: input.point())
        case 1: path.addLine(to: input.point())
        case 2: path.addQuadCurve(to: input.point(), control: input.point())
        case 3: path.addCurve(to: input.point(), control1: input.point(), control2: input.point())
        case 4: path.addArc(center: input.point(), radius: CGFloat(input.number()), startAngle: CGFloat(input.number()),
                            endAngle: CGFloat(input.number()), clockwise: input.byte() & 1 == 1)
        case 5: path.addRect(CGRect(origin: input.point(), size: CGSize(width: CGFloat(input.number()), height: CGFloat(input.number()))))
        default: path.closeSubpath()
        }
    }
    ctx.setFillColor(gray: 0.5, alpha: 1)
    ctx.addPath(path)
    ctx.fillPath()
    ctx.setLineWidth(CGFloat(input.byte()) / 8)
    ctx.setLineCap([.butt, .round, .square][Int(input.byte() % 3)])
    ctx.setLineJoin([.miter, .round, .bevel][Int(input.byte() % 3)])
    ctx.addPath(path)
    ctx.strokePath()
    ctx.setLineDash(phase: CGFloat(input.number()), lengths: [CGFloat(input.number()), CGFloat(input.number())])
    ctx.addPath(path)
    ctx.strokePath()
    return 0
}

extension FuzzInput {
    /// A point around the 64×64 target's centre, or anywhere (NaN, ±∞, 1e38 …) sometimes.
    mutating func point() -> CGPoint { CGPoint(x: CGFloat(number()) + 32, y: CGFloat(number()) + 32) }
}
