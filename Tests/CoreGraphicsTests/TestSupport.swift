import CoreGraphics

/// Absolute-tolerance comparisons for tests.
func isClose(_ a: CGFloat, _ b: CGFloat, _ tolerance: CGFloat = 1e-9) -> Bool { abs(a - b) <= tolerance }
func isClose(_ p: CGPoint, _ q: CGPoint, _ tolerance: CGFloat = 1e-9) -> Bool {
    isClose(p.x, q.x, tolerance) && isClose(p.y, q.y, tolerance)
}
func isClose(_ r: CGRect, _ s: CGRect, _ tolerance: CGFloat = 1e-9) -> Bool {
    isClose(r.minX, s.minX, tolerance) && isClose(r.minY, s.minY, tolerance)
        && isClose(r.maxX, s.maxX, tolerance) && isClose(r.maxY, s.maxY, tolerance)
}

/// The elements of a path through Apple's `applyWithBlock`.
func elements(of path: CGPath) -> [(CGPathElementType, [CGPoint])] {
    var result: [(CGPathElementType, [CGPoint])] = []
    path.applyWithBlock { element in
        let e = element.pointee
        let count: Int
        switch e.type {
        case .moveToPoint, .addLineToPoint: count = 1
        case .addQuadCurveToPoint: count = 2
        case .addCurveToPoint: count = 3
        case .closeSubpath: count = 0
        }
        result.append((e.type, (0..<count).map { e.points[$0] }))
    }
    return result
}

func types(of path: CGPath) -> [CGPathElementType] { elements(of: path).map(\.0) }

/// Angles equal modulo 2π.
func isCloseAngle(_ a: CGFloat, _ b: CGFloat, _ tolerance: CGFloat = 1e-9) -> Bool {
    isClose(cos(a), cos(b), tolerance) && isClose(sin(a), sin(b), tolerance)
}

/// A 100×100 (or other size) premultiplied RGBA8 bitmap context, Apple's usual recipe.
func makeBitmapContext(width: Int = 100, height: Int = 100) -> CGContext {
    CGContext(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0,
              space: CGColorSpaceCreateDeviceRGB(),
              bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
}

/// The premultiplied RGBA bytes of pixel (x, row) where row 0 is the first row in memory.
func pixel(_ context: CGContext, x: Int, row: Int) -> [Int] {
    let p = context.data!.assumingMemoryBound(to: UInt8.self) + row * context.bytesPerRow + x * 4
    return (0..<4).map { Int(p[$0]) }
}

func isClose(_ a: [Int], _ b: [Int], _ tolerance: Int = 1) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
}

let opaqueRed = [255, 0, 0, 255]
let transparent = [0, 0, 0, 0]
