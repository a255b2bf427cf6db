import Compositor
import QuartzCore
import Raster
import Testing

/// Rendering the layer tree, probed at known points with expected values from geometry and the
/// compositing formulas (premultiplied source-over: dst = src + dst·(1 − αs)).
/// These tests share the process-wide media clock and transaction state with the QuartzCore
/// tests; `scripts/test` runs the suite without parallelism for that reason.
@Suite(.serialized) struct CompositorTests {
    struct Rendering {
        static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        static let white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        static let black = CGColor(red: 0, green: 0, blue: 0, alpha: 1)

        static func layer(_ frame: CGRect, _ color: CGColor?) -> CALayer {
            let l = CALayer()
            l.frame = frame
            l.backgroundColor = color
            return l
        }

        static func render(_ root: CALayer, _ w: Int = 100, _ h: Int = 100, time: CFTimeInterval = 0,
                           background: CGColor? = white) throws -> CGImage {
            CAMediaClock.setManualTime(time)
            return try CARenderer.image(of: root, size: CGSize(width: w, height: h), at: time, background: background)
        }

        static func px(_ image: CGImage, _ x: Int, _ y: Int) -> PremultipliedColor { image.pixmap.pixel(x: x, y: y) }

        @Test func backgroundFillsTheFrame() throws {
            let img = try Self.render(Self.layer(CGRect(x: 10, y: 20, width: 30, height: 40), Self.red))
            #expect(Self.px(img, 10, 20) == PremultipliedColor(r: 255, g: 0, b: 0, a: 255))
            #expect(Self.px(img, 39, 59) == PremultipliedColor(r: 255, g: 0, b: 0, a: 255))
            #expect(Self.px(img, 40, 30) == PremultipliedColor(r: 255, g: 255, b: 255, a: 255))
            #expect(Self.px(img, 20, 19) == PremultipliedColor(r: 255, g: 255, b: 255, a: 255))
        }

        /// A rotated rounded layer covers its closed-form area, w·h − (4 − π)·r², within 0.1 %
        /// (the quarter circles are cubic Béziers, flattened), on its first frame and on a later
        /// one drawn from its retained bitmap.
        @Test func rotatedRoundedLayerCoversItsArea() throws {
            for (radius, angle) in [(0.0, 0.7), (5.0, 0.0), (5.0, 0.7), (8.0, 1.3)] {
                let l = Self.layer(CGRect(x: 0, y: 0, width: 40, height: 30), Self.black)
                l.position = CGPoint(x: 50.3, y: 49.6)
                l.cornerRadius = CGFloat(radius)
                l.transform = CATransform3DMakeRotation(CGFloat(angle), 0, 0, 1)
                let root = Self.layer(CGRect(x: 0, y: 0, width: 100, height: 100), nil)
                root.addSublayer(l)
                let area = 40 * 30 - (4 - Double.pi) * radius * radius
                for time in [0.0, 1.0] {
                    let img = try Self.render(root, time: time, background: nil)
                    var covered = 0.0
                    for y in 0..<100 { for x in 0..<100 { covered += Double(Self.px(img, x, y).a) / 255 } }
                    #expect(abs(covered - area) / area < 0.001, "radius \(radius), angle \(angle), time \(time)")
                }
            }
        }

        @Test func roundedCornerCoverageMatchesTheQuarterCircle() throws {
            let l = Self.layer(CGRect(x: 0, y: 0, width: 60, height: 60), Self.black)
            l.cornerRadius = 20
            let img = try Self.render(l, background: nil)
            // Inside the 20×20 corner square the covered area is 20² − (20² − π·20²/4) = π·100.
            var covered = 0.0
            for y in 0..<20 { for x in 0..<20 { covered += Double(Self.px(img, x, y).a) / 255 } }
            #expect(abs(covered - Double.pi * 100) < 1.5)
            #expect(Self.px(img, 0, 0).a == 0 && Self.px(img, 30, 30).a == 255)
        }

        @Test func borderIsDrawnInsideTheBounds() throws {
            let l = Self.layer(CGRect(x: 10, y: 10, width: 50, height: 50), Self.white)
            l.borderWidth = 4
            l.borderColor = Self.red
            let img = try Self.render(l, background: Self.black)
            #expect(Self.px(img, 10, 30) == PremultipliedColor(r: 255, g: 0, b: 0, a: 255))   // first column of the bounds
            #expect(Self.px(img, 13, 30) == PremultipliedColor(r: 255, g: 0, b: 0, a: 255))   // 4th column: still border
            #expect(Self.px(img, 14, 30) == PremultipliedColor(r: 255, g: 255, b: 255, a: 255))
            #expect(Self.px(img, 9, 30) == PremultipliedColor(r: 0, g: 0, b: 0, a: 255))     // outside: untouched
        }

        @Test func opacityIsGroupOpacity() throws {
            // Parent red, child black overlapping it, parent opacity 0.5 over white: the overlap is
            // 0.5·black + 0.5·white = 128 grey, not a double blend.
            let parent = Self.layer(CGRect(x: 0, y: 0, width: 60, height: 60), Self.red)
            parent.addSublayer(Self.layer(CGRect(x: 20, y: 20, width: 60, height: 60), Self.black))
            parent.opacity = 0.5
            let img = try Self.render(parent)
            let overlap = Self.px(img, 40, 40), redOnly = Self.px(img, 5, 5)
            #expect(abs(Int(overlap.r) - 128) <= 1 && abs(Int(overlap.g) - 128) <= 1)
            #expect(redOnly.r == 255 && abs(Int(redOnly.g) - 128) <= 1)
        }

        @Test func masksToBoundsClipsSublayers() throws {
            let parent = Self.layer(CGRect(x: 10, y: 10, width: 40, height: 40), Self.white)
            parent.masksToBounds = true
            parent.addSublayer(Self.layer(CGRect(x: 20, y: 20, width: 60, height: 60), Self.red))
            let img = try Self.render(parent, background: Self.black)
            #expect(Self.px(img, 45, 45).r == 255 && Self.px(img, 45, 45).g == 0)
            #expect(Self.px(img, 55, 55) == PremultipliedColor(r: 0, g: 0, b: 0, a: 255))
        }

        @Test func perspectiveRotationProjectsTheCorners() throws {
            // A 100×100 layer centred at (100, 100) rotated 60° about y with m34 = −1/500.
            // Corner (±50, y) maps to x' = ±50·cos60 / w with w = 1 − (∓50·sin60)·(−1/500)·(−1)…
            // computed here from the matrix: z = −x·sin θ (row-vector rotation), w = 1 + z/500… the
            // right edge (x = 50): z = −50 sin θ, w = 1 − z/500.
            let l = Self.layer(CGRect(x: 50, y: 50, width: 100, height: 100), Self.black)
            var t = CATransform3DIdentity
            t.m34 = -1.0 / 500
            l.transform = CATransform3DRotate(t, .pi / 3, 0, 1, 0)
            let img = try Self.render(l, 200, 200, background: nil)
            let m = l.transform
            func projectedX(_ x: CGFloat) -> CGFloat {
                let X = x * m.m11, W = x * m.m14 + m.m44
                return 100 + X / W
            }
            let left = projectedX(-50), right = projectedX(50)
            // Scan the middle row for the drawn extent.
            let row = (0..<200).filter { Self.px(img, $0, 100).a > 127 }
            #expect(abs(CGFloat(row.first!) - left.rounded(.down)) <= 1)
            #expect(abs(CGFloat(row.last!) + 1 - right.rounded(.up)) <= 1)
            #expect(right - 100 != 100 - left)   // perspective: asymmetric
        }

        @Test func replicatorInstancesByFormula() throws {
            let r = CAReplicatorLayer()
            r.frame = CGRect(x: 0, y: 0, width: 200, height: 50)
            r.instanceCount = 3
            r.instanceTransform = CATransform3DMakeTranslation(45, 0, 0)
            r.instanceColor = Self.red
            r.instanceRedOffset = -0.25
            r.addSublayer(Self.layer(CGRect(x: 10, y: 10, width: 30, height: 30), Self.white))
            let img = try Self.render(r, 200, 50, background: Self.black)
            // Instance i at x = 10 + 45·i, colour white × (1 − 0.25·i, 0, 0).
            for i in 0..<3 {
                let p = Self.px(img, 25 + 45 * i, 25)
                #expect(abs(Int(p.r) - Int((255 * (1 - 0.25 * Double(i))).rounded())) <= 1 && p.g == 0, "instance \(i)")
            }
            #expect(Self.px(img, 150, 25) == PremultipliedColor(r: 0, g: 0, b: 0, a: 255))
        }

        @Test func shapeLayerStrokeEndTrimsByLength() throws {
            let s = CAShapeLayer()
            s.frame = CGRect(x: 0, y: 0, width: 100, height: 20)
            let path = CGMutablePath()
            path.move(to: CGPoint(x: 10, y: 10)); path.addLine(to: CGPoint(x: 90, y: 10))
            s.path = path
            s.fillColor = nil
            s.strokeColor = Self.black
            s.lineWidth = 4
            s.strokeEnd = 0.5
            let img = try Self.render(s, 100, 20, background: nil)
            #expect(Self.px(img, 45, 10).a == 255 && Self.px(img, 55, 10).a == 0)   // ends at x = 50
        }

        @Test func animationsRenderAtTheFrameTime() throws {
            CAMediaClock.setManualTime(0)
            let l = Self.layer(CGRect(x: 0, y: 0, width: 10, height: 10), Self.red)
            CATransaction.flush()
            let a = CABasicAnimation(keyPath: "position.x")
            a.fromValue = 5; a.toValue = 85; a.duration = 1
            l.add(a, forKey: "move")
            CATransaction.flush()
            let img = try Self.render(l, time: 0.5)   // centre at x = 45: covers [40, 50)
            #expect(Self.px(img, 41, 5).r == 255 && Self.px(img, 41, 5).g == 0)
            #expect(Self.px(img, 2, 5).g == 255)
        }
    
        @Test func maskKeepsOnlyTheMaskAlpha() throws {
            let l = Self.layer(CGRect(x: 0, y: 0, width: 100, height: 100), Self.red)
            let m = CALayer()
            m.frame = CGRect(x: 0, y: 0, width: 50, height: 100)
            m.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 0.5)
            l.mask = m
            let img = try Self.render(l, background: nil)
            #expect(abs(Int(Self.px(img, 25, 50).a) - 128) <= 1)      // mask alpha 0.5
            #expect(Self.px(img, 75, 50).a == 0)                     // outside the mask
        }

        @Test func contentsGravityPlacesTheImage() throws {
            let pm = try Pixmap(width: 10, height: 10)
            pm.fill(with: PremultipliedColor(r: 0, g: 0, b: 255, a: 255))
            let l = Self.layer(CGRect(x: 0, y: 0, width: 40, height: 40), nil)
            l.contents = CGImage(pixmap: pm)
            l.contentsGravity = .center
            let img = try Self.render(l, 40, 40, background: nil)
            // A 10×10 image centred in 40×40 bounds covers [15, 25)².
            #expect(Self.px(img, 15, 15).b == 255 && Self.px(img, 24, 24).b == 255)
            #expect(Self.px(img, 14, 20).a == 0 && Self.px(img, 25, 20).a == 0)
            // Minimum x and minimum y: the visual top-left in iOS's y-down layer space
            // ("bottom" always means minimum Y — CALayer.h; see ContentsGravityTests).
            l.contentsGravity = .bottomLeft
            let corner = try Self.render(l, 40, 40, background: nil)
            #expect(Self.px(corner, 0, 0).b == 255 && Self.px(corner, 10, 10).a == 0)
        }

        @Test func idleFramesKeepThePictureAndChangesRedraw() throws {
            CAMediaClock.setManualTime(0)
            let l = Self.layer(CGRect(x: 0, y: 0, width: 10, height: 10), Self.red)
            let r = try CARenderer(width: 40, height: 20)
            r.layer = l
            r.beginFrame(atTime: 0); r.render(); r.endFrame()
            #expect(r.pixmap.pixel(x: 5, y: 5).r == 255)
            CATransaction.begin(); CATransaction.setDisableActions(true)
            l.position = CGPoint(x: 30, y: 5)
            CATransaction.commit()
            r.beginFrame(atTime: 0); r.render(); r.endFrame()
            #expect(r.pixmap.pixel(x: 5, y: 5).a == 0 && r.pixmap.pixel(x: 30, y: 5).r == 255)
            #expect(r.nextFrameTime() == .infinity)   // nothing animates
        }

        /// One whole frame of `r` at media time `t`.
        static func frame(_ r: CARenderer, at t: CFTimeInterval) {
            r.beginFrame(atTime: t); r.render(); r.endFrame()
        }

        /// nextFrameTime (Apple: "the time at which the next update should happen"): the frame
        /// time while an animation runs, the start of one that begins later, ∞ while the layer's
        /// time is stopped (speed 0, the seeds' pause recipe) and after a held animation ended.
        @Test func nextFrameTimeFollowsTheAnimations() throws {
            CAMediaClock.setManualTime(100)
            let l = Self.layer(CGRect(x: 0, y: 0, width: 10, height: 10), Self.red)
            let r = try CARenderer(width: 20, height: 20)
            r.layer = l
            CATransaction.flush()
            let later = CABasicAnimation(keyPath: "opacity")
            later.fromValue = 0; later.toValue = 1; later.duration = 1
            later.beginTime = l.convertTime(102, from: nil)
            later.fillMode = .forwards; later.isRemovedOnCompletion = false
            l.add(later, forKey: nil)        // no key: animationKeys() does not list it
            CATransaction.flush()
            r.beginFrame(atTime: 100)
            #expect(r.nextFrameTime() == 102)
            r.endFrame()
            r.beginFrame(atTime: 102.5)
            #expect(r.nextFrameTime() == 102.5)
            r.render(); r.endFrame()
            #expect(abs(Double(r.pixmap.pixel(x: 5, y: 5).a) - 127.5) <= 1)
            r.beginFrame(atTime: 104)
            r.render()                        // the stop is delivered; the end value is held
            #expect(r.nextFrameTime() == .infinity)
            r.endFrame()
            l.speed = 0
            let spin = CABasicAnimation(keyPath: "position.x")
            spin.fromValue = 0; spin.toValue = 10; spin.duration = 1
            l.add(spin, forKey: "x")
            CATransaction.flush()
            r.beginFrame(atTime: 105)
            #expect(r.nextFrameTime() == .infinity)   // paused: nothing moves
            r.endFrame()
        }

        /// Retained layer bitmaps are dropped once their layers leave the screen (no cache growth
        /// as layers come and go, and no bitmap handed to a later layer that reuses an identity).
        @Test func retainedBitmapsFollowTheLayersOnScreen() throws {
            CAMediaClock.setManualTime(0)
            let root = Self.layer(CGRect(x: 0, y: 0, width: 100, height: 100), nil)
            for i in 0..<10 {
                root.addSublayer(Self.layer(CGRect(x: CGFloat(i * 10), y: 0, width: 8, height: 8), Self.red))
            }
            let r = try CARenderer(width: 100, height: 100)
            r.layer = root
            Self.frame(r, at: 0)
            #expect(r._retainedBitmapCount == 10)
            root.sublayers = nil
            let fresh = Self.layer(CGRect(x: 50, y: 50, width: 8, height: 8), Self.black)
            root.addSublayer(fresh)
            CATransaction.flush()
            r.addUpdate(CGRect(x: 0, y: 0, width: 100, height: 100))
            Self.frame(r, at: 0)
            r.backgroundColor = Self.white    // a new background: a full frame
            Self.frame(r, at: 0)
            #expect(r._retainedBitmapCount == 1)
            #expect(r.pixmap.pixel(x: 54, y: 54) == PremultipliedColor(r: 0, g: 0, b: 0, a: 255))
            #expect(r.pixmap.pixel(x: 4, y: 4) == PremultipliedColor(r: 255, g: 255, b: 255, a: 255))
        }

        /// An animation added without a key still makes frames at new times redraw.
        @Test func unkeyedAnimationsAreNotIdle() throws {
            CAMediaClock.setManualTime(0)
            let l = Self.layer(CGRect(x: 0, y: 0, width: 10, height: 10), Self.red)
            let r = try CARenderer(width: 40, height: 10)
            r.layer = l
            CATransaction.flush()
            let move = CABasicAnimation(keyPath: "position.x")
            move.fromValue = 5; move.toValue = 35; move.duration = 1
            l.add(move, forKey: nil)
            CATransaction.flush()
            Self.frame(r, at: 0)
            #expect(r.pixmap.pixel(x: 2, y: 5).r == 255)
            Self.frame(r, at: 0.5)  // x = 20: the square covers 15…25
            #expect(r.pixmap.pixel(x: 2, y: 5).a == 0 && r.pixmap.pixel(x: 20, y: 5).r == 255)
        }

        @Test func contentsCenterStretchesOnlyTheMiddle() throws {
            // A 3×3 image: red corners, green edges, blue centre; contentsCenter = the middle
            // third. Drawn into 30×30 points: corners and edges stay 1 px thick, the centre fills
            // the 28×28 middle.
            let pm = try Pixmap(width: 3, height: 3)
            for y in 0..<3 { for x in 0..<3 {
                let corner = (x != 1) && (y != 1), centre = x == 1 && y == 1
                pm.setPixel(x: x, y: y, corner ? PremultipliedColor(r: 255, g: 0, b: 0, a: 255)
                                               : centre ? PremultipliedColor(r: 0, g: 0, b: 255, a: 255)
                                                        : PremultipliedColor(r: 0, g: 255, b: 0, a: 255))
            } }
            let l = Self.layer(CGRect(x: 0, y: 0, width: 30, height: 30), nil)
            l.contents = CGImage(pixmap: pm)
            l.contentsCenter = CGRect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
            let img = try Self.render(l, 30, 30, background: nil)
            #expect(Self.px(img, 0, 0).r == 255 && Self.px(img, 29, 29).r == 255)
            // Bilinear magnification (Apple's default filter): pixel 15's centre samples the image at
            // u = 1 + 14.5/28 ≈ 1.52, i.e. 98 % of the centre texel.
            #expect(Self.px(img, 15, 15).b > 240 && Self.px(img, 15, 15).r == 0)
            #expect(Self.px(img, 0, 15).g > 200 && Self.px(img, 15, 0).g > 200)
        }

        @Test func transformLayerSortsByDepthOthersByOrder() throws {
            // Two overlapping squares: red moved towards the viewer (z = +10) but added first,
            // black pushed back (z = −10) added second. Both a CATransformLayer and a plain layer
            // draw their sublayers by depth (red on top): a plain layer flattens its subtree into
            // its own plane, but its sublayers share its 3D space.
            func tree(_ container: CALayer) -> CALayer {
                container.frame = CGRect(x: 0, y: 0, width: 60, height: 60)
                let near = Self.layer(CGRect(x: 10, y: 10, width: 30, height: 30), Self.red)
                near.transform = CATransform3DMakeTranslation(0, 0, 10)
                let far = Self.layer(CGRect(x: 20, y: 20, width: 30, height: 30), Self.black)
                far.transform = CATransform3DMakeTranslation(0, 0, -10)
                container.addSublayer(near)
                container.addSublayer(far)
                return container
            }
            let sorted = try Self.render(tree(CATransformLayer()), 60, 60, background: nil)
            #expect(Self.px(sorted, 30, 30).r == 255)
            let flat = try Self.render(tree(CALayer()), 60, 60, background: nil)
            #expect(Self.px(flat, 30, 30).r == 255)
        }

        @Test func shadowFollowsOffsetAndKeepsItsMass() throws {
            // A 20×20 white square with an opaque black shadow offset by (6, 6): with radius 0 the
            // shadow is the square moved; with radius 4 (σ = 4) the blur spreads it but keeps its
            // total alpha (20·20 px²) and leaves the square itself on top.
            let l = Self.layer(CGRect(x: 20, y: 20, width: 20, height: 20), Self.white)
            l.shadowOpacity = 1
            l.shadowOffset = CGSize(width: 6, height: 6)
            l.shadowRadius = 0
            let sharp = try Self.render(l, 80, 80, background: nil)
            #expect(Self.px(sharp, 43, 43) == PremultipliedColor(r: 0, g: 0, b: 0, a: 255))
            #expect(Self.px(sharp, 30, 30) == PremultipliedColor(r: 255, g: 255, b: 255, a: 255))
            // The layer is committed now: change it without implicit animations.
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            l.shadowRadius = 4
            l.backgroundColor = nil
            l.shadowPath = CGPath(rect: l.bounds, transform: nil)
            CATransaction.commit()
            let soft = try Self.render(l, 80, 80, background: nil)
            var mass = 0.0
            for y in 0..<80 { for x in 0..<80 { mass += Double(Self.px(soft, x, y).a) / 255 } }
            #expect(abs(mass - 400) < 4)
        }

        @Test func movingOneLayerRedrawsOnlyItsOldAndNewPlace() throws {
            CAMediaClock.setManualTime(0)
            let root = Self.layer(CGRect(x: 0, y: 0, width: 200, height: 100), Self.white)
            let a = Self.layer(CGRect(x: 10, y: 10, width: 30, height: 30), Self.red)
            a.cornerRadius = 6
            let b = Self.layer(CGRect(x: 120, y: 40, width: 50, height: 40), Self.black)
            b.opacity = 0.5
            root.addSublayer(a); root.addSublayer(b)
            let r = try CARenderer(width: 200, height: 100)
            r.layer = root
            r.beginFrame(atTime: 0); r.render(); r.endFrame()
            #expect(r._lastRedrawnArea == CGRect(x: 0, y: 0, width: 200, height: 100))
            CATransaction.begin(); CATransaction.setDisableActions(true)
            a.position = CGPoint(x: 60, y: 30)
            CATransaction.commit()
            r.beginFrame(atTime: 0); r.render(); r.endFrame()
            // Old box (10…40)² and new box (45…75)×(15…45), each grown by 2 px.
            #expect(r._lastRedrawnArea == CGRect(x: 8, y: 8, width: 69, height: 39))
            // The patched frame equals a full redraw of the same tree.
            let full = try CARenderer.image(of: root, size: CGSize(width: 200, height: 100), at: 0)
            var worst = 0
            for i in 0..<(200 * 100 * 4) { worst = max(worst, abs(Int(full.pixmap.pixels[i]) - Int(r.pixmap.pixels[i]))) }
            #expect(worst == 0)
            // addUpdate forces a redraw of its rectangle even when nothing changed.
            r.addUpdate(CGRect(x: 100, y: 0, width: 10, height: 5))
            r.beginFrame(atTime: 0); r.render(); r.endFrame()
            #expect(r._lastRedrawnArea == CGRect(x: 100, y: 0, width: 10, height: 5))
            r.beginFrame(atTime: 0); r.render(); r.endFrame()
            #expect(r._lastRedrawnArea == .zero)
        }

        @Test func retainedLayersMatchAFreshRenderWhenMovedOrTurned() throws {
            // A retained leaf is drawn in device orientation once and then translated, or kept in
            // layer space while it turns. Compared with a renderer that draws the same tree afresh:
            // a whole-pixel move is the same picture; a sub-pixel move or a new angle resamples the
            // bitmap (bilinear, as Core Animation composites), so edges soften a little but the
            // picture and its alpha mass stay the same.
            CAMediaClock.setManualTime(0)
            let root = Self.layer(CGRect(x: 0, y: 0, width: 120, height: 80), nil)
            let l = Self.layer(CGRect(x: 30, y: 25, width: 40, height: 30), CGColor(red: 0.1, green: 0.3, blue: 0.9, alpha: 1))
            l.cornerRadius = 6
            l.borderWidth = 2
            l.borderColor = Self.red
            l.opacity = 0.8
            l.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
            root.addSublayer(l)
            let r = try CARenderer(width: 120, height: 80)
            r.layer = root
            func change(_ body: () -> Void) -> (worst: Int, mean: Double, mass: Double) {
                CATransaction.begin(); CATransaction.setDisableActions(true)
                body()
                CATransaction.commit()
                r.beginFrame(atTime: 0); r.render(); r.endFrame()
                let fresh = (try? CARenderer.image(of: root, size: CGSize(width: 120, height: 80), at: 0))!.pixmap
                var worst = 0, sum = 0, massCached = 0, massFresh = 0
                for i in 0..<(120 * 80 * 4) {
                    let d = abs(Int(fresh.pixels[i]) - Int(r.pixmap.pixels[i]))
                    worst = max(worst, d); sum += d
                    if i % 4 == 3 { massCached += Int(r.pixmap.pixels[i]); massFresh += Int(fresh.pixels[i]) }
                }
                return (worst, Double(sum) / Double(120 * 80 * 4), Double(massCached) / Double(massFresh))
            }
            _ = change {}
            let whole = change { l.position = CGPoint(x: l.position.x + 7, y: l.position.y + 3) }
            #expect(whole.worst <= 1)
            let fraction = change { l.position = CGPoint(x: l.position.x + 0.5, y: l.position.y + 0.25) }
            #expect(fraction.mean < 1 && abs(fraction.mass - 1) < 0.005, "\(fraction)")
            let turned = change { l.transform = CATransform3DMakeRotation(0.7, 0, 0, 1) }
            // Measured: the layer-space bitmap (axis-aligned edges) holds the exact area of the
            // rounded rectangle to 0.4 %, the direct rasterization of the turned shape 1.7 % more.
            #expect(turned.mean < 1 && abs(turned.mass - 1) < 0.02, "\(turned)")
        }

        @Test func badGeometryRendersWithoutCrashing() throws {
            let root = Self.layer(CGRect(x: 0, y: 0, width: 50, height: 50), Self.white)
            let nan = Self.layer(CGRect(x: 0, y: 0, width: 10, height: 10), Self.red)
            nan.position = CGPoint(x: CGFloat.nan, y: 5)
            nan.opacity = 0.5
            let huge = Self.layer(CGRect(x: 0, y: 0, width: 1e30, height: 1e30), Self.black)
            huge.position = CGPoint(x: -1e29, y: 1e31)
            let zero = Self.layer(CGRect(x: 10, y: 10, width: 0, height: 0), Self.red)
            zero.borderWidth = 3
            let odd = Self.layer(CGRect(x: 5, y: 5, width: 20, height: 20), Self.red)
            odd.cornerRadius = .nan
            odd.borderWidth = 1e20
            odd.opacity = .nan
            let flipped = Self.layer(CGRect(x: 30, y: 30, width: -10, height: -10), Self.red)
            flipped.transform.m11 = .infinity
            let shape = CAShapeLayer()
            let bad = CGMutablePath()
            bad.move(to: CGPoint(x: CGFloat.nan, y: 1)); bad.addLine(to: CGPoint(x: 1e300, y: -1e300))
            shape.path = bad
            shape.strokeColor = Self.black
            shape.lineWidth = .infinity
            shape.lineDashPattern = [0, 0]
            root.addSublayer(nan); root.addSublayer(huge); root.addSublayer(zero)
            root.addSublayer(odd); root.addSublayer(flipped); root.addSublayer(shape)
            let r = try CARenderer(width: 50, height: 50)
            r.layer = root
            r.beginFrame(atTime: 0); r.render(); r.endFrame()
            CATransaction.begin(); CATransaction.setDisableActions(true)
            huge.position = CGPoint(x: 5, y: 5)
            CATransaction.commit()
            r.beginFrame(atTime: 0); r.render(); r.endFrame()
            #expect(r.pixmap.width == 50)
            #expect(throws: (any Error).self) { try CARenderer(width: 100_000, height: 10) }
        }
}
}
