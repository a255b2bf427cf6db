import Testing
import CoreGraphics

// Expected values: the geometry of strokes (half the width on each side; square caps extend
// by half the width) and dash patterns (on/off lengths along the path), per Apple's docs.

@Test func strokedCopyHasTheLineWidth() {
    let line = CGMutablePath()
    line.move(to: .zero)
    line.addLine(to: CGPoint(x: 10, y: 0))
    let butt = line.copy(strokingWithWidth: 2, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
    #expect(isClose(butt.boundingBoxOfPath, CGRect(x: 0, y: -1, width: 10, height: 2), 1e-9))
    #expect(butt.contains(CGPoint(x: 5, y: 0.9)))
    #expect(!butt.contains(CGPoint(x: 5, y: 1.1)))
    let square = line.copy(strokingWithWidth: 2, lineCap: .square, lineJoin: .miter, miterLimit: 10)
    #expect(isClose(square.boundingBoxOfPath, CGRect(x: -1, y: -1, width: 12, height: 2), 1e-9))
    let moved = line.copy(strokingWithWidth: 2, lineCap: .butt, lineJoin: .miter, miterLimit: 10,
                          transform: CGAffineTransform(translationX: 0, y: 5))
    #expect(isClose(moved.boundingBoxOfPath, CGRect(x: 0, y: 4, width: 10, height: 2), 1e-9))
}

@Test func dashedCopySplitsThePath() {
    let line = CGMutablePath()
    line.move(to: .zero)
    line.addLine(to: CGPoint(x: 10, y: 0))
    let dashed = line.copy(dashingWithPhase: 0, lengths: [2, 3])
    // on [0, 2], off [2, 5], on [5, 7], off [7, 10]
    #expect(types(of: dashed).filter { $0 == .moveToPoint }.count == 2)
    #expect(abs(dashed.length - 4) <= 1e-9)
    #expect(isClose(dashed.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 7, height: 0), 1e-9))
    let shifted = line.copy(dashingWithPhase: 1, lengths: [2, 3])
    // phase 1: on [0, 1], off [1, 4], on [4, 6], off [6, 9], on [9, 10]
    #expect(abs(shifted.length - 4) <= 1e-9)
    #expect(types(of: shifted).filter { $0 == .moveToPoint }.count == 3)
    #expect(line.copy(dashingWithPhase: 0, lengths: []) == line)
}

@Test func strokedCopyJoinsAndRoundCaps() {
    // Miter joins on a square: the outline reaches half the width beyond each side.
    let square = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil)
    let mitered = square.copy(strokingWithWidth: 2, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
    #expect(isClose(mitered.boundingBoxOfPath, CGRect(x: -1, y: -1, width: 12, height: 12), 1e-9))
    #expect(!mitered.contains(CGPoint(x: 5, y: 5)))   // the hole stays empty
    #expect(mitered.contains(CGPoint(x: -0.9, y: -0.9)))  // the mitered corner
    // Bevel: the corner point (−0.9, −0.9) is cut off (bevel line x + y = −1 … through (−1, 0), (0, −1)).
    let beveled = square.copy(strokingWithWidth: 2, lineCap: .butt, lineJoin: .bevel, miterLimit: 10)
    #expect(!beveled.contains(CGPoint(x: -0.9, y: -0.9)))
    // Round caps add a half disc of radius 1 at each end (curves flattened within 0.01).
    let line = CGMutablePath()
    line.move(to: .zero)
    line.addLine(to: CGPoint(x: 10, y: 0))
    let round = line.copy(strokingWithWidth: 2, lineCap: .round, lineJoin: .round, miterLimit: 10)
    #expect(isClose(round.boundingBoxOfPath, CGRect(x: -1, y: -1, width: 12, height: 2), 0.011))
    #expect(round.contains(CGPoint(x: -0.6, y: 0.6)))
    #expect(!round.contains(CGPoint(x: -0.8, y: 0.8)))
}
