import QuartzCore

/// 3D layer demos: layers in one 3D space, drawn by depth. A
/// layer-only scene in its own list (not from a seed), to be concatenated where layer scenes are
/// listed; `SeedDemo.all` shows it as a window.
public enum DepthDemos {
    public static let demos: [LayerDemo] = [
        LayerDemo(name: "cube", seeds: [], size: CGSize(width: 240, height: 240), span: 4, build: cube),
    ]

    /// One line on what each scene shows, for the demo list.
    static let descriptions = [
        "cube": "Lockwood's cube: six bordered die faces in a CATransformLayer turning about y under m34 = −1/500, drawn by depth",
    ]

    /// Edge of a face in points.
    static let faceSize: CGFloat = 100

    /// Nick Lockwood's cube ("iOS Core Animation: Advanced Techniques", chapter 5, "Solid
    /// Objects"): six faces placed by translations of ± half an edge and quarter turns, in his
    /// order (front, right, top, bottom, left, back), as the sublayers of a CATransformLayer so
    /// that they share their container's 3D space (CATransformLayer.h: "only its sublayers are
    /// rendered" and they are not flattened into its plane). The container's sublayerTransform
    /// is his perspective (m34 = −1/500) tilted by −π/6 about x, so the top face shows; the
    /// transform layer turns once about y per span (`transform.rotation.y`, from π/6). Each face
    /// is a bordered die face (pips 1 … 6, opposite faces summing to 7) and double-sided, as
    /// layers are by default: in array order the far faces would cover the near ones; by depth
    /// each pixel shows the nearest face.
    static func cube() -> CALayer {
        let size = CGSize(width: 240, height: 240)
        let root = LayerDemo.root(size)
        let stage = CALayer()
        stage.frame = root.bounds
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        stage.sublayerTransform = CATransform3DRotate(perspective, -.pi / 6, 1, 0, 0)
        root.addSublayer(stage)
        let cube = CATransformLayer()
        cube.position = CGPoint(x: size.width / 2, y: size.height / 2)
        let h = faceSize / 2
        let placements = [
            CATransform3DMakeTranslation(0, 0, h),
            CATransform3DRotate(CATransform3DMakeTranslation(h, 0, 0), .pi / 2, 0, 1, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, -h, 0), .pi / 2, 1, 0, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, h, 0), -.pi / 2, 1, 0, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(-h, 0, 0), -.pi / 2, 0, 1, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, 0, -h), .pi, 0, 1, 0),
        ]
        let colors = [LayerDemo.color(0.9, 0.3, 0.3), LayerDemo.color(0.3, 0.7, 0.35), LayerDemo.color(0.3, 0.45, 0.9),
                      LayerDemo.color(0.95, 0.75, 0.2), LayerDemo.color(0.7, 0.35, 0.8), LayerDemo.color(0.2, 0.7, 0.75)]
        // Pips per face in Lockwood's order: front 1, right 2, top 3, bottom 4, left 5, back 6.
        for (index, (placement, color)) in zip(placements, colors).enumerated() {
            let face = dieFace(pips: [1, 2, 3, 4, 5, 6][index], color: color)
            face.transform = placement
            cube.addSublayer(face)
        }
        cube.transform = CATransform3DMakeRotation(.pi / 6, 0, 1, 0)
        let turn = CABasicAnimation(keyPath: "transform.rotation.y")
        turn.fromValue = CGFloat.pi / 6
        turn.toValue = CGFloat.pi / 6 + 2 * .pi
        turn.duration = 4
        turn.repeatCount = .infinity
        cube.add(turn, forKey: "turn")
        stage.addSublayer(cube)
        return root
    }

    /// A `faceSize` square centred on its parent's origin, filled with `color`, a dark 4-pt
    /// border, and `pips` white discs on the usual die pattern (a 3×3 grid at ¼, ½, ¾).
    static func dieFace(pips: Int, color: CGColor) -> CALayer {
        let face = CALayer()
        face.bounds = CGRect(x: 0, y: 0, width: faceSize, height: faceSize)
        face.position = .zero
        face.backgroundColor = color
        face.borderWidth = 4
        face.borderColor = LayerDemo.color(0.12, 0.12, 0.16)
        let corners = [(1, 1), (3, 3), (3, 1), (1, 3)], middles = [(1, 2), (3, 2)], centre = (2, 2)
        let grid: [(Int, Int)]
        switch pips {
        case 1: grid = [centre]
        case 2: grid = Array(corners[0 ..< 2])
        case 3: grid = Array(corners[0 ..< 2]) + [centre]
        case 4: grid = corners
        case 5: grid = corners + [centre]
        default: grid = corners + middles
        }
        for (column, row) in grid {
            let pip = CALayer()
            pip.bounds = CGRect(x: 0, y: 0, width: 18, height: 18)
            pip.cornerRadius = 9
            pip.position = CGPoint(x: faceSize * CGFloat(column) / 4, y: faceSize * CGFloat(row) / 4)
            pip.backgroundColor = LayerDemo.color(0.98, 0.98, 0.96)
            face.addSublayer(pip)
        }
        return face
    }
}
