/// PNG chunk writing from the PNG specification (W3C PNG 2nd ed.), for tests that build PNG
/// files byte by byte; it shares no code with ImageCodecs or libpng.

/// `v` as 4 bytes, most significant first.
public func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

/// A PNG chunk: length, type, data, CRC-32 of type + data.
public func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
}

/// CRC-32 (ISO 3309, polynomial 0xEDB88320 reflected), bit by bit.
public func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}
