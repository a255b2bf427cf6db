// Swift Testing's cross-import overlay for CoreGraphics. The toolchain's
// `Testing.swiftcrossimport` names `_Testing_CoreGraphics` as the module to load when a file
// imports both Testing and CoreGraphics; on Apple it adds CGImage attachments, here there is
// nothing to add, so it only re-exports Testing.
@_exported import Testing
