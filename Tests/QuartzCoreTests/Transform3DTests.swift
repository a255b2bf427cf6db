import Testing
import QuartzCore

/// CATransform3D functions against Apple's documented conventions and hand-computed matrices.
struct Transform3DTests {
    static func close(_ a: CATransform3D, _ b: CATransform3D, _ eps: CGFloat = 1e-9) -> Bool {
        let x = [a.m11, a.m12, a.m13, a.m14, a.m21, a.m22, a.m23, a.m24, a.m31, a.m32, a.m33, a.m34, a.m41, a.m42, a.m43, a.m44]
        let y = [b.m11, b.m12, b.m13, b.m14, b.m21, b.m22, b.m23, b.m24, b.m31, b.m32, b.m33, b.m34, b.m41, b.m42, b.m43, b.m44]
        return zip(x, y).allSatisfy { abs($0 - $1) < eps }
    }

    @Test func rotationAboutZTurnsXTowardsY() {
        let r = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let p = r._project(x: 1, y: 0)
        #expect(abs(p.x) < 1e-12 && abs(p.y - 1) < 1e-12)
        // Same as the affine rotation Apple documents for CGAffineTransform(rotationAngle:).
        #expect(CATransform3DIsAffine(r))
        let a = CATransform3DGetAffineTransform(r)
        #expect(abs(a.b - 1) < 1e-12 && abs(a.c + 1) < 1e-12)
    }

    @Test func translateAppliesBeforeTheExistingTransform() {
        // CATransform3DTranslate(t, …) = Concat(MakeTranslation(…), t): translate first, then t.
        let s = CATransform3DMakeScale(2, 2, 1)
        let t = CATransform3DTranslate(s, 10, 0, 0)
        let p = t._project(x: 1, y: 1)
        #expect(p.x == 22 && p.y == 2)
        #expect(t == CATransform3DConcat(CATransform3DMakeTranslation(10, 0, 0), s))
    }

    @Test func inverseTimesSelfIsIdentity() {
        var t = CATransform3DMakeRotation(0.7, 1, 2, 3)
        t = CATransform3DTranslate(t, 5, -3, 2)
        t.m34 = -1.0 / 500
        #expect(Self.close(CATransform3DConcat(t, CATransform3DInvert(t)), CATransform3DIdentity))
        let singular = CATransform3DMakeScale(0, 1, 1)
        #expect(CATransform3DInvert(singular) == singular)   // Apple: returned unchanged
    }

    @Test func perspectiveDivide() {
        // m34 = −1/500: a point at z = 100 has w = 1 − 100/500 = 0.8, so x grows by 1/0.8.
        var t = CATransform3DIdentity
        t.m34 = -1.0 / 500
        let p = t._project(x: 40, y: 0, z: 100)
        #expect(abs(p.x - 50) < 1e-12 && abs(p.w - 0.8) < 1e-12)
    }

    @Test func affineRoundTrip() {
        let a = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        #expect(CATransform3DGetAffineTransform(CATransform3DMakeAffineTransform(a)) == a)
        #expect(CATransform3DIsIdentity(CATransform3DIdentity))
        #expect(!CATransform3DIsAffine(CATransform3DMakeRotation(0.3, 1, 0, 0)))
    }
}
