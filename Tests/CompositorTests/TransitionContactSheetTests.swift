import Compositor
import Foundation
import QuartzCore
import Raster
import Testing

/// A contact sheet per type — frames at progress 0, 25, 50, 75 and 100 % side by side — written
/// to `$TMPDIR/citrine-transition-sheets/<type>-<subtype>.png` for review by eye (not goldens:
/// nothing is compared). The old picture is red with a blue square and a white disc, the new one
/// green with a yellow square and a white bar, over a dark grey frame.
@Suite(.serialized) struct TransitionContactSheetTests {
    static let cases: [(String, CATransitionSubtype?)] = [
        ("fade", nil), ("moveIn", .fromRight), ("push", .fromRight), ("push", .fromTop), ("reveal", .fromLeft),
        ("cube", .fromRight), ("cube", .fromTop), ("oglFlip", .fromLeft), ("oglFlip", .fromTop), ("pageCurl", nil),
        ("pageCurl", .fromRight), ("pageUnCurl", nil), ("rippleEffect", nil), ("suckEffect", nil), ("cameraIris", nil),
        ("cameraIrisHollowOpen", nil), ("cameraIrisHollowClose", nil),
    ]

    static var folder: URL { FileManager.default.temporaryDirectory.appendingPathComponent("citrine-transition-sheets") }

    @Test func writeContactSheets() throws {
        try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
        for (name, subtype) in Self.cases {
            let frames = try Self.frames(CATransitionType(rawValue: name), subtype)
            let gap = 4
            let sheet = try Pixmap(width: frames.count * (frames[0].width + gap) - gap, height: frames[0].height)
            sheet.fill(with: PremultipliedColor(r: 255, g: 255, b: 255, a: 255))
            for (i, f) in frames.enumerated() { sheet.draw(f, atX: i * (f.width + gap), y: 0) }
            let url = Self.folder.appendingPathComponent("\(name)-\(subtype?.rawValue ?? "nil").png")
            try TinyPNG.encode(sheet).write(to: url)
            #expect(FileManager.default.fileExists(atPath: url.path))
        }
    }

    static func frames(_ type: CATransitionType, _ subtype: CATransitionSubtype?) throws -> [Pixmap] {
        CAMediaClock.setManualTime(0)
        let size = CGSize(width: 180, height: 130)
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        let layer = CALayer()
        layer.frame = CGRect(x: 30, y: 25, width: 120, height: 80)
        layer.backgroundColor = CGColor(red: 0.85, green: 0.15, blue: 0.2, alpha: 1)
        layer.cornerRadius = 6
        let square = CALayer()
        square.frame = CGRect(x: 10, y: 10, width: 36, height: 28)
        square.backgroundColor = CGColor(red: 0.1, green: 0.2, blue: 0.9, alpha: 1)
        let disc = CAShapeLayer()
        disc.path = CGPath(ellipseIn: CGRect(x: 70, y: 36, width: 36, height: 36), transform: nil)
        disc.fillColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        layer.addSublayer(square)
        layer.addSublayer(disc)
        root.addSublayer(layer)
        let grey = CGColor(red: 0.2, green: 0.2, blue: 0.22, alpha: 1)
        _ = try CARenderer.image(of: root, size: size, at: 0, background: grey)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        let t = CATransition()
        t.type = type
        t.subtype = subtype
        t.duration = 1
        t.fillMode = .forwards
        t.isRemovedOnCompletion = false
        layer.add(t, forKey: nil)
        layer.backgroundColor = CGColor(red: 0.15, green: 0.6, blue: 0.25, alpha: 1)
        square.backgroundColor = CGColor(red: 1, green: 0.85, blue: 0.1, alpha: 1)
        square.frame = CGRect(x: 74, y: 42, width: 36, height: 28)
        disc.removeFromSuperlayer()
        let bar = CALayer()
        bar.frame = CGRect(x: 12, y: 12, width: 50, height: 10)
        bar.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        layer.addSublayer(bar)
        CATransaction.commit()
        return try [0, 0.25, 0.5, 0.75, 1].map { time in
            CAMediaClock.setManualTime(time)
            return try CARenderer.image(of: root, size: size, at: time, background: grey).pixmap
        }
    }
}

/// A minimal PNG encoder for the sheets (the test target does not link ImageCodecs): 8-bit
/// RGBA, zlib "stored" blocks, CRC-32 and Adler-32 by their definitions.
enum TinyPNG {
    static func encode(_ p: Pixmap) -> Data {
        var raw = [UInt8]()
        raw.reserveCapacity((p.width * 4 + 1) * p.height)
        for y in 0..<p.height {
            raw.append(0)
            for x in 0..<p.width {
                let c = p.pixel(x: x, y: y)
                func un(_ v: UInt8) -> UInt8 { c.a == 0 ? 0 : UInt8(min(255, (Int(v) * 255 + Int(c.a) / 2) / Int(c.a))) }
                raw += [un(c.r), un(c.g), un(c.b), c.a]
            }
        }
        var z: [UInt8] = [0x78, 0x01]
        var i = 0
        repeat {
            let n = min(65535, raw.count - i)
            z.append(i + n == raw.count ? 1 : 0)
            z += [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            z += raw[i..<i + n]
            i += n
        } while i < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for v in raw { a = (a + UInt32(v)) % 65521; b = (b + a) % 65521 }
        z += be(b << 16 | a)
        var out = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        out += chunk("IHDR", be(UInt32(p.width)) + be(UInt32(p.height)) + [8, 6, 0, 0, 0])
        out += chunk("IDAT", z)
        out += chunk("IEND", [])
        return out
    }

    static func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

    static func chunk(_ type: String, _ data: [UInt8]) -> Data {
        let body = Array(type.utf8) + data
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return Data(be(UInt32(data.count)) + body + be(~crc))
    }
}
