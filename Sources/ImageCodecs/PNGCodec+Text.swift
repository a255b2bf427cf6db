// A PNG's size and text, read from its chunks without decoding the image (`citrine info
// FILE.png`: the fonts an export recorded in its iTXt "Comment").

extension PNGCodec {
    /// What `info(of:)` reads: the IHDR size and every tEXt and uncompressed iTXt chunk, in file
    /// order (keyword, text; tEXt's Latin-1 and iTXt's UTF-8 both as `String`s).
    public struct Info: Sendable, Equatable {
        public var width: Int, height: Int
        public var texts: [(keyword: String, text: String)]

        public static func == (a: Info, b: Info) -> Bool {
            a.width == b.width && a.height == b.height && a.texts.elementsEqual(b.texts) { $0 == $1 }
        }
    }

    /// The size and texts of the PNG (or APNG) in `bytes`. Errors: not a PNG, cut short, a
    /// chunk longer than PNG allows, no IHDR first. Compressed iTXt and zTXt chunks are skipped.
    public static func info(of bytes: [UInt8]) throws(ImageCodecError) -> Info {
        guard bytes.count >= signature.count, bytes.starts(with: signature) else {
            throw ImageCodecError(file: nil, reason: bytes.count < signature.count && signature.starts(with: bytes)
                                  ? .truncated : .notPNG)
        }
        func word(_ at: Int) -> Int {
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        var info = Info(width: 0, height: 0, texts: [])
        var offset = signature.count
        while true {
            guard bytes.count - offset >= 12 else { throw ImageCodecError(file: nil, reason: .truncated) }
            let length = word(offset)
            guard length <= PNGStreamWriter.maxCount else {
                throw ImageCodecError(file: nil, reason: .malformed("chunk length \(length) exceeds 2^31 - 1"))
            }
            guard bytes.count - offset - 12 >= length else { throw ImageCodecError(file: nil, reason: .truncated) }
            let type = UInt32(word(offset + 4)), data = bytes[(offset + 8)..<(offset + 8 + length)]
            if offset == signature.count {
                guard type == PNGChunkType.IHDR.code, length >= 8 else {
                    throw ImageCodecError(file: nil, reason: .malformed("the first chunk is not an IHDR"))
                }
                (info.width, info.height) = (word(offset + 8), word(offset + 12))
            }
            if type == PNGChunkType.IEND.code { return info }
            if type == PNGChunkType.tEXt.code, let end = data.firstIndex(of: 0) {
                info.texts.append((String(decoding: data[..<end], as: UTF8.self),
                                   String(data[(end + 1)...].map { Character(Unicode.Scalar($0)) })))
            } else if type == PNGChunkType.iTXt.code, let end = data.firstIndex(of: 0), end + 2 < data.endIndex,
                      data[end + 1] == 0,
                      let language = data[(end + 3)...].firstIndex(of: 0),
                      let translated = data[(language + 1)...].firstIndex(of: 0) {
                info.texts.append((String(decoding: data[..<end], as: UTF8.self),
                                   String(decoding: data[(translated + 1)...], as: UTF8.self)))
            }
            offset += 12 + length
        }
    }
}
