import CoreGraphics
import Foundation

// Reading a Bodymovin document into the model (`LottieModel.swift`). Every value is type- and
// range-checked where it is read; an error names its JSON path. What the importer does not do yet
// is recorded once per feature in `Notes` rather than refused, so a file with an effect or a mask
// still plays, without it, and `citrine info` lists what was left out.

/// What a file uses that is not imported, each feature once with where it was first seen.
struct Notes {
    private(set) var found: [(feature: String, path: String)] = []

    mutating func unsupported(_ feature: String, at path: String) {
        if !found.contains(where: { $0.feature == feature }) { found.append((feature, path)) }
    }
}

extension LottieComposition {
    init(_ root: JSONNode) throws(LottieError) {
        var notes = Notes()
        version = try root.string("v")
        name = try root.string("nm")
        let fr = try root.required("fr")
        frameRate = try fr.number()
        guard frameRate > 0, frameRate <= 1000 else { throw LottieError(fr.path, "expected a frame rate above 0 and up to 1000") }
        inPoint = try root.required("ip").number()
        let op = try root.required("op")
        outPoint = try op.number()
        guard outPoint > inPoint else { throw LottieError(op.path, "the out point \(outPoint) must come after the in point \(inPoint)") }
        let size = try Self.size(root, "w", "h", max: 100_000)
        (width, height) = (size.width, size.height)
        if try root.flag("ddd") { notes.unsupported("3D layers", at: "ddd") }

        let (compIn, compOut) = (inPoint, outPoint)
        var precomps: [String: [LottieLayer]] = [:]
        var images: [String: LottieImage] = [:]
        for asset in try root.member("assets")?.array() ?? [] {
            let id = try asset.required("id").string()
            guard precomps[id] == nil, images[id] == nil else { throw LottieError("\(asset.path).id", "'\(id)' names two assets") }
            guard let layers = try asset.member("layers") else {
                if asset.has("p") { images[id] = try LottieImage(asset) }
                continue
            }
            precomps[id] = try layers.array().map { node throws(LottieError) in
                try LottieLayer(node, inPoint: compIn, outPoint: compOut, notes: &notes)
            }
        }
        self.precomps = precomps
        self.images = images
        directory = nil
        layers = try root.required("layers").array().map { node throws(LottieError) in
            try LottieLayer(node, inPoint: compIn, outPoint: compOut, notes: &notes)
        }
        if let markers = try root.member("markers"), try !markers.array().isEmpty { notes.unsupported("markers", at: markers.path) }
        (fonts, glyphs) = try Self.typography(root, notes: &notes)
        unsupported = notes.found
    }

    /// Width and height members, each above 0 and at most `max`.
    static func size(_ node: JSONNode, _ w: String, _ h: String, max: Double) throws(LottieError) -> CGSize {
        var result: [Double] = []
        for key in [w, h] {
            let member = try node.required(key)
            let value = try member.number()
            guard value > 0, value <= max else { throw LottieError(member.path, "expected a size above 0 and up to \(Int(max))") }
            result.append(value)
        }
        return CGSize(width: result[0], height: result[1])
    }
}

extension LottieLayer {
    init(_ node: JSONNode, inPoint compIn: Double, outPoint compOut: Double, notes: inout Notes) throws(LottieError) {
        path = node.path
        let ty = try node.required("ty").int()
        index = try node.member("ind")?.int()
        parent = try node.member("parent")?.int()
        name = try node.string("nm")
        inPoint = try node.number("ip", default: compIn)
        outPoint = try node.number("op", default: compOut)
        startTime = try node.number("st", default: 0)
        let sr = try node.member("sr")
        stretch = try sr?.number() ?? 1
        if let sr, stretch == 0 { throw LottieError(sr.path, "a time stretch of 0 stops time: expected a non-zero number") }
        let isMatte = try node.flag("td")
        hidden = try node.flag("hd") || isMatte
        transform = try node.member("ks").map { ks throws(LottieError) in try LottieTransform(ks, notes: &notes) } ?? LottieTransform()

        if try node.flag("ddd") { notes.unsupported("3D layers", at: "\(node.path).ddd") }
        autoOrient = try node.flag("ao")
        if try node.int("bm", default: 0) != 0 { notes.unsupported("blend modes", at: "\(node.path).bm") }
        isMatteSource = isMatte
        matteParent = try node.member("tp")?.int()
        switch try node.int("tt", default: 0) {
        case 0: matte = nil
        case 1: matte = .alpha
        case 2: matte = .alphaInverted
        case 3: matte = .luma
        case 4: matte = .lumaInverted
        default:
            notes.unsupported("track mattes of type \(try node.int("tt", default: 0))", at: "\(node.path).tt")
            matte = nil
        }
        masks = []
        maskPaths = []
        for item in try node.member("masksProperties")?.array() ?? [] {
            let path = try KeyframedValue.read(try item.required("pt"), notes: &notes, BezierShape.read)
            maskPaths.append(path)
            let modeNode = try item.required("mode")
            let mode: LottieMask.Mode
            switch try modeNode.string() {
            case "a": mode = .add
            case "s": mode = .subtract
            case "i": mode = .intersect
            case "n": continue
            default:
                notes.unsupported("mask modes lighten, darken and difference", at: modeNode.path)
                continue
            }
            if let x = try item.member("x"), try KeyframedValue.read(x, notes: &notes, LottieTransform.scalar).values.contains(where: { $0 != 0 }) {
                notes.unsupported("mask expansion", at: x.path)
            }
            masks.append(LottieMask(mode: mode, path: path,
                                    opacity: try item.member("o").map { o throws(LottieError) in
                                        try .read(o, notes: &notes, LottieTransform.scalar)
                                    } ?? .fixed(100),
                                    inverted: try item.flag("inv")))
        }
        (effects, dropShadow) = try LayerEffect.list(try node.member("ef"), masks: maskPaths.count, notes: &notes)
        timeRemap = try node.member("tm").map { tm throws(LottieError) in try .read(tm, notes: &notes, LottieTransform.scalar) }

        switch ty {
        case 0:
            let refId = try node.required("refId").string()
            let w = try node.member("w")?.number() ?? 0, h = try node.member("h")?.number() ?? 0
            kind = .precomp(refId: refId, size: CGSize(width: max(w, 0), height: max(h, 0)))
        case 2:
            kind = .image(refId: try node.required("refId").string())
        case 1:
            let sc = try node.required("sc")
            guard let color = Self.hexColor(try sc.string()) else { throw LottieError(sc.path, "expected a colour like #FF0000") }
            kind = .solid(color: color, size: try LottieComposition.size(node, "sw", "sh", max: 100_000))
        case 3:
            kind = .null
        case 4:
            kind = .shape(try ShapeItem.list(try node.required("shapes"), notes: &notes))
        case 5:
            kind = .text(try Self.text(node, notes: &notes))
        default:
            let names = [6: "audio layers", 13: "camera layers"]
            notes.unsupported(names[ty] ?? "layers of type \(ty)", at: "\(node.path).ty")
            kind = .unsupported(ty)
        }
    }

    /// `#RRGGBB` as components 0–1.
    static func hexColor(_ text: String) -> [Double]? {
        let digits = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return nil }
        return [Double(value >> 16 & 0xFF) / 255, Double(value >> 8 & 0xFF) / 255, Double(value & 0xFF) / 255]
    }
}

extension LottieTransform {
    init(_ node: JSONNode, notes: inout Notes) throws(LottieError) {
        if let a = try node.member("a") { anchor = try .read(a, notes: &notes, Self.point) }
        if let p = try node.member("p") {
            if try p.flag("s") {
                position = .split(x: try .read(try p.required("x"), notes: &notes, Self.scalar),
                                  y: try .read(try p.required("y"), notes: &notes, Self.scalar))
            } else {
                position = .combined(try .read(p, notes: &notes, Self.point))
            }
        }
        if let s = try node.member("s") { scale = try .read(s, notes: &notes, Self.point) }
        let rz = try node.member("rz")
        if let r = try node.member("r") ?? rz { rotation = try .read(r, notes: &notes, Self.scalar) }
        if let o = try node.member("o") { opacity = try .read(o, notes: &notes, Self.scalar) }
        for (key, keyPath) in [("sk", \LottieTransform.skew), ("sa", \LottieTransform.skewAxis)] {
            guard let member = try node.member(key) else { continue }
            self[keyPath: keyPath] = try KeyframedValue.read(member, notes: &notes, Self.scalar)
        }
        for key in ["rx", "ry", "or"] where node.has(key) { notes.unsupported("3D layers", at: "\(node.path).\(key)") }
    }

    static func scalar(_ node: JSONNode) throws(LottieError) -> Double {
        guard let first = try node.numbers().first else { throw LottieError(node.path, "expected a number") }
        return first
    }

    static func point(_ node: JSONNode) throws(LottieError) -> CGPoint {
        let n = try node.numbers()
        guard n.count >= 2 else { throw LottieError(node.path, "expected [x, y]") }
        return CGPoint(x: n[0], y: n[1])
    }

    static func color(_ node: JSONNode) throws(LottieError) -> [Double] {
        let n = try node.numbers()
        guard n.count >= 3 else { throw LottieError(node.path, "expected a colour [r, g, b] or [r, g, b, a]") }
        return Array(n.prefix(4))
    }
}

extension KeyframedValue {
    /// `{"a": 0, "k": value}` or `{"a": 1, "k": [keyframes]}` (a missing `a` is inferred from
    /// `k`); `value` reads one value (a keyframe's `s`).
    static func read(_ node: JSONNode, notes: inout Notes,
                     _ value: (JSONNode) throws(LottieError) -> Value) throws(LottieError) -> KeyframedValue {
        if node.has("x") { notes.unsupported("expressions", at: "\(node.path).x") }
        let k = try node.required("k")
        let items = k.isArray ? try k.array() : []
        let keyframed = try node.member("a").map { a throws(LottieError) in try a.number() != 0 }
            ?? (items.first?.isObject == true && items.first?.has("t") == true)
        guard keyframed else { return .fixed(try value(k)) }
        guard !items.isEmpty else { throw LottieError(k.path, "expected at least one keyframe") }

        var frames: [Keyframe<Value>] = []
        var legacyEnd: Value?
        for item in items {
            let tNode = try item.required("t")
            let t = try tNode.number()
            if let last = frames.last, t < last.time {
                throw LottieError(tNode.path, "keyframes out of order: frame \(t) is listed after frame \(last.time)")
            }
            let v: Value
            if let s = try item.member("s") {
                v = try value(s)
            } else if let legacyEnd {
                v = legacyEnd
            } else {
                throw LottieError("\(item.path).s", "missing")
            }
            legacyEnd = try item.member("e").map { e throws(LottieError) in try value(e) }
            frames.append(Keyframe(time: t, value: v, hold: try item.flag("h"),
                                   easeOut: try ease(item, "o"), easeIn: try ease(item, "i"),
                                   spatialOut: try tangent(item, "to"), spatialIn: try tangent(item, "ti")))
        }
        return frames.count == 1 ? .fixed(frames[0].value) : .keyframed(frames)
    }

    /// An easing handle `{"x": …, "y": …}`, each a number or per-dimension numbers (the first is taken).
    private static func ease(_ item: JSONNode, _ key: String) throws(LottieError) -> CGPoint? {
        guard let handle = try item.member(key) else { return nil }
        let x = try handle.required("x").numbers(), y = try handle.required("y").numbers()
        guard let x0 = x.first, let y0 = y.first else { throw LottieError(handle.path, "expected x and y numbers") }
        return CGPoint(x: x0, y: y0)
    }

    private static func tangent(_ item: JSONNode, _ key: String) throws(LottieError) -> CGPoint? {
        guard let node = try item.member(key) else { return nil }
        let n = try node.numbers()
        guard n.count >= 2 else { throw LottieError(node.path, "expected [x, y]") }
        return CGPoint(x: n[0], y: n[1])
    }
}

extension BezierShape {
    /// `{"v": [[x, y]…], "i": […], "o": […], "c": bool}`, or such an object alone in an array
    /// (as keyframes store it).
    static func read(_ node: JSONNode) throws(LottieError) -> BezierShape {
        if node.isArray {
            guard let only = try node.array().first else { throw LottieError(node.path, "expected a path object") }
            return try read(only)
        }
        func points(_ key: String) throws(LottieError) -> [CGPoint] {
            try node.required(key).pairs().map { CGPoint(x: $0.0, y: $0.1) }
        }
        let v = try points("v"), i = try points("i"), o = try points("o")
        guard i.count == v.count, o.count == v.count else {
            throw LottieError(node.path, "\(v.count) vertices but \(i.count) in-tangents and \(o.count) out-tangents")
        }
        return BezierShape(vertices: v, inTangents: i, outTangents: o, closed: try node.flag("c"))
    }
}

extension GradientStops {
    /// `count` colour stops of 4 numbers (offset, r, g, b), then opacity stops of 2 (offset, alpha).
    static func read(_ node: JSONNode, count: Int) throws(LottieError) -> GradientStops {
        let n = try node.numbers()
        guard count >= 1, n.count >= count * 4 else {
            throw LottieError(node.path, "expected \(count) colour stops of 4 numbers, found \(n.count) numbers")
        }
        var stops = GradientStops(colors: [], alphas: [])
        for i in 0..<count { stops.colors.append((n[i * 4], SIMD3(n[i * 4 + 1], n[i * 4 + 2], n[i * 4 + 3]))) }
        var j = count * 4
        while j + 1 < n.count {
            stops.alphas.append((n[j], n[j + 1]))
            j += 2
        }
        return stops
    }
}

extension ShapeItem {
    /// A `shapes` or `it` array; hidden items (`hd`) are left out.
    static func list(_ node: JSONNode, notes: inout Notes) throws(LottieError) -> [ShapeItem] {
        var items: [ShapeItem] = []
        for item in try node.array() where try !item.flag("hd") {
            items.append(try ShapeItem(item, notes: &notes))
        }
        return items
    }

    init(_ node: JSONNode, notes: inout Notes) throws(LottieError) {
        let ty = try node.required("ty").string()
        func point(_ key: String) throws(LottieError) -> KeyframedValue<CGPoint> {
            try .read(try node.required(key), notes: &notes, LottieTransform.point)
        }
        func scalar(_ key: String, default value: Double? = nil) throws(LottieError) -> KeyframedValue<Double> {
            if let value, !node.has(key) { return .fixed(value) }
            return try .read(try node.required(key), notes: &notes, LottieTransform.scalar)
        }
        // `d` 3: the path runs the other way — on rectangles, ellipses and stars only; a stroke's
        // `d` is its dash array.
        let reversed = ["rc", "el", "sr"].contains(ty) ? try node.int("d", default: 1) == 3 : false
        switch ty {
        case "gr":
            let items = try ShapeItem.list(try node.required("it"), notes: &notes)
            var transform = LottieTransform()
            for case let .transform(t) in items { transform = t }
            self = .group(items, transform, hidden: false)
        case "tr":
            self = .transform(try LottieTransform(node, notes: &notes))
        case "rc":
            let radius = try scalar("r", default: 0)
            let sharp = !radius.isAnimated && radius.initial == 0
            self = .path(KeyframedValue.combine(try point("p"), try point("s"), radius) {
                BezierShape.rectangle(center: $0, size: $1, radius: $2, reversed: reversed, sharp: sharp)
            })
        case "el":
            self = .path(KeyframedValue.combine(try point("p"), try point("s"), KeyframedValue<Double>.fixed(0)) { p, s, _ in
                BezierShape.ellipse(center: p, size: s, reversed: reversed)
            })
        case "sr":
            let star = try node.int("sy", default: 1) == 1
            var parts = [try point("p").map { [Double($0.x), Double($0.y)] }]
            for (key, fallback) in [("pt", nil), ("r", 0.0), ("or", nil), ("os", 0.0), ("ir", star ? nil : 0.0), ("is", 0.0)] as [(String, Double?)] {
                parts.append(try scalar(key, default: fallback).map { [$0] })
            }
            for key in ["pt", "or", "ir"] where star || key != "ir" {
                if let bad = parts[["pt": 1, "or": 3, "ir": 5][key]!].values.first(where: { !($0[0] >= 0) }) {
                    throw LottieError("\(node.path).\(key)", "expected 0 or more, not \(bad[0])")
                }
            }
            self = .path(KeyframedValue.sampled(parts) { v in
                BezierShape.polystar(center: CGPoint(x: v[0][0], y: v[0][1]), points: v[1][0], rotation: v[2][0],
                                     outerRadius: v[3][0], outerRoundness: v[4][0], innerRadius: star ? v[5][0] : nil,
                                     innerRoundness: v[6][0], reversed: reversed)
            })
        case "sh":
            self = .path(try .read(try node.required("ks"), notes: &notes, BezierShape.read))
        case "fl":
            self = .fill(color: try .read(try node.required("c"), notes: &notes, LottieTransform.color),
                         opacity: try scalar("o", default: 100), evenOdd: try node.int("r", default: 1) == 2)
        case "st":
            self = .stroke(color: try .read(try node.required("c"), notes: &notes, LottieTransform.color),
                           opacity: try scalar("o", default: 100), try StrokeStyle(node, notes: &notes))
        case "gf", "gs":
            let g = try node.required("g")
            let countNode = try g.required("p")
            let count = try countNode.int()
            guard count >= 1, count <= 1000 else { throw LottieError(countNode.path, "expected 1 to 1000 colour stops") }
            let style = GradientStyle(radial: try node.int("t", default: 1) == 2, start: try point("s"), end: try point("e"),
                                      stops: try .read(try g.required("k"), notes: &notes) { n throws(LottieError) in
                                          try GradientStops.read(n, count: count)
                                      })
            if let h = try node.member("h"), try KeyframedValue.read(h, notes: &notes, LottieTransform.scalar).initial != 0 {
                notes.unsupported("radial gradient highlight", at: h.path)
            }
            self = ty == "gf"
                ? .gradientFill(style, opacity: try scalar("o", default: 100), evenOdd: try node.int("r", default: 1) == 2)
                : .gradientStroke(style, opacity: try scalar("o", default: 100), try StrokeStyle(node, notes: &notes))
        case "rp":
            let tr = try node.required("tr")
            var values: [KeyframedValue<Double>] = []
            for (owner, key, fallback) in [(node, "c", nil), (node, "o", 0.0), (tr, "so", 100.0), (tr, "eo", 100.0)] as [(JSONNode, String, Double?)] {
                guard let member = try owner.member(key) else {
                    guard let fallback else { throw LottieError("\(owner.path).\(key)", "missing") }
                    values.append(.fixed(fallback))
                    continue
                }
                values.append(try KeyframedValue.read(member, notes: &notes, LottieTransform.scalar))
            }
            let transform = try LottieTransform(tr, notes: &notes)
            if let bad = values[0].values.first(where: { !($0 >= 0 && $0 <= 100_000) }) {
                throw LottieError("\(node.path).c", "expected 0 to 100000 copies, not \(bad)")
            }
            self = .repeater(copies: values[0], offset: values[1], transform: transform, startOpacity: values[2], endOpacity: values[3],
                             below: try node.int("m", default: 1) == 2)
        case "rd":
            self = .roundCorners(try scalar("r"))
        case "mm":
            self = .mergePaths(mode: try node.int("mm", default: 1))
        case "tm":
            self = .trim(start: try scalar("s", default: 0), end: try scalar("e", default: 100), offset: try scalar("o", default: 0),
                         individually: try node.int("m", default: 1) == 2)
        default:
            let names = ["pb": "pucker and bloat", "tw": "twist", "op": "offset paths", "zz": "zig zag"]
            notes.unsupported(names[ty] ?? "shapes of type '\(ty)'", at: "\(node.path).ty")
            self = .unsupported(ty)
        }
    }
}

extension StrokeStyle {
    init(_ node: JSONNode, notes: inout Notes) throws(LottieError) {
        width = try .read(try node.required("w"), notes: &notes, LottieTransform.scalar)
        cap = try node.int("lc", default: 2)
        join = try node.int("lj", default: 2)
        miterLimit = try node.number("ml", default: 4)
        dashes = []
        dashOffset = .fixed(0)
        for dash in try node.member("d")?.array() ?? [] {
            let value = try KeyframedValue.read(try dash.required("v"), notes: &notes, LottieTransform.scalar)
            if try dash.string("n") == "o" {
                dashOffset = value
                continue
            }
            guard value.values.allSatisfy({ $0 >= 0 }) else { throw LottieError("\(dash.path).v", "expected a length of 0 or more") }
            dashes.append(value)
        }
    }
}

extension LottieImage {
    /// An image asset: `w`×`h` points, `p` a file name in the folder `u` (relative to the
    /// animation's file), or with `e` 1 (or a `data:` URL) the image itself, base64 encoded.
    init(_ asset: JSONNode) throws(LottieError) {
        size = try LottieComposition.size(asset, "w", "h", max: 100_000)
        let p = try asset.required("p")
        let text = try p.string()
        let embedded = try asset.flag("e")
        if text.hasPrefix("data:") || embedded {
            guard let comma = text.firstIndex(of: ","), text[..<comma].hasSuffix(";base64"),
                  let data = Data(base64Encoded: String(text[text.index(after: comma)...]), options: .ignoreUnknownCharacters) else {
                throw LottieError(p.path, "expected an embedded image as data:image/…;base64,… (this is not base64 data)")
            }
            source = .embedded(data)
        } else {
            source = .file((try asset.string("u") ?? "") + text)
        }
        path = asset.path
    }
}

extension DropShadow {
    /// A drop shadow effect (`ty` 25): its values in order — colour, opacity (0–255), direction
    /// (degrees), distance, softness — each static or keyframed.
    init(_ effect: JSONNode, notes: inout Notes) throws(LottieError) {
        let values = try effect.required("ef").array()
        guard values.count >= 5 else { throw LottieError("\(effect.path).ef", "expected 5 drop shadow values, found \(values.count)") }
        func value<T: Sendable>(_ n: Int, _ read: (JSONNode) throws(LottieError) -> T) throws(LottieError) -> KeyframedValue<T> {
            try KeyframedValue.read(try values[n].required("v"), notes: &notes, read)
        }
        color = try value(0, LottieTransform.color)
        opacity = try value(1, LottieTransform.scalar)
        direction = try value(2, LottieTransform.scalar)
        distance = try value(3, LottieTransform.scalar)
        softness = try value(4, LottieTransform.scalar)
    }
}
