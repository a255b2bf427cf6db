/// Interpolation of `CATransform3D` the way Core Animation does it: decompose both matrices into
/// translation, scale, shear, perspective and a rotation quaternion, interpolate the parts
/// (spherical linear interpolation for the rotation), and recompose. The decomposition is the
/// classic "unmatrix" of Graphics Gems II as written down in the W3C CSS Transforms Module
/// Level 2, §"Decomposing a 3D matrix" — whose matrix layout (translation in row 4, perspective in
/// column 4) is exactly CATransform3D's. Matrices that cannot be decomposed (singular) fall back
/// to element-wise interpolation.
enum TransformDecomposition {
    struct Parts {
        var translation: SIMD3<Double>
        var scale: SIMD3<Double>
        var skew: SIMD3<Double>      // xy, xz, yz
        var perspective: SIMD4<Double>
        var quaternion: SIMD4<Double>  // x, y, z, w
    }

    static func interpolate(_ a: CATransform3D, _ b: CATransform3D, _ t: Double) -> CATransform3D {
        guard let pa = decompose(a), let pb = decompose(b) else {
            let ra = a.rows, rb = b.rows
            return CATransform3D(rows: (0..<4).map { i in (0..<4).map { j in ra[i][j] + (rb[i][j] - ra[i][j]) * t } })
        }
        var p = pa
        p.translation = pa.translation + (pb.translation - pa.translation) * t
        p.scale = pa.scale + (pb.scale - pa.scale) * t
        p.skew = pa.skew + (pb.skew - pa.skew) * t
        p.perspective = pa.perspective + (pb.perspective - pa.perspective) * t
        p.quaternion = slerp(pa.quaternion, pb.quaternion, t)
        return recompose(p)
    }

    static func decompose(_ matrix: CATransform3D) -> Parts? {
        var m = matrix.rows.map { $0.map(Double.init) }
        guard m[3][3] != 0 else { return nil }
        for i in 0..<4 { for j in 0..<4 { m[i][j] /= m[3][3] } }
        var pm = m
        for i in 0..<3 { pm[i][3] = 0 }
        pm[3][3] = 1
        guard abs(det4(pm)) > 1e-12 else { return nil }
        var perspective = SIMD4<Double>(0, 0, 0, 1)
        if m[0][3] != 0 || m[1][3] != 0 || m[2][3] != 0 {
            let rhs = SIMD4(m[0][3], m[1][3], m[2][3], m[3][3])
            let inv = CATransform3DInvert(CATransform3D(rows: pm.map { $0.map { CGFloat($0) } })).rows
            // perspective = rhs · transpose(inverse(pm))
            var r = SIMD4<Double>.zero
            for i in 0..<4 { r[i] = (0..<4).reduce(0.0) { $0 + rhs[$1] * Double(inv[i][$1]) } }
            perspective = r
        }
        let translation = SIMD3(m[3][0], m[3][1], m[3][2])
        var row = (0..<3).map { SIMD3(m[$0][0], m[$0][1], m[$0][2]) }
        var scale = SIMD3<Double>.zero, skew = SIMD3<Double>.zero
        scale.x = length(row[0]); row[0] /= scale.x
        skew.x = dot(row[0], row[1]); row[1] -= row[0] * skew.x
        scale.y = length(row[1]); row[1] /= scale.y; skew.x /= scale.y
        skew.y = dot(row[0], row[2]); row[2] -= row[0] * skew.y
        skew.z = dot(row[1], row[2]); row[2] -= row[1] * skew.z
        scale.z = length(row[2]); row[2] /= scale.z; skew.y /= scale.z; skew.z /= scale.z
        guard scale.x != 0, scale.y != 0, scale.z != 0, scale.x.isFinite, scale.y.isFinite, scale.z.isFinite else { return nil }
        if dot(row[0], cross(row[1], row[2])) < 0 {
            scale *= -1
            for i in 0..<3 { row[i] *= -1 }
        }
        var q = SIMD4<Double>(
            0.5 * max(1 + row[0].x - row[1].y - row[2].z, 0).squareRoot(),
            0.5 * max(1 - row[0].x + row[1].y - row[2].z, 0).squareRoot(),
            0.5 * max(1 - row[0].x - row[1].y + row[2].z, 0).squareRoot(),
            0.5 * max(1 + row[0].x + row[1].y + row[2].z, 0).squareRoot())
        if row[2].y > row[1].z { q.x = -q.x }
        if row[0].z > row[2].x { q.y = -q.y }
        if row[1].x > row[0].y { q.z = -q.z }
        return Parts(translation: translation, scale: scale, skew: skew, perspective: perspective, quaternion: q)
    }

    static func recompose(_ p: Parts) -> CATransform3D {
        var m: [[Double]] = (0..<4).map { i in (0..<4).map { $0 == i ? 1.0 : 0.0 } }
        for i in 0..<4 { m[i][3] = p.perspective[i] }
        for i in 0..<4 { for j in 0..<3 { m[3][i] += p.translation[j] * m[j][i] } }
        let (x, y, z, w) = (p.quaternion.x, p.quaternion.y, p.quaternion.z, p.quaternion.w)
        let rot: [[Double]] = [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w), 0],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w), 0],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y), 0],
            [0, 0, 0, 1]]
        // The CSS spec's rotation matrix is written for column vectors; CATransform3D uses rows.
        let rowRot = (0..<4).map { i in (0..<4).map { rot[$0][i] } }
        m = multiply(rowRot, m)
        if p.skew.z != 0 { m = multiply([[1, 0, 0, 0], [0, 1, 0, 0], [0, p.skew.z, 1, 0], [0, 0, 0, 1]], m) }
        if p.skew.y != 0 { m = multiply([[1, 0, 0, 0], [0, 1, 0, 0], [p.skew.y, 0, 1, 0], [0, 0, 0, 1]], m) }
        if p.skew.x != 0 { m = multiply([[1, 0, 0, 0], [p.skew.x, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], m) }
        for i in 0..<3 { for j in 0..<4 { m[i][j] *= p.scale[i] } }
        return CATransform3D(rows: m.map { $0.map { CGFloat($0) } })
    }

    static func slerp(_ a: SIMD4<Double>, _ b0: SIMD4<Double>, _ t: Double) -> SIMD4<Double> {
        var b = b0
        var d = (a * b).sum()
        if d < 0 { b = -b; d = -d }
        if d > 0.9995 {
            let r = a + (b - a) * t
            return r / ((r * r).sum()).squareRoot()
        }
        let theta = acos(min(d, 1))
        let s = sin(theta)
        return a * (sin((1 - t) * theta) / s) + b * (sin(t * theta) / s)
    }

    private static func multiply(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
        (0..<4).map { i in (0..<4).map { j in (0..<4).reduce(0.0) { $0 + a[i][$1] * b[$1][j] } } }
    }

    private static func det4(_ m: [[Double]]) -> Double {
        func det3(_ r: [Int], _ c: [Int]) -> Double {
            m[r[0]][c[0]] * (m[r[1]][c[1]] * m[r[2]][c[2]] - m[r[1]][c[2]] * m[r[2]][c[1]])
                - m[r[0]][c[1]] * (m[r[1]][c[0]] * m[r[2]][c[2]] - m[r[1]][c[2]] * m[r[2]][c[0]])
                + m[r[0]][c[2]] * (m[r[1]][c[0]] * m[r[2]][c[1]] - m[r[1]][c[1]] * m[r[2]][c[0]])
        }
        var sum = 0.0
        for j in 0..<4 {
            let cols = (0..<4).filter { $0 != j }
            sum += (j % 2 == 0 ? 1 : -1) * m[0][j] * det3([1, 2, 3], cols)
        }
        return sum
    }

    private static func length(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }
    private static func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }
    private static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }
}
