import Testing
import CoreGraphics

/// Expected values: closed-form matrix algebra and Apple's documented conventions
/// (CGAffineTransform reference: x' = a·x + c·y + tx, y' = b·x + d·y + ty; concatenating(t2) = self × t2).
private func close(_ a: CGFloat, _ b: CGFloat, _ tol: CGFloat = 1e-12) -> Bool { abs(a - b) <= tol }
private func close(_ p: CGPoint, _ q: CGPoint, _ tol: CGFloat = 1e-12) -> Bool {
    close(p.x, q.x, tol) && close(p.y, q.y, tol)
}
private func close(_ s: CGAffineTransform, _ t: CGAffineTransform, _ tol: CGFloat = 1e-12) -> Bool {
    close(s.a, t.a, tol) && close(s.b, t.b, tol) && close(s.c, t.c, tol) && close(s.d, t.d, tol)
        && close(s.tx, t.tx, tol) && close(s.ty, t.ty, tol)
}

@Test func identityIsIdentity() {
    #expect(CGAffineTransform.identity.isIdentity)
    #expect(CGAffineTransform().isIdentity)
    #expect(!CGAffineTransform(translationX: 1, y: 0).isIdentity)
    #expect(CGPoint(x: 3, y: -4).applying(.identity) == CGPoint(x: 3, y: -4))
}

@Test func rotationByHalfPiMapsXAxisToYAxis() {
    let r = CGAffineTransform(rotationAngle: .pi / 2)
    #expect(close(CGPoint(x: 1, y: 0).applying(r), CGPoint(x: 0, y: 1)))
    #expect(close(CGPoint(x: 0, y: 1).applying(r), CGPoint(x: -1, y: 0)))
}

@Test func basicInitializersMatchMatrixEntries() {
    #expect(CGAffineTransform(translationX: 5, y: 7) == CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 5, ty: 7))
    #expect(CGAffineTransform(scaleX: 2, y: 3) == CGAffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 0, ty: 0))
    let r = CGAffineTransform(rotationAngle: 0.3)
    #expect(close(r, CGAffineTransform(a: cos(0.3), b: sin(0.3), c: -sin(0.3), d: cos(0.3), tx: 0, ty: 0)))
}

@Test func concatenationAppliesSelfFirst() {
    let scale = CGAffineTransform(scaleX: 2, y: 2)
    let move = CGAffineTransform(translationX: 10, y: 0)
    // scale then translate: (1, 1) → (2, 2) → (12, 2)
    #expect(CGPoint(x: 1, y: 1).applying(scale.concatenating(move)) == CGPoint(x: 12, y: 2))
    // translate then scale: (1, 1) → (11, 1) → (22, 2)
    #expect(CGPoint(x: 1, y: 1).applying(move.concatenating(scale)) == CGPoint(x: 22, y: 2))
}

@Test func byMethodsPrependTheNewOperation() {
    let t = CGAffineTransform(scaleX: 2, y: 3)
    // Apple: CGAffineTransformTranslate(t, x, y) = translation × t (translation applied first).
    #expect(t.translatedBy(x: 1, y: 1) == CGAffineTransform(translationX: 1, y: 1).concatenating(t))
    #expect(CGPoint.zero.applying(t.translatedBy(x: 1, y: 1)) == CGPoint(x: 2, y: 3))
    #expect(t.scaledBy(x: 5, y: 7) == CGAffineTransform(scaleX: 5, y: 7).concatenating(t))
    #expect(close(t.rotated(by: 0.5), CGAffineTransform(rotationAngle: 0.5).concatenating(t)))
}

@Test func inverseTimesSelfIsIdentity() {
    let t = CGAffineTransform(a: 2, b: 1, c: -1, d: 3, tx: 5, ty: -7)
    #expect(close(t.concatenating(t.inverted()), .identity, 1e-12))
    #expect(close(t.inverted().concatenating(t), .identity, 1e-12))
    let p = CGPoint(x: 0.25, y: -9)
    #expect(close(p.applying(t).applying(t.inverted()), p, 1e-12))
}

@Test func singularTransformInvertsToItself() {
    let singular = CGAffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 3, ty: 3)
    #expect(singular.inverted() == singular)
    #expect(CGAffineTransform(scaleX: 0, y: 1).inverted() == CGAffineTransform(scaleX: 0, y: 1))
}

@Test func sizeApplyingIgnoresTranslation() {
    let t = CGAffineTransform(a: 2, b: 0, c: 0, d: -3, tx: 100, ty: 100)
    #expect(CGSize(width: 1, height: 1).applying(t) == CGSize(width: 2, height: -3))
}

@Test func rectApplyingReturnsBoundingBoxOfCorners() {
    let r = CGRect(x: 0, y: 0, width: 2, height: 1)
    let rotated = r.applying(CGAffineTransform(rotationAngle: .pi / 4))
    // corners (0,0) (2,0) (2,1) (0,1) rotated by 45°: x ∈ [−1/√2, 2/√2], y ∈ [0, 3/√2]
    let s = 1 / CGFloat(2).squareRoot()
    #expect(close(rotated.minX, -s) && close(rotated.maxX, 2 * s))
    #expect(close(rotated.minY, 0, 1e-12) && close(rotated.maxY, 3 * s))
    let flipped = r.applying(CGAffineTransform(scaleX: 1, y: -1).translatedBy(x: 0, y: -10))
    #expect(flipped == CGRect(x: 0, y: 9, width: 2, height: 1))
    #expect(CGRect.null.applying(CGAffineTransform(translationX: 1, y: 1)).isNull)
}
